import Terminal
import XCTest

final class ANSITextTests: XCTestCase {
    func buffer() -> CellBuffer {
        var b = CellBuffer(width: 3, height: 2)
        b[0, 0] = Cell("a", style: Style(fg: .rgb(255, 0, 0), bg: .rgb(0, 0, 255)))
        b[1, 0] = Cell("b", style: Style(fg: .rgb(255, 0, 0), bg: .rgb(0, 0, 255)))
        b[2, 0] = Cell("c", style: Style(attributes: .bold))
        return b
    }

    func testTrueColourRunsShareOneSequenceAndEveryRowEndsReset() {
        let text = buffer().ansiText(depth: .trueColor)
        XCTAssertEqual(text, "\u{1B}[0;38;2;255;0;0;48;2;0;0;255mab\u{1B}[0;1mc\u{1B}[0m\n   \n")
    }

    func testTwoHundredFiftySixColoursUseThePalette() {
        let text = buffer().ansiText(depth: .indexed256)
        XCTAssertTrue(text.hasPrefix("\u{1B}[0;38;5;196;48;5;21mab"), text.debugDescription)
    }

    func testEightColoursAndNone() {
        XCTAssertTrue(buffer().ansiText(depth: .eight).hasPrefix("\u{1B}[0;31;44mab"))
        let plain = buffer().ansiText(depth: .none)
        XCTAssertFalse(plain.contains("38;"), plain.debugDescription)
        XCTAssertFalse(plain.contains("48;"), plain.debugDescription)
        XCTAssertEqual(plain, "ab\u{1B}[0;1mc\u{1B}[0m\n   \n", "no colour sequences, attributes only")
    }
}
