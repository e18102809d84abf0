import Foundation
import TestSupport
import XCTest

/// A database the user may read but not write: the commands that only read work, the ones that
/// change something are refused with one line, and nothing is written. Permissions bite only for
/// an ordinary user; as root (CI) every command runs as `nobody` through setpriv.
final class ReadOnlyDatabaseTests: EndToEndTestCase {
    /// A folder `nobody` may enter, with a copy of the binary and its data that `nobody` may run
    /// (the checkout may sit in a private folder), and a database with one downloaded album.
    struct Setup {
        var dir: URL
        var bin: String
        var db: String
    }

    /// With `interrupted`, a second pin's album is left downloading (dropped without --wait).
    func setUp(folderMode: mode_t, fileMode: mode_t, interrupted: Bool = false) throws -> Setup {
        let dir = try temporaryDirectory()
        chmod(dir.path, 0o755)
        let binDir = dir.appendingPathComponent("bin")
        let share = dir.appendingPathComponent("share/vtourist")
        try FileManager.default.createDirectory(at: binDir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let bin = binDir.appendingPathComponent("vtourist").path
        try FileManager.default.copyItem(atPath: try vtouristBinary(), toPath: bin)
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources")
        for name in ["world.vtmap", "places.vtgaz"] {
            try FileManager.default.copyItem(at: resources.appendingPathComponent(name), to: share.appendingPathComponent(name))
        }
        let folder = dir.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let db = folder.appendingPathComponent("vt.sqlite").path
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        XCTAssertEqual(try cli(["config", "set", "photos_per_collection", "12", "--db", db]).status, 0)
        if interrupted { XCTAssertEqual(try cli(["drop", "10", "20", "--db", db]).status, 0) }
        // Made by root: given to nobody's reach, then taken back by the modes.
        chmod(db, fileMode)
        chmod(folder.path, folderMode)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        chmod(out.path, 0o777)
        return Setup(dir: dir, bin: bin, db: db)
    }

    /// Runs the copied binary as `nobody` (as this user when not root).
    func asOtherUser(_ setup: Setup, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let env = environment(["HOME": "/", "VTOURIST_DB": setup.db])
        if getuid() == 0 {
            return try runProcess("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", setup.bin] + arguments,
                                  environment: env)
        }
        return try runProcess(setup.bin, arguments, environment: env)
    }

    func assertReadsWorkAndWritesAreRefused(_ setup: Setup, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = (setup.db as NSString).deletingLastPathComponent
        let before = try sha256(setup.db)
        let listing = directoryListing(folder)

        let listed = try asOtherUser(setup, ["pins", "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr, file: file, line: line)
        XCTAssertEqual(listed.stderr, "", file: file, line: line)
        let rows = try JSONDecoder().decode([PinRow].self, from: Data(listed.stdout.utf8))
        XCTAssertEqual(rows.map(\.photos), [21], file: file, line: line)
        XCTAssertEqual(rows.map(\.downloaded), [21], file: file, line: line)

        let table = try asOtherUser(setup, ["pins"])
        XCTAssertEqual(table.status, 0, table.stderr, file: file, line: line)
        XCTAssertTrue(table.stdout.contains("ready"), table.stdout, file: file, line: line)

        let album = try asOtherUser(setup, ["album", "1", "--json"])
        XCTAssertEqual(album.status, 0, album.stderr, file: file, line: line)
        let object = try JSONSerialization.jsonObject(with: Data(album.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((object?["photos"] as? [Any])?.count, 21, file: file, line: line)

        let saveDir = setup.dir.appendingPathComponent("out/album").path
        let saved = try asOtherUser(setup, ["album", "1", "--save", saveDir])
        XCTAssertEqual(saved.status, 0, saved.stderr, file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: saveDir + "/index.html"), file: file, line: line)

        for format in ["geojson", "gpx"] {
            let exported = try asOtherUser(setup, ["export", "--format", format])
            XCTAssertEqual(exported.status, 0, exported.stderr, file: file, line: line)
            XCTAssertTrue(exported.stdout.contains("40.85"), exported.stdout, file: file, line: line)
        }

        let config = try asOtherUser(setup, ["config"])
        XCTAssertEqual(config.status, 0, config.stderr, file: file, line: line)
        XCTAssertTrue(config.stdout.contains("photos_per_collection"), config.stdout, file: file, line: line)
        let got = try asOtherUser(setup, ["config", "get", "photos_per_collection"])
        XCTAssertEqual(got.status, 0, got.stderr, file: file, line: line)
        XCTAssertTrue(got.stdout.contains("12"), got.stdout, file: file, line: line)

        // What would change the database is refused, one line naming it, as before.
        for words in [["config", "set", "source", "commons"], ["config", "unset", "photos_per_collection"],
                      ["drop", "10", "20"], ["rename", "1", "Home"]] {
            let r = try asOtherUser(setup, words)
            XCTAssertEqual(r.status, 1, "\(words): \(r.stderr)", file: file, line: line)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
            XCTAssertTrue(r.stderr.hasPrefix("vtourist: cannot open database \(setup.db): "), r.stderr, file: file, line: line)
            XCTAssertTrue(r.stderr.contains("read-only"), r.stderr, file: file, line: line)
        }
        XCTAssertEqual(try sha256(setup.db), before, "the database changed", file: file, line: line)
        XCTAssertEqual(directoryListing(folder), listing, "files appeared beside the database", file: file, line: line)
    }

    func testAReadOnlyFileIsListed() throws {
        try assertReadsWorkAndWritesAreRefused(try setUp(folderMode: 0o777, fileMode: 0o444))
    }

    func testADatabaseInAReadOnlyFolderIsListed() throws {
        try assertReadsWorkAndWritesAreRefused(try setUp(folderMode: 0o555, fileMode: 0o666))
    }

    /// The app opens it, says on the message line that nothing will be saved, and a pin dropped
    /// then is refused on the message line, not shown as saved. An album left downloading is shown
    /// as stored: taking it up would be a write.
    func testTheAppOpensItAndSaysNothingWillBeSaved() throws {
        let setup = try setUp(folderMode: 0o777, fileMode: 0o444, interrupted: true)
        let before = try sha256(setup.db)
        let command = getuid() == 0
            ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", setup.bin, "--db", setup.db]
            : [setup.bin, "--db", setup.db]
        let t = try session(command, width: 200, environment: ["HOME": "/"])
        t.wait(forText: "The database \(setup.db) is read-only for this user: nothing you change will be saved.")
        t.wait(forText: "2 pins")
        try t.keys("Right", "Right", "Right", "p")
        t.wait(forText: "Could not save: cannot save in database \(setup.db): it is read-only for this user")
        XCTAssertFalse(t.screen().contains("3 pins"), t.screen())
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
        XCTAssertEqual(try sha256(setup.db), before, "the database changed")
        // The log beside the database has every failure the message line showed: the drop's, and no take-up.
        let log = try String(contentsOfFile: (setup.db as NSString).deletingLastPathComponent + "/vtourist.log", encoding: .utf8)
        XCTAssertTrue(log.contains("Could not save: cannot save in database"), log)
        XCTAssertFalse(log.contains("take up"), log)
    }
}
