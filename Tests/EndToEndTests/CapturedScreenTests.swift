import XCTest

/// Reading `capture-pane -e` text back into cells, on captures written out by hand.
final class CapturedScreenTests: XCTestCase {
    func testColoursCarryOnUntilChangedAcrossLineEnds() {
        let screen = CapturedScreen("\u{1B}[38;2;1;2;3m\u{1B}[48;5;235mab\u{1B}[39mc\n" + "d\u{1B}[0me\n")
        XCTAssertEqual(screen.rows.map { String($0.map(\.character)) }, ["abc", "de"])
        XCTAssertEqual(screen[0, 0].fg, .rgb(1, 2, 3))
        XCTAssertEqual(screen[1, 0].bg, .indexed(235))
        XCTAssertEqual(screen[2, 0].fg, .standard)
        XCTAssertEqual(screen[2, 0].bg, .indexed(235))
        XCTAssertEqual(screen[0, 1].bg, .indexed(235), "tmux does not repeat a colour on the next line")
        XCTAssertEqual(screen[1, 1], ScreenCell(character: "e"))
        XCTAssertEqual(screen.sequences, ["38;2;1;2;3", "48;5;235", "39", "0"])
    }

    func testSixteenColoursAttributesAndTheLineDrawingSet() {
        let screen = CapturedScreen("\u{1B}[1;7;31;102mx\u{1B}[22;27;49my\u{0E}q\u{0F}z\u{1B}[mw")
        XCTAssertEqual(screen[0, 0].attributes, [1, 7])
        XCTAssertEqual(screen[0, 0].fg, .ansi(1))
        XCTAssertEqual(screen[0, 0].bg, .ansi(10))
        XCTAssertEqual(screen[1, 0].attributes, [])
        XCTAssertEqual(screen[1, 0].bg, .standard)
        XCTAssertEqual(screen[1, 0].fg, .ansi(1))
        XCTAssertTrue(screen[2, 0].alternateCharset)
        XCTAssertFalse(screen[3, 0].alternateCharset)
        XCTAssertEqual(screen[4, 0].fg, .standard, "an empty SGR resets")
        XCTAssertEqual(screen[9, 9], ScreenCell(), "off the capture: blank")
    }
}
