import Model

/// Why a search or a photo's download did not succeed, and whether it may heal by itself.
/// Made by the one classification table (`AlbumService/Failures.swift`); the machine only reads it.
public struct FetchFailure: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Wait for `r`: 404, 403, 410, not a JPEG, over a limit, a bad key, a refused redirect.
        case permanent
        /// Heals by itself: 5xx, 429, 408, a reset connection, a timeout, Flickr unavailable, Commons maxlag.
        case passing
        /// No answer at all from `host` (refused, DNS, no route): passing, and a sign the app may be offline.
        case unreachable
    }

    /// One line for the user.
    public var reason: String
    public var kind: Kind
    /// Seconds the server asked the client to wait (`Retry-After`), if it said.
    public var retryAfter: Double?
    /// The host that could not be reached (`unreachable`), as `host` or `host:port`.
    public var host: String?

    public init(reason: String, kind: Kind, retryAfter: Double? = nil, host: String? = nil) {
        self.reason = reason
        self.kind = kind
        self.retryAfter = retryAfter
        self.host = host
    }

    public static func permanent(_ reason: String) -> FetchFailure { FetchFailure(reason: reason, kind: .permanent) }

    public static func passing(_ reason: String, retryAfter: Double? = nil) -> FetchFailure {
        FetchFailure(reason: reason, kind: .passing, retryAfter: retryAfter)
    }

    public static func unreachable(_ reason: String, host: String) -> FetchFailure {
        FetchFailure(reason: reason, kind: .unreachable, host: host)
    }

    public var isPermanent: Bool { kind == .permanent }
}

/// When passing failures are tried again: exponential backoff with jitter, `Retry-After` honoured,
/// given up once `giveUpAfter` seconds have passed since the first failure.
public struct RetryPolicy: Equatable, Sendable {
    public var firstDelay: Double
    public var maxDelay: Double
    public var giveUpAfter: Double

    public init(firstDelay: Double = 1, maxDelay: Double = 60, giveUpAfter: Double = 600) {
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
        self.giveUpAfter = giveUpAfter
    }

    /// 1 s doubling to 60 s; about 10 minutes before a photo is failed for good.
    public static let standard = RetryPolicy()

    /// Every time multiplied by `factor` (> 0): the test-only time scale, `VTOURIST_RETRY_SCALE`.
    public func scaled(_ factor: Double) -> RetryPolicy {
        guard factor.isFinite, factor > 0 else { return self }
        return RetryPolicy(firstDelay: firstDelay * factor, maxDelay: maxDelay * factor, giveUpAfter: giveUpAfter * factor)
    }

    /// The pause before try `attempt + 1`, after `attempt` (≥ 1) failures in a row: `firstDelay` doubled
    /// each time up to `maxDelay`, times `jitter` taken into 0.5...1 (so windows that failed together
    /// do not retry together), and never less than what the server asked for.
    public func delay(afterFailures attempt: Int, jitter: Double, retryAfter: Double? = nil) -> Double {
        let exponent = Double(min(max(attempt, 1) - 1, 30))
        let backoff = min(maxDelay, firstDelay * pow2(exponent))
        let spread = 0.5 + 0.5 * min(max(jitter.isFinite ? jitter : 1, 0), 1)
        let asked = retryAfter.map { $0.isFinite ? max(0, $0) : 0 } ?? 0
        return max(backoff * spread, asked)
    }
}

private func pow2(_ exponent: Double) -> Double {
    var value = 1.0
    var left = Int(exponent)
    while left > 0 { value *= 2; left -= 1 }
    return value
}

/// What an album is waiting for after passing failures: shown as "waiting for the network, next try in 8 s".
public struct AlbumWait: Equatable, Sendable {
    /// The latest failure's reason.
    public var reason: String
    /// When the next try starts, on the retry clock (seconds); nil while the app is offline and the
    /// album waits for the network to come back.
    public var nextTry: Double?
    /// The search waits (else only photos do).
    public var isSearch: Bool
    /// Photos waiting to be tried again.
    public var photos: Int

    public init(reason: String, nextTry: Double?, isSearch: Bool, photos: Int) {
        self.reason = reason
        self.nextTry = nextTry
        self.isSearch = isSearch
        self.photos = photos
    }
}

/// The network as the album service sees it, reported to the screen and to `drop --wait`.
public struct NetworkReport: Equatable, Sendable {
    /// Every host the app needs is unreachable: one probe, with backoff, stands in for every transfer.
    public var isOffline: Bool
    /// Why (the last unreachable host's failure), while offline.
    public var reason: String?
    /// When the next probe is sent, on the retry clock.
    public var nextProbe: Double?
    /// The albums this process waits on, by pin id.
    public var waits: [Int64: AlbumWait]

    public init(isOffline: Bool = false, reason: String? = nil, nextProbe: Double? = nil, waits: [Int64: AlbumWait] = [:]) {
        self.isOffline = isOffline
        self.reason = reason
        self.nextProbe = nextProbe
        self.waits = waits
    }

    public static let online = NetworkReport()
}
