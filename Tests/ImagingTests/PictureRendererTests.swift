import Dispatch
import Foundation
@testable import Imaging
import Terminal
import XCTest

final class PictureRendererTests: XCTestCase {
    private let trueColor = TerminalCapabilities(unicode: true, colors: .trueColor)
    private let colors256 = TerminalCapabilities(unicode: true, colors: .indexed256)

    // MARK: Colours and placement

    func testHalfRedHalfBlueGivesRedCellsLeftAndBlueCellsRight() {
        // A square picture fills 10 × 5 cells exactly (cells are twice as tall as wide).
        let image = Self.image(width: 40, height: 40) { x, _ in x < 20 ? (220, 20, 20) : (20, 20, 220) }
        let buffer = PictureRenderer(capabilities: trueColor).render(image, columns: 10, rows: 5)
        XCTAssertEqual(buffer.width, 10)
        XCTAssertEqual(buffer.height, 5)
        for y in 0..<5 {
            for x in 0..<10 {
                let ink = Self.visible(buffer[x, y])
                XCTAssertFalse(ink.isEmpty, "cell \(x),\(y) has no colour")
                for color in ink {
                    guard case .rgb(let r, _, let b) = color else { return XCTFail("cell \(x),\(y): \(color)") }
                    if x < 5 {
                        XCTAssertTrue(r > 150 && b < 80, "left cell \(x),\(y) is \(color)")
                    } else {
                        XCTAssertTrue(b > 150 && r < 80, "right cell \(x),\(y) is \(color)")
                    }
                }
            }
        }
    }

    func testRowsOfAnyLengthAreReadRight() {
        // 90 pixels make rows of 270 bytes, which chafa 1.12 misreads unless padded to a multiple of 4.
        for width in [90, 91, 30] {
            let image = Self.image(width: width, height: width) { x, _ in x < width / 2 ? (220, 20, 20) : (20, 20, 220) }
            let buffer = PictureRenderer(capabilities: trueColor).render(image, columns: 10, rows: 5)
            for y in 0..<5 {
                for x in [0, 1, 3, 6, 8, 9] {
                    for color in Self.visible(buffer[x, y]) {
                        guard case .rgb(let r, let g, let b) = color else { return XCTFail("cell \(x),\(y): \(color)") }
                        XCTAssertLessThan(g, 60, "width \(width), cell \(x),\(y) is \(color)")
                        XCTAssertTrue(x < 5 ? r > 150 : b > 150, "width \(width), cell \(x),\(y) is \(color)")
                    }
                }
            }
        }
    }

    func testFourByThreeFitsFortyByFifteenCentredWithBlankRowsAround() {
        let fitted = PictureRenderer.fitted(imageWidth: 400, imageHeight: 300, columns: 40, rows: 40)
        XCTAssertEqual(fitted.columns, 40)
        XCTAssertEqual(fitted.rows, 15)

        let image = Self.image(width: 400, height: 300) { _, _ in (30, 160, 60) }
        let buffer = PictureRenderer(capabilities: trueColor).render(image, columns: 40, rows: 40)
        XCTAssertEqual(buffer.width, 40)
        XCTAssertEqual(buffer.height, 40)
        // (40 − 15) / 2 = 12 blank rows above, 13 below.
        XCTAssertEqual(Self.pictureRows(buffer), 12..<27)
        for y in 12..<27 {
            for x in 0..<40 {
                XCTAssertEqual(buffer[x, y].style.bg, .rgb(30, 160, 60), "cell \(x),\(y)")
            }
        }
    }

    func testTallPictureIsCentredWithBlankColumnsBesideIt() {
        // 1:2 portrait into 40 × 20: the full height takes 20 rows = 40 pixels-high units → 20 columns.
        XCTAssertTrue(PictureRenderer.fitted(imageWidth: 100, imageHeight: 200, columns: 40, rows: 20) == (20, 20))
        let image = Self.image(width: 100, height: 200) { _, _ in (200, 200, 40) }
        let buffer = PictureRenderer(capabilities: trueColor).render(image, columns: 40, rows: 20)
        for y in 0..<20 {
            for x in 0..<40 {
                let inside = (10..<30).contains(x)
                XCTAssertEqual(buffer[x, y] != .blank, inside, "cell \(x),\(y)")
            }
        }
    }

    func testOnePixelImageFillsTheBoxWithItsColour() {
        let image = RGBImage(width: 1, height: 1, pixels: [250, 120, 10])
        XCTAssertTrue(PictureRenderer.fitted(imageWidth: 1, imageHeight: 1, columns: 40, rows: 40) == (40, 20))
        let buffer = PictureRenderer(capabilities: trueColor).render(image, columns: 40, rows: 40)
        XCTAssertEqual(Self.pictureRows(buffer), 10..<30)
        for y in 10..<30 {
            for x in 0..<40 {
                XCTAssertEqual(Self.visible(buffer[x, y]), [.rgb(250, 120, 10)], "cell \(x),\(y)")
            }
        }
    }

    func testPanoramaTakesOneFullWidthRow() {
        let image = Self.image(width: 10_000, height: 200) { x, _ in (UInt8(x % 256), 90, 200) }
        XCTAssertTrue(PictureRenderer.fitted(imageWidth: 10_000, imageHeight: 200, columns: 80, rows: 40) == (80, 1))
        let buffer = PictureRenderer(capabilities: colors256).render(image, columns: 80, rows: 40)
        XCTAssertEqual(buffer.width, 80)
        XCTAssertEqual(buffer.height, 40)
        XCTAssertEqual(Self.pictureRows(buffer), 19..<20)
        XCTAssertTrue((0..<80).allSatisfy { buffer[$0, 19] != .blank })
    }

    func testFittedKeepsTheAspectAndStaysInsideTheBox() {
        for (w, h, c, r) in [(640, 480, 80, 40), (1024, 768, 200, 60), (3, 7000, 10, 10), (7000, 3, 10, 10), (5, 5, 1, 1)] {
            let box = PictureRenderer.fitted(imageWidth: w, imageHeight: h, columns: c, rows: r)
            XCTAssertTrue(box.columns >= 1 && box.columns <= c && box.rows >= 1 && box.rows <= r, "\(w)×\(h) in \(c)×\(r): \(box)")
            XCTAssertTrue(box.columns == c || box.rows == r, "\(w)×\(h) in \(c)×\(r) touches neither edge: \(box)")
        }
        XCTAssertTrue(PictureRenderer.fitted(imageWidth: 640, imageHeight: 480, columns: 80, rows: 40) == (80, 30))
        XCTAssertTrue(PictureRenderer.fitted(imageWidth: 0, imageHeight: 480, columns: 80, rows: 40) == (0, 0))
        XCTAssertTrue(PictureRenderer.fitted(imageWidth: 640, imageHeight: 480, columns: 0, rows: 40) == (0, 0))
    }

    func testEmptyImageOrBoxGivesBlankCells() {
        let renderer = PictureRenderer(capabilities: trueColor)
        let empty = RGBImage(width: 0, height: 0, pixels: [])
        XCTAssertEqual(renderer.render(empty, columns: 6, rows: 3), CellBuffer(width: 6, height: 3))
        let image = Self.image(width: 8, height: 8) { _, _ in (1, 2, 3) }
        XCTAssertEqual(renderer.render(image, columns: 0, rows: 3).cells.count, 0)
        XCTAssertEqual(renderer.render(image, columns: -4, rows: -1).cells.count, 0)
    }

    func testPictureWhosePixelsDoNotMatchItsSizeGivesBlankCells() {
        var image = Self.image(width: 8, height: 8) { _, _ in (200, 10, 10) }
        image.pixels.removeLast(3)
        XCTAssertEqual(PictureRenderer(capabilities: trueColor).render(image, columns: 8, rows: 4), CellBuffer(width: 8, height: 4))
    }

    // MARK: What the terminal offers

    func testSettingsFollowTheTerminal() {
        XCTAssertEqual(PictureRenderer(capabilities: trueColor).colorMode, .trueColor)
        XCTAssertEqual(PictureRenderer(capabilities: colors256).colorMode, .indexed240)
        XCTAssertEqual(PictureRenderer(capabilities: .init(unicode: true, colors: .eight)).colorMode, .indexed8)
        XCTAssertEqual(PictureRenderer(capabilities: .init(unicode: true, colors: .none)).colorMode, .foregroundBackground)
        XCTAssertEqual(PictureRenderer(capabilities: colors256).symbols, .blocks)
        XCTAssertEqual(PictureRenderer(capabilities: .init(unicode: false, colors: .indexed256), symbols: .halfBlocks).symbols, .ascii)
        XCTAssertEqual(PictureRenderer(capabilities: colors256, workFactor: 7).workFactor, 1)
    }

    func testNoColourGivesNoRGBAndShowsShapes() {
        let image = Self.image(width: 80, height: 40) { x, _ in x < 40 ? (255, 255, 255) : (0, 0, 0) }
        let renderer = PictureRenderer(capabilities: .init(unicode: true, colors: .none))
        let buffer = renderer.render(image, columns: 20, rows: 5)
        XCTAssertTrue(buffer.cells.allSatisfy { $0.style == .plain }, "a cell has a colour or attribute")
        // Light is ink in the terminal's own foreground: the white half is drawn, the black half left empty.
        for y in 0..<5 {
            XCTAssertTrue((0..<8).allSatisfy { buffer[$0, y].symbol != " " }, "row \(y): \(buffer.rowText(y))")
            XCTAssertTrue((12..<20).allSatisfy { buffer[$0, y].symbol == " " }, "row \(y): \(buffer.rowText(y))")
        }
        let noisy = PictureRenderer(capabilities: .init(unicode: true, colors: .none)).render(Self.noise(), columns: 40, rows: 20)
        XCTAssertFalse(noisy.cells.contains { $0.style.fg != .default || $0.style.bg != .default })
    }

    func testWithoutUnicodeOnlyPrintableASCIIIsUsed() {
        for colors in [TerminalCapabilities.ColorDepth.trueColor, .indexed256, .eight, .none] {
            let renderer = PictureRenderer(capabilities: .init(unicode: false, colors: colors))
            XCTAssertEqual(renderer.symbols, .ascii)
            let buffer = renderer.render(Self.noise(), columns: 40, rows: 20)
            let bad = buffer.cells.map(\.symbol).filter { !(0x20..<0x7F).contains($0.value) }
            XCTAssertTrue(bad.isEmpty, "\(colors): \(bad.prefix(5))")
            XCTAssertTrue(buffer.cells.contains { $0.symbol != " " }, "\(colors): only spaces")
        }
    }

    func testUnicodeSymbolsAreNarrowBlocksAndLinesOnly() {
        for symbols in [PictureRenderer.Symbols.blocks, .halfBlocks] {
            for colors in [TerminalCapabilities.ColorDepth.trueColor, .indexed256, .eight, .none] {
                let renderer = PictureRenderer(capabilities: .init(unicode: true, colors: colors), symbols: symbols)
                let used = Set(renderer.render(Self.noise(), columns: 40, rows: 20).cells.map(\.symbol))
                // The space, box drawing and block elements: narrow in every font that has them.
                let outside = used.filter { !($0 == " " || (0x2500...0x259F).contains($0.value)) }
                XCTAssertTrue(outside.isEmpty, "\(symbols), \(colors): \(outside)")
                XCTAssertTrue(used.contains { $0 != " " }, "\(symbols), \(colors): only spaces")
                let halves: Set<Unicode.Scalar> = [" ", "\u{2580}", "\u{2584}", "\u{2588}"]
                if symbols == .halfBlocks {
                    XCTAssertTrue(used.isSubset(of: halves), "\(colors): \(used)")
                } else {
                    // Quadrants, eighths or lines: shapes finer than half blocks.
                    XCTAssertFalse(used.isSubset(of: halves), "\(colors): \(used)")
                }
            }
        }
    }

    func testIndexed256ColoursRoundTripThroughTheBackendQuantiser() {
        let buffer = PictureRenderer(capabilities: colors256).render(Self.noise(), columns: 40, rows: 20)
        var seen = Set<Int>()
        for cell in buffer.cells {
            for color in [cell.style.fg, cell.style.bg] {
                guard case .indexed(let pen) = quantize(color, to: .indexed256) else {
                    return XCTFail("\(color) is not a palette colour")
                }
                XCTAssertTrue((16..<256).contains(pen), "pen \(pen): themed colours are left out")
                XCTAssertEqual(XtermPalette.color(pen: pen), color, "\(color) comes back as pen \(pen)")
                seen.insert(pen)
            }
        }
        XCTAssertGreaterThan(seen.count, 20, "a noisy picture uses many pens")
    }

    func testEveryPaletteColourMapsBackToItsPen() {
        for pen in 16..<256 {
            XCTAssertEqual(quantize(XtermPalette.color(pen: pen), to: .indexed256), .indexed(pen), "pen \(pen)")
        }
        for pen in 0..<8 {
            XCTAssertEqual(quantize(XtermPalette.color(pen: pen), to: .eight), .indexed(pen), "pen \(pen)")
        }
        XCTAssertEqual(XtermPalette.color(pen: -1), .default)
        XCTAssertEqual(XtermPalette.color(pen: 256), .default)
    }

    func testEightColourModeUsesTheEightANSIPens() {
        let renderer = PictureRenderer(capabilities: .init(unicode: true, colors: .eight))
        let buffer = renderer.render(Self.noise(), columns: 40, rows: 20)
        var seen = Set<Int>()
        for cell in buffer.cells {
            for color in [cell.style.fg, cell.style.bg] {
                guard case .indexed(let pen) = quantize(color, to: .eight) else { return XCTFail("\(color)") }
                XCTAssertEqual(XtermPalette.color(pen: pen), color)
                seen.insert(pen)
            }
        }
        XCTAssertGreaterThan(seen.count, 3)
    }

    func testTrueColourNeverSendsTheLowValuesTerminfoTreatsAsANSIColours() {
        let image = Self.image(width: 40, height: 40) { x, _ in x < 20 ? (0, 0, 0) : (0, 0, 5) }
        let buffer = PictureRenderer(capabilities: trueColor).render(image, columns: 10, rows: 5)
        for cell in buffer.cells {
            for color in [cell.style.fg, cell.style.bg] {
                guard case .rgb(let r, let g, let b) = color else { return XCTFail("\(color)") }
                XCTAssertGreaterThanOrEqual(Int(r) << 16 | Int(g) << 8 | Int(b), 8, "\(color)")
            }
        }
    }

    func testSpaceCellsHaveTheirBackgroundAsForeground() {
        for caps in [trueColor, colors256] {
            let buffer = PictureRenderer(capabilities: caps).render(Self.noise(), columns: 40, rows: 20)
            for cell in buffer.cells where cell.symbol == " " {
                XCTAssertEqual(cell.style.fg, cell.style.bg)
            }
        }
    }

    func testRenderingFromManyThreadsGivesTheSameCells() {
        let renderer = PictureRenderer(capabilities: colors256)
        let image = Self.noise()
        let expected = renderer.render(image, columns: 30, rows: 12)
        let results = Results(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            results.set(i, renderer.render(image, columns: 30, rows: 12))
        }
        for i in 0..<8 { XCTAssertEqual(results.get(i), expected, "render \(i)") }
    }

    // MARK: Printing

    func testANSIQuantisesLikeTheBackendAndEndsEveryRow() {
        var buffer = CellBuffer(width: 3, height: 2)
        buffer[0, 0] = Cell("\u{2584}", style: Style(fg: .rgb(255, 0, 0), bg: .rgb(0, 0, 255)))
        buffer[1, 0] = Cell(" ", style: Style(fg: .rgb(0, 0, 255), bg: .rgb(0, 0, 255)))
        buffer[0, 1] = Cell("x")

        let direct = buffer.ansiText(depth: .trueColor)
        XCTAssertEqual(direct, "\u{1B}[0;38;2;255;0;0;48;2;0;0;255m\u{2584}\u{1B}[0;38;2;0;0;255;48;2;0;0;255m \u{1B}[0m \nx  \n")
        let indexed = buffer.ansiText(depth: .indexed256)
        XCTAssertTrue(indexed.hasPrefix("\u{1B}[0;38;5;196;48;5;21m\u{2584}"), indexed.debugDescription)
        let eight = buffer.ansiText(depth: .eight)
        XCTAssertTrue(eight.hasPrefix("\u{1B}[0;31;44m\u{2584}"), eight.debugDescription)
        XCTAssertEqual(buffer.ansiText(depth: .none), "\u{2584}  \nx  \n")
    }

    func testANSIOfARenderedPictureHasOneLinePerRow() {
        let buffer = PictureRenderer(capabilities: colors256).render(Self.noise(), columns: 30, rows: 12)
        let text = buffer.ansiText(depth: .indexed256)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 13)
        XCTAssertEqual(lines.last, "")
        XCTAssertTrue(text.contains("48;5;"))
        XCTAssertFalse(text.contains("38;2;"))
        let plain = PictureRenderer(capabilities: .init(unicode: true, colors: .none))
            .render(Self.noise(), columns: 30, rows: 12).ansiText(depth: .none)
        XCTAssertFalse(plain.contains("\u{1B}"))
    }

    // MARK: Helpers

    private static func image(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> RGBImage {
        RGBImage.painted(width: width, height: height, color)
    }

    /// Blocks of random colours with gradients between: many pens and many shapes.
    private static func noise() -> RGBImage {
        var state: UInt32 = 12345
        func next() -> UInt8 {
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        let blocks = (0..<64).map { _ in (next(), next(), next()) }
        return image(width: 160, height: 160) { x, y in
            let b = blocks[(y / 20) * 8 + x / 20]
            let t = UInt8((x % 20) * 6)
            return (b.0 &+ t, b.1, b.2 ^ UInt8(y % 7 * 20))
        }
    }

    /// The colours a cell shows: a space only its background.
    private static func visible(_ cell: Cell) -> Set<Color> {
        cell.symbol == " " ? [cell.style.bg] : [cell.style.fg, cell.style.bg]
    }

    /// The rows that hold anything but blank cells.
    private static func pictureRows(_ buffer: CellBuffer) -> Range<Int> {
        let rows = (0..<buffer.height).filter { y in (0..<buffer.width).contains { buffer[$0, y] != .blank } }
        guard let first = rows.first, let last = rows.last else { return 0..<0 }
        return first..<(last + 1)
    }
}

/// Buffers written by concurrent renders, one slot each.
private final class Results: @unchecked Sendable {
    private var buffers: [CellBuffer?]
    private let lock = NSLock()
    init(count: Int) { buffers = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ buffer: CellBuffer) { lock.withLock { buffers[i] = buffer } }
    func get(_ i: Int) -> CellBuffer? { lock.withLock { buffers[i] } }
}
