import Locking
import Foundation
import XCTest
import Model
import Geo
@testable import Store

/// One process at a time fetches an album: the lease, its heartbeat and its takeover, over two
/// connections to one file as two processes have. Times are given, never waited for.
final class AlbumLeaseTests: XCTestCase {
    func testTwoConnectionsCompetingForOneLeaseOneWins() throws {
        let (window, shell) = try openTwoConnections(self)
        let pin = try shell.insertPin(at: GeoPoint(latitude: -33.9, longitude: 151.2), name: nil)
        let t = 1_000_000.0
        // Both ask at once, many times over: exactly one is granted each round.
        let granted = Locked<[Int: Bool]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let db = i == 0 ? window : shell
            let won = (try? db.takeAlbumLease(pinID: pin.id, holder: "holder-\(i)", now: t)) ?? false
            granted.withLock { $0[i] = won }
        }
        let results = granted.withLock { [$0[0] ?? false, $0[1] ?? false] }
        XCTAssertEqual(results.filter { $0 }.count, 1, "\(results)")
        let winner = results[0] ? "holder-0" : "holder-1"
        let loser = results[0] ? "holder-1" : "holder-0"
        XCTAssertEqual(try shell.albumLease(pinID: pin.id)?.holder, winner)
        XCTAssertEqual(try window.unheldInterruptedAlbums(now: t + 1), [], "held: nobody else takes it up")
        // The holder keeps it; the other is refused while heartbeats come.
        XCTAssertTrue(try window.takeAlbumLease(pinID: pin.id, holder: winner, now: t + 1))
        XCTAssertEqual(try shell.renewAlbumLeases(pinIDs: [pin.id], holder: winner, now: t + AlbumLease.expiry), [pin.id])
        XCTAssertFalse(try shell.takeAlbumLease(pinID: pin.id, holder: loser, now: t + AlbumLease.expiry * 2 - 1))
        XCTAssertEqual(try shell.renewAlbumLeases(pinIDs: [pin.id], holder: loser, now: t), [], "only the holder renews")
    }

    func testAHolderThatStopsRenewingIsTakenOverAfterTheExpiry() throws {
        let (crashed, app) = try openTwoConnections(self)
        let pin = try app.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
        let t = 2_000_000.0
        XCTAssertTrue(try crashed.takeAlbumLease(pinID: pin.id, holder: "crashed", now: t))
        XCTAssertEqual(try app.unheldInterruptedAlbums(now: t + AlbumLease.expiry), [])
        XCTAssertFalse(try app.takeAlbumLease(pinID: pin.id, holder: "app", now: t + AlbumLease.expiry))
        // No heartbeat for longer than the expiry: the album is free to take up.
        let later = t + AlbumLease.expiry + 1
        XCTAssertEqual(try app.unheldInterruptedAlbums(now: later), [pin.id])
        XCTAssertTrue(try app.takeAlbumLease(pinID: pin.id, holder: "app", now: later))
        XCTAssertEqual(try app.albumLease(pinID: pin.id)?.holder, "app")
        // The old holder, waking up, learns it lost the album.
        XCTAssertEqual(try crashed.renewAlbumLeases(pinIDs: [pin.id], holder: "crashed", now: later), [])
        // A heartbeat from a clock set far ahead (then set back) does not hold for ever.
        try app.releaseAlbumLease(pinID: pin.id, holder: "app")
        XCTAssertTrue(try crashed.takeAlbumLease(pinID: pin.id, holder: "crashed", now: later + 1000))
        XCTAssertEqual(try app.unheldInterruptedAlbums(now: later), [pin.id], "a heartbeat in the future counts as stale")
        XCTAssertTrue(try app.takeAlbumLease(pinID: pin.id, holder: "app", now: later))
    }

    func testANewCollectionTakesTheLeaseFromALiveHolder() throws {
        let (window, other) = try openTwoConnections(self)
        let pin = try other.insertPin(at: GeoPoint(latitude: 59.33, longitude: 18.07), name: "Stockholm")
        let t = 4_000_000.0
        XCTAssertTrue(try other.takeAlbumLease(pinID: pin.id, holder: "other", now: t))
        XCTAssertFalse(try window.takeAlbumLease(pinID: pin.id, holder: "window", now: t + 1), "live: not taken")
        XCTAssertTrue(try window.seizeAlbumLease(pinID: pin.id, holder: "window", now: t + 1))
        XCTAssertEqual(try other.albumLease(pinID: pin.id)?.holder, "window")
        XCTAssertEqual(try other.albumLease(pinID: pin.id)?.heartbeat, t + 1)
        XCTAssertEqual(try window.unheldInterruptedAlbums(now: t + 2), [], "held: nobody else takes it up")
        // The old holder learns at its next renewal that it lost the album, and cannot let the new one's go.
        XCTAssertEqual(try other.renewAlbumLeases(pinIDs: [pin.id], holder: "other", now: t + 3), [])
        try other.releaseAlbumLease(pinID: pin.id, holder: "other")
        XCTAssertEqual(try other.albumLease(pinID: pin.id)?.holder, "window")
        _ = try other.deletePin(id: pin.id)
        XCTAssertFalse(try window.seizeAlbumLease(pinID: pin.id, holder: "window", now: t + 4), "no lease for a pin that is gone")
    }

    func testSettledAlbumsAndDeletedPinsNeedNoLease() throws {
        let (window, shell) = try openTwoConnections(self)
        let pin = try shell.insertPin(at: GeoPoint(latitude: 10, longitude: 20), name: nil)
        let t = 3_000_000.0
        XCTAssertEqual(try window.unheldInterruptedAlbums(now: t), [pin.id], "dropped, left downloading, no holder")
        _ = try shell.saveAlbumStatus(pinID: pin.id, generation: 1, status: .empty, page: nil, pageCount: nil, source: "commons")
        XCTAssertEqual(try window.unheldInterruptedAlbums(now: t), [], "settled")
        XCTAssertTrue(try window.takeAlbumLease(pinID: pin.id, holder: "w", now: t))
        _ = try shell.deletePin(id: pin.id)
        XCTAssertNil(try window.albumLease(pinID: pin.id), "the lease goes with its pin")
        XCTAssertFalse(try window.takeAlbumLease(pinID: pin.id, holder: "w", now: t), "no lease for a pin that is gone")
        // Giving every lease up at shutdown.
        let other = try shell.insertPin(at: GeoPoint(latitude: 11, longitude: 21), name: nil)
        XCTAssertTrue(try window.takeAlbumLease(pinID: other.id, holder: "w", now: t))
        try window.releaseAlbumLease(pinID: nil, holder: "w")
        XCTAssertEqual(try shell.unheldInterruptedAlbums(now: t), [other.id])
    }
}
