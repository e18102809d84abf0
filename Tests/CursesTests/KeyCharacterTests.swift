import Curses
import Terminal
import XCTest

/// Characters as `get_wch` returns them, turned into keys (the pure part of the input side, which
/// the terminal fuzz target also feeds every 32-bit value).
final class KeyCharacterTests: XCTestCase {
    func testControlsAndLetters() {
        XCTAssertEqual(NcursesTerminal.key(forCharacter: 9), .tab)
        XCTAssertEqual(NcursesTerminal.key(forCharacter: 13), .enter)
        XCTAssertEqual(NcursesTerminal.key(forCharacter: 27), .escape)
        XCTAssertEqual(NcursesTerminal.key(forCharacter: 127), .backspace)
        XCTAssertEqual(NcursesTerminal.key(forCharacter: 1), .control("a"))
        XCTAssertEqual(NcursesTerminal.key(forCharacter: 26), .control("z"))
        XCTAssertEqual(NcursesTerminal.key(forCharacter: 0x71), .char("q"))
        XCTAssertEqual(NcursesTerminal.key(forCharacter: 0x5B57), .char("字"))
    }

    func testWhatMeansNothingIsDropped() {
        for value: UInt32 in [0, 28, 31, 0x80, 0x9B, 0x9F] {
            XCTAssertNil(NcursesTerminal.key(forCharacter: value), "\(value)")
        }
    }

    func testValuesThatAreNoCharacterAreDropped() {
        // Surrogates and values past Unicode's last scalar come from a broken terminal, not a key.
        for value: UInt32 in [0xD800, 0xDFFF, 0x11_0000, .max] {
            XCTAssertNil(NcursesTerminal.key(forCharacter: value), "\(value)")
        }
    }
}
