import Testing
@testable import Terminal

@Suite struct DrawingTests {
    @Test func unicodeFrameWithTitle() {
        var b = CellBuffer(width: 12, height: 4)
        b.drawFrame(x: 0, y: 0, width: 12, height: 4, title: "Pins")
        #expect(b.text == """
        ┌ Pins ────┐
        │          │
        │          │
        └──────────┘
        """)
    }

    @Test func frameLeavesInsideAloneAndReadsInASCII() {
        var b = CellBuffer(width: 7, height: 4, fill: Cell("."))
        b.drawFrame(x: 1, y: 0, width: 5, height: 3)
        b.makeASCII()
        #expect(b.text == """
        .+---+.
        .|...|.
        .+---+.
        .......
        """)
    }

    @Test func longTitleIsCutBetweenTheCorners() {
        var b = CellBuffer(width: 8, height: 2)
        b.drawFrame(x: 0, y: 0, width: 8, height: 2, title: "Settings menu")
        #expect(b.rowText(0) == "\u{250C} Set\u{2026} \u{2510}", "cut with \u{2026}, a space either side")
        b.makeASCII()
        #expect(b.rowText(0) == "+ Set~ +")
    }

    @Test func frameIsClippedAtTheEdge() {
        var b = CellBuffer(width: 4, height: 3)
        b.drawFrame(x: 2, y: 1, width: 5, height: 5)
        b.makeASCII()
        #expect(b.text == """
            \u{20}\u{20}\u{20}\u{20}
              +-
              |\u{20}
            """)
    }

    @Test func tinyFramesAreNotDrawn() {
        var b = CellBuffer(width: 3, height: 3)
        b.drawFrame(x: 0, y: 0, width: 1, height: 3)
        #expect(b == CellBuffer(width: 3, height: 3))
    }

    @Test func frameUsesTheStyles() {
        let border = Style(fg: .rgb(1, 2, 3))
        let title = Style(attributes: .bold)
        var b = CellBuffer(width: 10, height: 3)
        b.drawFrame(x: 0, y: 0, width: 10, height: 3, title: "T", style: border, titleStyle: title)
        #expect(b[0, 0].style == border)
        #expect(b[2, 0].style == title)
        #expect(b[9, 2].style == border)
    }

    @Test func centredText() {
        var b = CellBuffer(width: 10, height: 2)
        #expect(b.putCentered("abcd", y: 0) == 3)
        #expect(b.rowText(0) == "   abcd   ")
        #expect(b.putCentered("xy", y: 1, x: 5, width: 5) == 6)
        #expect(b.rowText(1) == "      xy  ")
    }

    @Test func centredTextTooLongIsCut() {
        var b = CellBuffer(width: 5, height: 1)
        b.putCentered("abcdefgh", y: 0)
        #expect(b.rowText(0) == "abcd\u{2026}")
        var c = CellBuffer(width: 10, height: 1)
        c.putCentered("abcdefgh", y: 0, x: 1, width: 4)
        #expect(c.rowText(0) == " abc\u{2026}     ")
    }

    @Test func putAtAnOffsetWithDefaultWidth() {
        var b = CellBuffer(width: 6, height: 1)
        #expect(b.put("abc", x: 2, y: 0) == 3)
        #expect(b.rowText(0) == "  abc ")
    }

    @Test func clearRect() {
        var b = CellBuffer(width: 4, height: 3, fill: Cell("#"))
        let s = Style(bg: .rgb(0, 0, 200))
        b.clear(x: 1, y: 1, width: 9, height: 1, style: s)
        #expect(b.text == "####\n#   \n####")
        #expect(b[3, 1].style == s)
        b.clear()
        #expect(b == CellBuffer(width: 4, height: 3))
    }
}
