import Terminal
@testable import TouristCore
import XCTest

/// The one text field: its editing keys, pastes, the limit and how it is drawn.
final class TextFieldTests: XCTestCase {
    /// The text with `|` where the cursor is.
    func shown(_ field: TextField) -> String {
        var chars = field.characters.map(String.init)
        chars.insert("|", at: field.cursor)
        return chars.joined()
    }

    func field(_ text: String, cursor: Int? = nil, maxLength: Int = 80) -> TextField {
        var f = TextField(text, maxLength: maxLength)
        if let cursor {
            _ = f.apply(.toStart)
            for _ in 0..<cursor { _ = f.apply(.right) }
        }
        return f
    }

    func testTypingGoesInAtTheCursor() {
        var f = field("Nples", cursor: 1)
        XCTAssertEqual(f.handle(.char("a")), .edited)
        XCTAssertEqual(shown(f), "Na|ples")
        XCTAssertEqual(f.handle(.char("é")), .edited)
        XCTAssertEqual(shown(f), "Naé|ples")
        // Keys that are not the field's are left to the screen.
        for key: Key in [.enter, .escape, .tab, .up, .down, .pageUp, .function(1), .control("x")] {
            XCTAssertNil(f.handle(key), "\(key)")
        }
        XCTAssertEqual(shown(f), "Naé|ples")
    }

    func testTheCursorMovesAndStopsAtTheEnds() {
        var f = field("Rome")
        XCTAssertEqual(shown(f), "Rome|", "a field starts with the cursor at the end")
        XCTAssertEqual(f.handle(.right), .unchanged)
        XCTAssertEqual(f.handle(.left), .moved)
        XCTAssertEqual(shown(f), "Rom|e")
        XCTAssertEqual(f.handle(.home), .moved)
        XCTAssertEqual(shown(f), "|Rome")
        XCTAssertEqual(f.handle(.left), .unchanged)
        XCTAssertEqual(f.handle(.end), .moved)
        XCTAssertEqual(shown(f), "Rome|")
        XCTAssertEqual(f.handle(.control("a")), .moved)
        XCTAssertEqual(shown(f), "|Rome")
        XCTAssertEqual(f.handle(.control("e")), .moved)
        XCTAssertEqual(shown(f), "Rome|")
    }

    func testDeletingKeys() {
        var f = field("São Paulo", cursor: 3)
        XCTAssertEqual(f.handle(.backspace), .edited)
        XCTAssertEqual(shown(f), "Sã| Paulo")
        XCTAssertEqual(f.handle(.delete), .edited)
        XCTAssertEqual(shown(f), "Sã|Paulo")
        XCTAssertEqual(f.handle(.control("k")), .edited)
        XCTAssertEqual(shown(f), "Sã|")
        XCTAssertEqual(f.handle(.delete), .unchanged, "nothing under the cursor")
        f = field("New York City", cursor: 9)
        XCTAssertEqual(f.handle(.control("u")), .edited)
        XCTAssertEqual(shown(f), "|City")
        XCTAssertEqual(f.handle(.backspace), .unchanged, "nothing before the cursor")
        XCTAssertEqual(f.handle(.control("u")), .unchanged)
    }

    func testCtrlWDeletesTheWordBeforeTheCursorAndTheSpacesAfterIt() {
        var f = field("Paris, Texas  ")
        XCTAssertEqual(f.handle(.control("w")), .edited)
        XCTAssertEqual(shown(f), "Paris, |")
        XCTAssertEqual(f.handle(.control("w")), .edited)
        XCTAssertEqual(shown(f), "|")
        XCTAssertEqual(f.handle(.control("w")), .unchanged)
        f = field("New York City", cursor: 6)
        XCTAssertEqual(f.handle(.control("w")), .edited)
        XCTAssertEqual(shown(f), "New |rk City", "only what lies before the cursor")
    }

    func testAPasteIsOneCleanEditAtTheCursorAndStopsAtTheLimit() {
        var f = field("Naes", cursor: 2)
        XCTAssertEqual(f.insert("p\u{1B}[31ml\u{1B}[0m"), .edited)
        XCTAssertEqual(shown(f), "Napl|es", "escape sequences go whole")
        XCTAssertEqual(f.insert("\u{7}\u{202E}"), .unchanged, "nothing left of controls")
        f = field("")
        XCTAssertEqual(f.insert("New\nYork\tCity\r\n"), .edited)
        XCTAssertEqual(f.text, "New York City  ", "line breaks and tabs become spaces")
        f = field("ab", cursor: 1, maxLength: 5)
        XCTAssertEqual(f.insert("123456"), .cut)
        XCTAssertEqual(shown(f), "a123|b")
        XCTAssertEqual(f.cutMessage, "At most 5 characters.")
        XCTAssertEqual(f.handle(.char("x")), .cut)
        XCTAssertEqual(shown(f), "a123|b")
        XCTAssertEqual(TextField(String(repeating: "z", count: 9), maxLength: 5).text, "zzzzz")
        XCTAssertEqual(TextField("a\u{1B}]0;title\u{7}b", maxLength: 5).text, "ab", "a starting text is cleaned too")
    }

    func testReplaceRecallsAWholeTextWithTheCursorAtItsEnd() {
        var f = field("abc", cursor: 1)
        f.replace(with: "Rome, Lazio, IT")
        XCTAssertEqual(shown(f), "Rome, Lazio, IT|")
        XCTAssertEqual(f.maxLength, 80)
    }

    // MARK: Drawing

    func render(_ field: TextField, width: Int, masked: String? = nil) -> (text: String, cursorColumns: [Int]) {
        var buffer = CellBuffer(width: width, height: 1)
        let style = Style(attributes: .bold)
        buffer.render(TextFieldView(field: field, style: style, masked: masked), in: Rect(x: 0, y: 0, width: width, height: 1))
        let reversed = (0..<width).filter { buffer[$0, 0].style.attributes.contains(.reverse) }
        return (buffer.rowText(0), reversed)
    }

    func testTheCursorIsAReversedCell() {
        XCTAssertEqual(render(field("Rome"), width: 10).text, "Rome      ")
        XCTAssertEqual(render(field("Rome"), width: 10).cursorColumns, [4])
        XCTAssertEqual(render(field("Rome", cursor: 1), width: 10).cursorColumns, [1])
        XCTAssertEqual(render(field(""), width: 10).cursorColumns, [0])
    }

    func testALongTextScrollsSoTheCursorShowsAndEllipsesMarkTheHiddenParts() {
        let text = "abcdefghijklmnopqrstuvwxyz"
        // Cursor at the end: the tail shows, cut at the left.
        var r = render(field(text), width: 10)
        XCTAssertEqual(r.text, "\u{2026}vwxyz    ")
        XCTAssertEqual(r.cursorColumns, [6])
        // Cursor at the start: the head shows, cut at the right.
        r = render(field(text, cursor: 0), width: 10)
        XCTAssertEqual(r.text, "abcdefghi\u{2026}")
        XCTAssertEqual(r.cursorColumns, [0])
        // Every cursor position shows the cursor and the character under it.
        for cursor in 0...text.count {
            let f = field(text, cursor: cursor)
            let r = render(f, width: 10)
            XCTAssertEqual(r.cursorColumns.count, 1, "cursor \(cursor)")
            let column = r.cursorColumns[0]
            let under = Array(r.text)[column]
            XCTAssertEqual(under, cursor < text.count ? Array(text)[cursor] : " ", "cursor \(cursor): \(r.text)")
        }
        // The view moves by half its width, so small moves do not shift the text.
        let atTwelve = render(field(text, cursor: 12), width: 10).text
        XCTAssertEqual(render(field(text, cursor: 11), width: 10).text, atTwelve)
    }

    func testWideCharactersTakeTwoColumnsAndCombiningOnesStayOnTheirLetter() {
        // A wide character takes two columns, the cursor on it both; "e" + combining acute is one character.
        var f = field("東京e\u{301}")
        XCTAssertEqual(f.characters.count, 3)
        XCTAssertEqual(render(f, width: 8).text, "東京\u{E9}   ")
        XCTAssertEqual(render(f, width: 8).cursorColumns, [5])
        XCTAssertEqual(f.handle(.backspace), .edited)
        XCTAssertEqual(f.text, "東京")
        _ = f.apply(.left)
        XCTAssertEqual(render(f, width: 8).cursorColumns, [2, 3])
        // Scrolled at an odd width, a wide character cut by an edge shows as `…`, never half of it.
        let long = field("東京タワーは高い", cursor: 8)
        for width in [3, 5, 7, 9] {
            let r = render(long, width: width)
            XCTAssertEqual(r.text.displayWidth, width, "\(width): \(r.text)")
            XCTAssertEqual(r.cursorColumns.count, 1, "\(width): the cursor after the text is one cell")
            XCTAssertTrue(r.text.hasPrefix("\u{2026}"), "\(width): \(r.text)")
        }
    }

    func testAMaskedFieldShowsOnlyTheMaskWithTheCursorAfterIt() {
        let key = field("0123456789abcdef", cursor: 3)
        let r = render(key, width: 20, masked: "\u{2022}\u{2022}\u{2022}cdef")
        XCTAssertEqual(r.text, "\u{2022}\u{2022}\u{2022}cdef" + String(repeating: " ", count: 13))
        XCTAssertEqual(r.cursorColumns, [7])
    }
}
