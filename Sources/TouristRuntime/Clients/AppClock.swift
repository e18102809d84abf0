import Dispatch
import Locking

/// Seconds on a steady clock, and sleeps measured by it: event times (press-and-hold), the store
/// poll, message timeouts, the pause between a failed write's tries. Tests move a clock by hand
/// (`now` what they set, `sleep` woken as they move it), so no wait of the runtime is on the wall clock.
public struct AppClock: Sendable {
    public var now: @Sendable () -> Double
    /// Blocks the calling thread until `now()` reaches `deadline` or `alarm` rings, whichever comes
    /// first; a rung alarm returns at once.
    public var sleep: @Sendable (_ deadline: Double, _ alarm: ClockAlarm) -> Void

    public init(now: @escaping @Sendable () -> Double,
                sleep: @escaping @Sendable (_ deadline: Double, _ alarm: ClockAlarm) -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// Seconds since boot, unaffected by changes to the wall clock; a sleep waits for them to pass.
    public static let live: AppClock = {
        let now: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        return AppClock(now: now) { deadline, alarm in
            while !alarm.isRung {
                let left = deadline - now()
                guard left > 0 else { return }
                alarm.doze(seconds: left)
            }
        }
    }()
}

/// Ends a sleep on an `AppClock` before its time, from another thread: the app quitting while a
/// write waits. Once rung it stays rung.
public final class ClockAlarm: Sendable {
    private let rung = Locked(false)
    /// Signalled by a ring or a nudge; a sleeper looks at its clock and the alarm again on each.
    private let bell = DispatchSemaphore(value: 0)

    public init() {}

    /// Ends the sleep under way, and any later one, at once.
    public func ring() {
        rung.withLock { $0 = true }
        bell.signal()
    }

    public var isRung: Bool { rung.withLock { $0 } }

    /// Makes the sleeper look at its clock again (a clock moved by hand has moved); rings nothing.
    public func nudge() {
        bell.signal()
    }

    /// Waits for a ring or a nudge, at most `seconds` (nil: without limit). A clock's `sleep` calls
    /// it in a loop, checking its deadline and `isRung` between: a signal that came first is not lost.
    public func doze(seconds: Double?) {
        guard let seconds else { return bell.wait() }
        _ = bell.wait(timeout: .now() + seconds)
    }
}
