import Foundation

/// A reproducible random source for tests (SplitMix64): the same seed gives the same sequence.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The seed a test runs with: `VTOURIST_TEST_SEED` when set, else `fallback`; printed so a failure can be replayed.
    public init(testNamed name: String, fallback: UInt64) {
        let seed = ProcessInfo.processInfo.environment["VTOURIST_TEST_SEED"].flatMap { UInt64($0) } ?? fallback
        print("\(name) seed: \(seed) (set VTOURIST_TEST_SEED to change it)")
        self.init(seed: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
