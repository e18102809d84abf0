import Foundation
import TestSupport
import XCTest

/// The pins list through the real binary in tmux: `P` opens it, `/` and typing narrow it (accents and
/// case folded), Enter opens the album and Esc comes back to the list as it was, `g` shows the pin on the
/// map, `x` deletes, `e` renames, Tab sorts, a pin dropped by `vtourist drop` appears within a second, a resize keeps it
/// drawn, and a filter that matches nothing says so.
final class PinsListTests: EndToEndTestCase {
    struct StoredPin: Decodable {
        var id: Int64
        var name: String?
    }

    func storedPins(_ db: String) throws -> [StoredPin] {
        let listed = try cli(["pins", "--json", "--db", db])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return try JSONDecoder().decode([StoredPin].self, from: Data(listed.stdout.utf8))
    }

    func testTheListFiltersOpensComesBackShowsDeletesSortsAndKeepsUp() throws {
        let db = try temporaryDirectory().appendingPathComponent("pins.sqlite").path
        for (lat, lon) in [("40.85", "14.27"), ("59.91", "10.75"), ("47.37", "8.54")] {
            let dropped = try cli(["drop", lat, lon, "--db", db])
            XCTAssertEqual(dropped.status, 0, dropped.stderr)
        }
        XCTAssertEqual(try storedPins(db).compactMap(\.name), ["Naples, Campania, IT", "Oslo, Oslo, NO", "Zürich, Zürich, CH"])
        let t = try app(db, width: 100, height: 30)
        t.wait(forText: "3 pins ")

        try t.keys("P")
        var screen = t.wait(forText: "Pins  3 pins \u{00B7} newest first")
        XCTAssertTrue(screen.contains("LAT, LON") && screen.contains("DROPPED"), screen)
        // Newest first: Zürich on top, selected.
        let rows = screen.split(separator: "\n").map(String.init)
        let zurich = try XCTUnwrap(rows.firstIndex { $0.contains("Zürich") })
        let naples = try XCTUnwrap(rows.firstIndex { $0.contains("Naples") })
        XCTAssertLessThan(zurich, naples, screen)

        // Typing narrows the rows, accents and case folded.
        try t.keys("/")
        try t.type("ZUR")
        screen = t.wait(forText: "1 of 3")
        XCTAssertTrue(screen.contains("Zürich") && !screen.contains("Oslo"), screen)
        try t.keys("C-u")
        try t.type("osl")
        screen = t.wait(for: "only Oslo") { $0.contains("1 of 3") && $0.contains("Oslo") && !$0.contains("Zürich") }

        // Enter opens the first match's album; Esc comes back to the list with its filter.
        try t.keys("Enter")
        t.wait(for: "Oslo's album") { $0.contains("Oslo") && !$0.contains("Pins  ") }
        try t.keys("Escape")
        screen = t.wait(forText: "/ filter: osl")
        XCTAssertTrue(screen.contains("1 of 3") && screen.contains("Oslo"), screen)

        // g: the map, the cursor on Oslo.
        try t.keys("g")
        screen = t.wait(for: "the map on Oslo") { !$0.contains("Pins  ") && $0.contains("Oslo") && $0.contains("3 pins") }

        // A fresh list; Tab sorts by name and the header says so.
        try t.keys("P")
        t.wait(forText: "Pins  3 pins \u{00B7} newest first")
        try t.keys("Tab")
        screen = t.wait(forText: "Pins  3 pins \u{00B7} by name")
        let byName = screen.split(separator: "\n").map(String.init)
        let order = ["Naples", "Oslo", "Zürich"].compactMap { name in byName.firstIndex { $0.contains(name) } }
        XCTAssertEqual(order, order.sorted(), screen)

        // x asks (confirm-delete is on by default) about the selected pin, the newest, kept through the sort; y deletes it.
        try t.keys("x")
        t.wait(forText: "Delete \u{201C}Zürich, Zürich, CH\u{201D}?")
        try t.keys("y")
        screen = t.wait(for: "Zürich gone") { $0.contains("Pins  2 pins") && !$0.contains("Delete \u{201C}") }
        XCTAssertFalse(screen.contains("Zürich, Zürich, CH  "), screen)
        XCTAssertEqual(try waitFor("the store to delete Zürich") { try self.storedPins(db).count == 2 ? true : nil }, true)

        // e renames the selected pin (Oslo, the row above the one deleted): the row shows the name and its place.
        try t.keys("e")
        t.wait(forText: "Rename pin")
        try t.keys("C-u")
        try t.type("Fjord")
        try t.keys("Enter")
        t.wait(forText: "Fjord (Oslo, Oslo, NO)")
        XCTAssertEqual(try waitFor("the store to rename Oslo") { try self.storedPins(db).contains { $0.name == "Fjord" } ? true : nil },
                       true)

        // Another process drops a pin (by Reykjavík: named Seltjarnarnes): it appears within a second (the data_version poll).
        let dropped = try cli(["drop", "64.15", "-21.94", "--db", db])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        // The poll's once a second is LoopStateTests' (on the clock client); here the list shows what it
        // read. The wait is the poll's second and slack for a machine busy with other tests.
        t.wait(forText: "Pins  3 pins", timeout: 5)

        // Narrower: the coordinates and the dates go, the names and photos stay.
        try t.resize(width: 60, height: 16)
        screen = t.wait(for: "the narrow list") { $0.contains("Pins  3 pins") && !$0.contains("LAT, LON") }
        XCTAssertTrue(screen.contains("PHOTOS") && screen.contains("Oslo") && screen.contains("Seltjarnarnes")
                      && !screen.contains("DROPPED"), screen)

        // Nothing matches: it says so.
        try t.keys("/")
        try t.type("xyz")
        t.wait(forText: "No pin matches \u{201C}xyz\u{201D}.")
        try t.keys("Escape")
        t.wait(forText: "Pins  3 pins")
        try t.keys("Escape")
        t.wait(for: "the map") { !$0.contains("Pins  ") && $0.contains("3 pins") }
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
