import AlbumService
import Dispatch
import Foundation
import Locking
@testable import Store
import TestSupport
import Model
import XCTest

/// The album service's heartbeat, beaten by hand and read against a lease clock the test sets: no
/// test waits the seconds between beats, nor the expiry.
final class LeaseHeartbeatTests: AlbumServiceTestCase {
    /// A heartbeat the test beats: each beat runs on the service's queue.
    final class HandBeat: Sendable {
        private let running = Locked<(queue: DispatchQueue, beat: @Sendable () -> Void)?>(nil)

        var heartbeat: LeaseHeartbeat {
            LeaseHeartbeat { [running] queue, beat in
                running.withLock { $0 = (queue, beat) }
                return { running.withLock { $0 = nil } }
            }
        }

        var isBeating: Bool { running.withLock { $0 != nil } }

        /// One beat; returns once the service has taken it.
        func beat(file: StaticString = #filePath, line: UInt = #line) {
            guard let running = running.withLock({ $0 }) else { return XCTFail("nothing beats", file: file, line: line) }
            running.queue.sync(execute: running.beat)
        }
    }

    let start = 1_000_000.0
    // Made in setUp and let go in tearDown: XCTest never frees a test case, so what it still holds
    // at exit would stay allocated (and be reported as leaked).
    var leaseNow: Locked<Double>!
    var hand: HandBeat!

    override func setUpWithError() throws {
        try super.setUpWithError()
        (leaseNow, hand) = (Locked(start), HandBeat())
    }

    override func tearDownWithError() throws {
        (leaseNow, hand) = (nil, nil)
        try super.tearDownWithError()
    }

    /// A service fetching a dropped pin's album, its search held by the stand-in: the album stays
    /// downloading, its lease held.
    func fetching() throws -> (AlbumService, Pin.ID) {
        let s = service(leaseClock: { [leaseNow = leaseNow!] in leaseNow.withLock { $0 } }, heartbeat: hand.heartbeat)
        server.set(.holdSearch, true)
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(s.album(pin.id)?.isSearchPending, true)
        XCTAssertEqual(try store.albumLease(pinID: pin.id)?.heartbeat, start)
        return (s, pin.id)
    }

    func testEachBeatRenewsTheLeaseOfAnAlbumUnderWay() throws {
        let (s, pin) = try fetching()
        defer { s.shutdown() }
        XCTAssertTrue(hand.isBeating)
        leaseNow.withLock { $0 += AlbumLease.heartbeat }
        hand.beat()
        XCTAssertEqual(try store.albumLease(pinID: pin)?.heartbeat, start + AlbumLease.heartbeat)
        XCTAssertEqual(s.album(pin)?.isSearchPending, true, "the album goes on")
    }

    func testAnAlbumAnotherWindowTookOverWhileThisOneStalledIsLetGoAtTheNextBeat() throws {
        let (s, pin) = try fetching()
        defer { s.shutdown() }
        // This window stalled: another one finds its heartbeat past the expiry and takes the album.
        let other = try AppDatabase.open(path: store.path)
        defer { try? other.close() }
        XCTAssertTrue(try other.takeAlbumLease(pinID: pin, holder: "other window", now: start + AlbumLease.expiry + 1))
        hand.beat()
        XCTAssertNil(s.album(pin), "its work stopped, its copy of the album forgotten")
        XCTAssertEqual(try store.albumLease(pinID: pin)?.holder, "other window")
        XCTAssertEqual(events.storeFailures, [])
    }

    func testShuttingDownStopsTheBeats() throws {
        let (s, pin) = try fetching()
        s.shutdown()
        XCTAssertFalse(hand.isBeating)
        XCTAssertNil(try store.albumLease(pinID: pin), "the album is let go for the next start")
    }
}
