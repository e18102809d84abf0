import Foundation
import XCTest

/// What the screen says is done is stored, on a slow disk: the release binary runs under strace with
/// every write SQLite makes (pwrite64 to the database and its WAL, fdatasync, fsync) held 200 ms, is
/// killed with SIGKILL the moment an acknowledgment is on screen, and the database, opened with
/// sqlite3 directly, must hold what was acknowledged.
final class SlowDiskAcknowledgmentTests: EndToEndTestCase {
    /// How long each write is held, in microseconds.
    static let delay = 200_000

    /// The app on the slow disk, in its own tmux.
    /// `environment`: overrides of the test's environment (endpoints that find no photos).
    private func slowApp(_ db: String, environment: [String: String?] = [:]) throws -> TmuxSession {
        let strace = ["/usr/bin/strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=pwrite64,fdatasync,fsync",
                      "-e", "inject=pwrite64,fdatasync,fsync:delay_enter=\(Self.delay)"]
        let app = try session(strace + [try vtouristBinary(), "--db", db], width: 140, height: 30, environment: environment)
        _ = try waitFor("the map") { app.screen().contains(" pin") ? true : nil }
        return app
    }

    /// Waits for `text` on screen and kills the app (not strace) with SIGKILL at once.
    private func killAt(_ text: String, _ app: TmuxSession, file: StaticString = #filePath, line: UInt = #line) throws {
        let screen: String
        do {
            screen = try waitFor("\(text) on screen", timeout: 30) { () -> String? in
                let s = app.screen()
                return s.contains(text) ? s : nil
            }
        } catch {
            throw TmuxError(message: "\(error); the screen: \(app.screen())")
        }
        let strace = try XCTUnwrap(app.appPID, "strace's process", file: file, line: line)
        let children = try String(contentsOfFile: "/proc/\(strace)/task/\(strace)/children", encoding: .utf8)
        let pid = try XCTUnwrap(children.split(separator: " ").first.flatMap { Int32($0) }, "the app's process", file: file, line: line)
        XCTAssertEqual(Foundation.kill(pid, SIGKILL), 0, file: file, line: line)
        XCTAssertNotNil(app.waitForExit(timeout: 20), "the app ended: \(screen)", file: file, line: line)
    }

    private func sql(_ db: String, _ query: String) throws -> String {
        let r = try runProcess("/usr/bin/sqlite3", [db, query], environment: environment())
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testEveryAcknowledgmentOnASlowDiskIsInTheDatabaseWhenTheAppIsKilledAtIt() throws {
        let db = try temporaryDirectory().appendingPathComponent("slow.sqlite").path
        // A pin with its whole album, stored at full speed.
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let pin = dropped.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try sql(db, "SELECT count(*) FROM photo WHERE pinID = \(pin)"), "21")

        // A photo deleted in the album.
        var app = try slowApp(db)
        try app.keys("Tab", "Enter")
        app.wait(forText: " 21 photos", timeout: 30)
        let first = try sql(db, "SELECT id || '|' || title FROM photo WHERE pinID = \(pin) ORDER BY position LIMIT 1")
        let (photo, title) = (first.prefix { $0 != "|" }, first.drop { $0 != "|" }.dropFirst())
        try app.keys("x")
        try killAt("Deleted \u{201C}\(title)\u{201D}.", app)
        XCTAssertEqual(try sql(db, "SELECT count(*) FROM photo WHERE pinID = \(pin)"), "20")
        XCTAssertEqual(try sql(db, "SELECT count(*) FROM photo WHERE id = \(photo)"), "0")

        // The pin renamed.
        app = try slowApp(db)
        try app.keys("Tab", "R", "C-u")
        try app.type("Hut")
        try app.keys("Enter")
        try killAt("to \u{201C}Hut\u{201D}.", app)
        XCTAssertEqual(try sql(db, "SELECT ownName FROM pin WHERE id = \(pin)"), "Hut")

        // A pin dropped away from the first. Its album finds nothing (a closed port): deleting a pin
        // with a whole album writes hundreds of pages, a minute on this disk.
        let noPhotos = ["VTOURIST_FLICKR_ENDPOINT": "http://127.0.0.1:9/flickr/rest",
                        "VTOURIST_COMMONS_ENDPOINT": "http://127.0.0.1:9/commons/api.php"]
        app = try slowApp(db, environment: noPhotos)
        try app.keys("g")
        try app.type("48.85, 2.35")
        try app.keys("Enter", "p")
        try killAt("Pin dropped at", app)
        XCTAssertEqual(try sql(db, "SELECT count(*) FROM pin"), "2")

        // The new pin deleted (the dialog's yes), gone to by its coordinates.
        app = try slowApp(db, environment: noPhotos)
        let second = try sql(db, "SELECT id FROM pin WHERE id != \(pin)")
        try app.keys("g")
        try app.type("48.85, 2.35")
        try app.keys("Enter")
        try app.keys("x", "y")
        try killAt("Deleted pin \u{201C}", app)
        XCTAssertEqual(try sql(db, "SELECT count(*) FROM pin WHERE id = \(second)"), "0")
        XCTAssertEqual(try sql(db, "SELECT id FROM pin"), pin)

        // A setting: photos per collection 21 → 5.
        app = try slowApp(db)
        try app.keys("s", "Down", "Down", "Down", "Enter", "BSpace", "BSpace", "5", "Enter")
        try killAt("Saved: photos per collection 5.", app)
        XCTAssertEqual(try cli(["config", "get", "photos_per_collection", "--db", db]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines), "5")
        XCTAssertEqual(try sql(db, "PRAGMA integrity_check"), "ok")
    }
}
