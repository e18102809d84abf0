import Dispatch

/// The clock of retries and probes: steady seconds (the base of `AppClock.live`, seconds since boot),
/// and one-shot timers on it. The app's fires by itself; a test's is moved by hand, so no test waits
/// the seconds of a backoff.
public struct RetryClock: Sendable {
    /// Seconds on the steady clock.
    public var now: @Sendable () -> Double
    /// Runs `work` on `queue` once `now()` reaches `at`; the returned closure, called on `queue`,
    /// cancels it if it has not run yet.
    public var schedule: @Sendable (_ at: Double, _ queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
        -> () -> Void

    public init(now: @escaping @Sendable () -> Double,
                schedule: @escaping @Sendable (_ at: Double, _ queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
                    -> () -> Void) {
        self.now = now
        self.schedule = schedule
    }

    /// Seconds since boot, unaffected by changes to the wall clock; a dispatch timer for each wait
    /// (no polling: the CPU stays idle while albums wait).
    public static let live: RetryClock = {
        let now: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        return RetryClock(now: now) { at, queue, work in
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let left = max(0, at - now())
            timer.schedule(deadline: .now() + left)
            // The handler holds the timer until it rings (a source nobody holds never fires); the
            // cancel ends that hold, as dispatch lets a cancelled source's handler go.
            timer.setEventHandler {
                work()
                timer.cancel()
            }
            timer.resume()
            return { timer.cancel() }
        }
    }()
}
