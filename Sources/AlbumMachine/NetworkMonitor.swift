/// Whether the app is offline: pure, driven by the outcomes of transfers and probes. While offline,
/// retries wait and one probe, with backoff, asks whether the network is back; when it answers,
/// every waiting album resumes (searches first, then photos, in the order the pins were dropped).
/// (Interface fixed; the rules are being written: docs/album-machine.md.)
public struct NetworkMonitor: Equatable, Sendable {
    public internal(set) var isOffline: Bool
    /// The last unreachable failure's reason.
    public internal(set) var reason: String?
    /// Probes that failed in a row since the app went offline.
    public internal(set) var probeFailures: Int
    /// When the next probe goes out (retry clock), while offline.
    public internal(set) var nextProbe: Double?
    /// Each host's last outcome: true when it answered (any HTTP status), false when unreachable.
    public internal(set) var hosts: [String: Bool]

    public init() {
        isOffline = false
        reason = nil
        probeFailures = 0
        nextProbe = nil
        hosts = [:]
    }
}

public enum NetworkEvent: Equatable, Sendable {
    /// A transfer to `host` got an answer (any HTTP status).
    case reached(host: String)
    /// A transfer to `host` got no answer at all.
    case unreachable(host: String, reason: String)
    /// The probe's time has come.
    case probeDue
    /// The probe to `host` got an answer.
    case probeReached(host: String)
    case probeFailed(host: String, reason: String)
}

public enum NetworkEffect: Equatable, Sendable {
    /// Send the probe (a HEAD to the endpoint of the waiting album's source).
    case probe
    /// Post `.probeDue` at this time on the retry clock (replaces any earlier one); nil cancels it.
    case scheduleProbe(at: Double?)
    /// The network is back: every waiting album resumes, searches first, then photos, in pin order.
    case resumeWaiting
    /// Tell the screen (the offline flag changed).
    case report
}

/// Applies `event` at time `now`; `jitter` in 0...1 spreads the probe's backoff.
public func reduce(_ monitor: inout NetworkMonitor, _ event: NetworkEvent, now: Double, jitter: Double,
                   policy: RetryPolicy) -> [NetworkEffect] {
    []
}
