import Foundation
import XCTest

/// What every command shares: global options before or after the subcommand, read-only
/// commands that never create a database, PIN as an id or a name, and one-line messages.
final class CommandLineTests: EndToEndTestCase {
    var folder = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try temporaryDirectory().path
    }

    // MARK: Global options

    func testTheDatabaseOptionWorksBeforeTheSubcommand() throws {
        let db = folder + "/before.sqlite"
        let file = folder + "/pins.geojson"
        try Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"name":"Paris"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let imported = try cli(["--db", db, "import", file])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stderr, "added 1 pin, skipped 0 duplicates, 0 not points\n")
        let commands: [[String]] = [
            ["--db", db, "pins", "--json"], ["--db=\(db)", "pins", "--json"], ["pins", "--json", "--db", db],
            ["--db", db, "album", "1", "--json"], ["--db=\(db)", "export"],
            ["--db", db, "drop", "-33.9", "151.2"], ["--db", db, "config", "set", "area_half_width", "0.25"],
            ["--db", db, "config", "get", "area_half_width"], ["config", "--db", db, "get", "area_half_width"],
            ["--db", db, "config", "--json"],
        ]
        for arguments in commands {
            let r = try cli(arguments)
            XCTAssertEqual(r.status, 0, "\(arguments): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("unexpected"), "\(arguments): \(r.stderr)")
        }
        let listed = try pins(db: db)
        XCTAssertEqual(listed.count, 2)
        XCTAssertEqual(listed.first?.name, "Paris")
        XCTAssertEqual(try cli(["config", "get", "area_half_width", "--db", db]).stdout, "0.25\n")
        // Nothing went to the database VTOURIST_DB names.
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/default.sqlite"))
        // VTOURIST_DB still works without the option.
        let variable = try cli(["pins", "--json"], environment: ["VTOURIST_DB": db])
        XCTAssertEqual(variable.status, 0, variable.stderr)
        XCTAssertEqual(try JSONDecoder().decode([PinRow].self, from: Data(variable.stdout.utf8)).count, 2)
        // A command that takes no database ignores the option.
        let render = try cli(["--db", db, "render", folder + "/missing.jpg"])
        XCTAssertEqual(render.stderr, "vtourist: cannot read \(folder)/missing.jpg: no such file\n")
    }

    // MARK: Read-only commands

    func testReadOnlyCommandsNeverCreateADatabase() throws {
        for path in [folder + "/none.sqlite", folder + "/sub/dir/none.sqlite"] {
            for arguments in [["pins"], ["pins", "--json"], ["album", "1"], ["album", "Paris", "--json"], ["export"],
                              ["export", "--format", "gpx"]] {
                let r = try cli(arguments + ["--db", path])
                XCTAssertEqual(r.status, 1, "\(arguments)")
                XCTAssertEqual(r.stdout, "", "\(arguments)")
                XCTAssertEqual(r.stderr, "vtourist: no database at \(path): nothing has been stored there yet\n", "\(arguments)")
            }
        }
        // The settings of no database are the defaults; none is made to show them.
        let path = folder + "/sub/none.sqlite"
        let listed = try cli(["config", "--db", path])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("photos_per_collection  21         default"), listed.stdout)
        XCTAssertEqual(try cli(["config", "get", "source", "--json", "--db", path]).status, 0)
        XCTAssertEqual(try cli(["config", "unset", "source", "--db", path]).stdout, "source = commons (default)\n")
        // Also the default database, with its folders.
        let r = try cli(["pins"], environment: ["VTOURIST_DB": nil, "XDG_DATA_HOME": nil])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("vtourist: no database at \(home)/.local/share/vtourist/vtourist.sqlite"), r.stderr)
        XCTAssertEqual(try cli(["config"], environment: ["VTOURIST_DB": nil, "XDG_DATA_HOME": nil]).status, 0)
        XCTAssertEqual(directoryListing(folder), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.local"))
    }

    // MARK: PIN

    func testAPinIsItsIdOrItsNameInAnyCase() throws {
        let db = folder + "/named.sqlite"
        for words in [["Naples"], ["48.85", "2.35"], ["40.85", "14.27"]] {
            let r = try cli(["drop", "--db", db] + words)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let listed = try pins(db: db)
        XCTAssertEqual(listed[0].name, listed[2].name, "the test needs two pins of one name")
        let paris = try XCTUnwrap(listed[1].name)
        for pin in ["2", paris, paris.uppercased(), paris.lowercased(), "  \(paris) "] {
            let r = try cli(["album", pin, "--json", "--db", db])
            XCTAssertEqual(r.status, 0, "\(pin): \(r.stderr)")
            let album = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            XCTAssertEqual((album["pin"] as? [String: Any])?["id"] as? Int, 2, pin)
        }
        let shared = try XCTUnwrap(listed[0].name)
        let ambiguous = try cli(["album", shared.lowercased(), "--db", db])
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertEqual(ambiguous.stdout, "")
        XCTAssertEqual(ambiguous.stderr, "vtourist: 2 pins are called \u{201C}\(shared.lowercased())\u{201D} (ids 1, 3); give the id of one\n")
        // By id, the ambiguity does not matter.
        XCTAssertEqual(try cli(["album", "3", "--db", db]).status, 0)
        let cases: [(pin: String, status: Int32, message: String)] = [
            ("99", 1, "vtourist: no pin 99 (see `vtourist pins`)\n"),
            ("Atlantis", 1, "vtourist: no pin called \u{201C}Atlantis\u{201D} (see `vtourist pins`)\n"),
            ("Par", 1, "vtourist: no pin called \u{201C}Par\u{201D} (see `vtourist pins`)\n"),
            ("0", 1, "vtourist: no pin 0 (see `vtourist pins`)\n"),
            ("", 64, "vtourist: no pin given: give its id or its name (see `vtourist pins`)\n"),
            ("bad\u{1B}[31mname", 1, "vtourist: no pin called \u{201C}badname\u{201D} (see `vtourist pins`)\n"),
        ]
        for c in cases {
            let r = try cli(["album", c.pin, "--db", db])
            XCTAssertEqual(r.status, c.status, c.pin)
            XCTAssertEqual(r.stdout, "", c.pin)
            XCTAssertEqual(r.stderr, c.message, c.pin)
        }
    }

    func testAPinWithoutANameIsCalledTheSameEverywhere() throws {
        let db = folder + "/nameless.sqlite"
        // Mid-Atlantic: no place near enough to name the pin.
        XCTAssertEqual(try cli(["drop", "0", "-30", "--db", db]).status, 0)
        XCTAssertNil(try pins(db: db).first?.name)
        let shown = "Pin at 0.0000, -30.0000"
        let table = try cli(["pins", "--db", db])
        XCTAssertEqual(table.stdout.split(separator: "\n").last.map { $0.hasSuffix(shown) }, true, table.stdout)
        XCTAssertTrue(try cli(["album", "1", "--db", db]).stdout.hasPrefix("Pin 1: \(shown)\n"))
        let again = try cli(["drop", "0", "-30", "--db", db])
        XCTAssertEqual(again.status, 64)
        XCTAssertTrue(again.stderr.contains("pin 1 (\(shown))"), again.stderr)
    }

    // MARK: Messages

    func testNoMessageRepeatsTheProgramName() throws {
        let db = folder + "/app.sqlite"
        // Not a terminal: standard input and output are files here.
        let r = try cli(["--db", db])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "vtourist: needs a terminal: standard input and output must not be redirected.\n")
        // Bad input is 64; a failure of anything else (here no such pin) is 1.
        let cases: [(arguments: [String], status: Int32)] = [
            (["drop", "91", "0"], 64), (["album", "7", "--db", db], 1), (["import", folder + "/none.gpx"], 64),
            (["config", "set", "colour", "blue"], 64), (["render", folder + "/none.jpg"], 64),
        ]
        for (arguments, status) in cases {
            let failed = try cli(arguments)
            XCTAssertEqual(failed.status, status, "\(arguments): \(failed.stderr)")
            XCTAssertTrue(failed.stderr.hasPrefix("vtourist: "), "\(arguments): \(failed.stderr)")
            XCTAssertFalse(failed.stderr.contains("vtourist: vtourist"), "\(arguments): \(failed.stderr)")
        }
    }
}
