import Foundation
import TestSupport
import XCTest

/// The guard every end-to-end test stands on: processes see only the
/// environment the test builds, and a request for any host but loopback is
/// caught by the stand-in's trap (EndToEndTestCase fails the test then).
final class LoopbackGuardTests: EndToEndTestCase {
    /// A host that is not loopback; `.invalid` never resolves, should the trap ever miss.
    let elsewhere = "vtourist-leak-check.invalid"

    /// The environment with photo endpoints on another host and every proxy on `trap`.
    func leakyEnvironment(trap: PhotoServer, key: String? = nil) -> [String: String?] {
        var overrides: [String: String?] = [
            "VTOURIST_COMMONS_ENDPOINT": "https://\(elsewhere)/w/api.php",
            "VTOURIST_FLICKR_ENDPOINT": "https://api.\(elsewhere)/services/rest/",
        ]
        if let key { overrides["FLICKR_API_KEY"] = key }
        for name in proxyVariables { overrides[name] = trap.proxy }
        return overrides
    }

    func testTheTrapCatchesACommandLineRequestForAnotherHost() throws {
        // A trap of its own, so the leaks it is meant to catch don't fail this test.
        let trap = try PhotoServer()
        let db = try temporaryDirectory().appendingPathComponent("leak.sqlite").path
        let commons = try cli(["drop", "48.85", "2.35", "--wait", "--db", db], environment: leakyEnvironment(trap: trap))
        XCTAssertNotEqual(commons.status, 0, "the search reached \(elsewhere)?")
        XCTAssertTrue(trap.leaks().contains("CONNECT \(elsewhere):443"), "\(trap.leaks())")
        let flickr = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: leakyEnvironment(trap: trap, key: "k"))
        XCTAssertNotEqual(flickr.status, 0)
        XCTAssertTrue(trap.leaks().contains("CONNECT api.\(elsewhere):443"), "\(trap.leaks())")
        XCTAssertEqual(trap.stats()["requests"] ?? 0, 0, "the trap served a leaked request")
    }

    func testTheTrapCatchesTheAppInTmux() throws {
        let trap = try PhotoServer()
        let db = try temporaryDirectory().appendingPathComponent("leak.sqlite").path
        let t = try app(db, environment: leakyEnvironment(trap: trap))
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        let leaks = try waitFor("the pin's search to reach the trap") { trap.leaks().isEmpty ? nil : trap.leaks() }
        XCTAssertEqual(Set(leaks), ["CONNECT \(elsewhere):443"])
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    /// Whatever the caller exported (a key, a source, a proxy, NO_COLOR, its own HOME and PATH),
    /// the app sees exactly the test's environment. The caller is played by tmux itself: its
    /// server, and so the pane's shell that starts the app, runs with the exported variables
    /// (the test process's own environment is left alone).
    func testNothingOfTheCallersEnvironmentReachesTheApp() throws {
        let exported = ["FLICKR_API_KEY": "the-callers-key", "VTOURIST_SOURCE": "flickr", "https_proxy": "http://10.255.255.1:3128",
                        "NO_PROXY": "*", "NO_COLOR": "1", "XDG_DATA_HOME": "/nonexistent/xdg", "VTOURIST_DB": "/nonexistent/db.sqlite",
                        "HOME": "/nonexistent/callers-home", "PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "POSIX"]
        let db = try temporaryDirectory().appendingPathComponent("env.sqlite").path
        let built = environment(terminal: "tmux-256color")
        let t = try TmuxSession(command: [try vtouristBinary(), "--db", db], environment: built, callerEnvironment: exported)
        t.wait(forText: "? help")
        // The shell around the app has every exported variable...
        let shell = try environment(ofProcess: try XCTUnwrap(t.shellPID))
        for (name, value) in exported {
            XCTAssertEqual(shell[name], value, "the pane's shell lacks the caller's \(name)")
        }
        // ...and the app none of them: its environment is exactly the built one.
        let pid = try XCTUnwrap(t.appPID)
        XCTAssertEqual(try environment(ofProcess: pid), built)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    /// A process the tests start (tmux, the command line, tools) gets exactly the environment
    /// it is given, nothing of the test process's.
    func testAStartedProcessGetsOnlyItsGivenEnvironment() throws {
        let given = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "VTOURIST_ONLY_THIS": "yes"]
        let r = try runProcess("/usr/bin/env", ["-0"], environment: given)
        XCTAssertEqual(r.status, 0, r.stderr)
        var seen: [String: String] = [:]
        for entry in r.stdout.split(separator: "\0") {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            seen[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        XCTAssertEqual(seen, given)
    }

    func environment(ofProcess pid: Int32) throws -> [String: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
        var result: [String: String] = [:]
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let eq = text.firstIndex(of: "=") else { continue }
            result[String(text[..<eq])] = String(text[text.index(after: eq)...])
        }
        return result
    }
}
