import Foundation
import Store
import TestSupport
import Terminal
import TouristCore
import Geo
import Model
import XCTest

/// Albums another process left for the app: `vtourist drop` without `--wait`, a crashed window.
extension RuntimeTests {
    func testAPinDroppedByAnotherProcessIsFetchedWithoutAKey() throws {
        let server = try PhotoServer()
        try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint, key: "good-key")
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        // `vtourist drop -33.9 151.2`: the pin is saved downloading, and the command exits.
        let shell = try AppDatabase.open(path: path)
        defer { try? shell.close() }
        let pin = try shell.insertPin(at: GeoPoint(latitude: -33.9, longitude: 151.2), name: "Sydney")
        clock.advance(by: 1)
        terminal.nudge()
        XCTAssertNotNil(terminal.frame(showing: "1 pin "))
        let ready = waitFor { () -> Pin? in
            guard let stored = try? shell.pin(id: pin.id), stored.albumStatus == .ready else { return nil }
            return stored
        }
        XCTAssertEqual(ready?.downloadedCount, 21, "every photo fetched by the app, no key pressed")
        // Let go just after the settled status is saved (the next statement of the same effect): waited for.
        let released = waitFor { () -> Bool? in
            do { return try shell.albumLease(pinID: pin.id) == nil ? true : nil } catch { return nil }  // unreadable: look again
        }
        XCTAssertEqual(released, true, "the lease is let go once the album is settled")
    }

    func testAnAlbumWhoseHolderStoppedRenewingIsTakenOverAfterTheExpiry() throws {
        let server = try PhotoServer()
        // The lease is held by a window that was killed: its heartbeat stopped a moment ago.
        let shell = try AppDatabase.open(path: path)
        defer { try? shell.close() }
        let pin = try shell.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
        XCTAssertTrue(try shell.takeAlbumLease(pinID: pin.id, holder: "killed", now: AlbumLease.wallClock()))
        try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint, key: "good-key")
        XCTAssertNotNil(terminal.frame(showing: "1 pin "))
        XCTAssertEqual(try shell.albumLease(pinID: pin.id)?.holder, "killed", "a live-looking holder keeps it")
        XCTAssertEqual(try shell.pin(id: pin.id)?.albumStatus, .downloading)
        // Its heartbeat is now older than the expiry: the app takes the album over on its next look.
        _ = try shell.renewAlbumLeases(pinIDs: [pin.id], holder: "killed", now: AlbumLease.wallClock() - AlbumLease.expiry - 1)
        clock.advance(by: AlbumLease.heartbeat)
        terminal.nudge()
        let ready = waitFor { (try? shell.pin(id: pin.id))?.albumStatus == .ready ? true : nil }
        XCTAssertEqual(ready, true)
        XCTAssertEqual(try shell.pin(id: pin.id)?.downloadedCount, 21)
    }
}
