import AlbumService
import Dispatch
import Locking
import XCTest

/// A retry clock the test moves by hand: its timers ring on their queues when the test moves past
/// their time, so no test waits the seconds of a backoff.
final class HandClock: Sendable {
    private struct Timer: Sendable {
        let id: Int
        let at: Double
        let queue: DispatchQueue
        let work: @Sendable () -> Void
    }

    private struct State: Sendable {
        var now: Double
        var nextID = 0
        var timers: [Timer] = []
    }

    private let state: Locked<State>

    init(start: Double = 1_000) {
        state = Locked(State(now: start))
    }

    var clock: RetryClock {
        RetryClock(now: { [state] in state.withLock { $0.now } }) { [state] at, queue, work in
            let id = state.withLock { s in
                s.nextID += 1
                s.timers.append(Timer(id: s.nextID, at: at, queue: queue, work: work))
                return s.nextID
            }
            return { state.withLock { $0.timers.removeAll { $0.id == id } } }
        }
    }

    var now: Double { state.withLock { $0.now } }

    /// The times of the timers set and not yet rung, earliest first.
    var pending: [Double] { state.withLock { $0.timers.map(\.at).sorted() } }

    /// Moves the clock to `time`, ringing every timer due on its way in order; returns once each rang
    /// (its work ran on its queue).
    func advance(to time: Double) {
        while true {
            let due: Timer? = state.withLock { s in
                guard let first = s.timers.filter({ $0.at <= time }).min(by: { $0.at < $1.at }) else { return nil }
                s.timers.removeAll { $0.id == first.id }
                s.now = max(s.now, first.at)
                return first
            }
            guard let due else { break }
            due.queue.sync(execute: due.work)
        }
        state.withLock { $0.now = max($0.now, time) }
    }

    func advance(by seconds: Double) { advance(to: now + seconds) }

    /// Moves to the earliest timer and rings it (and any due with it); false when none is set.
    @discardableResult
    func ringNext() -> Bool {
        guard let next = pending.first else { return false }
        advance(to: next)
        return true
    }
}
