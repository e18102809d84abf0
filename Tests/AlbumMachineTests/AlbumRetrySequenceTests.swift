import Locking
import Model
import XCTest
@testable import AlbumMachine

/// SplitMix64: the same seed, the same sequence, on every platform.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random sequences of answers, failures, timers, outages and user commands, as the service would
/// deliver them: no album is ever left with a pending photo or a waiting search that nothing will
/// start again, and the one timer always rings at the earliest plan's due time.
final class AlbumRetrySequenceTests: XCTestCase {
    /// What the service does around one album: the clock, the timer it set, whether it is offline.
    private struct Run {
        var album: Album
        var random: SeededGenerator
        let clock = TestClock(1000)
        var timer: Double?
        var offline = false
        var nextID: Int64 = 100
        let seed: UInt64

        var environment: AlbumEnvironment {
            let clock = clock
            // Jitter from the seeded generator, drawn per call.
            let jitters = JitterSource(seed: seed)
            return AlbumEnvironment(perPage: 3, retryPolicy: .standard, now: { clock.now }, jitter: { jitters.next() }) { _, count in
                count
            }
        }

        mutating func send(_ action: AlbumAction, _ environment: AlbumEnvironment) {
            for effect in reduce(&album, action, environment) {
                if case .scheduleRetry(let pin, let at) = effect {
                    XCTAssertEqual(pin, album.pin)
                    timer = at
                }
            }
        }

        mutating func failure() -> FetchFailure {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: .permanent("HTTP 404")
            case 1: .passing("HTTP 429", retryAfter: Bool.random(using: &random) ? Double.random(in: 0...120, using: &random) : nil)
            case 2: .unreachable("Could not connect", host: "example.org")
            default: .passing("HTTP 503")
            }
        }

        mutating func freshPhotos() -> [SavedPhoto] {
            (0..<Int.random(in: 0...3, using: &random)).map { _ in
                defer { nextID += 1 }
                return SavedPhoto(id: nextID, url: "https://example.org/\(nextID).jpg")
            }
        }
    }

    func testNoSequenceLeavesWorkThatNothingWillStart() {
        for seed in UInt64(1)...300 {
            var run = Run(album: Album(pin: pin, place: rome), random: SeededGenerator(seed: seed), seed: seed)
            let environment = run.environment
            if seed % 3 == 0 {
                // Restored after a kill: some photos pending, one failed; `resume` continues it.
                run.album = Album(pin: pin, place: rome, status: .downloading, page: 2, pageCount: 4,
                                  photos: [photo(90), photo(91, .stored), photo(92, .failed(reason: "HTTP 404"))], generation: 3)
                run.send(.resume, environment)
            } else if seed % 3 == 1 {
                run.album = Album(pin: pin, place: rome, status: .downloading, page: nil, pageCount: nil, photos: [], generation: 2)
                run.send(.resume, environment)
            } else {
                run.send(.start, environment)
            }
            for index in 0..<200 {
                guard !run.album.isEnded else { break }
                randomStep(&run, environment)
                assertInvariants(run, "seed \(seed), step \(index)")
            }
            guard !run.album.isEnded else { continue }
            settle(&run, environment, failing: seed % 2 == 0, "seed \(seed)")
        }
    }

    /// One random thing happens.
    private func randomStep(_ run: inout Run, _ environment: AlbumEnvironment) {
        let album = run.album
        switch Int.random(in: 0..<100, using: &run.random) {
        case 0..<20:
            // The search answers or fails.
            guard case .inFlight = album.search else { return }
            if Bool.random(using: &run.random) {
                run.send(.searchAnswered(generation: album.generation, pageCount: Int.random(in: 0...4, using: &run.random),
                                         photos: run.freshPhotos()), environment)
            } else {
                run.send(.searchFailed(generation: album.generation, failure: run.failure()), environment)
            }
        case 20..<50:
            // A download answers or fails.
            guard let id = album.inFlight.randomElement(using: &run.random) else { return }
            if Bool.random(using: &run.random) {
                run.send(.photoDownloaded(generation: album.generation, id: id), environment)
            } else {
                run.send(.photoFailed(generation: album.generation, id: id, failure: run.failure()), environment)
            }
        case 50..<65:
            // Time passes; the timer rings when it is due, unless the service holds it while offline.
            run.clock.now += Double.random(in: 0...90, using: &run.random)
            if let timer = run.timer, timer <= run.clock.now, !run.offline {
                run.timer = nil
                run.send(.retryDue(now: run.clock.now), environment)
            }
        case 65..<70:
            if run.offline {
                run.offline = false
                run.send(.networkReturned(.searches), environment)
                run.send(.networkReturned(.photos), environment)
            } else {
                run.offline = true
            }
        case 70..<74: run.send(.addMore, environment)
        case 74..<78: run.send(.retry(photo: nil), environment)
        case 78..<81: run.send(.retry(photo: album.photos.randomElement(using: &run.random)?.id), environment)
        case 81..<84:
            let doomed = album.photos.filter { _ in Int.random(in: 0..<3, using: &run.random) == 0 }.map(\.id)
            run.send(.deletePhotos(doomed), environment)
        case 84..<86: run.send(.newCollection, environment)
        case 86..<88: run.send(.setFilter(AlbumFilter(text: "bridge")), environment)
        case 88..<90: run.send(.pinMoved(oslo), environment)
        case 90..<92: run.send(.resume, environment)
        case 92..<97:
            // Late outcomes: an older generation, or work the album no longer waits for; an early timer.
            let id = album.photos.randomElement(using: &run.random)?.id ?? 1
            switch Int.random(in: 0..<4, using: &run.random) {
            case 0: run.send(.photoFailed(generation: album.generation - 1, id: id, failure: run.failure()), environment)
            case 1: run.send(.searchFailed(generation: album.generation - 1, failure: run.failure()), environment)
            case 2: if !album.inFlight.contains(id) { run.send(.photoFailed(generation: album.generation, id: id, failure: run.failure()), environment) }
            default:
                if !run.offline, let timer = run.timer {
                    run.timer = nil
                    run.send(.retryDue(now: timer - 0.001), environment)
                }
            }
        case 97..<99: run.send(.networkReturned(Bool.random(using: &run.random) ? .searches : .photos), environment)
        default: run.send(.pinDeleted, environment)
        }
    }

    private func assertInvariants(_ run: Run, _ context: String) {
        let album = run.album
        for photo in album.photos where photo.state == .pending {
            XCTAssertTrue(album.inFlight.contains(photo.id) || album.photoPlans[photo.id]?.due != nil,
                          "\(context): photo \(photo.id) pending with nothing to start it")
        }
        for (id, plan) in album.photoPlans {
            XCTAssertEqual(album.photos.first { $0.id == id }?.state, .pending, "\(context): plan of photo \(id)")
            XCTAssertEqual(plan.due == nil, album.inFlight.contains(id), "\(context): plan of photo \(id) is due or in flight")
            XCTAssertGreaterThan(plan.attempts, 0, context)
        }
        switch album.search {
        case .waiting: XCTAssertNotNil(album.searchPlan?.due, "\(context): a waiting search with nothing to send it")
        case .inFlight: XCTAssertNil(album.searchPlan?.due, context)
        case .idle, .failed: XCTAssertNil(album.searchPlan, context)
        }
        // Every plan's due time is covered: the timer rings at the earliest (held while offline).
        XCTAssertEqual(run.timer, album.nextRetry, "\(context): the timer")
        for due in ([album.searchPlan?.due] + album.photoPlans.values.map(\.due)).compactMap({ $0 }) {
            XCTAssertLessThanOrEqual(run.timer ?? .infinity, due, context)
        }
        XCTAssertEqual(album.wait != nil, album.nextRetry != nil, context)
        if album.searchPlan != nil || !album.photoPlans.isEmpty { XCTAssertEqual(album.status, .downloading, context) }
    }

    /// The network comes back and every outcome from now on is `failing` (passing failures only) or
    /// a success: the album leaves `downloading` without anyone pressing a key.
    private func settle(_ run: inout Run, _ environment: AlbumEnvironment, failing: Bool, _ context: String) {
        if run.offline {
            run.offline = false
            run.send(.networkReturned(.searches), environment)
            run.send(.networkReturned(.photos), environment)
        }
        var steps = 0
        while run.album.status == .downloading && steps < 100_000 {
            steps += 1
            let album = run.album
            if case .inFlight = album.search {
                run.send(failing ? .searchFailed(generation: album.generation, failure: .passing("HTTP 500"))
                                 : .searchAnswered(generation: album.generation, pageCount: 1, photos: []), environment)
            } else if let id = album.photos.first(where: { album.inFlight.contains($0.id) })?.id {
                run.send(failing ? .photoFailed(generation: album.generation, id: id, failure: .passing("HTTP 500"))
                                 : .photoDownloaded(generation: album.generation, id: id), environment)
            } else if let timer = run.timer {
                run.clock.now = max(run.clock.now, timer)
                run.timer = nil
                run.send(.retryDue(now: run.clock.now), environment)
            } else {
                break
            }
            assertInvariants(run, "\(context), settling \(steps)")
        }
        XCTAssertNotEqual(run.album.status, .downloading, "\(context): hangs with \(run.album)")
        XCTAssertNil(run.timer, context)
    }
}

/// Jitter in 0...1 from a seeded generator, for an environment's `@Sendable` closure.
final class JitterSource: Sendable {
    private let generator: Locked<SeededGenerator>

    init(seed: UInt64) { generator = Locked(SeededGenerator(seed: seed ^ 0xA5A5)) }

    func next() -> Double { generator.withLock { Double.random(in: 0...1, using: &$0) } }
}
