import Dispatch

/// Runs store work one job at a time, in the order issued: reads never overtake the writes before
/// them. Live: one serial queue off the UI thread. Test: each job at once, on the caller's thread.
public struct StoreWorker: Sendable {
    /// Runs a job after every job issued before it.
    public var run: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Returns once every job issued so far is done.
    public var wait: @Sendable () -> Void

    public init(run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void, wait: @escaping @Sendable () -> Void) {
        self.run = run
        self.wait = wait
    }

    /// One serial queue of its own.
    public static func serialQueue() -> StoreWorker {
        let queue = DispatchQueue(label: "vtourist.store")
        return StoreWorker(run: { queue.async(execute: $0) }, wait: { queue.sync {} })
    }

    /// Each job at once, on the caller's thread: tests, with no thread of the runtime's own.
    public static let immediate = StoreWorker(run: { $0() }, wait: {})
}
