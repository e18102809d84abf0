import Glibc
import Terminal
import TestSupport
import Testing

/// The C library's `wcwidth` (not exported by the Glibc module): how ncurses measures a character.
@_silgen_name("wcwidth") private func cWidth(_ c: Int32) -> Int32

/// Hostile text and what the screen shows of it: the table the guarantee is measured by.
let hostileTexts: [(input: String, shown: String)] = [
    ("\u{1B}]0;pwned\u{07}title", "title"),
    ("\u{1B}]2;pwned\u{1B}\\title", "title"),
    ("\u{1B}]8;;http://evil/\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
    ("a\u{1B}[2Jb", "ab"),
    ("a\u{1B}[38;2;255;0;0mred\u{1B}[0m", "ared"),
    ("\u{1B}[?1049l\u{1B}[?25lhidden", "hidden"),
    ("\u{1B}P1;2|secret\u{1B}\\ok", "ok"),
    ("\u{1B}Pq#0;2;0;0;0#0~~@@vv\u{1B}\\sixel", "sixel"),
    ("\u{1B}_Gf=100;AAAA\u{1B}\\kitty", "kitty"),
    ("\u{1B}^privacy\u{07}pm", "pm"),
    ("\u{1B}Xsos\u{9C}x", "x"),
    ("\u{1B}c\u{1B}7\u{1B}8\u{1B}(0reset", "reset"),
    ("\u{9B}31mred", "red"),
    ("\u{9D}0;pwned\u{07}c1", "c1"),
    ("\u{90}dcs\u{9C}c1", "c1"),
    ("\u{9F}apc\u{9C}\u{9E}pm\u{9C}\u{98}sos\u{9C}c1", "c1"),
    ("\u{85}\u{84}\u{8D}\u{8E}\u{9A}x", " x"),
    ("unterminated\u{1B}]0;pwned", "unterminated"),
    ("trailing\u{1B}", "trailing"),
    ("trailing\u{1B}[", "trailing"),
    ("bell\u{07}bs\u{08}nul\u{00}del\u{7F}", "bellbsnuldel"),
    ("tab\there\r\nline\u{2028}sep\u{2029}end", "tab here  line sep end"),
    ("abc\u{202E}fed\u{202C}", "abcfed"),
    ("\u{202A}\u{202B}\u{202D}\u{2066}\u{2067}\u{2068}x\u{2069}\u{200E}\u{200F}\u{061C}", "x"),
    ("e" + String(repeating: "\u{0301}", count: 3), "é\u{0301}\u{0301}"),
    (String(repeating: "\u{0336}", count: 200) + "z", "z"),
    ("H\u{0331}ulda", "H\u{0331}ulda"),
    ("a\u{200B}b\u{2060}e\u{FEFF}f\u{00AD}g", "abefg"),
    ("\u{2764}\u{FE0F}", "\u{2764}\u{FE0F}"),
    ("東京", "東京"),
    ("Ｆｕｌｌ", "Ｆｕｌｌ"),
    ("\u{1112}\u{1161}\u{11AB}", "\u{D55C}"),
    ("👍🏽", "👍🏽"),
    ("👨\u{200D}👩\u{200D}👧", "👨\u{200D}👩\u{200D}👧"),
    ("🇫🇷", "🇫🇷"),
    ("⌚☔", "⌚☔"),
    ("\u{E000}\u{F8FF}\u{10FFFF}\u{0378}", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
    ("Ünïcødé Straße ŁÓDŹ Ελλάδα Москва", "Ünïcødé Straße ŁÓDŹ Ελλάδα Москва"),
    ("┌─┐ • … ✓ ▲", "┌─┐ • … ✓ ▲"),
    ("plain ascii", "plain ascii"),
    ("", ""),
]

@Suite struct SafeTextTests {
    @Test func hostileTextIsShownAsTheTableSays() {
        for (input, shown) in hostileTexts {
            #expect(input.displayable == shown, "\(input.debugDescription)")
        }
    }

    @Test func everyShownCharacterTakesOneOrTwoCells() {
        var generator = SeededRandom(testNamed: "SafeTextTests", fallback: 20261123)
        let pieces = hostileTexts.map(\.input) + ["\u{1B}", "[", "]", "\u{07}", "\u{9C}", "\\", "\u{0301}", "界", "a", "\u{200D}"]
        for _ in 0..<2000 {
            let text = (0..<6).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let shown = text.displayable
            let cells = text.displayCells
            #expect(cells.allSatisfy { ($0.width == 1 || $0.width == 2) && $0.base.terminalColumns == $0.width },
                    "\(text.debugDescription)")
            #expect(!shown.unicodeScalars.contains { $0 == "\u{1B}" || (0x80...0x9F).contains($0.value) })
            #expect(shown.displayWidth == cells.reduce(0) { $0 + $1.width })
            #expect(shown.displayable == shown, "displayable is idempotent: \(text.debugDescription)")
            #expect(shown.displayCells == cells, "laid out the same again: \(text.debugDescription)")
        }
    }

    @Test func longTextKeepsItsLength() {
        let long = String(repeating: "photo ", count: 2000)
        #expect(long.displayable == long)
        #expect(long.truncated(to: 40).displayWidth == 40)
    }

    @Test func putWritesOnlyDisplayableCells() {
        for (input, shown) in hostileTexts {
            var buffer = CellBuffer(width: 20, height: 1)
            let written = buffer.put(input, x: 0, y: 0)
            #expect(written == min(20, shown.displayWidth), "\(input.debugDescription)")
            #expect(buffer.rowText(0).hasPrefix(shown.truncated(to: 20).count == shown.count ? shown : ""), "\(input.debugDescription)")
            #expect(buffer.rowText(0).displayWidth == 20, "\(input.debugDescription): \(buffer.rowText(0))")
        }
    }

    @Test func truncatingAndWrappingMeasureWhatIsShown() {
        let title = "\u{1B}]0;pwned\u{07}Kyoto 京都 e\u{0301}\u{0301} \u{202E}evil"
        #expect(title.displayWidth == 17)
        #expect(title.truncated(to: 9) == "Kyoto 京\u{2026}")
        // The wide character does not fit before the `…`: the text ends a column short.
        #expect(title.truncated(to: 8) == "Kyoto \u{2026}")
        for width in 1...8 {
            for line in title.wrapped(to: width) {
                // A line narrower than a wide character still holds it: nothing else would fit.
                #expect(line.displayWidth <= max(width, 2), "\(width): \(line)")
            }
        }
        #expect("東京タワーは高い".wrapped(to: 5) == ["東京", "タワ", "ーは", "高い"])
    }

    @Test func cellsSetDirectlyAreStillWrittenAsOneColumnEach() {
        // A widget that bypasses `put` still cannot send a control, or a wide character over one cell.
        let hostile: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\u{9B}", "\u{9D}", "\u{202E}", "\u{2066}", "\u{200D}",
                                         "\u{0301}", "\u{FE0F}", "\u{6771}", "\u{1F44D}", "\u{1F1EB}", "\u{E000}", "\u{2028}",
                                         Cell.continuation]
        var buffer = CellBuffer(width: hostile.count, height: 1)
        for (x, scalar) in hostile.enumerated() {
            buffer[x, 0] = Cell(scalar)
        }
        for scalar in hostile.dropLast() {
            #expect(Cell.displayable(scalar) == Cell.replacement, "\(String(scalar.value, radix: 16))")
        }
        let text = buffer.ansiText(depth: .none)
        #expect(text == String(repeating: "\u{FFFD}", count: hostile.count - 1) + " \n", "\(text.debugDescription)")
        for scalar in ["a", "é", "─", "⣿", "▀", "\u{FFFD}"] as [Unicode.Scalar] {
            #expect(Cell.displayable(scalar) == scalar)
        }
    }

    @Test func scalarsKeptAsOneCellAreOneColumnForTheCLibrary() throws {
        // ncurses lays out rows with the C library's wcwidth: what we keep as one column must be 1 there too
        // (two-column characters the C library measures otherwise are replaced by the backend).
        let previous = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        defer { _ = setlocale(LC_CTYPE, previous) }
        // Without a UTF-8 locale the C library measures nothing worth comparing: say so, never pass quietly.
        try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil, "this test needs the C.UTF-8 locale (glibc's built-in one)")
        var disagreements: [String] = []
        var compared = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.terminalColumns == 1 else { continue }
            compared += 1
            let width = cWidth(Int32(bitPattern: value))
            // -1: assigned after the C library's tables; the backend replaces those itself.
            if width != 1 && width != -1 { disagreements.append(String(value, radix: 16)) }
        }
        #expect(compared > 10_000, "the scalars kept as one cell: \(compared)")
        #expect(disagreements.isEmpty, "\(disagreements.prefix(40))")
    }
}
