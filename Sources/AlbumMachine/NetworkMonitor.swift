/// Whether the app is offline: pure, driven by the outcomes of transfers and probes. While offline,
/// retries wait and one probe, with backoff, asks whether the network is back; when it answers,
/// every waiting album resumes (searches first, then photos, in the order the pins were dropped).
/// The rules: docs/album-machine.md, "The network monitor".
public struct NetworkMonitor: Equatable, Sendable {
    public internal(set) var isOffline: Bool
    /// The last unreachable failure's reason.
    public internal(set) var reason: String?
    /// Probes that failed in a row since the app went offline.
    public internal(set) var probeFailures: Int
    /// When the next probe goes out (retry clock), while offline; nil while one is out.
    public internal(set) var nextProbe: Double?
    /// A probe was sent and has not answered: never two at once, even across outages.
    public internal(set) var isProbing: Bool
    /// Each host's last outcome: true when it answered (any HTTP status), false when unreachable.
    public internal(set) var hosts: [String: Bool]

    public init() {
        isOffline = false
        reason = nil
        probeFailures = 0
        nextProbe = nil
        isProbing = false
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
///
/// Offline when every host the app has talked to last failed with no answer at all; then one probe
/// at a time, with `policy.delay` backoff, until a probe or any transfer reaches a host.
public func reduce(_ monitor: inout NetworkMonitor, _ event: NetworkEvent, now: Double, jitter: Double,
                   policy: RetryPolicy) -> [NetworkEffect] {
    let before = (monitor.isOffline, monitor.nextProbe)
    var effects: [NetworkEffect] = []

    switch event {
    case .reached(let host), .probeReached(let host):
        if case .probeReached = event { monitor.isProbing = false }
        monitor.hosts[host] = true
        if monitor.isOffline {
            monitor.goOnline()
            effects = [.scheduleProbe(at: nil), .resumeWaiting]
        }

    case .probeFailed where !monitor.isOffline:
        // A probe sent before the network came back: its failure is stale.
        monitor.isProbing = false

    case .unreachable(let host, let reason), .probeFailed(let host, let reason):
        monitor.hosts[host] = false
        if monitor.isOffline {
            monitor.reason = reason
            // Only the failure of the probe out moves the next one: transfers still failing say nothing new.
            guard case .probeFailed = event, monitor.isProbing else { break }
            monitor.isProbing = false
            monitor.probeFailures += 1
            monitor.nextProbe = now + policy.delay(afterFailures: monitor.probeFailures + 1, jitter: jitter)
            effects = [.scheduleProbe(at: monitor.nextProbe)]
        } else if monitor.hosts.values.allSatisfy({ !$0 }) {
            monitor.isOffline = true
            monitor.reason = reason
            monitor.probeFailures = 0
            // A probe still out from before the network came back answers for this outage.
            guard !monitor.isProbing else { break }
            monitor.nextProbe = now + policy.delay(afterFailures: 1, jitter: jitter)
            effects = [.scheduleProbe(at: monitor.nextProbe)]
        }

    case .probeDue:
        // A timer left over from before the network came back, or a probe already out: nothing to send.
        guard monitor.isOffline, !monitor.isProbing, monitor.nextProbe != nil else { break }
        monitor.nextProbe = nil
        monitor.isProbing = true
        effects = [.probe]
    }

    if before != (monitor.isOffline, monitor.nextProbe) { effects.append(.report) }
    return effects
}

extension NetworkMonitor {
    /// What the screen and `drop --wait` are told, with the albums' waits (`Album.wait`): while
    /// offline no album's try has a time, it waits for the network.
    public func report(waits: [Int64: AlbumWait] = [:]) -> NetworkReport {
        guard isOffline else { return NetworkReport(waits: waits) }
        return NetworkReport(isOffline: true, reason: reason, nextProbe: nextProbe,
                             waits: waits.mapValues { AlbumWait(reason: $0.reason, nextTry: nil, isSearch: $0.isSearch, photos: $0.photos) })
    }

    mutating func goOnline() {
        isOffline = false
        reason = nil
        probeFailures = 0
        nextProbe = nil
    }
}
