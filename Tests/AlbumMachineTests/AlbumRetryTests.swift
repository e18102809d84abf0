import Locking
import Model
import XCTest
@testable import AlbumMachine

/// A retry clock moved by hand.
final class TestClock: Sendable {
    private let time: Locked<Double>

    init(_ start: Double = 0) { time = Locked(start) }

    var now: Double {
        get { time.withLock { $0 } }
        set { time.withLock { $0 = newValue } }
    }
}

extension AlbumEnvironment {
    /// `fixed()`'s three photos a page, with `clock`'s time and a constant jitter (1: the full pause).
    static func retrying(_ clock: TestClock, jitter: Double = 1, policy: RetryPolicy = .standard) -> AlbumEnvironment {
        AlbumEnvironment(perPage: 3, retryPolicy: policy, now: { clock.now }, jitter: { jitter }) { _, _ in 7 }
    }
}

func plan(_ attempts: Int, first: Double, last: Double, _ reason: String, due: Double?) -> RetryPlan {
    RetryPlan(attempts: attempts, firstFailure: first, lastFailure: last, reason: reason, due: due)
}

/// Passing failures: plans, the one timer, giving up, and everything that clears them.
final class AlbumRetryTests: XCTestCase {
    // Made in setUp and let go in tearDown: XCTest never frees a test case, so what it still holds
    // at exit would stay allocated (and be reported as leaked).
    private var clock: TestClock!

    override func setUp() {
        super.setUp()
        clock = TestClock(100)
    }

    override func tearDown() {
        clock = nil
        super.tearDown()
    }

    private func downloading(jitter: Double = 1, policy: RetryPolicy = .standard) -> AlbumTester {
        downloadingAlbum(AlbumTester(Album(pin: pin, place: rome), .retrying(clock, jitter: jitter, policy: policy)))
    }

    func testAPassingPhotoFailureWaitsForItsRetryAndTheTimerIsSet() {
        let tester = downloading()
        tester.send(.photoFailed(generation: 1, id: 1, failure: .passing("HTTP 503")), [.scheduleRetry(pin: pin, at: 101)]) {
            $0.inFlight = [2, 3]
            $0.photoPlans = [1: plan(1, first: 100, last: 100, "HTTP 503", due: 101)]
        }
        XCTAssertEqual(tester.album.photos[0].state, .pending)
        XCTAssertEqual(tester.album.status, .downloading)
        XCTAssertEqual(tester.album.wait, AlbumWait(reason: "HTTP 503", nextTry: 101, isSearch: false, photos: 1))

        clock.now = 101
        tester.send(.retryDue(now: 101), [download(1), .scheduleRetry(pin: pin, at: nil)]) {
            $0.inFlight = [1, 2, 3]
            $0.photoPlans[1]?.due = nil
        }
        XCTAssertNil(tester.album.wait, "a retry under way is not waiting")

        clock.now = 101.5
        tester.send(.photoFailed(generation: 1, id: 1, failure: .unreachable("Could not connect", host: "example.org")),
                    [.scheduleRetry(pin: pin, at: 103.5)]) {
            $0.inFlight = [2, 3]
            $0.photoPlans = [1: plan(2, first: 100, last: 101.5, "Could not connect", due: 103.5)]
        }
        clock.now = 103.5
        tester.send(.retryDue(now: 103.5), [download(1), .scheduleRetry(pin: pin, at: nil)]) {
            $0.inFlight = [1, 2, 3]
            $0.photoPlans[1]?.due = nil
        }
        tester.send(.photoDownloaded(generation: 1, id: 1), []) {
            $0.inFlight = [2, 3]
            $0.photos[0].state = .stored
            $0.photoPlans = [:]
        }
    }

    /// The pause before each try: doubling from 1 s to 60 s, spread by jitter into 0.5…1, never below Retry-After.
    func testThePauseTable() {
        let rows: [(failures: Int, jitter: Double, retryAfter: Double?, due: Double, line: UInt)] = [
            (1, 1, nil, 101, #line),
            (1, 0, nil, 100.5, #line),
            (1, 1, 30, 130, #line),
            (1, 1, 0.2, 101, #line),
            (2, 1, nil, 102, #line),
            (3, 0.5, nil, 103, #line),
            (7, 1, nil, 160, #line),
            (12, 1, nil, 160, #line),
            (12, 0, nil, 130, #line),
            // Bad input from outside: a jitter out of range or not a number, a Retry-After below 0 or infinite.
            (1, .nan, nil, 101, #line),
            (1, 7, nil, 101, #line),
            (1, -3, nil, 100.5, #line),
            (1, 1, -5, 101, #line),
            (1, 1, .infinity, 101, #line),
        ]
        for row in rows {
            clock.now = 100
            let environment = AlbumEnvironment.retrying(clock, jitter: row.jitter)
            var album = downloading().album
            album.photoPlans[1] = row.failures > 1 ? plan(row.failures - 1, first: 100, last: 100, "x", due: nil) : nil
            let effects = reduce(&album, .photoFailed(generation: 1, id: 1, failure: .passing("HTTP 429", retryAfter: row.retryAfter)),
                                 environment)
            XCTAssertEqual(effects, [.scheduleRetry(pin: pin, at: row.due)], line: row.line)
            XCTAssertEqual(album.photoPlans[1]?.attempts, row.failures, line: row.line)
        }
    }

    /// What a failure does, by its kind and the time since the run's first failure (window 600 s).
    func testTheGiveUpTable() {
        let rows: [(failure: FetchFailure, elapsed: Double, waits: Bool, line: UInt)] = [
            (.passing("HTTP 500"), 0, true, #line),
            (.passing("HTTP 500"), 599.9, true, #line),
            (.passing("HTTP 500"), 600, false, #line),
            (.passing("HTTP 429", retryAfter: 5), 700, false, #line),
            (.unreachable("Could not resolve host", host: "example.org"), 599, true, #line),
            (.unreachable("Could not resolve host", host: "example.org"), 601, false, #line),
            (.permanent("HTTP 404"), 0, false, #line),
            (.permanent("HTTP 404"), 10, false, #line),
        ]
        for row in rows {
            let tester = downloading()
            var album = tester.album
            if row.elapsed > 0 { album.photoPlans[1] = plan(3, first: 100, last: 100, "before", due: nil) }
            clock.now = 100 + row.elapsed
            let effects = reduce(&album, .photoFailed(generation: 1, id: 1, failure: row.failure), tester.environment)
            if row.waits {
                XCTAssertEqual(album.photos[0].state, .pending, line: row.line)
                XCTAssertNotNil(album.photoPlans[1]?.due, line: row.line)
                XCTAssertEqual(effects.count, 1, line: row.line)
                guard case .scheduleRetry(pin, let at?) = effects.first else { return XCTFail("\(effects)", line: row.line) }
                XCTAssertGreaterThan(at, clock.now, line: row.line)
            } else {
                XCTAssertEqual(album.photos[0].state, .failed(reason: row.failure.reason), line: row.line)
                XCTAssertNil(album.photoPlans[1], line: row.line)
                XCTAssertEqual(effects, [.markPhotoFailed(photo: 1, reason: row.failure.reason, generation: 1)], line: row.line)
            }
        }
    }

    func testAPhotoGivenUpIsFailedWithItsLastReasonAndTheTimerGoes() {
        let tester = downloading(policy: RetryPolicy(firstDelay: 1, maxDelay: 60, giveUpAfter: 10))
        tester.send(.photoFailed(generation: 1, id: 2, failure: .passing("HTTP 502")), [.scheduleRetry(pin: pin, at: 101)]) {
            $0.inFlight = [1, 3]
            $0.photoPlans = [2: plan(1, first: 100, last: 100, "HTTP 502", due: 101)]
        }
        clock.now = 101
        _ = reduce(&tester.albumForSetUp, .retryDue(now: 101), tester.environment)
        clock.now = 110
        tester.send(.photoFailed(generation: 1, id: 2, failure: .passing("HTTP 504")), [
            .markPhotoFailed(photo: 2, reason: "HTTP 504", generation: 1),
        ]) {
            $0.inFlight = [1, 3]
            $0.photos[1].state = .failed(reason: "HTTP 504")
            $0.photoPlans = [:]
        }
    }

    func testAPermanentFailureOfAWaitingPhotoEndsItsPlanAndCancelsTheTimer() {
        let tester = downloading()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 3, failure: .passing("HTTP 503")), tester.environment)
        clock.now = 101
        _ = reduce(&tester.albumForSetUp, .retryDue(now: 101), tester.environment)
        // Its retry is under way: no timer is set, so none needs cancelling.
        tester.send(.photoFailed(generation: 1, id: 3, failure: .permanent("HTTP 404")), [
            .markPhotoFailed(photo: 3, reason: "HTTP 404", generation: 1),
        ]) {
            $0.inFlight = [1, 2]
            $0.photos[2].state = .failed(reason: "HTTP 404")
            $0.photoPlans = [:]
        }
    }

    func testTheTimerFollowsTheEarliestPlanOnly() {
        let tester = downloading()
        tester.send(.photoFailed(generation: 1, id: 1, failure: .passing("HTTP 429", retryAfter: 30)), [.scheduleRetry(pin: pin, at: 130)]) {
            $0.inFlight = [2, 3]
            $0.photoPlans = [1: plan(1, first: 100, last: 100, "HTTP 429", due: 130)]
        }
        clock.now = 110
        tester.send(.photoFailed(generation: 1, id: 2, failure: .passing("HTTP 500")), [.scheduleRetry(pin: pin, at: 111)]) {
            $0.inFlight = [3]
            $0.photoPlans[2] = plan(1, first: 110, last: 110, "HTTP 500", due: 111)
        }
        clock.now = 110.5
        tester.send(.photoFailed(generation: 1, id: 3, failure: .passing("HTTP 500", retryAfter: 50)), []) {
            $0.inFlight = []
            $0.photoPlans[3] = plan(1, first: 110.5, last: 110.5, "HTTP 500", due: 160.5)
        }
        XCTAssertEqual(tester.album.wait, AlbumWait(reason: "HTTP 500", nextTry: 111, isSearch: false, photos: 3))
        // Rung early (a clock's rounding): nothing starts, the same time is set again.
        tester.send(.retryDue(now: 110.9), [.scheduleRetry(pin: pin, at: 111)])
        tester.send(.retryDue(now: 130), [download(1), download(2), .scheduleRetry(pin: pin, at: 160.5)]) {
            $0.inFlight = [1, 2]
            $0.photoPlans[1]?.due = nil
            $0.photoPlans[2]?.due = nil
        }
    }

    func testAPassingSearchFailureWaitsAndSendsTheSearchAgain() {
        let tester = AlbumTester(Album(pin: pin, place: rome), .retrying(clock))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        tester.send(.searchFailed(generation: 1, failure: .passing("Flickr is unavailable (code 105)")),
                    [.scheduleRetry(pin: pin, at: 101)]) {
            $0.search = .waiting(page: 1)
            $0.searchPlan = plan(1, first: 100, last: 100, "Flickr is unavailable (code 105)", due: 101)
        }
        XCTAssertEqual(tester.album.status, .downloading)
        XCTAssertEqual(tester.album.wait, AlbumWait(reason: "Flickr is unavailable (code 105)", nextTry: 101, isSearch: true, photos: 0))
        XCTAssertFalse(tester.album.isNewCollectionEnabled)
        tester.send(.addMore, [.notify("Still searching for photos")])
        tester.send(.retryDue(now: 101), [
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 1),
            .scheduleRetry(pin: pin, at: nil),
        ]) {
            $0.search = .inFlight(page: 1)
            $0.searchPlan?.due = nil
        }
        tester.send(.searchAnswered(generation: 1, pageCount: 2, photos: saved(1)), [
            download(1), .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 2),
        ]) {
            $0.search = .idle
            $0.searchPlan = nil
            $0.pageCount = 2
            $0.photos = [photo(1)]
            $0.inFlight = [1]
        }
    }

    func testASearchGivenUpFailsTheAlbumWithItsLastReason() {
        let tester = AlbumTester(Album(pin: pin, place: rome), .retrying(clock))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchFailed(generation: 1, failure: .passing("HTTP 500")), tester.environment)
        clock.now = 101
        _ = reduce(&tester.albumForSetUp, .retryDue(now: 101), tester.environment)
        clock.now = 700
        tester.send(.searchFailed(generation: 1, failure: .unreachable("Could not connect", host: "api.flickr.com")), [
            .saveStatus(pin: pin, status: .failed(reason: "Could not connect"), page: 1, pageCount: 0),
        ]) {
            $0.search = .failed(page: 1, reason: "Could not connect")
            $0.searchPlan = nil
        }
    }

    func testAddMoreFailingInPassingWaitsWithThePhotosShown() {
        let ready = readyAlbum()
        let tester = AlbumTester(ready.album, .retrying(clock))
        _ = reduce(&tester.albumForSetUp, .addMore, tester.environment)
        XCTAssertEqual(tester.album.status, .downloading)
        tester.send(.searchFailed(generation: 1, failure: .passing("HTTP 503")), [.scheduleRetry(pin: pin, at: 101)]) {
            $0.search = .waiting(page: 2)
            $0.searchPlan = plan(1, first: 100, last: 100, "HTTP 503", due: 101)
        }
        XCTAssertEqual(tester.album.photos.map(\.state), [.stored, .stored, .stored])
        tester.send(.retryDue(now: 101), [
            .search(pin: pin, place: rome, page: 2, perPage: 3, filter: .none, generation: 1),
            .scheduleRetry(pin: pin, at: nil),
        ]) {
            $0.search = .inFlight(page: 2)
            $0.searchPlan?.due = nil
        }
        // Given up: a notice, the album as it was.
        clock.now = 800
        tester.send(.searchFailed(generation: 1, failure: .passing("HTTP 503")), [
            .notify("Could not add photos: HTTP 503"),
            .saveStatus(pin: pin, status: .ready, page: 1, pageCount: 10),
        ]) {
            $0.search = .idle
            $0.searchPlan = nil
        }
    }

    func testNetworkReturnedStartsWhatWaitsWithAFreshWindow() {
        let tester = AlbumTester(Album(pin: pin, place: rome), .retrying(clock))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 1, pageCount: 10, photos: saved(1, 2, 3)), tester.environment)
        _ = reduce(&tester.albumForSetUp, .addMore, tester.environment)
        let offline = FetchFailure.unreachable("Could not connect", host: "example.org")
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: offline), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 2, failure: offline), tester.environment)
        // Photo 2's retry is under way when the network comes back; photo 3 downloads as usual.
        _ = reduce(&tester.albumForSetUp, .retryDue(now: 101), tester.environment)
        clock.now = 101
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: offline), tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchFailed(generation: 1, failure: offline), tester.environment)
        XCTAssertEqual(tester.album.photoPlans[1]?.due, 103)
        XCTAssertNil(tester.album.photoPlans[2]?.due)
        XCTAssertEqual(tester.album.searchPlan?.due, 102)
        XCTAssertEqual(tester.album.nextRetry, 102)

        clock.now = 2000
        tester.send(.networkReturned(.searches), [
            .search(pin: pin, place: rome, page: 2, perPage: 3, filter: .none, generation: 1),
            .scheduleRetry(pin: pin, at: 103),
        ]) {
            $0.search = .inFlight(page: 2)
            $0.searchPlan = nil
        }
        tester.send(.networkReturned(.photos), [download(1), .scheduleRetry(pin: pin, at: nil)]) {
            $0.inFlight = [1, 2, 3]
            $0.photoPlans = [:]
        }
        // Time offline does not count: a failure now begins a new window.
        tester.send(.photoFailed(generation: 1, id: 2, failure: .passing("HTTP 503")), [.scheduleRetry(pin: pin, at: 2001)]) {
            $0.inFlight = [1, 3]
            $0.photoPlans = [2: plan(1, first: 2000, last: 2000, "HTTP 503", due: 2001)]
        }
        // Nothing else waits: a second networkReturned starts nothing more.
        tester.send(.networkReturned(.searches), [])
    }

    func testRetryStartsWaitingPhotosNowWithAFreshWindow() {
        let tester = downloading()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: .passing("HTTP 503")), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 2, failure: .permanent("HTTP 404")), tester.environment)
        tester.send(.retry(photo: nil), [.markPending([2]), download(1), download(2), .scheduleRetry(pin: pin, at: nil)]) {
            $0.inFlight = [1, 2, 3]
            $0.photos[1].state = .pending
            $0.photoPlans = [:]
        }
    }

    func testRetryOfOnePhotoLeavesTheOthersPlans() {
        let tester = downloading()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: .passing("HTTP 503")), tester.environment)
        clock.now = 100.5
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 2, failure: .passing("HTTP 503")), tester.environment)
        tester.send(.retry(photo: 1), [download(1), .scheduleRetry(pin: pin, at: 101.5)]) {
            $0.inFlight = [1, 3]
            $0.photoPlans[1] = nil
        }
    }

    func testRetryOfAWaitingAddMoreSendsTheSearchAndTheWaitingPhotos() {
        let tester = downloading()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: .passing("HTTP 503")), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 2), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 3), tester.environment)
        _ = reduce(&tester.albumForSetUp, .addMore, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchFailed(generation: 1, failure: .passing("HTTP 503")), tester.environment)
        tester.send(.retry(photo: nil), [
            .search(pin: pin, place: rome, page: 2, perPage: 3, filter: .none, generation: 1),
            download(1),
            .scheduleRetry(pin: pin, at: nil),
        ]) {
            $0.search = .inFlight(page: 2)
            $0.searchPlan = nil
            $0.inFlight = [1]
            $0.photoPlans = [:]
        }
    }

    func testResumeStartsEverythingWithAFreshWindow() {
        let tester = downloading()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: .passing("HTTP 503")), tester.environment)
        tester.send(.resume, [download(1), .scheduleRetry(pin: pin, at: nil), .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10)]) {
            $0.inFlight = [1, 2, 3]
            $0.photoPlans = [:]
        }
    }

    func testDeletingAWaitingPhotoDropsItsPlanAndTheTimer() {
        let tester = downloading()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: .passing("HTTP 503")), tester.environment)
        tester.send(.deletePhotos([1]), [.deletePhotos([1]), .scheduleRetry(pin: pin, at: nil)]) {
            $0.photos = [photo(2), photo(3)]
            $0.photoPlans = [:]
        }
    }

    func testMovingThePinCancelsTheTimer() {
        let tester = downloading()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: .passing("HTTP 503")), tester.environment)
        tester.send(.pinMoved(oslo), [
            .cancelDownloads([2, 3]),
            .clearAlbum(pin: pin, generation: 2, filter: .none),
            .search(pin: pin, place: oslo, page: 1, perPage: 3, filter: .none, generation: 2),
            .scheduleRetry(pin: pin, at: nil),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0),
        ]) {
            $0.place = oslo
            $0.generation = 2
            $0.photos = []
            $0.inFlight = []
            $0.photoPlans = [:]
            $0.search = .inFlight(page: 1)
            $0.pageCount = 0
        }
    }

    func testDeletingThePinCancelsTheTimer() {
        let tester = AlbumTester(Album(pin: pin, place: rome), .retrying(clock))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchFailed(generation: 1, failure: .passing("HTTP 503")), tester.environment)
        tester.send(.pinDeleted, [.scheduleRetry(pin: pin, at: nil)]) {
            $0.search = .idle
            $0.searchPlan = nil
            $0.isEnded = true
        }
        tester.send(.retryDue(now: 200), [])
    }

    func testLateFailuresMakeNoPlan() {
        let tester = downloading()
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 1), tester.environment)
        tester.send(.photoFailed(generation: 1, id: 1, failure: .passing("HTTP 503")), [])
        tester.send(.photoFailed(generation: 0, id: 2, failure: .passing("HTTP 503")), [])
        tester.send(.searchFailed(generation: 1, failure: .passing("HTTP 503")), [])
        tester.send(.retryDue(now: 500), [])
        tester.send(.networkReturned(.photos), [])
    }
}
