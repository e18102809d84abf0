import CUndefinedProbe
import XCTest

/// The UndefinedBehaviorSanitizer probe: `make unit-test` skips it in the suite's run, then runs it
/// alone and requires scripts/sanitizers/leaks.py to find the sanitizer's report naming
/// undefined_probe.c (`--expect-error`). Without the sanitizer the sum wraps silently, as the
/// assertion expects: the test passes either way, the report is what is checked.
final class UndefinedBehaviorProbeTests: XCTestCase {
    func testASignedOverflowInCIsReported() {
        XCTAssertEqual(vt_undefined_probe_add(Int32.max, 1), Int32.min, "the overflow wraps where it is not trapped")
    }
}
