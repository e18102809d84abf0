import Testing
@testable import Terminal

@Suite struct RectTests {
    let screen = Rect(x: 0, y: 0, width: 80, height: 24)

    @Test func splitsOffTheStatusRow() {
        let (main, status) = screen.splitBottom(1)
        #expect(main == Rect(x: 0, y: 0, width: 80, height: 23))
        #expect(status == Rect(x: 0, y: 23, width: 80, height: 1))
        #expect(main.row(-1) == Rect(x: 0, y: 22, width: 80, height: 1))
    }

    @Test func splitsOffAHeader() {
        let (top, rest) = screen.splitTop(3)
        #expect(top == Rect(x: 0, y: 0, width: 80, height: 3))
        #expect(rest == Rect(x: 0, y: 3, width: 80, height: 21))
        #expect(rest.row(0) == Rect(x: 0, y: 3, width: 80, height: 1))
    }

    @Test func splitsNeverGoBeyondTheRect() {
        let small = Rect(x: 2, y: 2, width: 5, height: 2)
        #expect(small.splitTop(9).rest.isEmpty)
        #expect(small.splitBottom(9).rest == Rect(x: 2, y: 2, width: 5, height: 0))
        #expect(Rect(x: 0, y: 0, width: -3, height: 4).width == 0)
    }

    @Test func centresAndInsets() {
        let main = Rect(x: 0, y: 0, width: 80, height: 23)
        #expect(main.centered(width: 66, height: 16) == Rect(x: 7, y: 3, width: 66, height: 16))
        #expect(main.centered(width: 66, height: 40) == Rect(x: 7, y: 0, width: 66, height: 23))
        #expect(main.centered(width: 64, height: 6, top: 1) == Rect(x: 8, y: 1, width: 64, height: 6))
        #expect(Rect(x: 7, y: 3, width: 66, height: 16).inset(dx: 2, dy: 1) == Rect(x: 9, y: 4, width: 62, height: 14))
    }

    @Test func containsItsCellsOnly() {
        let r = Rect(x: 2, y: 1, width: 3, height: 2)
        #expect(r.contains(x: 2, y: 1) && r.contains(x: 4, y: 2))
        #expect(!r.contains(x: 5, y: 1) && !r.contains(x: 2, y: 3) && !r.contains(x: 1, y: 1))
    }

    /// A widget paints where its area says.
    struct Fill: Widget {
        var symbol: Unicode.Scalar
        func render(area: Rect, into buffer: inout CellBuffer) {
            buffer.clear(area)
            buffer.fill(x: area.x, y: area.y, width: area.width, height: area.height, with: Cell(symbol))
        }
    }

    @Test func widgetsPaintTheirAreaOnly() {
        var b = CellBuffer(width: 6, height: 3, fill: Cell("."))
        b.render(Fill(symbol: "#"), in: Rect(x: 1, y: 1, width: 3, height: 1))
        #expect(b.text == "......\n.###..\n......")
    }
}

@Suite struct TextTests {
    @Test func displayWidthCountsCells() {
        #expect("Zürich".displayWidth == 6)
        #expect("".displayWidth == 0)
    }

    @Test func truncationMarksTheCut() {
        #expect("Naples, Campania".truncated(to: 7) == "Naples\u{2026}")
        #expect("Naples".truncated(to: 6) == "Naples")
        #expect("Naples".truncated(to: 1) == "")
        #expect("Naples".truncated(to: 0) == "")
    }

    @Test func paragraphsWrapOnTheirOwnLinesAndTheLastShownOneIsCutWithAnEllipsis() {
        let paragraphs = ["one two", "three four five six", "seven"]
        #expect(paragraphs.wrapped(to: 9) == ["one two", "three", "four five", "six", "seven"])
        #expect(paragraphs.wrapped(to: 9, limit: 3) == ["one two", "three", "four fiv\u{2026}"])
        #expect(paragraphs.wrapped(to: 9, limit: 4) == ["one two", "three", "four five", "six seven"],
                "what follows fits on the last line: nothing is cut")
        #expect(["one", "two three four"].wrapped(to: 9, limit: 1) == ["one two \u{2026}"],
                "a paragraph left out is cut on the last line too, never dropped unmarked")
        #expect(paragraphs.wrapped(to: 9, limit: 0) == [])
    }
}

@Suite struct MakeASCIITests {
    @Test func everyCellBecomesASCIIThroughTheOneTable() {
        var b = CellBuffer(width: 12, height: 1)
        b.put("┌Zürich…·ș東", x: 0, y: 0)
        b.makeASCII()
        // The wide character: `?` for each of its two columns.
        #expect(b.rowText(0) == "+Zurich~.s??")
    }
}
