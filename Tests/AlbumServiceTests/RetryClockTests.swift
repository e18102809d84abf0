import AlbumService
import Dispatch
import Locking
import XCTest

/// The live retry clock: steady seconds, one-shot dispatch timers on the caller's queue.
final class RetryClockTests: XCTestCase {
    func testATimerRingsOnItsQueueOnceItsTimeHasComeAndACancelledOneNever() {
        let clock = RetryClock.live
        let queue = DispatchQueue(label: "retry-clock-test")
        let rang = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let start = clock.now()
        queue.sync {
            let cancel = clock.schedule(start + 0.02, queue) { rang.withLock { $0.append("cancelled") } }
            cancel()
            _ = clock.schedule(start + 0.05, queue) {
                dispatchPrecondition(condition: .onQueue(queue))
                rang.withLock { $0.append("due at \(clock.now() >= start + 0.05)") }
                done.signal()
            }
        }
        // The limit only ends a hang.
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        queue.sync {}
        XCTAssertEqual(rang.withLock { $0 }, ["due at true"])
    }

    func testTheClockIsTheAppClocksSteadyBase() {
        let before = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let now = RetryClock.live.now()
        let after = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        XCTAssertTrue((before...after).contains(now), "\(before) \(now) \(after)")
    }
}
