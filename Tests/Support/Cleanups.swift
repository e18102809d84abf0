import Foundation
import XCTest

/// A test's cleanup, run when the test has finished and then let go.
///
/// swift-corelibs-xctest keeps every teardown block (and so what it captured) for the life of its
/// test case, and never frees a test case: whatever a block captured (a closed database, a
/// client, a folder's URL) stayed allocated until exit, where LeakSanitizer reported it as leaked
/// (and so did the small object XCTest wraps each block in). A cleanup waits in a list of the
/// process instead (reachable, so not a leak), run by a test observer XCTest's observation center
/// holds, and is removed from it once run.
extension XCTestCase {
    /// Runs `block` once this test has finished (after `tearDown`), the last added first, as
    /// `addTeardownBlock` orders its blocks; then releases it and what it captured.
    public func addCleanup(_ block: @escaping () -> Void) {
        pendingCleanups.add(block)
    }
}

/// The cleanups of the test that runs (tests run one at a time); made, and so registered with the
/// observation center, by the first cleanup added.
private let pendingCleanups = CleanupList()

private final class CleanupList: XCTestObservation, @unchecked Sendable {
    private let lock = NSLock()
    private var blocks: [() -> Void] = []

    init() {
        XCTestObservationCenter.shared.addTestObserver(self)
    }

    func add(_ block: @escaping () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        blocks.append(block)
    }

    /// Runs every pending cleanup, the last added first, each released once run.
    func testCaseDidFinish(_ testCase: XCTestCase) {
        while let block = next() {
            block()
        }
    }

    private func next() -> (() -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        return blocks.popLast()
    }
}
