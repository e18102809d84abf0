import TestSupport
import TextSafety
import XCTest

/// Untrusted text and what is left of it once what a terminal would obey is taken out.
let terminalControlCases: [(input: String, kept: String)] = [
    ("a\u{1B}[31mred\u{1B}[0m b", "ared b"),
    ("x\u{1B}]0;title\u{07}y", "xy"),
    ("x\u{1B}]8;;http://e\u{1B}\\link\u{1B}]8;;\u{1B}\\y", "xlinky"),
    ("x\u{1B}cy\u{1B}(Bz", "xyz"),
    ("a\u{9B}2Jb", "ab"),
    ("bell\u{07}\u{08}\u{00}\u{7F}\u{8F}done", "belldone"),
    // C1 DCS, like ESC P, starts a string that runs to ST: its payload is no text.
    ("a\u{90}secret\u{9C}b", "ab"),
    ("trailing escape\u{1B}", "trailing escape"),
    ("\u{1B}[é", "é"),
    ("abc\u{202E}def\u{2066}", "abcdef"),
    ("tab\there\r\nline\u{2028}end", "tab here  line end"),
    ("Ünïcødé 東京 👍", "Ünïcødé 東京 👍"),
    ("plain", "plain"),
]

final class TerminalControlsTests: XCTestCase {
    func testEscapeSequencesAndControlsAreRemoved() {
        for (input, kept) in terminalControlCases {
            XCTAssertEqual(input.strippingTerminalControls, kept, input.debugDescription)
        }
    }

    func testRandomBytesNeverKeepAControl() {
        var generator = SeededRandom(testNamed: "TerminalControlsTests", fallback: 20261126)
        for _ in 0..<300 {
            var text = ""
            text.unicodeScalars.append(contentsOf: (0..<40).map { _ in Unicode.Scalar(UInt8.random(in: 0...0xFF, using: &generator)) })
            let kept = text.strippingTerminalControls
            XCTAssertFalse(kept.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, text.debugDescription)
            XCTAssertEqual(kept.strippingTerminalControls, kept, "idempotent: \(text.debugDescription)")
        }
    }
}
