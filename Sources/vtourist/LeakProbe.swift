#if DEBUG
import Foundation

/// A debug build's leak probe (`make check-address-app`, docs/reliability.md "Sanitizers"): with
/// VTOURIST_LEAK_PROBE=1 the program drops two objects that hold each other, one of them also held
/// weakly, so the leak check of the sanitized program is shown to catch a retain cycle in its code.
/// A release build has none of it.
enum LeakProbe {
    final class AppLeakProbeNode {
        var other: AppLeakProbeNode?
    }

    static func dropIfAsked(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["VTOURIST_LEAK_PROBE"] == "1" else { return }
        let a = AppLeakProbeNode(), b = AppLeakProbeNode()
        a.other = b
        b.other = a
        // A weak reference gives `a` a side table, as `[weak self]` does to much of the program.
        weak let watched = a
        _ = watched
    }
}
#endif
