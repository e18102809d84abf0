import Locking
import Store

/// Keeps a store write that failed for a passing reason (another program holding the database's
/// write lock past the busy timeout, a full disk) and tries it again until it works, so what the
/// user did is not lost. The store queue is serial and waits with it: later writes stay behind it,
/// in the order they were made. Once the app is quitting, a failing write is given up and said.
final class WriteRetry: Sendable {
    /// Between tries when a failure comes at once (a full disk); a locked database already waited
    /// its busy timeout in each try.
    static let pause = StoreError.fullDiskPause

    /// The pause is measured by the app's clock: a test moves it by hand, and no real second passes.
    private let clock: AppClock
    /// Rung when the app quits: a write asleep between tries wakes at once for its last try.
    private let quitting = ClockAlarm()
    private let unsavedTexts = Locked<[String]>([])

    init(clock: AppClock) {
        self.clock = clock
    }

    /// Runs `body` until it works or fails for good; `waiting` is told once, on the first passing
    /// failure. The result says whether the write had to wait.
    func attempt<T>(_ body: () throws(StoreError) -> T,
                    waiting: (StoreError) -> Void) throws(StoreError) -> (value: T, waited: Bool) {
        var waited = false
        while true {
            do {
                return (try body(), waited)
            } catch {
                guard case let .tryAgain(pause) = WriteRetry.step(after: error, stopping: isStopping) else { throw error }
                if !waited { waiting(error) }
                waited = true
                if pause > 0 { clock.sleep(clock.now() + pause, quitting) }
            }
        }
    }

    /// What follows a failed try.
    enum Step: Equatable {
        /// Try again after `pause` seconds (or at once when quitting begins).
        case tryAgain(pause: Double)
        case giveUp
    }

    /// The decision after a failure: a passing one is tried again, until the app quits.
    static func step(after error: StoreError, stopping: Bool) -> Step {
        guard error.isTransient, !stopping else { return .giveUp }
        // A locked database already waited its busy timeout in the try.
        if case .diskFull = error { return .tryAgain(pause: pause) }
        return .tryAgain(pause: 0)
    }

    /// The app is quitting: each waiting write gets one more try, then is given up.
    func stop() {
        quitting.ring()
    }

    /// Keeps what could not be saved in the end, to be said once the screen is given back.
    func gaveUp(_ text: String) {
        unsavedTexts.withLock { $0.append(text) }
    }

    var unsaved: [String] { unsavedTexts.withLock { $0 } }

    private var isStopping: Bool { quitting.isRung }
}
