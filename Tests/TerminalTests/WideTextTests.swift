import Testing
@testable import Terminal

/// Wide characters (CJK, emoji) take two cells, a character and its continuation; marks stay in
/// their character's cell; nothing is ever cut in half, at any width.
@Suite struct WideTextTests {
    /// The row as the terminal shows it, with `|` at each cell boundary a wide character spans.
    func cells(_ b: CellBuffer, _ y: Int = 0) -> [String] {
        (0..<b.width).map { x in
            let cell = b[x, y]
            if cell.isContinuation { return "<" }
            var s = String.UnicodeScalarView()
            s.append(cell.symbol)
            s.append(contentsOf: b.marks(x: x, y: y))
            return String(s)
        }
    }

    @Test func japaneseChineseAndKoreanTakeTwoCellsEach() {
        for (text, chars) in [("東京タワー", ["東", "京", "タ", "ワ", "ー"]), ("北京市", ["北", "京", "市"]),
                              ("서울특별시", ["서", "울", "특", "별", "시"])] {
            var b = CellBuffer(width: 2 * chars.count + 1, height: 1)
            #expect(b.put(text, x: 0, y: 0) == 2 * chars.count)
            #expect(b.rowText(0) == text + " ")
            #expect(cells(b) == chars.flatMap { [$0, "<"] } + [" "])
            #expect(text.displayWidth == 2 * chars.count)
            #expect(b.isWide(x: 0, y: 0) && !b.isWide(x: 1, y: 0))
        }
    }

    @Test func aWideCharacterThatDoesNotFitAtTheEdgeBecomesABlank() {
        // Odd widths: the edge falls in the middle of a character.
        for width in [1, 3, 5, 7, 9] {
            var b = CellBuffer(width: width, height: 1, fill: Cell("."))
            let written = b.put("東京タワー", x: 0, y: 0)
            #expect(written == min(width, 10))
            let whole = width / 2
            #expect(b.rowText(0) == String("東京タワー".prefix(whole)) + (width % 2 == 1 && width < 10 ? " " : ""), "\(width)")
            #expect(!b.cells.last!.isContinuation || width % 2 == 0)
        }
        // maxWidth cuts the same way, and a text starting left of the buffer loses the half outside.
        var b = CellBuffer(width: 8, height: 1, fill: Cell("."))
        #expect(b.put("東京タワー", x: 1, y: 0, maxWidth: 5) == 5)
        #expect(b.rowText(0) == ".東京 ..")
        var left = CellBuffer(width: 6, height: 1, fill: Cell("."))
        left.put("東京タワー", x: -1, y: 0)
        #expect(cells(left) == [" ", "京", "<", "タ", "<", " "])
    }

    @Test func emojiWithModifiersAndJoinersAreOneCharacterOverTwoCells() {
        let thumbs = "\u{1F44D}\u{1F3FD}", family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", flag = "\u{1F1EF}\u{1F1F5}"
        var b = CellBuffer(width: 9, height: 1)
        b.put(thumbs + family + flag + "\u{2764}\u{FE0F}", x: 0, y: 0)
        #expect(cells(b) == [thumbs, "<", family, "<", flag, "<", "\u{2764}\u{FE0F}", " ", " "])
        #expect(b.rowText(0) == thumbs + family + flag + "\u{2764}\u{FE0F}  ")
        #expect((thumbs + family + flag).displayWidth == 6)
        // What reaches a terminal: the first emoji of each, no joiner, no selector after a narrow heart.
        #expect(b.ansiText(depth: .none) == "\u{1F44D}\u{1F468}\u{1F1EF}\u{2764}  \n")
        #expect(Cell.drawnMarks(["\u{FE0F}"], wide: true) == ["\u{FE0F}"])
        #expect(Cell.drawnMarks(["\u{0301}", "\u{200D}", "\u{0301}"], wide: false) == ["\u{0301}"])
    }

    @Test func combiningAccentsStayWithTheirLetter() {
        var b = CellBuffer(width: 6, height: 1)
        // Composed where Unicode can (e + acute is é); else the mark goes with its letter's cell.
        #expect(b.put("Cafe\u{0301} H\u{0331}", x: 0, y: 0) == 6)
        #expect(cells(b) == ["C", "a", "f", "\u{E9}", " ", "H\u{0331}"])
        #expect(b.ansiText(depth: .none) == "Caf\u{E9} H\u{0331}\n")
        // A mark at the start has nothing to sit on.
        #expect("\u{0301}abc".displayable == "abc")
        // Cut at an odd width between accented letters, never between a letter and its mark.
        #expect("Ha\u{0331}noi".truncated(to: 3) == "Ha\u{0331}\u{2026}")
    }

    @Test func writingOverHalfAWideCharacterBlanksTheOtherHalf() {
        var b = CellBuffer(width: 6, height: 1, fill: Cell("."))
        b.put("東京タ", x: 0, y: 0)
        b.put("a", x: 1, y: 0)  // the right half of 東
        b[2, 0] = Cell("b")  // the left half of 京
        #expect(cells(b) == [" ", "a", "b", " ", "タ", "<"])
        b.fill(x: 5, y: 0, width: 1, height: 1, with: Cell("c"))
        #expect(b.rowText(0) == " ab  c")
        // A narrow character over a wide one's first half, a wide one over two narrow ones.
        var c = CellBuffer(width: 4, height: 1)
        c.put("東京", x: 0, y: 0)
        c.put("ab", x: 1, y: 0)
        #expect(cells(c) == [" ", "a", "b", " "])
        c.put("北", x: 1, y: 0)
        #expect(cells(c) == [" ", "北", "<", " "])
    }

    @Test func drawingABufferClipsAWideCharacterToABlank() {
        var picture = CellBuffer(width: 4, height: 1)
        picture.put("東京", x: 0, y: 0)
        var b = CellBuffer(width: 5, height: 1, fill: Cell("."))
        b.draw(picture, x: -1, y: 0)
        #expect(cells(b) == [" ", "京", "<", ".", "."])
        b.draw(picture, x: 3, y: 0)
        #expect(cells(b) == [" ", "京", "<", "東", "<"])
        var edge = CellBuffer(width: 4, height: 1, fill: Cell("."))
        edge.draw(picture, x: 1, y: 0)
        #expect(cells(edge) == [".", "東", "<", " "])
    }

    @Test func theDiffKeepsAWideCharacterAndItsContinuationInOneRun() {
        var old = CellBuffer(width: 6, height: 1)
        old.put("ab東c", x: 0, y: 0)
        var new = old
        new.put("京", x: 2, y: 0)
        // Only the character changed, not its continuation: the run still holds both.
        #expect(new.changes(from: old) == [CellRun(x: 2, y: 0, style: .plain, symbols: ["京", Cell.continuation])])
        // A wide character replaced by narrow ones, and narrow ones by a wide one.
        var narrow = old
        narrow.put("xy", x: 2, y: 0)
        #expect(narrow.changes(from: old).map(\.text) == ["xy"])
        #expect(old.changes(from: narrow).map(\.text) == ["東"])
        #expect(old.changes(from: narrow).map(\.symbols.count) == [2])
        // Marks count: the same letter with another accent is a change; the same one is not.
        var accented = CellBuffer(width: 3, height: 1)
        accented.put("H\u{0331}", x: 0, y: 0)
        var again = CellBuffer(width: 3, height: 1)
        again.put("zzz", x: 0, y: 0)
        again.put("H\u{0331}  ", x: 0, y: 0)
        #expect(again == accented)
        #expect(again.changes(from: accented).isEmpty)
        var other = CellBuffer(width: 3, height: 1)
        other.put("H\u{0332}", x: 0, y: 0)
        #expect(other.changes(from: accented) == [CellRun(x: 0, y: 0, style: .plain, symbols: ["H"], marks: [0: ["\u{0332}"]])])
    }

    @Test func withoutUTF8AWideCharacterIsAQuestionMarkPerColumn() {
        var b = CellBuffer(width: 8, height: 1)
        b.put("東京 e\u{0331}x", x: 0, y: 0)
        b.makeASCII()
        #expect(b.rowText(0) == "???? ex ")
        #expect(b.cells.allSatisfy { $0.symbol.isASCII && !$0.isContinuation })
    }

    @Test func frameTitlesAndCentredTextMeasureWideCharacters() {
        var b = CellBuffer(width: 11, height: 3)
        b.drawFrame(x: 0, y: 0, width: 11, height: 3, title: "東京タワー")
        // Between the corners, a space either side: 7 columns, 東京タ and the cut.
        #expect(b.rowText(0) == "┌ 東京タ… ┐")
        var c = CellBuffer(width: 9, height: 1)
        #expect(c.putCentered("東京", y: 0) == 2)
        #expect(c.rowText(0) == "  東京   ")
    }
}
