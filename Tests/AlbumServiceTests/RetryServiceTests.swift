import AlbumMachine
import AlbumService
import Foundation
import Locking
import HTTP
import Model
@testable import Store
import TestSupport
import XCTest

/// Albums heal by themselves: passing failures of the real stand-in server, over real libcurl and
/// SQLite, retried on a retry clock the test moves by hand (no test waits a backoff's seconds).
final class RetryServiceTests: AlbumServiceTestCase {
    // Made in setUp and let go in tearDown: XCTest never frees a test case, so what it still holds
    // at exit would stay allocated (and be reported as leaked).
    var hand: HandClock!

    override func setUpWithError() throws {
        try super.setUpWithError()
        hand = HandClock()
    }

    override func tearDownWithError() throws {
        hand = nil
        try super.tearDownWithError()
    }

    /// Rings the retry clock's timers one at a time, each once the service has set it (the answer of
    /// the try before is in), until the album leaves `downloading`; the store's album then.
    @discardableResult
    func driveRetries(_ s: AlbumService, _ pin: Pin.ID, clock: HandClock? = nil, file: StaticString = #filePath,
                      line: UInt = #line) -> StoredAlbum? {
        let hand = clock ?? self.hand!
        var rings = 0
        while true {
            _ = s.album(pin)
            var album: StoredAlbum?
            events.wait(file: file, line: line) {
                album = try? store.album(pinID: pin)
                return album.map { $0.status != .downloading } ?? true || !hand.pending.isEmpty
            }
            if let album, album.status != .downloading {
                XCTAssertEqual(s.album(pin)?.status, album.status, "the store holds what the machine decided", file: file, line: line)
                return album
            }
            rings += 1
            guard rings < 100, hand.ringNext() else {
                XCTFail("the album neither settled nor set a timer", file: file, line: line)
                return album
            }
        }
    }

    func testASearchTheServiceCannotServeRightNowWaitsAndIsTriedAgainByItself() throws {
        server.set(.searchDown, true)
        let s = service(retryClock: hand.clock)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        events.wait { s.album(pin.id)?.wait != nil }
        let wait = try XCTUnwrap(s.album(pin.id)?.wait)
        XCTAssertTrue(wait.isSearch)
        XCTAssertEqual(try store.album(pinID: pin.id)?.status, .downloading, "waiting is not failed")
        XCTAssertEqual(hand.pending.count, 1, "one timer for the album")
        let report = try XCTUnwrap(events.networkReports.last)
        XCTAssertFalse(report.isOffline, "the server answered: the network is there")
        XCTAssertEqual(report.waits[pin.id]?.isSearch, true)
        server.set(.searchDown, false)
        let album = driveRetries(s, pin.id)
        XCTAssertEqual(album?.status, .ready)
        XCTAssertEqual(album?.photos.filter { $0.state == .stored }.count, 21)
        XCTAssertEqual(events.networkReports.last?.waits, [:], "nothing waits any more")
    }

    func testAnImageThatAlwaysFailsWith500IsFailedAfterTheWindowAndTheAlbumSettles() throws {
        // One photo of the 21 fails every time; the others are served.
        server.set(.imageFault, to: (["500"] + Array(repeating: "ok", count: 20)).joined(separator: ","))
        let s = service(retryClock: hand.clock)
        defer { s.shutdown() }
        let pin = try dropPin()
        let started = hand.now
        s.start(pin)
        let album = try XCTUnwrap(driveRetries(s, pin.id))
        XCTAssertEqual(album.status, .ready)
        let failed = album.photos.filter { if case .failed = $0.state { true } else { false } }
        XCTAssertEqual(failed.count, 1)
        XCTAssertTrue(failed.first.map { "\($0.state)".contains("500") } ?? false, "\(failed)")
        XCTAssertEqual(album.photos.filter { $0.state == .stored }.count, 20)
        XCTAssertGreaterThanOrEqual(hand.now - started, RetryPolicy.standard.giveUpAfter, "given up only after the window")
        XCTAssertGreaterThan(server.stats()["image_requests"] ?? 0, 21 + 5, "the photo was tried again several times")
        XCTAssertEqual(hand.pending, [], "no timer left behind")
    }

    func testAnAlbumWaitingWhenItsProcessDiedIsTakenUpByTheNextOne() throws {
        server.set(.searchDown, true)
        let now = AlbumLease.wallClock()
        // The first process never beats its heartbeat again, and never shuts down: it was killed.
        let first = service(heartbeat: LeaseHeartbeat { _, _ in {} }, retryClock: hand.clock)
        let pin = try dropPin()
        first.start(pin)
        events.wait { first.album(pin.id)?.wait != nil }
        XCTAssertEqual(try store.album(pinID: pin.id)?.status, .downloading)
        server.set(.searchDown, false)
        // The next start, past the lease's expiry.
        let later = HandClock()
        let next = service(leaseClock: { now + AlbumLease.expiry + 1 }, retryClock: later.clock)
        defer {
            next.shutdown()
            first.shutdown()
        }
        next.resumeInterrupted()
        let album = driveRetries(next, pin.id, clock: later)
        XCTAssertEqual(album?.status, .ready)
        XCTAssertEqual(album?.photos.filter { $0.state == .stored }.count, 21)
    }

    /// The last `.network` report, once one is there that `holds`.
    func report(file: StaticString = #filePath, line: UInt = #line, _ holds: (NetworkReport) -> Bool) -> NetworkReport? {
        events.wait(file: file, line: line) { events.networkReports.last.map(holds) ?? false }
        return events.networkReports.last
    }

    func testAServerDownAtStartIsAskedByOneProbeWithBackoffAndTheAlbumFillsWhenItIsBack() throws {
        var closed: ClosedPort? = try ClosedPort()
        let port = try XCTUnwrap(closed?.port)
        let s = service(flickrEndpoint: "http://127.0.0.1:\(port)/flickr/rest", retryClock: hand.clock)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        var offline = try XCTUnwrap(report { $0.isOffline && $0.waits[pin.id] != nil })
        XCTAssertTrue(offline.reason?.contains("could not connect") ?? false, "\(offline)")
        XCTAssertEqual(offline.waits[pin.id]?.isSearch, true)
        XCTAssertNil(offline.waits[pin.id]?.nextTry, "offline, no album tries by itself")
        XCTAssertEqual(try store.album(pinID: pin.id)?.status, .downloading, "offline is not failed")
        // Each probe that finds nothing sets the next one further off.
        var gaps: [Double] = []
        for _ in 0..<3 {
            let due = try XCTUnwrap(offline.nextProbe)
            gaps.append(due - hand.now)
            hand.advance(to: due)
            offline = try XCTUnwrap(report { $0.isOffline && ($0.nextProbe ?? 0) > due })
        }
        XCTAssertEqual(gaps, gaps.sorted(), "backoff: \(gaps)")
        XCTAssertLessThan(gaps[0], gaps[2], "backoff: \(gaps)")
        XCTAssertEqual(try store.album(pinID: pin.id)?.status, .downloading)
        // The network is back: the next probe finds the server, and the album fills by itself.
        closed = nil
        let back = try PhotoServer(delayMs: 5, port: port)
        hand.advance(to: try XCTUnwrap(offline.nextProbe))
        let album = driveRetries(s, pin.id)
        XCTAssertEqual(album?.status, .ready)
        XCTAssertEqual(album?.photos.filter { $0.state == .stored }.count, 21)
        XCTAssertEqual(back.searchRequests().count, 1, "one search once the network is back")
        XCTAssertEqual(events.networkReports.last, .online)
    }

    func testOfflineOneProbeAsksForEveryWaitingPhotoAndTheyAllComeWhenTheNetworkIsBack() throws {
        var down: PhotoServer? = try PhotoServer(delayMs: 5)
        let port = try XCTUnwrap(down?.port)
        down?.set(.holdImages, true)
        let http = HTTPClient(userAgent: "vtourist-tests", maxConnectionsPerHost: 24, lowSpeedTime: 1)
        let s = service(server: down, retryClock: hand.clock, http: http)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        events.wait { down?.stats()["images_in_flight"] == 21 }
        // The server dies under the 21 downloads; their retries then find nobody there.
        down = nil
        events.wait { s.album(pin.id)?.wait?.photos == 21 }
        XCTAssertFalse(events.networkReports.last?.isOffline ?? true, "a broken connection is an answer: \(String(describing: events.networkReports.last))")
        hand.ringNext()
        var offline = try XCTUnwrap(report { $0.isOffline && $0.nextProbe != nil && $0.waits[pin.id]?.photos == 21 })
        XCTAssertEqual(offline.waits[pin.id]?.nextTry, nil)
        events.wait { s.album(pin.id)?.inFlight.isEmpty ?? false }
        // However long it stays offline, one probe at a time goes out: no photo tries by itself.
        let before = http.statistics().transfers
        for _ in 0..<4 {
            let due = try XCTUnwrap(offline.nextProbe)
            hand.advance(to: due)
            offline = try XCTUnwrap(report { $0.isOffline && ($0.nextProbe ?? 0) > due })
        }
        XCTAssertEqual(http.statistics().transfers - before, 4, "four probes, not 4 × 21 downloads")
        XCTAssertEqual(try store.album(pinID: pin.id)?.status, .downloading)
        // Back: the next probe answers, and every waiting photo comes, each fetched once.
        let back = try PhotoServer(delayMs: 5, port: port)
        hand.advance(to: try XCTUnwrap(offline.nextProbe))
        // (A download the fresh server is slow to take passes, and is tried again by itself.)
        let album = driveRetries(s, pin.id)
        XCTAssertEqual(album?.status, .ready)
        XCTAssertEqual(album?.photos.filter { $0.state == .stored }.count, 21)
        XCTAssertGreaterThanOrEqual(back.stats()["image_requests"] ?? 0, 21)
        XCTAssertEqual(events.networkReports.last, .online)
    }

    func testASearchPastTheFlickrBudgetAnotherProcessSpentWaitsForAToken() throws {
        let wall = Locked(AlbumLease.wallClock())
        let host = "127.0.0.1:\(server.port)"
        let other = try AppDatabase.open(path: store.path)
        defer { try? other.close() }
        let now = wall.withLock { $0 }
        for _ in 0..<Int(RequestBudget.flickr.capacity) {
            XCTAssertEqual(try other.spendRequest(host: host, now: now, budget: .flickr), 0)
        }
        let s = service(leaseClock: { wall.withLock { $0 } }, retryClock: hand.clock)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        events.wait { s.album(pin.id)?.wait != nil }
        let wait = try XCTUnwrap(s.album(pin.id)?.wait)
        XCTAssertTrue(wait.isSearch)
        XCTAssertTrue(wait.reason.contains("hourly limit"), wait.reason)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(wait.nextTry) - hand.now, 3600 / RequestBudget.flickr.perHour,
                                    "not before a token is back")
        XCTAssertEqual(server.searchRequests(), [], "no search went out")
        // A token is back by the time the retry rings.
        wall.withLock { $0 += 2 }
        let album = driveRetries(s, pin.id)
        XCTAssertEqual(album?.status, .ready)
        XCTAssertEqual(server.searchRequests().count, 1)
    }

    func testAFlickrKeyTrialSpendsTheSharedBudgetAndSaysWhenItIsSpent() throws {
        let now = AlbumLease.wallClock()
        let other = try AppDatabase.open(path: store.path)
        defer { try? other.close() }
        for _ in 0..<Int(RequestBudget.flickr.capacity) {
            XCTAssertEqual(try other.spendRequest(host: "127.0.0.1:\(server.port)", now: now, budget: .flickr), 0)
        }
        let s = service(leaseClock: { now }, retryClock: hand.clock)
        defer { s.shutdown() }
        let answer = Locked<(String, Bool)?>(nil)
        let answered = DispatchSemaphore(value: 0)
        s.testFlickrKey("good-key") { text, works in
            answer.withLock { $0 = (text, works) }
            answered.signal()
        }
        // The limit only ends a hang.
        XCTAssertEqual(answered.wait(timeout: .now() + 30), .success)
        let (text, works) = try XCTUnwrap(answer.withLock { $0 })
        XCTAssertFalse(works)
        XCTAssertTrue(text.hasPrefix("Flickr's hourly limit of 3,600 requests is reached: try again in "), text)
        XCTAssertEqual(server.searchRequests(), [], "no search went out")
    }
}
