import Foundation

/// Whether this test process runs under AddressSanitizer or ThreadSanitizer, whose runtimes export
/// these entry points (looked up at run time, as the program looks up LeakSanitizer's check).
/// `make test` runs the unit suite only under the sanitizers, where a 100,000-point test costs
/// ten times its release time (75 s for the store's import): the tests whose point is scale take a
/// tenth of their points there (`scaled`). The same code paths are watched, and 100,000 points stay
/// proven against the release binary by the end-to-end tests (`vtourist import` and `export` in
/// PinFileCommandTests) and measured by `make bench`.
public enum SanitizerScale {
    public static let isSanitized: Bool = {
        dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
    }()

    /// `count` in a plain build, a tenth of it under a sanitizer.
    public static func scaled(_ count: Int) -> Int { isSanitized ? count / 10 : count }

    /// `count` rounds of a randomised test in a plain build, a fifth of them (at least `atLeast`)
    /// under a sanitizer, where one round of damaging and redrawing the bundled map costs about
    /// ten times as much (the map file's damage tests took 79 s under AddressSanitizer and 233 s
    /// under ThreadSanitizer). The seeds and what each round asserts are the same.
    public static func rounds(_ count: Int, atLeast: Int = 2) -> Int { isSanitized ? max(atLeast, count / 5) : count }
}
