import Foundation
@testable import AlbumService
@testable import Store
import TestSupport
import Model
import Geo
import XCTest

/// A lease whose holder was a process of this machine that ended is taken up at once, not after
/// the expiry: a window killed and started again resumes its albums straight away.
final class LeaseHolderTests: XCTestCase {
    /// The pid of a process that has ended (and been reaped).
    func endedPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    func testOnlyAnEndedProcessOfThisMachineCountsAsGone() throws {
        let ended = try endedPID()
        XCTAssertTrue(LeaseHolder.hasEnded("\(LeaseHolder.host):\(ended):x"))
        XCTAssertFalse(LeaseHolder.hasEnded("\(LeaseHolder.host):\(getpid()):x"), "this process")
        XCTAssertFalse(LeaseHolder.hasEnded("\(LeaseHolder.host):1:x"), "a live process")
        XCTAssertFalse(LeaseHolder.hasEnded("elsewhere.example:\(ended):x"), "another machine: left to the expiry")
        XCTAssertFalse(LeaseHolder.hasEnded("garbage"))
        XCTAssertTrue(LeaseHolder.make().hasPrefix("\(LeaseHolder.host):\(getpid()):"))
    }

    func testAnEndedHoldersAlbumIsTakenUpAtOnce() throws {
        let store = try AppDatabase.openTemporary()
        addCleanup { try? store.close() }
        let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
        let t = 1_000_000.0
        let killed = "\(LeaseHolder.host):\(try endedPID()):x"
        XCTAssertTrue(try store.takeAlbumLease(pinID: pin.id, holder: killed, now: t))
        // A heartbeat a moment ago, but its process is gone.
        XCTAssertEqual(try store.unheldInterruptedAlbums(now: t + 1), [], "by the clock alone it still holds")
        XCTAssertEqual(try store.unheldInterruptedAlbums(now: t + 1, isGone: LeaseHolder.hasEnded), [pin.id])
        XCTAssertTrue(try store.takeAlbumLease(pinID: pin.id, holder: LeaseHolder.make(), now: t + 1, isGone: LeaseHolder.hasEnded))
    }
}
