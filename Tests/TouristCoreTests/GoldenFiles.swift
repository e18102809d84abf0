import Foundation
import Terminal
import TestSupport
import XCTest

/// Golden files: Golden/NAME.txt holds a screen's text. Only `make golden` rewrites them: it writes a
/// fresh token to .build/golden-rewrite and passes the same token in VTOURIST_GOLDEN_REWRITE. A variable
/// inherited from the shell (VTOURIST_UPDATE_GOLDEN=1 or a stale token) rewrites nothing.
enum GoldenFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let flag = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/golden-rewrite")

    /// Whether this run was started by `make golden`: its token in the environment and in the flag file.
    static func rewriteRequested(environment: [String: String] = ProcessInfo.processInfo.environment,
                                 flag: URL = GoldenFiles.flag) -> Bool {
        guard let token = environment["VTOURIST_GOLDEN_REWRITE"], !token.isEmpty,
              let written = try? String(contentsOf: flag, encoding: .utf8) else { return false }
        return written.trimmingCharacters(in: .whitespacesAndNewlines) == token
    }

    /// Rewrites `url` with `actual` when asked to, else compares them: nil when they agree, else what differs.
    static func check(_ actual: String, against url: URL, name: String, rewrite: Bool) throws -> String? {
        if rewrite {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return nil
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        guard actual != expected else { return nil }
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, e.count)
        return "\(name) differs from its golden file (make golden rewrites them), first at row \(first):\n"
            + "expected: \(first < e.count ? String(e[first]) : "<none>")\nactual:   \(first < a.count ? String(a[first]) : "<none>")\n"
            + "--- actual ---\n\(actual)"
    }
}

/// Compares a buffer's text with Golden/NAME.txt (`make golden` rewrites the file instead). Shared by
/// every golden test.
func assertGolden(_ buffer: CellBuffer, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let url = GoldenFiles.folder.appendingPathComponent(name + ".txt")
    if let difference = try GoldenFiles.check(buffer.text + "\n", against: url, name: name, rewrite: GoldenFiles.rewriteRequested()) {
        XCTFail(difference, file: file, line: line)
    }
}

final class GoldenFilesTests: XCTestCase {
    func temporaryGolden(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString).txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        addCleanup { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// An exported VTOURIST_UPDATE_GOLDEN=1 (the old way), in this very process, rewrites nothing.
    func testAnInheritedUpdateVariableRewritesNothing() throws {
        setenv("VTOURIST_UPDATE_GOLDEN", "1", 1)
        defer { unsetenv("VTOURIST_UPDATE_GOLDEN") }
        // This process's environment as a shell would leave it (less `make golden`'s own token, when it runs this).
        var environment = ProcessInfo.processInfo.environment
        XCTAssertEqual(environment["VTOURIST_UPDATE_GOLDEN"], "1")
        environment["VTOURIST_GOLDEN_REWRITE"] = nil
        XCTAssertFalse(GoldenFiles.rewriteRequested(environment: environment))
        let url = try temporaryGolden("old\n")
        let difference = try GoldenFiles.check("new\n", against: url, name: "probe",
                                               rewrite: GoldenFiles.rewriteRequested(environment: environment))
        XCTAssertNotNil(difference, "a changed screen is a failure")
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "old\n", "the golden file is untouched")
    }

    /// Only the token `make golden` wrote to its flag file asks for a rewrite; another, or none, does not.
    func testOnlyMakeGoldensTokenRewrites() throws {
        let flag = try temporaryGolden("4242\n")
        XCTAssertTrue(GoldenFiles.rewriteRequested(environment: ["VTOURIST_GOLDEN_REWRITE": "4242"], flag: flag))
        XCTAssertFalse(GoldenFiles.rewriteRequested(environment: ["VTOURIST_GOLDEN_REWRITE": "4241"], flag: flag))
        XCTAssertFalse(GoldenFiles.rewriteRequested(environment: ["VTOURIST_GOLDEN_REWRITE": ""], flag: flag))
        XCTAssertFalse(GoldenFiles.rewriteRequested(environment: ["VTOURIST_UPDATE_GOLDEN": "1"], flag: flag))
        let missing = flag.appendingPathExtension("gone")
        XCTAssertFalse(GoldenFiles.rewriteRequested(environment: ["VTOURIST_GOLDEN_REWRITE": "4242"], flag: missing))
        let url = try temporaryGolden("old\n")
        XCTAssertNil(try GoldenFiles.check("new\n", against: url, name: "probe", rewrite: true))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "new\n")
    }
}
