import Foundation
import TestSupport
import XCTest

/// SPEC 8 for this release: small terminals, resizes, locales, terminals
/// without colour, bad databases, two instances, bad coordinates.
final class BadInputTests: EndToEndTestCase {
    func newDatabase() throws -> String {
        try temporaryDirectory().appendingPathComponent("vt.sqlite").path
    }

    func testTooSmallTerminalSaysSoAndRecovers() throws {
        let t = try app(try newDatabase(), width: 30, height: 10)
        t.wait(forText: "Terminal too small")
        try t.keys("p")  // ignored while too small
        try t.resize(width: 90, height: 26)
        let screen = t.wait(forText: "? help")
        XCTAssertFalse(screen.contains("Terminal too small"))
        XCTAssertTrue(screen.contains("0 pins"), screen)
        try t.resize(width: 39, height: 20)
        t.wait(forText: "Terminal too small")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testResizeInTheMiddleOfADialogAndADrag() throws {
        let db = try newDatabase()
        let t = try app(db)
        t.wait(forText: "? help")
        try t.keys("g")
        try t.type("Par")
        t.wait(forText: "Paris")
        try t.resize(width: 60, height: 16)
        t.wait(for: "the prompt after a resize") { $0.contains("Go to") && $0.contains("> Par") }
        try t.resize(width: 120, height: 40)
        t.wait(for: "the prompt after a second resize") { $0.contains("Go to") && $0.contains("> Par") }
        try t.keys("Escape")
        t.wait(for: "the prompt to close") { !$0.contains("Go to") }

        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("m")
        t.wait(forText: "MOVING PIN")
        try t.resize(width: 70, height: 20)
        t.wait(forText: "MOVING PIN")
        try t.keys("l", "Enter")
        try t.answerMoveIfAsked()
        t.wait(for: "the drop") { !$0.contains("MOVING PIN") && $0.contains("1 pin ") }
        try t.resize(width: 20, height: 8)
        t.wait(forText: "too small")
        try t.resize(width: 100, height: 30)
        t.wait(forText: "1 pin ")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testNonUTF8LocaleDrawsASCII() throws {
        let t = try app(try newDatabase(), environment: ["LANG": "C", "LC_ALL": "C"])
        let screen = t.wait(forText: "? help")
        XCTAssertTrue(screen.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII on a C locale:\n\(screen)")
        XCTAssertTrue(screen.contains("|"), screen)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testNoColourTerminalsStillWork() throws {
        // The check below sees colours where there are some.
        let coloured = try app(try newDatabase())
        coloured.wait(forText: "? help")
        XCTAssertFalse(colourSGRs(coloured.screenWithEscapes()).isEmpty, "no colour found on a colour terminal")
        try coloured.keys("q")
        XCTAssertEqual(coloured.waitForExit(), 0)

        for env in [["NO_COLOR": "1"], ["TERM": "vt100"]] {
            let t = try app(try newDatabase(), environment: env)
            let screen = t.wait(forText: "? help")
            let colours = colourSGRs(t.screenWithEscapes())
            XCTAssertEqual(colours, [], "colour output with \(env)")
            XCTAssertTrue(screen.contains("z"), screen)
            try t.keys("p")
            t.wait(forText: "1 pin ")
            // vt100 reports no mouse at all: every screen works from the keys.
            try t.keys("Enter")
            t.wait(forText: "New Collection")
            try t.keys("Escape", "s")
            t.wait(forText: "Photos per collection")
            try t.keys("Escape", "q")
            XCTAssertEqual(t.waitForExit(), 0, "\(env)")
        }
    }

    /// In a real terminal (tmux) that says it is `dumb`: the app does not start, and says why on one line.
    func testDumbTerminalGetsAClearMessage() throws {
        let message = "vtourist: The terminal type TERM=dumb is unknown or cannot move the cursor; "
            + "try TERM=xterm-256color (or install ncurses-term for more terminal types)."
        let t = try app(try newDatabase(), width: 200, height: 10, environment: ["TERM": "dumb"])
        XCTAssertEqual(t.waitForExit(), 1)
        let lines = t.screen().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        XCTAssertEqual(lines, [message])
    }

    func testGoToOutOfRangeCoordinatesShowAMessageAndNothingMoves() throws {
        let t = try app(try newDatabase())
        let status = statusLine(t.wait(forText: "? help"))
        try t.keys("g")
        try t.type("95, 200")
        try t.keys("Enter")
        t.wait(forText: "Latitude")
        XCTAssertTrue(t.screen().contains("Go to"))
        try t.keys("Escape")
        let after = t.wait(for: "the prompt to close") { !$0.contains("Go to") }
        XCTAssertEqual(coordinates(statusLine(after)), coordinates(status))
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testTwoInstancesOnOneDatabase() throws {
        let db = try newDatabase()
        let a = try app(db)
        let b = try app(db)
        a.wait(forText: "? help")
        b.wait(forText: "? help")
        try a.keys("p")
        try b.keys("l", "l", "l", "l", "l", "l", "p")
        // Each sees the other's pin within the poll interval.
        a.wait(forText: "2 pins")
        b.wait(forText: "2 pins")
        try a.keys("q")
        try b.keys("q")
        XCTAssertEqual(a.waitForExit(), 0)
        XCTAssertEqual(b.waitForExit(), 0)
        XCTAssertEqual(try pins(db: db).count, 2)
    }

    // MARK: - Bad databases: one line on stderr before the screen is taken, file untouched.

    func assertRefused(_ path: String, mentioning words: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let before = FileManager.default.fileExists(atPath: path) ? try sha256(path) : nil
        let listing = directoryListing(dir)
        for args in [["--db", path], ["pins", "--db", path]] {
            let r = try cli(args, environment: ["TERM": "xterm-256color"])
            XCTAssertNotEqual(r.status, 0, "\(args) accepted \(path)", file: file, line: line)
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "not one line: \(r.stderr)", file: file, line: line)
            XCTAssertTrue(r.stderr.hasPrefix("vtourist: "), r.stderr, file: file, line: line)
            for w in words {
                XCTAssertTrue(r.stderr.lowercased().contains(w.lowercased()), "\(r.stderr) lacks \(w)", file: file, line: line)
            }
            XCTAssertFalse(r.stdout.contains("\u{1B}["), "the screen was taken", file: file, line: line)
        }
        if let before { XCTAssertEqual(try sha256(path), before, "the file changed", file: file, line: line) }
        XCTAssertEqual(directoryListing(dir), listing, "files appeared or vanished", file: file, line: line)
    }

    func testADirectoryInsteadOfADatabase() throws {
        let dir = try temporaryDirectory().appendingPathComponent("folder.sqlite")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try assertRefused(dir.path, mentioning: [dir.path])
    }

    func testAFileThatIsNotADatabase() throws {
        let path = try temporaryDirectory().appendingPathComponent("notes.sqlite").path
        try Data("these are my holiday notes, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        try assertRefused(path, mentioning: [path])
    }

    func testACorruptDatabase() throws {
        let db = try newDatabase()
        try makeEmptyDatabase(db)
        // Keep SQLite's header, wreck the pages after it.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        for i in 100..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
        try bytes.write(to: URL(fileURLWithPath: db))
        try assertRefused(db, mentioning: [db])
    }

    func testADatabaseFromANewerVersion() throws {
        let db = try newDatabase()
        try makeEmptyDatabase(db)
        let r = try runProcess("/usr/bin/sqlite3", [db, "INSERT INTO grdb_migrations VALUES ('v99-from-the-future');"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertRefused(db, mentioning: ["newer"])
    }

    func testAParentThatIsAFile() throws {
        let file = try temporaryDirectory().appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        try assertRefused(file.appendingPathComponent("vt.sqlite").path, mentioning: [file.path])
    }
}

/// The mouse, as a terminal reports it (X10 encoding, which the app's
/// terminfo entry asks for): click, wheel, press and hold.
final class MouseTests: EndToEndTestCase {
    func mouse(_ button: Int, x: Int, y: Int) -> String {
        String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + x))) + String(UnicodeScalar(UInt8(33 + y)))
    }

    func testClickWheelAndHold() throws {
        let db = try temporaryDirectory().appendingPathComponent("mouse.sqlite").path
        let t = try app(db)
        let first = statusLine(t.wait(forText: "? help"))
        // Click at (10, 5): press then release.
        try t.type("\u{1B}[M" + mouse(0, x: 10, y: 5))
        try t.type("\u{1B}[M" + mouse(3, x: 10, y: 5))
        var screen = t.wait(for: "the click to move the cursor") { coordinates(statusLine($0)) != coordinates(first) }
        XCTAssertTrue(screen.contains("0 pins"), "a click dropped a pin:\n\(screen)")
        let zoom = zoomLevel(statusLine(screen))
        // Wheel up zooms in.
        try t.type("\u{1B}[M" + mouse(64, x: 10, y: 5))
        screen = t.wait(for: "the wheel to zoom") { zoomLevel(statusLine($0)) == zoom.map { $0 + 1 } }
        // Press, hold for more than half a second, release: a pin. The hold is
        // timed from the moment the screen shows the press arrived (the cursor
        // jumps there), so the app's own press time is earlier still.
        let beforePress = coordinates(statusLine(screen))
        try t.type("\u{1B}[M" + mouse(0, x: 20, y: 8))
        screen = t.wait(for: "the press to move the cursor") { coordinates(statusLine($0)) != beforePress }
        XCTAssertTrue(screen.contains("0 pins"), "a press alone dropped a pin:\n\(screen)")
        Thread.sleep(forTimeInterval: 0.6)  // the user's hold itself, not a wait for the app
        try t.type("\u{1B}[M" + mouse(3, x: 20, y: 8))
        t.wait(forText: "1 pin ")
        XCTAssertEqual(try pins(db: db).count, 1)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    /// A pin picked up with `m` follows the mouse and is put down where the button comes up, on any
    /// row: a report on row 26 ends in `;` (33 + 26), which tmux takes for the end of its command unless
    /// it goes escaped, and a lost byte once left the soak's pin held for good.
    func testAPinPickedUpWithTheKeyIsCarriedAndPutDownWithTheMouse() throws {
        let db = try temporaryDirectory().appendingPathComponent("mouse.sqlite").path
        let t = try app(db)
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        let dropped = try XCTUnwrap(pins(db: db).first)
        try t.keys("m")
        let picked = statusLine(t.wait(forText: "MOVING PIN"))
        // Each report read before the next is written, as a hand makes them: ncurses gives reports that
        // reach the app in one read as one event, their last (docs/reliability.md, "Found on the way").
        for (button, x) in [(0, 30), (32, 31), (32, 32)] {
            try t.type("\u{1B}[M" + mouse(button, x: x, y: 26))
            t.waitUntilInputIsRead()
        }
        let carried = t.wait(for: "the pin to follow the mouse") { coordinates(statusLine($0)) != coordinates(picked) }
        try t.type("\u{1B}[M" + mouse(3, x: 32, y: 26))
        let screen = t.wait(for: "the pin to be put down or the move asked about") { $0.contains("Move?") || $0.contains("Moved;") }
        if screen.contains("Move?") { try t.keys("y") }
        let status = statusLine(t.wait(forText: "Moved;"))
        XCTAssertFalse(t.screen().contains("MOVING PIN"))
        let shown = try XCTUnwrap(parseCoordinates(status), status)
        let stored = try XCTUnwrap(pins(db: db).first)
        XCTAssertEqual(stored.latitude, shown.latitude, accuracy: 0.00005 + 1e-9, "\(carried)")
        XCTAssertEqual(stored.longitude, shown.longitude, accuracy: 0.00005 + 1e-9)
        XCTAssertNotEqual(stored.longitude, dropped.longitude, "the pin did not move")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}

/// Permissions bite only for an ordinary user; as root (CI) the binary runs
/// as `nobody` through setpriv.
final class PermissionTests: EndToEndTestCase {
    func testReadOnlyDirectoryAndReadOnlyFile() throws {
        let dir = try temporaryDirectory()
        chmod(dir.path, 0o755)
        // A copy of the binary that `nobody` may run.
        let bin = dir.appendingPathComponent("vtourist").path
        try FileManager.default.copyItem(atPath: try vtouristBinary(), toPath: bin)
        // What `nobody` imports: opening the database for writing is what is refused.
        let empty = dir.appendingPathComponent("empty.geojson").path
        try Data(emptyPinFile.utf8).write(to: URL(fileURLWithPath: empty))
        let roDir = dir.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: roDir, withIntermediateDirectories: true)
        let db = roDir.appendingPathComponent("vt.sqlite").path
        try makeEmptyDatabase(db)
        let rwDir = dir.appendingPathComponent("rw")
        try FileManager.default.createDirectory(at: rwDir, withIntermediateDirectories: true)
        let roFile = rwDir.appendingPathComponent("vt.sqlite").path
        try makeEmptyDatabase(roFile)
        chmod(roDir.path, 0o555)
        chmod(db, 0o644)
        chmod(rwDir.path, 0o777)
        chmod(roFile, 0o444)

        for (path, word) in [(db, "read-only"), (roFile, "read-only"), (roDir.appendingPathComponent("new.sqlite").path, "read-only")] {
            let folder = (path as NSString).deletingLastPathComponent
            let before = FileManager.default.fileExists(atPath: path) ? try sha256(path) : nil
            let listing = directoryListing(folder)
            let r: (status: Int32, stdout: String, stderr: String)
            if getuid() == 0 {
                r = try runProcess("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", bin, "import", empty, "--db", path],
                                   environment: environment(["HOME": "/"]))
            } else {
                r = try runProcess(bin, ["import", empty, "--db", path], environment: environment())
            }
            XCTAssertNotEqual(r.status, 0, "accepted \(path)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("vtourist: cannot "), r.stderr)
            XCTAssertTrue(r.stderr.contains(word), r.stderr)
            if let before { XCTAssertEqual(try sha256(path), before) }
            XCTAssertEqual(directoryListing(folder), listing)
        }
        chmod(roDir.path, 0o755)
    }
}

/// Every SGR sequence on a captured screen that sets a colour: 30–37, 38;…,
/// 40–47, 48;…, 90–97, 100–107 (39 and 49, back to the default, are not colours).
func colourSGRs(_ screen: String) -> [String] {
    let colour = Set(Array(30...38) + Array(40...48) + Array(90...97) + Array(100...107))
    var found: [String] = []
    var rest = Substring(screen)
    while let start = rest.range(of: "\u{1B}[") {
        let body = rest[start.upperBound...].prefix { $0.isNumber || $0 == ";" || $0 == ":" }
        rest = rest[body.endIndex...]
        guard rest.first == "m" else { continue }
        // Any colour parameter makes it a colour sequence (38;… and 48;… whatever follows).
        let params = body.split(whereSeparator: { $0 == ";" || $0 == ":" }).map { Int($0) ?? 0 }
        if params.contains(where: colour.contains) { found.append("ESC[" + body + "m") }
    }
    return found
}
