import XCTest

/// Two objects that hold each other, dropped: a leak LeakSanitizer reports as two *indirect* leaks
/// (each is reachable from the other). `make check-address` runs this class alone, after the suite
/// (which skips it), and requires scripts/sanitizers/leaks.py to fail on its report: the probe that
/// the check catches a retain cycle in our code.
final class LeakProbeTests: XCTestCase {
    final class LeakProbeNode {
        var other: LeakProbeNode?
        let deinits: LeakProbeCount
        init(_ deinits: LeakProbeCount) { self.deinits = deinits }
        deinit { deinits.value += 1 }
    }

    final class LeakProbeCount {
        var value = 0
    }

    func testATwoObjectCycleOutlivesItsLastReference() {
        let deinits = LeakProbeCount()
        let pair = { () -> Int in
            let a = LeakProbeNode(deinits), b = LeakProbeNode(deinits)
            a.other = b
            b.other = a
            return 2
        }
        XCTAssertEqual(pair(), 2)
        XCTAssertEqual(deinits.value, 0, "neither object of the cycle was freed")
        // A pair that does not hold each other is freed at once: the count can move.
        do { let lone = LeakProbeNode(deinits); lone.other = nil }
        XCTAssertEqual(deinits.value, 1)
    }
}
