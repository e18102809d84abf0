import Foundation
import Terminal
import XCTest

/// Compares a buffer's text with Golden/NAME.txt; `VTOURIST_UPDATE_GOLDEN=1 swift test` rewrites the file
/// instead. Shared by every golden test.
func assertGolden(_ buffer: CellBuffer, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    let url = dir.appendingPathComponent(name + ".txt")
    let actual = buffer.text + "\n"
    if ProcessInfo.processInfo.environment["VTOURIST_UPDATE_GOLDEN"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    if actual != expected {
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, e.count)
        XCTFail("\(name) differs from its golden file, first at row \(first):\nexpected: \(first < e.count ? String(e[first]) : "<none>")\nactual:   \(first < a.count ? String(a[first]) : "<none>")\n--- actual ---\n\(actual)", file: file, line: line)
    }
}
