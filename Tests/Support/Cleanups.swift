import Foundation
import XCTest

/// A test's cleanup, run at its end as a teardown block is, and then let go.
///
/// swift-corelibs-xctest keeps every teardown block (and so what it captured) for the life of its
/// test case, and never frees a test case: whatever a block captured (a closed database, a
/// client, a folder's URL) stayed allocated until exit, where LeakSanitizer reported it as leaked.
/// A cleanup waits in a list of the process instead (reachable, so not a leak) and is removed from
/// it once run; the teardown block XCTest keeps is a plain function, which captures nothing.
extension XCTestCase {
    /// Runs `block` at the end of this test, after the test method and before `tearDown`, as
    /// `addTeardownBlock` does (the last added first), and then releases it and what it captured.
    public func addCleanup(_ block: @escaping () -> Void) {
        pendingCleanups.withLock { $0.append(block) }
        addTeardownBlock(runPendingCleanups)
    }
}

/// The cleanups of the test that runs (tests run one at a time), the last added last.
private let pendingCleanups = CleanupList()

private final class CleanupList: @unchecked Sendable {
    private let lock = NSLock()
    private var blocks: [() -> Void] = []

    func withLock<T>(_ body: (inout [() -> Void]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&blocks)
    }
}

/// Runs every pending cleanup, the last added first, each released once run. A teardown block of
/// its own for each cleanup added: the first one to run does them all, the others find none.
private func runPendingCleanups() {
    while let block = pendingCleanups.withLock({ $0.popLast() }) {
        block()
    }
}
