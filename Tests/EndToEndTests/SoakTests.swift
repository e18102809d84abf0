import Foundation
import TestSupport
import XCTest

/// The crash soak, short (`make soak` runs the long one): scripts/soak.py drives the release binary
/// in pseudo-terminals against its own photo server, drops, drags and deletes pins, opens albums,
/// presses `n` and `x`, kills every process with SIGKILL at random moments (a second app and
/// `vtourist drop` among them) and restarts; after every kill the database must be intact with
/// nothing lost and nothing deleted back, and at the end every album must complete.
final class SoakTests: XCTestCase {
    func testTenRoundsOfKillsLoseNothingAndEveryAlbumCompletes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/soak.py").path
        var arguments = [script, "--rounds", "10", "--final-limit", "60", "--binary", try vtouristBinary()]
        // The seed is printed; VTOURIST_TEST_SEED replays a failure.
        if let seed = ProcessInfo.processInfo.environment["VTOURIST_TEST_SEED"], !seed.isEmpty {
            arguments += ["--seed", seed]
        }
        let started = Date()
        let r = try runProcess("/usr/bin/python3", arguments)
        let report = r.stdout + r.stderr
        print(report)
        let figures = Self.figures(r.stdout)
        XCTAssertEqual(r.status, 0, report)
        XCTAssertEqual(figures["rounds"], "10", report)
        XCTAssertGreaterThanOrEqual(Int(figures["kills"] ?? "") ?? 0, 10, "every round ends in a kill: \(report)")
        XCTAssertEqual(figures["rows lost"], "0", report)
        XCTAssertEqual(figures["resurrected rows"], "0", report)
        XCTAssertEqual(figures["crashes"], "0", report)
        XCTAssertEqual(figures["integrity failures"], "0", report)
        XCTAssertNotNil(figures["albums resumed"].flatMap { Int($0) }, report)
        XCTAssertFalse(figures["albums completed"]?.hasPrefix("NO") ?? true, report)
        XCTAssertEqual(figures["requests that would have left loopback"], "0", report)
        // Its length is reported, never asserted: a loaded machine is slower, not wrong.
        print(String(format: "SoakTests: 10 rounds in %.1f s", Date().timeIntervalSince(started)))
    }

    /// `name: value` lines of the summary.
    static func figures(_ output: String) -> [String: String] {
        var figures: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            figures[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return figures
    }
}
