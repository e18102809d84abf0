/// What `reduce` needs from outside: the current setting and a page picker tests can control.
public struct AlbumEnvironment: Sendable {
    /// Photos per collection (the setting, within `Settings.photosPerCollectionRange`); each new collection records it.
    public var perPage: Int
    /// Picks New Collection's page in 1...pageCount, other than `current`; called only when pageCount > 1.
    public var pickPage: @Sendable (_ current: Int, _ pageCount: Int) -> Int

    /// The retry clock's time (seconds, steady): when a failure happened, when a retry is due.
    public var now: @Sendable () -> Double
    /// A number in 0...1 spreading each retry's pause (`RetryPolicy.delay`).
    public var jitter: @Sendable () -> Double
    /// Backoff and give-up window of passing failures.
    public var retryPolicy: RetryPolicy

    public init(perPage: Int, retryPolicy: RetryPolicy = .standard, now: @escaping @Sendable () -> Double = { 0 },
                jitter: @escaping @Sendable () -> Double = { 1 },
                pickPage: @escaping @Sendable (_ current: Int, _ pageCount: Int) -> Int) {
        self.perPage = perPage
        self.pickPage = pickPage
        self.now = now
        self.jitter = jitter
        self.retryPolicy = retryPolicy
    }

    /// A uniformly random page other than the current one.
    public static func live(perPage: Int, retryPolicy: RetryPolicy = .standard,
                            now: @escaping @Sendable () -> Double) -> AlbumEnvironment {
        AlbumEnvironment(perPage: perPage, retryPolicy: retryPolicy, now: now, jitter: { Double.random(in: 0...1) }) { current, pageCount in
            guard pageCount > 1 else { return 1 }
            guard (1...pageCount).contains(current) else { return Int.random(in: 1...pageCount) }
            let other = Int.random(in: 1..<pageCount)
            return other >= current ? other + 1 : other
        }
    }
}
