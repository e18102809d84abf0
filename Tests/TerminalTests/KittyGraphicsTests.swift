import Terminal
import XCTest

/// kitty's graphics commands as vtourist writes them, tmux's passthrough, and the placeholder cells.
final class KittyGraphicsTests: XCTestCase {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testThePayloadGoesInChunksOf4096Base64BytesTheKeysOnTheFirst() {
        // 3072 bytes are exactly 4096 base64 bytes: one chunk; one more byte makes two.
        let one = text(KittyGraphics.transmit([UInt8](repeating: 7, count: 3072), format: .png, id: 9, passthrough: false))
        XCTAssertTrue(one.hasPrefix("\u{1B}_Ga=t,q=2,i=9,f=100,m=0;"), one.prefix(40).description)
        XCTAssertEqual(one.components(separatedBy: "\u{1B}_G").count - 1, 1)
        let two = text(KittyGraphics.transmit([UInt8](repeating: 7, count: 3073), format: .zlibRGB(width: 5, height: 4),
                                              id: 9, passthrough: false))
        let chunks = two.components(separatedBy: "\u{1B}_G").dropFirst()
        XCTAssertEqual(chunks.count, 2)
        XCTAssertTrue(chunks.first?.hasPrefix("a=t,q=2,i=9,f=24,o=z,s=5,v=4,m=1;") ?? false)
        XCTAssertTrue(chunks.last?.hasPrefix("q=2,m=0;") ?? false, "later chunks carry no keys but m and q")
        XCTAssertTrue(text(KittyGraphics.transmit([], format: .png, id: 1, passthrough: false)).hasPrefix("\u{1B}_Ga=t"),
                      "even nothing is one command")
    }

    func testPlacingAndDeletingById() {
        XCTAssertEqual(text(KittyGraphics.place(id: 12, columns: 40, rows: 15)), "\u{1B}_Ga=p,q=2,i=12,p=1,c=40,r=15,C=1\u{1B}\\")
        XCTAssertEqual(text(KittyGraphics.delete(id: 12, passthrough: false)), "\u{1B}_Ga=d,d=I,q=2,i=12\u{1B}\\")
        XCTAssertEqual(text(KittyGraphics.placeVirtually(id: 40, columns: 3, rows: 2, passthrough: false)),
                       "\u{1B}_Ga=p,q=2,U=1,i=40,c=3,r=2\u{1B}\\")
    }

    func testThePassthroughDoublesEveryEscInside() {
        XCTAssertEqual(text(KittyGraphics.delete(id: 5, passthrough: true)),
                       "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,q=2,i=5\u{1B}\u{1B}\\\u{1B}\\")
        XCTAssertEqual(KittyGraphics.wrap([1, 2], passthrough: false), [1, 2])
        // Each chunk its own passthrough string (tmux holds one string in memory at a time).
        let sent = text(KittyGraphics.transmit([UInt8](repeating: 1, count: 6000), format: .png, id: 3, passthrough: true))
        XCTAssertEqual(sent.components(separatedBy: "\u{1B}Ptmux;").count - 1, 2)
    }

    func testPlaceholderCellsNameTheirRowAndColumnByDiacritic() {
        XCTAssertEqual(ImagePlaceholder.maxSide, 297)
        XCTAssertEqual(ImagePlaceholder.diacritic(0), "\u{0305}")
        XCTAssertEqual(ImagePlaceholder.diacritic(1), "\u{030D}")
        XCTAssertEqual(ImagePlaceholder.diacritic(296), "\u{1D244}")
        XCTAssertEqual(ImagePlaceholder.diacritic(5000), "\u{1D244}", "beyond the table: the last")
        for n in [0, 1, 30, 100, 296] { XCTAssertEqual(ImagePlaceholder.number(of: ImagePlaceholder.diacritic(n)), n) }
        XCTAssertNil(ImagePlaceholder.number(of: "a"))
        // Every one a combining mark drawn above, no two alike.
        for n in 0..<297 {
            let mark = ImagePlaceholder.diacritic(n)
            XCTAssertEqual(mark.properties.generalCategory, .nonspacingMark, "\(n)")
            XCTAssertEqual(mark.properties.canonicalCombiningClass.rawValue, 230, "\(n)")
        }
        XCTAssertEqual(ImagePlaceholder(row: 2, column: 3).scalars, ["\u{10EEEE}", "\u{030E}", "\u{0310}"])

        let color = PlaceholderID.color(slot: 20)
        let cells = ImagePlaceholder.cells(columns: 3, rows: 2, color: color)
        XCTAssertEqual(cells.cells.map(\.placeholder), [0, 1].flatMap { r in (0..<3).map { ImagePlaceholder(row: r, column: $0) } })
        XCTAssertTrue(cells.cells.allSatisfy { $0.symbol == "\u{10EEEE}" && $0.style.fg == color })
        XCTAssertEqual(ImagePlaceholder.cells(columns: 400, rows: 1, color: color).width, 297, "no more columns than diacritics")
    }

    func testPlaceholderIdsSurviveTheColourDepths() {
        for slot in PlaceholderID.slots {
            let color = PlaceholderID.color(slot: slot)
            XCTAssertEqual(PlaceholderID.imageID(color, depth: .indexed256), UInt32(slot), "the palette index is the id")
            guard case let .rgb(r, g, b) = color else { return XCTFail("\(color)") }
            XCTAssertEqual(PlaceholderID.imageID(color, depth: .trueColor), UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
            XCTAssertGreaterThanOrEqual(quantize(color, to: .trueColor).colorNumber, 8, "never a themed ANSI colour")
        }
        XCTAssertEqual(PlaceholderID.color(slot: 17 + 215), PlaceholderID.color(slot: 17), "slots go round")
        XCTAssertNil(PlaceholderID.imageID(PlaceholderID.color(slot: 30), depth: .eight))
        XCTAssertNil(PlaceholderID.imageID(PlaceholderID.color(slot: 30), depth: .none))
    }

    func testACellKeepsItsPlaceholderInSixteenBytes() {
        XCTAssertEqual(MemoryLayout<Cell>.stride, 16, "frames of thousands of cells are copied and compared every draw")
        for (row, column) in [(0, 0), (1, 0), (0, 1), (296, 296), (511, 3), (42, 511)] {
            var cell = Cell("\u{10EEEE}", style: Style(fg: .rgb(1, 2, 3)), placeholder: ImagePlaceholder(row: row, column: column))
            XCTAssertEqual(cell.placeholder, ImagePlaceholder(row: row, column: column))
            XCTAssertNotEqual(cell, Cell("\u{10EEEE}", style: Style(fg: .rgb(1, 2, 3))), "a placeholder is part of the cell")
            cell.placeholder = nil
            XCTAssertEqual(cell, Cell("\u{10EEEE}", style: Style(fg: .rgb(1, 2, 3))))
        }
        XCTAssertNil(Cell.blank.placeholder)
        XCTAssertNotEqual(Cell(placeholder: ImagePlaceholder(row: 1, column: 2)), Cell(placeholder: ImagePlaceholder(row: 2, column: 1)))
    }

    func testARunIsAllTextOrAllPlaceholders() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.put("ab", x: 0, y: 0)
        buffer.draw(ImagePlaceholder.cells(columns: 2, rows: 1, color: .default), x: 2, y: 0, skippingBlank: false)
        let runs = buffer.changes(from: nil)
        XCTAssertEqual(runs.map(\.x), [0, 2, 4])
        XCTAssertEqual(runs[1].placeholders, [ImagePlaceholder(row: 0, column: 0), ImagePlaceholder(row: 0, column: 1)])
        XCTAssertEqual(runs[0].placeholders, [])
        // Printed outside curses the same way: the placeholder and its two marks.
        let printed = buffer.ansiText(depth: .none)
        XCTAssertEqual(printed, "ab\u{10EEEE}\u{0305}\u{0305}\u{10EEEE}\u{0305}\u{030D}  \n")
        // Text never becomes a placeholder.
        var text = CellBuffer(width: 3, height: 1)
        text.put("\u{10EEEE}\u{0305}x", x: 0, y: 0)
        XCTAssertTrue(text.cells.allSatisfy { $0.placeholder == nil })
        XCTAssertFalse(text.rowText(0).unicodeScalars.contains("\u{10EEEE}"))
    }
}
