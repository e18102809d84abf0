import Foundation
import TestSupport
import XCTest

/// The crash soak, short (`make soak` runs the long one): scripts/soak.py drives the release binary
/// in tmux against its own photo server and does every kind of action (drops, keyboard and mouse
/// drags, pin and photo deletions, New Collection, Add more, filters, renames on the map and in the
/// pins list, every settings field, `config set`, `drop` and `import` from the shell, a second
/// window, `W`), each waiting for its acknowledgment on screen or in the command's output, kills
/// every process with SIGKILL at random moments and restarts. After every kill the database must
/// hold what the user was told (the screen's names, coordinates and settings), nothing no action
/// asked for, and images byte for byte as the server sent them; at the end every album is whole.
final class SoakTests: XCTestCase {
    func testTenRoundsOfKillsLoseNothingAcknowledgedAndEveryAlbumCompletes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/soak.py").path
        var arguments = [script, "--rounds", "10", "--final-limit", "60", "--binary", try vtouristBinary()]
        // The seed is printed; VTOURIST_TEST_SEED replays a failure.
        if let seed = ProcessInfo.processInfo.environment["VTOURIST_TEST_SEED"], !seed.isEmpty {
            arguments += ["--seed", seed]
        }
        // A sanitized binary's options reach every process the script starts.
        let r = try runProcess("/usr/bin/python3", arguments, environment: toolEnvironment.merging(sanitizerPassThrough) { $1 })
        let whole = r.stdout + r.stderr
        print(whole)
        // What each assertion says: the failures, the last lines and the seed, short enough to read
        // whole at the end of a long log.
        let lines = whole.split(separator: "\n")
        let report = (lines.filter { $0.contains("!!") }.prefix(8) + lines.suffix(6)).joined(separator: "\n")
        let figures = Self.figures(r.stdout)
        XCTAssertEqual(r.status, 0, report)
        XCTAssertEqual(figures["rounds"], "10", report)
        XCTAssertGreaterThanOrEqual(Int(figures["kills"] ?? "") ?? 0, 10, "every round ends in a kill: \(report)")
        for zero in ["rows lost", "rows no action asked for", "resurrected rows", "images unlike what was served",
                     "actions not acknowledged", "renewals not on screen within 20 s", "crashes", "integrity failures",
                     "requests that would have left loopback"] {
            XCTAssertEqual(figures[zero], "0", "\(zero): \(report)")
        }
        XCTAssertEqual(figures["activity"], "ok", report)
        XCTAssertNotNil(figures["albums resumed"].flatMap { Int($0) }, report)
        XCTAssertFalse(figures["albums completed"]?.hasPrefix("NO") ?? true, report)
        // Every kind of action acknowledged at least once (the script's own minimum scales with the
        // rounds; this holds whatever it says), and every settings field changed.
        let done = Self.counts(figures["acknowledged"] ?? "")
        for kind in ["drop", "move", "mouse drag", "delete pin", "delete photo", "mark and delete", "New Collection",
                     "Add more", "filter save", "filter clear", "rename (map)", "rename (list)", "settings", "config set",
                     "shell drop", "import", "second window", "W save"] {
            XCTAssertGreaterThan(done[kind] ?? 0, 0, "\(kind): \(report)")
        }
        let fields = Self.counts(figures["settings fields"] ?? "")
        XCTAssertEqual(fields.count, 10, report)
        XCTAssertTrue(fields.values.allSatisfy { $0 > 0 }, report)
    }

    /// `11 drop, 3 move, 2 rename (map), …; 0 quits` as numbers by name.
    static func counts(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for part in text.split(separator: ";").first?.split(separator: ",") ?? [] {
            let words = part.split(separator: " ", maxSplits: 1)
            if words.count == 2, let n = Int(words[0]) { counts[String(words[1])] = n }
        }
        return counts
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

/// The soak's acknowledgments (`VTOURIST_TRACE`): each line names a committed row, as the database
/// has it.
final class TraceTests: EndToEndTestCase {
    func testTheTraceNamesEachPhotoAndImageThatDropWaitCommitted() throws {
        let dir = try temporaryDirectory().path
        let db = dir + "/trace.sqlite", trace = dir + "/trace.jsonl"
        let r = try cli(["drop", "48.85", "2.35", "--wait"], environment: ["VTOURIST_DB": db, "VTOURIST_TRACE": trace])
        XCTAssertEqual(r.status, 0, r.stderr)
        let pin = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let events = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        // The search's photos once, then each image: the pin itself is `drop`'s to acknowledge (its exit status).
        XCTAssertEqual(events.first?["event"] as? String, "replace")
        XCTAssertEqual(events.first?["pin"] as? Int, pin)
        let saved = (events.first?["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        XCTAssertFalse(saved.isEmpty, "\(events)")
        let images = events.dropFirst()
        XCTAssertEqual(images.map { $0["event"] as? String }, Array(repeating: "image", count: images.count))
        var traced: [Int: String] = [:]
        for e in images { traced[e["photo"] as? Int ?? -1] = e["hash"] as? String }
        XCTAssertEqual(Set(traced.keys), Set(saved), "every photo of the album stored, each acknowledged once")
        XCTAssertEqual(traced.count, images.count)
        // The database's bytes, read independently: CRC-32 and length, as the trace says them.
        let read = try runProcess("/usr/bin/python3", ["-c", """
            import json, sqlite3, sys, zlib
            rows = sqlite3.connect(sys.argv[1]).execute("SELECT photoId, bytes FROM photoImage")
            print(json.dumps({str(i): f"{zlib.crc32(b):08x}:{len(b)}" for i, b in rows}))
            """, db])
        XCTAssertEqual(read.status, 0, read.stderr)
        let stored = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: String])
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: stored.map { (Int($0.key) ?? -1, $0.value) }), traced)
    }

    func testNothingIsTracedWithoutTheVariable() throws {
        let dir = try temporaryDirectory().path
        let r = try cli(["drop", "48.85", "2.35", "--wait"], environment: ["VTOURIST_DB": dir + "/plain.sqlite"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix("plain.sqlite") }, [])
    }
}
