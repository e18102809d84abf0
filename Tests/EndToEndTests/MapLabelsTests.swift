import Foundation
import XCTest

/// Place names on the map of the real app: countries at world zoom, and the
/// city the go-to prompt went to, drawn on the map itself (not only named in
/// the status line or the message line).
final class MapLabelsEndToEndTests: EndToEndTestCase {
    /// The map's rows: all but the message line and the status line.
    func mapRows(_ screen: String) -> [String] {
        let rows = screen.components(separatedBy: "\n")
        let status = rows.lastIndex { $0.contains("? help") } ?? rows.count
        return Array(rows.prefix(max(0, status - 1)))
    }

    func testGoingToParisShowsItsNameOnTheMap() throws {
        let db = try temporaryDirectory().appendingPathComponent("labels.sqlite").path
        let t = try app(db, width: 100, height: 30)
        var screen = t.wait(forText: "? help")
        // The world view names the largest countries.
        XCTAssertTrue(mapRows(screen).contains { $0.contains("RUSSIA") }, screen)

        try t.keys("g")
        t.wait(forText: "Go to")
        try t.type("Paris")
        t.wait(forText: "le-de-France, FR")
        try t.keys("Enter")
        screen = t.wait(forText: "Went to Paris")
        let rows = mapRows(screen)
        XCTAssertTrue(rows.contains { $0.contains("Paris") }, "no Paris on the map:\n\(screen)")
        XCTAssertFalse(rows.contains { $0.contains("Went to Paris") }, "the message line was counted as the map:\n\(screen)")

        // Moving the cursor off the name keeps it; a key clears the message.
        let before = statusLine(screen)
        try t.keys("Down", "Down")
        screen = t.wait(for: "the cursor to move") { $0.contains("? help") && statusLine($0) != before }
        XCTAssertTrue(mapRows(screen).contains { $0.contains("Paris") }, screen)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    /// A pin dropped at 41.89, 12.51, beside Rome's dot: at zoom 10 the map named the suburbs and
    /// St. Peter's Basilica but not Rome. The pin stands in for the dot, the name beside it.
    func testAPinOnRomeKeepsRomesName() throws {
        let db = try temporaryDirectory().appendingPathComponent("labels-pin.sqlite").path
        let t = try app(db, width: 100, height: 30)
        t.wait(forText: "? help")
        try t.keys("g")
        t.wait(forText: "Go to")
        try t.type("41.89, 12.51")
        try t.keys("Enter")
        t.wait(forText: "z10")
        try t.keys("p")
        let screen = t.wait(forText: "1 pin ")
        let rows = mapRows(screen)
        XCTAssertTrue(rows.contains { $0.contains("Rome") }, "no Rome on the map:\n\(screen)")
        XCTAssertFalse(rows.contains { $0.contains("Pin dropped") }, "the message line was counted as the map:\n\(screen)")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testWithoutUTF8NamesAreASCII() throws {
        let db = try temporaryDirectory().appendingPathComponent("labels-ascii.sqlite").path
        let t = try app(db, width: 100, height: 30, environment: ["LANG": "C", "LC_ALL": "C"])
        t.wait(forText: "? help")
        try t.keys("g")
        t.wait(forText: "Go to")
        try t.type("Zurich")
        try t.keys("Enter")
        let screen = t.wait(forText: "Went to Z")
        XCTAssertTrue(mapRows(screen).contains { $0.contains("Zurich") }, screen)
        XCTAssertTrue(screen.unicodeScalars.allSatisfy(\.isASCII), screen)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
