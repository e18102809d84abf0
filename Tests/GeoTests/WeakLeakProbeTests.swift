import XCTest

/// Two objects that hold each other, dropped, one of them also held weakly (as `[weak self]` holds
/// much of the program): the runtime gives it a weak-reference side table, which LeakSanitizer cannot
/// see it points to. `make check-address` runs this class with `LeakProbeTests` and requires
/// scripts/sanitizers/leaks.py to fail on this file's cycle too: the allowance for side tables must
/// not hide the objects they point at.
final class WeakLeakProbeTests: XCTestCase {
    final class Node {
        var other: Node?
        let deinits: Count
        init(_ deinits: Count) { self.deinits = deinits }
        deinit { deinits.value += 1 }
    }

    final class Count {
        var value = 0
    }

    func testATwoObjectCycleHeldWeaklyOutlivesItsLastReference() {
        let deinits = Count()
        let pair = { () -> Bool in
            let a = Node(deinits), b = Node(deinits)
            a.other = b
            b.other = a
            weak let watched = a
            return watched != nil
        }
        XCTAssertTrue(pair())
        XCTAssertEqual(deinits.value, 0, "neither object of the cycle was freed")
        // A pair that does not hold each other is freed at once: the count can move.
        do { let lone = Node(deinits); lone.other = nil }
        XCTAssertEqual(deinits.value, 1)
    }
}
