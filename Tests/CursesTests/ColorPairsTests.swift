@testable import Curses
import Terminal
import TestSupport
import XCTest

/// What ncurses would show: the pair each cell holds and what each pair is
/// defined as. Frames go through `ColorPairs.plan` exactly as the terminal's
/// `draw` does; every frame checks that no cell left alone shows a pair
/// redefined during that frame (ncurses would recolour it).
final class PairScreen {
    let width: Int, height: Int
    var pairs: ColorPairs!
    private(set) var cells: [Int32]
    private(set) var definitions: [Int32: ColorKey] = [:]
    private(set) var definedThisFrame: [Int32] = []
    private(set) var definitionCount = 0
    private var last: CellBuffer?

    init(width: Int, height: Int, capacity: Int, depth: TerminalCapabilities.ColorDepth) {
        self.width = width
        self.height = height
        cells = Array(repeating: 0, count: width * height)
        pairs = ColorPairs(capacity: capacity, depth: depth) { [unowned self] pair, fg, bg in
            definitions[pair] = ColorKey(fg: fg, bg: bg)
            definedThisFrame.append(pair)
            definitionCount += 1
        }
    }

    /// Draws a frame; returns whether every cell was written.
    @discardableResult
    func draw(_ frame: CellBuffer, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        definedThisFrame = []
        let (runs, numbers) = pairs.plan(frame, changes: frame.changes(from: last))
        XCTAssertEqual(runs.count, numbers.count, file: file, line: line)
        XCTAssertEqual(Set(definedThisFrame).count, definedThisFrame.count, "a pair defined twice in one frame",
                       file: file, line: line)
        var written = Array(repeating: false, count: cells.count)
        for (run, number) in zip(runs, numbers) {
            XCTAssert(number >= 0 && Int(number) <= pairs.capacity, "pair \(number) out of range", file: file, line: line)
            for i in 0..<run.symbols.count {
                written[run.y * width + run.x + i] = true
                cells[run.y * width + run.x + i] = number
            }
        }
        let redefined = Set(definedThisFrame)
        let stale = cells.indices.filter { !written[$0] && redefined.contains(cells[$0]) }
        XCTAssert(stale.isEmpty, "\(stale.count) cells left alone show a pair redefined under them", file: file, line: line)
        XCTAssertLessThanOrEqual(pairs.inUse, pairs.capacity, file: file, line: line)
        last = frame
        return !written.contains(false)
    }

    /// The colours a cell shows.
    func shown(x: Int, y: Int) -> ColorKey {
        let number = cells[y * width + x]
        return number == 0 ? .defaults : definitions[number] ?? ColorKey(fg: -99, bg: -99)
    }

    /// Cells whose colours are not the frame's.
    func wrongCells(_ frame: CellBuffer) -> [(x: Int, y: Int)] {
        var wrong: [(Int, Int)] = []
        for y in 0..<height {
            for x in 0..<width where shown(x: x, y: y) != pairs.key(frame[x, y].style) {
                wrong.append((x, y))
            }
        }
        return wrong
    }
}

/// The ANSI colour number `quantize` gives at eight colours.
func ansi8Index(_ color: Color) -> Int {
    quantize(color, to: .eight).colorNumber
}

func randomColor(_ random: inout SeededRandom) -> Color {
    .rgb(UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
         UInt8.random(in: 0...255, using: &random))
}

/// A picture cell: a block in two random colours.
func pictureCell(_ random: inout SeededRandom) -> Cell {
    Cell("▀", style: Style(fg: randomColor(&random), bg: randomColor(&random)))
}

final class ColorPairsTests: XCTestCase {
    func testThousandsOfColoursOverManyFramesStayExactWithinCapacity() {
        // 40×25 = 1,000 cells, at most 1,000 colours a frame, 1,200 pairs.
        let screen = PairScreen(width: 40, height: 25, capacity: 1_200, depth: .trueColor)
        var random = SeededRandom(seed: 1)
        var frame = CellBuffer(width: 40, height: 25)
        for step in 0..<40 {
            // Sometimes all new, sometimes a part (so unchanged cells must keep their pairs).
            let changed = step % 3 == 0 ? 1_000 : Int.random(in: 1...400, using: &random)
            for _ in 0..<changed {
                frame[Int.random(in: 0..<40, using: &random), Int.random(in: 0..<25, using: &random)] = pictureCell(&random)
            }
            if step % 3 == 0 {
                for y in 0..<25 { for x in 0..<40 { frame[x, y] = pictureCell(&random) } }
            }
            let wholeFrame = screen.draw(frame)
            if step % 3 != 0 { XCTAssertFalse(wholeFrame, "frame \(step) fits: only its changes are written") }
            XCTAssertEqual(screen.wrongCells(frame).count, 0, "frame \(step)")
        }
        XCTAssertGreaterThan(screen.definitionCount, 10_000, "pairs were reused many times over")
        XCTAssertFalse(screen.pairs.approximating)
    }

    func testCellsLeftAloneKeepTheirPairsWhenPairsAreReused() {
        // The left half stays; the right half gets new colours each frame (200 colours, 250 pairs).
        let screen = PairScreen(width: 20, height: 10, capacity: 250, depth: .trueColor)
        var random = SeededRandom(seed: 2)
        var frame = CellBuffer(width: 20, height: 10)
        for y in 0..<10 { for x in 0..<20 { frame[x, y] = pictureCell(&random) } }
        screen.draw(frame)
        let left = (0..<10).flatMap { y in (0..<10).map { x in screen.shown(x: x, y: y) } }
        for step in 0..<30 {
            for y in 0..<10 { for x in 10..<20 { frame[x, y] = pictureCell(&random) } }
            screen.draw(frame)
            XCTAssertEqual(screen.wrongCells(frame).count, 0, "frame \(step)")
            XCTAssertEqual((0..<10).flatMap { y in (0..<10).map { x in screen.shown(x: x, y: y) } }, left)
        }
        XCTAssertGreaterThan(screen.definitionCount, 250)
    }

    /// A frame like the album on a 64-pair terminal: a status line, a
    /// dialog, a two-letter highlight, and a picture with every colour pair.
    func frameWithText(depth: TerminalCapabilities.ColorDepth, random: inout SeededRandom,
                       picture: (inout SeededRandom, Int, Int) -> Cell) -> (CellBuffer, [Style]) {
        let status = Style(fg: .rgb(0, 0, 0), bg: .rgb(229, 229, 229))
        let dialog = Style(fg: .rgb(229, 229, 229), bg: .rgb(0, 0, 0))
        let title = Style(fg: .rgb(205, 205, 0), bg: .rgb(0, 0, 0), attributes: .bold)
        let highlight = Style(fg: .rgb(0, 0, 0), bg: .rgb(205, 205, 0))
        let frameColour = Style(fg: .rgb(205, 0, 0), bg: .rgb(0, 205, 205))
        var frame = CellBuffer(width: 60, height: 20)
        for y in 0..<18 { for x in 0..<60 { frame[x, y] = picture(&random, x, y) } }
        frame.fill(x: 0, y: 19, width: 60, height: 1, with: Cell(" ", style: status))
        for (i, c) in "12 photos".unicodeScalars.enumerated() { frame[i, 19] = Cell(c, style: status) }
        for (i, c) in "Remove pin?".unicodeScalars.enumerated() { frame[20 + i, 18] = Cell(c, style: dialog) }
        for (i, c) in "Pin".unicodeScalars.enumerated() { frame[40 + i, 18] = Cell(c, style: title) }
        for (i, c) in "OK".unicodeScalars.enumerated() { frame[50 + i, 18] = Cell(c, style: highlight) }
        frame[55, 18] = Cell("─", style: frameColour)
        return (frame, [status, dialog, title, highlight])
    }

    func testTextKeepsExactColoursWhenAFrameHasMoreColoursThanPairs() {
        // TERM=screen: 8 colours, 64 pairs (63 usable); the picture uses all 81 combinations.
        let screen = PairScreen(width: 60, height: 20, capacity: 63, depth: .eight)
        let ansi: [Color] = [.default, .rgb(0, 0, 0), .rgb(205, 0, 0), .rgb(0, 205, 0), .rgb(205, 205, 0),
                             .rgb(0, 0, 205), .rgb(205, 0, 205), .rgb(0, 205, 205), .rgb(229, 229, 229)]
        var random = SeededRandom(seed: 3)
        // Every combination but the text's: 77 colours on about 14 cells each, more than "OK" and "Pin".
        let textColors = frameWithText(depth: .eight, random: &random) { _, _, _ in .blank }.1
            .map { ColorKey(fg: ansi8Index($0.fg), bg: ansi8Index($0.bg)) }
        let combinations = (0..<81).map { (ansi[$0 / 9], ansi[$0 % 9]) }.filter { fg, bg in
            !textColors.contains(ColorKey(fg: ansi8Index(fg), bg: ansi8Index(bg)))
        }
        XCTAssertEqual(combinations.count, 77)
        let (frame, texts) = frameWithText(depth: .eight, random: &random) { _, x, y in
            let (fg, bg) = combinations[(y * 60 + x) % combinations.count]
            return Cell("▄", style: Style(fg: fg, bg: bg))
        }
        XCTAssertTrue(screen.draw(frame), "an approximated frame is written whole")
        XCTAssertTrue(screen.pairs.approximating)
        for y in 18..<20 {
            for x in 0..<60 where texts.contains(frame[x, y].style) {
                XCTAssertEqual(screen.shown(x: x, y: y), screen.pairs.key(frame[x, y].style), "text at \(x),\(y)")
            }
        }
        let wrong = screen.wrongCells(frame)
        XCTAssertGreaterThan(wrong.count, 0, "81 colours cannot all fit in 63 pairs")
        XCTAssertLessThan(wrong.count, 16 * 15, "only the colours without a pair are approximated")
        XCTAssertFalse((0..<20).contains { y in (0..<60).contains { x in
            screen.shown(x: x, y: y) == .defaults && frame[x, y].style.bg != .default && frame[x, y].style.fg != .default
        } }, "no coloured cell falls back to the default pair")

        // The picture goes: every cell exact again, even those left alone.
        var plain = frame
        plain.fill(x: 0, y: 0, width: 60, height: 18, with: .blank)
        XCTAssertTrue(screen.draw(plain))
        XCTAssertEqual(screen.wrongCells(plain).count, 0)
        XCTAssertFalse(screen.pairs.approximating)
        XCTAssertFalse(screen.draw(plain), "back to writing changes only")
    }

    func testTextKeepsExactColoursAmongThousandsOfPictureColoursIn256Pairs() {
        let screen = PairScreen(width: 60, height: 20, capacity: 255, depth: .indexed256)
        var random = SeededRandom(seed: 4)
        for step in 0..<5 {
            let (frame, texts) = frameWithText(depth: .indexed256, random: &random) { random, _, _ in pictureCell(&random) }
            screen.draw(frame)
            XCTAssertTrue(screen.pairs.approximating)
            for y in 18..<20 {
                for x in 0..<60 where texts.contains(frame[x, y].style) {
                    XCTAssertEqual(screen.shown(x: x, y: y), screen.pairs.key(frame[x, y].style),
                                   "frame \(step): text at \(x),\(y)")
                }
            }
        }
    }

    func testTheNearestPairStandsInForAColourWithoutOne() {
        // One pair: the text takes it; a picture colour close to it borrows it rather than pair 0.
        let screen = PairScreen(width: 4, height: 1, capacity: 1, depth: .trueColor)
        var frame = CellBuffer(width: 4, height: 1)
        let text = Style(fg: .rgb(250, 250, 250), bg: .rgb(0, 0, 100))
        frame[0, 0] = Cell("A", style: text)
        frame[1, 0] = Cell("█", style: Style(fg: .rgb(240, 240, 240), bg: .rgb(0, 0, 90)))
        frame[2, 0] = Cell("█", style: Style(fg: .rgb(240, 240, 240), bg: .rgb(0, 0, 90)))
        frame[3, 0] = Cell("█", style: Style(fg: .default, bg: .default))
        screen.draw(frame)
        let key = screen.pairs.key(text)
        XCTAssertEqual(screen.shown(x: 0, y: 0), key)
        XCTAssertEqual(screen.shown(x: 1, y: 0), key)
        XCTAssertEqual(screen.shown(x: 2, y: 0), key)
        XCTAssertEqual(screen.shown(x: 3, y: 0), .defaults)
    }

    func testWithoutColoursEverythingIsPairZero() {
        let screen = PairScreen(width: 10, height: 1, capacity: 0, depth: .none)
        var random = SeededRandom(seed: 5)
        var frame = CellBuffer(width: 10, height: 1)
        for x in 0..<10 { frame[x, 0] = pictureCell(&random) }
        screen.draw(frame)
        XCTAssertEqual(screen.definitionCount, 0)
        XCTAssertEqual(screen.wrongCells(frame).count, 0)
    }
}
