import Foundation
import TestSupport
import XCTest

/// A Japanese pin name through the real binary in tmux: ncursesw draws it as itself, two columns
/// a character, in the pins list, the album header and the map's status line, and the rows
/// around it keep their columns.
final class WideTextEndToEndTests: EndToEndTestCase {
    let tower = "\u{6771}\u{4EAC}\u{30BF}\u{30EF}\u{30FC}"  // 東京タワー

    /// Columns a row takes as the terminal counts them.
    func columns(_ row: Substring) -> Int { String(row).unicodeScalars.reduce(0) { $0 + (Self.isWide($1) ? 2 : 1) } }

    static func isWide(_ s: Unicode.Scalar) -> Bool { (0x3000...0x9FFF).contains(s.value) || (0xAC00...0xD7A3).contains(s.value) }

    func testAJapanesePinNameIsDrawnInThePinsListAndTheAlbum() throws {
        let db = try temporaryDirectory().appendingPathComponent("wide.sqlite").path
        let dropped = try cli(["drop", "35.6586", "139.7454", "--db", db])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let renamed = try cli(["rename", "1", tower, "--db", db])
        XCTAssertEqual(renamed.status, 0, renamed.stderr)

        let t = try app(db, width: 81, height: 24)
        t.wait(forText: "1 pin ")
        try t.keys("P")
        let list = t.wait(for: "the pins list with \(tower)") { $0.contains("Pins  1 pin") && $0.contains(self.tower) }
        XCTAssertFalse(list.contains("\u{FFFD}"), list)
        let row = try XCTUnwrap(list.split(separator: "\n").first { $0.contains(tower) })
        // The name's row is as wide as the others: ten columns for five characters.
        XCTAssertLessThanOrEqual(columns(row), 81, String(row))
        XCTAssertTrue(row.contains("35.6586"), "the columns after the name stay in place: \(row)")

        try t.keys("Enter")
        let album = t.wait(for: "the album of \(tower)") { $0.split(separator: "\n").first?.contains(self.tower) == true }
        XCTAssertFalse(album.contains("\u{FFFD}"), album)
        try t.keys("Escape")
        t.wait(forText: "Pins  1 pin")
        try t.keys("Escape")
        t.wait(forText: "1 pin ")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
