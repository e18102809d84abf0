/// How many requests one host may be sent: a token bucket of `capacity` tokens, refilled at
/// `perHour` tokens an hour; each request spends one. In one hour at most `capacity + perHour`
/// requests go out (a full bucket, then the refill).
public struct RequestBudget: Equatable, Sendable {
    /// The largest burst: tokens a full bucket holds (at least 1).
    public var capacity: Double
    /// Tokens added back an hour (more than 0).
    public var perHour: Double

    /// Out-of-range values are raised to the least that works: one token, a token a year.
    public init(capacity: Double, perHour: Double) {
        self.capacity = capacity.isFinite ? max(capacity, 1) : 1
        self.perHour = perHour.isFinite && perHour > 0 ? perHour : 1.0 / (365 * 24)
    }

    /// Tokens added back a second.
    public var perSecond: Double { perHour / 3600 }

    /// Flickr's API allows 3,600 requests an hour per key: bursts of 120, and 3,480 an hour after,
    /// so no hour can exceed 3,600.
    public static let flickr = RequestBudget(capacity: 120, perHour: 3480)
}
