import Foundation
import XCTest

/// Names of the user's own: `vtourist rename`, `R` on the map, and exports and imports carrying them.
final class RenameTests: EndToEndTestCase {
    var folder = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try temporaryDirectory().path
    }

    /// Two pins imported from a file: one named as its place, one with a name of its own.
    func importTwo(_ db: String) throws {
        let file = folder + "/two.geojson"
        try Data(#"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[10.7461,59.9127]},"properties":{"name":"Oslo"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[5.3221,60.3913]},"properties":{"name":"Fjord cabin"}}]}
            """#.utf8).write(to: URL(fileURLWithPath: file))
        let r = try cli(["--db", db, "import", file])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testRenameByIdOrNameAndEmptyGoesBackToTheNearestPlace() throws {
        let db = folder + "/rename.sqlite"
        try importTwo(db)
        var listed = try pins(db: db)
        XCTAssertEqual(listed.map(\.name), ["Oslo", "Fjord cabin"])
        XCTAssertEqual(listed.map(\.place), ["Oslo, Oslo, NO", "Bergen, Hordaland, NO"])

        var r = try cli(["--db", db, "rename", "2", "Hytte på fjellet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "pin 2 is now called Hytte på fjellet\n")
        r = try cli(["--db", db, "rename", "HYTTE PÅ FJELLET", "Cabin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        listed = try pins(db: db)
        XCTAssertEqual(listed.map(\.name), ["Oslo", "Cabin"])
        r = try cli(["--db", db, "rename", "cabin", ""])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "pin 2 goes by its place's name: Bergen, Hordaland, NO\n")
        XCTAssertEqual(try pins(db: db).map(\.name), ["Oslo", "Bergen, Hordaland, NO"])
    }

    func testBadNamesAreRefusedWithTheReasonAndNothingChanges() throws {
        let db = folder + "/bad.sqlite"
        try importTwo(db)
        let before = try pins(db: db)
        let cases: [([String], Int32, String)] = [
            (["rename", "1", "red\u{1B}[31m"], 64, "vtourist: a pin's name cannot hold control characters\n"),
            (["rename", "1", "two\nlines"], 64, "vtourist: a pin's name cannot hold control characters\n"),
            (["rename", "1", String(repeating: "x", count: 10_000)], 64,
             "vtourist: a pin's name has at most 100 characters (this one has 10000)\n"),
            (["rename", "99", "x"], 1, "vtourist: no pin 99 (see `vtourist pins`)\n"),
            (["rename", "Nowhere", "x"], 1, "vtourist: no pin called \u{201C}Nowhere\u{201D} (see `vtourist pins`)\n"),
        ]
        for (arguments, status, message) in cases {
            let r = try cli(["--db", db] + arguments)
            XCTAssertEqual(r.status, status, "\(arguments.prefix(2))")
            XCTAssertEqual(r.stderr, message, "\(arguments.prefix(2))")
        }
        XCTAssertEqual(try pins(db: db), before)
        // No database: nothing is created.
        let none = try cli(["--db", folder + "/none.sqlite", "rename", "1", "x"])
        XCTAssertEqual(none.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/none.sqlite"))
    }

    func testExportAndImportCarryOwnNames() throws {
        let db = folder + "/from.sqlite"
        try importTwo(db)
        XCTAssertEqual(try cli(["--db", db, "rename", "1", "Home"]).status, 0)
        for format in ["geojson", "gpx"] {
            let exported = try cli(["--db", db, "export", "--format", format])
            XCTAssertEqual(exported.status, 0, exported.stderr)
            XCTAssertTrue(exported.stdout.contains("Home"), exported.stdout)
            let file = folder + "/pins.\(format)"
            try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: file))
            let copy = folder + "/to-\(format).sqlite"
            XCTAssertEqual(try cli(["--db", copy, "import", file]).status, 0)
            let listed = try pins(db: copy)
            XCTAssertEqual(listed.map(\.name), ["Home", "Fjord cabin"], format)
            XCTAssertEqual(listed.map(\.place), ["Oslo, Oslo, NO", "Bergen, Hordaland, NO"], format)
            // Imported again into the first database: the same pins, skipped.
            let again = try cli(["--db", db, "import", file])
            XCTAssertEqual(again.stderr, "added 0 pins, skipped 2 duplicates, 0 not points\n", format)
        }
    }

    /// `R` on the map renames the pin under the cursor; a rename made by a command meanwhile shows
    /// in the open window within a second.
    func testROnTheMapAndARenameFromACommandInAnOpenWindow() throws {
        let db = folder + "/app.sqlite"
        try importTwo(db)
        let t = try app(db)
        t.wait(forText: "? help")
        try t.keys("Tab")
        t.wait(forText: "Oslo")
        try t.keys("R")
        t.wait(forText: "Rename pin")
        try t.keys("C-u")
        try t.type("Slottet")
        try t.keys("Enter")
        t.wait(forText: "Renamed \u{201C}Oslo\u{201D} to \u{201C}Slottet\u{201D}.")
        try waitFor("the name to be stored") { try pins(db: db).first?.name == "Slottet" ? true : nil }
        try t.keys("Enter")
        t.wait(forText: "Slottet")
        XCTAssertEqual(try cli(["--db", db, "rename", "Slottet", "Royal Palace"]).status, 0)
        t.wait(forText: "Royal Palace", timeout: 5)
    }
}
