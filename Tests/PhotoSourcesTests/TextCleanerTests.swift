import TestSupport
import TextSafety
import XCTest
@testable import PhotoSources

final class TextCleanerTests: XCTestCase {
    func hasControls(_ s: String) -> Bool {
        s.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    func testCleaningStartsFromTheOneControlRule() {
        // The escape sequences and controls themselves are TextSafetyTests' table; here, that clean() applies it.
        let hostile = ["x\u{1B}]0;title\u{07}y", "a\u{9B}2Jb", "a\u{90}secret\u{9C}b", "abc\u{202E}def\u{2066}", "\u{1B}[é"]
        for input in hostile {
            XCTAssertEqual(TextCleaner.clean(input), TextCleaner.clean(input.strippingTerminalControls), input.debugDescription)
        }
        XCTAssertEqual(TextCleaner.clean("a\u{1B}[31mred\u{1B}[0m b"), "ared b")
    }

    func testWhitespaceCollapses() {
        XCTAssertEqual(TextCleaner.clean("  one\r\n\ttwo \u{00A0}\u{2003} three\u{2028}four  "), "one two three four")
        XCTAssertEqual(TextCleaner.clean("\n\n"), "")
        XCTAssertNil(TextCleaner.cleanOptional(" \u{1B}[0m "))
        XCTAssertEqual(TextCleaner.clean("Ünïcødé 東京 👍"), "Ünïcødé 東京 👍")
    }

    func testLongTextIsCut() {
        let long = String(repeating: "word ", count: 200)
        let cut = TextCleaner.clean(long, maxLength: 50)
        XCTAssertEqual(cut.count, 50)
        XCTAssertTrue(cut.hasSuffix("…"))
    }

    func testHTMLBecomesPlainText() {
        XCTAssertEqual(TextCleaner.plainText(fromHTML: "<a href=\"x>y\" title='a>b'>Jane &amp; John</a>"), "Jane & John")
        XCTAssertEqual(TextCleaner.plainText(fromHTML: "Line<br/>break &lt;not a tag&gt; &#233;t&#xE9; &quot;q&quot; &bogus; & done"),
                       "Line break <not a tag> été \"q\" &bogus; & done")
        XCTAssertEqual(TextCleaner.plainText(fromHTML: "a&#27;[2Jb &#x1b;]0;x&#7;c &#1114112;"), "ab c \u{FFFD}")
        XCTAssertEqual(TextCleaner.plainText(fromHTML: "<div class=\"description\">\n  <p>Multi\nline</p>\n</div>"), "Multi line")
        XCTAssertEqual(TextCleaner.plainText(fromHTML: "unclosed <b"), "unclosed")
    }

    func testRandomInputNeverKeepsControls() {
        var generator = SeededRandom(testNamed: "TextCleanerTests", fallback: 20261123)
        for _ in 0..<300 {
            let scalars = (0..<40).map { _ in Unicode.Scalar(UInt8.random(in: 0...0xFF, using: &generator)) }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            XCTAssertFalse(hasControls(TextCleaner.clean(text)), text.debugDescription)
            XCTAssertFalse(hasControls(TextCleaner.plainText(fromHTML: text)), text.debugDescription)
        }
    }
}
