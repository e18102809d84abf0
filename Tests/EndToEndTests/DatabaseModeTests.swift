import Foundation
import XCTest

/// SPEC 2.3: the database holds the Flickr key, so a first run under the usual umask makes it
/// 0600 in a 0700 folder, and an older file others could read is tightened with a note.
final class DatabaseModeTests: EndToEndTestCase {
    /// `vtourist ARGUMENTS` under umask 022, with the test's own environment.
    func cliUnderUmask022(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let command = "umask 022; exec \"$0\" \"$@\""
        return try runProcess("/bin/sh", ["-c", command, try vtouristBinary()] + arguments, environment: environment())
    }

    func mode(_ path: String) throws -> String {
        let r = try runProcess("/usr/bin/stat", ["-c", "%a", path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAFirstCommandMakesAPrivateFileInAPrivateFolder() throws {
        let dir = try temporaryDirectory().path
        let db = dir + "/sub/x.sqlite"
        let r = try cliUnderUmask022(["config", "set", "allow_drag", "on", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(try mode(dir + "/sub"), "700")
        XCTAssertEqual(try mode(db), "600")
        // A write leaves a WAL behind only while open; closed, the file keeps its mode.
        let drop = try cliUnderUmask022(["drop", "10", "20", "--db", db])
        XCTAssertEqual(drop.status, 0, drop.stderr)
        XCTAssertEqual(try mode(db), "600")
        XCTAssertEqual(try mode(dir), "755", "a folder vtourist did not create keeps its mode")
    }

    func testTheDefaultDatabaseFolderIsPrivate() throws {
        let r = try runProcess("/bin/sh", ["-c", "umask 022; exec \"$0\" \"$@\"", try vtouristBinary(), "config", "set", "allow_drag", "on"],
                               environment: environment(["VTOURIST_DB": nil, "XDG_DATA_HOME": nil]))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try mode(home + "/.local/share/vtourist"), "700")
        XCTAssertEqual(try mode(home + "/.local/share/vtourist/vtourist.sqlite"), "600")
    }

    func testAReadableFileIsTightenedWithANote() throws {
        let dir = try temporaryDirectory().path
        let db = dir + "/x.sqlite"
        XCTAssertEqual(try cliUnderUmask022(["drop", "10", "20", "--db", db]).status, 0)
        chmod(db, 0o644)
        let r = try cliUnderUmask022(["pins", "--json", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "vtourist: \(db) was readable by other users (mode 0644); it can hold the Flickr API key, "
                       + "so it is now 0600\n")
        XCTAssertEqual(try JSONDecoder().decode([PinRow].self, from: Data(r.stdout.utf8)).count, 1)
        XCTAssertEqual(try mode(db), "600")
        let again = try cliUnderUmask022(["pins", "--db", db])
        XCTAssertEqual(again.stderr, "", "said once")
    }

    /// The full-screen app shows the note on its status line (stderr is under curses' screen).
    func testTheAppSaysSoOnItsStatusLine() throws {
        let dir = try temporaryDirectory().path
        let db = dir + "/x.sqlite"
        XCTAssertEqual(try cliUnderUmask022(["config", "set", "allow_drag", "on", "--db", db]).status, 0)
        chmod(db, 0o640)
        let t = try app(db, width: 200)
        t.wait(forText: "was readable by other users (mode 0640)")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
        XCTAssertEqual(try mode(db), "600")
    }
}
