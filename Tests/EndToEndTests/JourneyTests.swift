import Foundation
import XCTest

/// The release binary in a real terminal (tmux), driven with the keys of SPEC 3.
final class JourneyTests: EndToEndTestCase {
    func testMoveZoomGoToDropDragDeleteQuitAndRestart() throws {
        let db = try temporaryDirectory().appendingPathComponent("journey.sqlite").path
        let t = try app(db)
        var screen = t.wait(forText: "? help")
        XCTAssertTrue(screen.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "no braille map:\n\(screen)")

        // Move: the cursor's coordinates change.
        let start = statusLine(screen)
        try t.keys("Right", "Right", "Down")
        screen = t.wait(for: "the cursor to move") { statusLine($0) != start }

        // Zoom in keeps the map drawn and shows the new level.
        let zoomBefore = zoomLevel(statusLine(screen))
        try t.keys("+")
        screen = t.wait(for: "zoom in") { zoomLevel(statusLine($0)) == zoomBefore.map { $0 + 1 } }

        // Go to Naples with completion.
        try t.keys("g")
        t.wait(forText: "Go to")
        try t.type("Napl")
        t.wait(forText: "Naples, Campania, IT")
        try t.keys("Enter")
        screen = t.wait(forText: "Went to Naples")
        XCTAssertTrue(statusLine(screen).contains("40.85"), statusLine(screen))

        // Drop two pins three cells apart.
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("l", "l", "l", "l", "p")
        t.wait(forText: "2 pins")
        var stored = try waitForPins(db, count: 2)
        XCTAssertEqual(stored.first?.name, "Naples, Campania, IT")
        XCTAssertNotNil(stored.last?.name)
        let second = try XCTUnwrap(stored.last)

        // Drag the second pin two cells down.
        try t.keys("m")
        t.wait(forText: "MOVING PIN")
        try t.keys("j", "j", "Enter")
        try t.answerMoveIfAsked()
        stored = try waitFor("the pin to move") {
            let p = try pins(db: db)
            return p.first { $0.id == second.id && $0.latitude < second.latitude } != nil ? p : nil
        }
        XCTAssertEqual(stored.count, 2)

        // Delete the first pin (Tab jumps to it), with the confirmation.
        try t.keys("Tab")
        try t.keys("x")
        t.wait(forText: "Delete pin")
        try t.keys("y")
        t.wait(forText: "1 pin ")
        stored = try waitForPins(db, count: 1)
        XCTAssertEqual(stored.first?.id, second.id)

        let viewBefore = statusLine(t.screen())
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)

        // Restart: the same view, cursor and the remaining pin.
        let again = try app(db)
        screen = again.wait(forText: "1 pin ")
        XCTAssertEqual(coordinates(statusLine(screen)), coordinates(viewBefore))
        XCTAssertEqual(zoomLevel(statusLine(screen)), zoomLevel(viewBefore))
        // The cursor is where the deleted pin was; the remaining pin four cells right and two down.
        let cursor = try XCTUnwrap(cells(of: "\u{253C}", in: screen).first, "no cursor:\n\(screen)")
        XCTAssertEqual(cells(of: "\u{253C}", in: screen).count, 1, screen)
        XCTAssertEqual(cells(of: "\u{25CF}", in: screen), [Cell(row: cursor.row + 2, col: cursor.col + 4)], screen)
        try again.keys("q")
        XCTAssertEqual(again.waitForExit(), 0)
    }

    func testKillDashNineLosesNothing() throws {
        let db = try temporaryDirectory().appendingPathComponent("kill.sqlite").path
        let t = try app(db)
        t.wait(forText: "? help")
        try t.keys("+", "+", "l", "l", "l", "p")
        t.wait(forText: "1 pin ")
        try t.keys("k", "k", "p")
        t.wait(forText: "2 pins")
        try t.keys("h")
        let view = statusLine(t.wait(for: "the last move") { !$0.contains("Pin dropped") })
        _ = try waitForPins(db, count: 2)
        // The view is written off the UI thread: wait until the file holds the one on screen.
        let shown = try XCTUnwrap(parseCoordinates(view), view)
        let zoom = try XCTUnwrap(zoomLevel(view), view)
        try waitFor("the view on screen (\(view)) to be stored") { () -> Bool? in
            guard let stored = try storedView(db) else { return nil }
            let same = abs(stored.latitude - shown.latitude) < 0.00006 && abs(stored.longitude - shown.longitude) < 0.00006
                && stored.zoom == zoom
            return same ? true : nil
        }
        let pid = try XCTUnwrap(t.appPID)
        Foundation.kill(pid, SIGKILL)
        XCTAssertEqual(t.waitForExit(), 128 + SIGKILL)

        XCTAssertEqual(try pins(db: db).count, 2)
        let check = try runProcess("/usr/bin/sqlite3", [db, "PRAGMA integrity_check;"])
        XCTAssertEqual(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "ok")
        let again = try app(db)
        let screen = again.wait(forText: "2 pins")
        XCTAssertEqual(coordinates(statusLine(screen)), coordinates(view))
        try again.keys("q")
        XCTAssertEqual(again.waitForExit(), 0)
    }

    // MARK: - Helpers

    /// The map view in the file (cursor and zoom), read with the sqlite3 command.
    func storedView(_ db: String) throws -> (latitude: Double, longitude: Double, zoom: Int)? {
        let r = try runProcess("/usr/bin/sqlite3", ["-separator", " ", db,
                                                    "SELECT cursorLatitude, cursorLongitude, zoom FROM mapView WHERE id = 1;"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let words = r.stdout.split(whereSeparator: \.isWhitespace)
        guard words.count == 3, let lat = Double(words[0]), let lon = Double(words[1]), let zoom = Int(words[2]) else { return nil }
        return (lat, lon, zoom)
    }

    func waitForPins(_ db: String, count: Int) throws -> [PinRow] {
        try waitFor("\(count) stored pins") {
            let p = try pins(db: db)
            return p.count == count ? p : nil
        }
    }
}

/// "40.8522°N 14.2681°E" from the status line.
func coordinates(_ status: String) -> String {
    let words = status.split(separator: " ")
    return words.prefix(2).joined(separator: " ")
}

/// 40.8522 and 14.2681 from "40.8522°N 14.2681°E …" (south and west negative).
func parseCoordinates(_ status: String) -> (latitude: Double, longitude: Double)? {
    let words = status.split(separator: " ").prefix(2)
    guard words.count == 2 else { return nil }
    func value(_ word: Substring) -> Double? {
        guard let hemisphere = word.last, let number = Double(word.filter { $0.isNumber || $0 == "." }) else { return nil }
        return "SW".contains(hemisphere) ? -number : number
    }
    guard let lat = value(words[words.startIndex]), let lon = value(words[words.startIndex + 1]) else { return nil }
    return (lat, lon)
}

struct Cell: Equatable {
    var row: Int
    var col: Int
}

/// Where a character is drawn on a captured screen.
func cells(of glyph: Character, in screen: String) -> [Cell] {
    screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { row, line in
        Array(line).enumerated().filter { $0.element == glyph }.map { Cell(row: row, col: $0.offset) }
    }
}

/// The zoom level shown in the status line ("z10").
func zoomLevel(_ status: String) -> Int? {
    for word in status.split(separator: " ") where word.hasPrefix("z") {
        if let n = Int(word.dropFirst()) { return n }
    }
    return nil
}
