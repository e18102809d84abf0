@preconcurrency import CNcursesw
@testable import Curses
import Foundation
import Terminal
import XCTest

/// The real `NcursesTerminal` on a pseudo-terminal: standard input and
/// output are the pty while it runs, with an explicit environment; ncurses'
/// own idea of every cell (`mvin_wch`, `getcchar`, `extended_pair_content`)
/// is compared with the frame. Failures are collected while the pty is
/// standard output and reported after it is given back.
final class PseudoTerminalColorTests: XCTestCase {
    struct Mismatch: CustomStringConvertible {
        var frame: Int, x: Int, y: Int
        var expected: ColorKey, shown: ColorKey
        var description: String { "frame \(frame) cell \(x),\(y): expected \(expected), ncurses has \(shown)" }
    }

    /// Runs `body` with a terminal on a fresh pty of `width` × `height`.
    func withTerminal(term: String, width: Int, height: Int,
                      _ body: (NcursesTerminal) throws -> Void) throws {
        // openpty is in glibc but not in Swift's Glibc module: look it up.
        typealias OpenPTY = @convention(c) (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>,
                                            UnsafeMutablePointer<CChar>?, UnsafeRawPointer?, UnsafeRawPointer?) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "openpty") else {
            throw SetupFailure("no openpty in this C library")
        }
        let openpty = unsafeBitCast(symbol, to: OpenPTY.self)
        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        XCTAssertEqual(openpty(&master, &slave, nil, nil, &size), 0)
        guard master >= 0, slave >= 0 else { return }
        // Read everything ncurses writes, so its writes never block.
        let drained = DispatchSemaphore(value: 0)
        Thread { [master] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while read(master, &buffer, buffer.count) > 0 {}
            drained.signal()
        }.start()

        let names = ["TERM", "LINES", "COLUMNS", "NO_COLOR", "COLORTERM", "LC_ALL", "ESCDELAY"]
        let saved = names.map { name in getenv(name).map { String(cString: $0) } }
        setenv("TERM", term, 1)
        setenv("LINES", "\(height)", 1)
        setenv("COLUMNS", "\(width)", 1)
        setenv("LC_ALL", "C.UTF-8", 1)
        unsetenv("NO_COLOR")
        unsetenv("COLORTERM")
        unsetenv("ESCDELAY")
        fflush(stdout)
        let savedIn = dup(STDIN_FILENO), savedOut = dup(STDOUT_FILENO)
        dup2(slave, STDIN_FILENO)
        dup2(slave, STDOUT_FILENO)

        var failure: Error?
        do {
            let terminal = try NcursesTerminal()
            do { try body(terminal) } catch { failure = error }
            terminal.shutdown()
        } catch {
            failure = error
        }

        fflush(stdout)
        dup2(savedIn, STDIN_FILENO)
        dup2(savedOut, STDOUT_FILENO)
        close(savedIn)
        close(savedOut)
        close(slave)
        drained.wait()
        close(master)
        for (name, value) in zip(names, saved) {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        setlocale(LC_ALL, "C")
        if let failure { throw failure }
    }

    /// The cells whose colours in ncurses' screen are not the frame's.
    func mismatches(_ terminal: NcursesTerminal, _ frame: CellBuffer, number: Int) -> [Mismatch] {
        var found: [Mismatch] = []
        var cell = cchar_t()
        var text = [wchar_t](repeating: 0, count: 8)
        var attrs: attr_t = 0
        var shortPair: Int16 = 0
        var pair: Int32 = 0
        var fg: Int32 = 0, bg: Int32 = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                _ = mvin_wch(Int32(y), Int32(x), &cell)
                _ = getcchar(&cell, &text, &attrs, &shortPair, &pair)
                _ = extended_pair_content(pair, &fg, &bg)
                let expected = terminal.colorPairs.key(frame[x, y].style)
                let shown = ColorKey(fg: Int(fg), bg: Int(bg))
                if shown != expected || text[0] != wchar_t(bitPattern: frame[x, y].symbol.value) {
                    found.append(Mismatch(frame: number, x: x, y: y, expected: expected, shown: shown))
                }
            }
        }
        return found
    }

    func report(_ mismatches: [Mismatch]) {
        XCTAssert(mismatches.isEmpty, "\(mismatches.count) cells wrong, first: \(mismatches.prefix(3))")
    }

    /// 200×60 frames, each cell a different pair: frame n uses pairs
    /// n × 12,000 … of the combinations `color(i)` yields. From frame
    /// `halfFrom` on, only every other cell changes.
    func frames(_ count: Int, color: (Int) -> Color, colors: Int, halfFrom: Int = .max) -> [CellBuffer] {
        var frames: [CellBuffer] = []
        var frame = CellBuffer(width: 200, height: 60)
        for n in 0..<count {
            for y in 0..<60 {
                for x in 0..<200 where n < halfFrom || (x + y + n) % 2 == 0 {
                    let i = n * 12_000 + y * 200 + x
                    let symbol: Unicode.Scalar = i % 2 == 0 ? "▀" : "▄"
                    frame[x, y] = Cell(symbol, style: Style(fg: color(i % colors), bg: color(i / colors % colors)))
                }
            }
            frames.append(frame)
        }
        return frames
    }

    /// The xterm palette's exact colours for indices 16–255, which quantise back to themselves.
    func palette256(_ i: Int) -> Color {
        let index = 16 + i
        guard index < 232 else { return .rgb(UInt8(8 + 10 * (index - 232)), UInt8(8 + 10 * (index - 232)), UInt8(8 + 10 * (index - 232))) }
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        let c = index - 16
        return .rgb(levels[c / 36], levels[c / 6 % 6], levels[c % 6])
    }

    func testTwoFramesOf12000PairsIn256Colours() throws {
        let frames = frames(2, color: palette256, colors: 240)
        var found: [Mismatch] = []
        var distinct: [Int] = []
        try withTerminal(term: "xterm-256color", width: 200, height: 60) { terminal in
            guard terminal.capabilities.colors == .indexed256, terminal.size == (200, 60) else {
                throw SetupFailure("xterm-256color gave \(terminal.capabilities.colors), \(terminal.size)")
            }
            for (n, frame) in frames.enumerated() {
                terminal.draw(frame)
                distinct.append(Set(frame.cells.map { terminal.colorPairs.key($0.style) }).count)
                found += mismatches(terminal, frame, number: n)
            }
        }
        XCTAssertEqual(distinct, [12_000, 12_000])
        report(found)
    }

    func testPairsAreReusedWithoutWrongColoursInTrueColour() throws {
        // 66,000 distinct pairs over seven frames, more than the 65,535 there are;
        // the last three change only half the cells, so cells left alone must keep theirs.
        let frames = frames(7, color: { Color(hex: UInt32(0x100000 + $0 * 7_919)) }, colors: 1_000, halfFrom: 4)
        var found: [Mismatch] = []
        var inUse: [Int] = []
        try withTerminal(term: "xterm-direct", width: 200, height: 60) { terminal in
            guard terminal.capabilities.colors == .trueColor, terminal.colorPairs.capacity == 65_535 else {
                throw SetupFailure("xterm-direct gave \(terminal.capabilities.colors), \(terminal.colorPairs.capacity) pairs")
            }
            for (n, frame) in frames.enumerated() {
                terminal.draw(frame)
                inUse.append(terminal.colorPairs.inUse)
                found += mismatches(terminal, frame, number: n)
            }
        }
        // The last frame's 6,000 new pairs do not fit: the 48,000 no cell shows any more are reused.
        XCTAssertEqual(inUse, [12_000, 24_000, 36_000, 48_000, 54_000, 60_000, 12_000])
        report(found)
    }

    func testTextKeepsItsColoursOnA64PairTerminal() throws {
        // TERM=screen: 8 colours, 64 pairs; the picture shows 77 combinations, the text 4 more.
        let ansi: [Color] = [.rgb(0, 0, 0), .rgb(205, 0, 0), .rgb(0, 205, 0), .rgb(205, 205, 0),
                             .rgb(0, 0, 205), .rgb(205, 0, 205), .rgb(0, 205, 205), .rgb(229, 229, 229), .default]
        let status = Style(fg: ansi[0], bg: ansi[7]), dialog = Style(fg: ansi[7], bg: ansi[4])
        let title = Style(fg: ansi[3], bg: ansi[4], attributes: .bold), button = Style(fg: ansi[4], bg: ansi[3])
        let texts = [status, dialog, title, button]
        let combinations = (0..<81).map { Style(fg: ansi[$0 / 9], bg: ansi[$0 % 9]) }.filter { style in
            !texts.contains { $0.fg == style.fg && $0.bg == style.bg }
        }
        var frame = CellBuffer(width: 80, height: 24)
        for y in 0..<22 { for x in 0..<80 { frame[x, y] = Cell("▄", style: combinations[(y * 80 + x) % combinations.count]) } }
        frame.fill(x: 0, y: 23, width: 80, height: 1, with: Cell(" ", style: status))
        for (i, c) in "12 photos".unicodeScalars.enumerated() { frame[i, 23] = Cell(c, style: status) }
        for (i, c) in "Remove this pin?".unicodeScalars.enumerated() { frame[2 + i, 22] = Cell(c, style: dialog) }
        for (i, c) in "Pin".unicodeScalars.enumerated() { frame[30 + i, 22] = Cell(c, style: title) }
        for (i, c) in "OK".unicodeScalars.enumerated() { frame[40 + i, 22] = Cell(c, style: button) }
        var found: [Mismatch] = []
        var defaultPairs = 0
        try withTerminal(term: "screen", width: 80, height: 24) { terminal in
            guard terminal.capabilities.colors == .eight, terminal.colorPairs.capacity == 63 else {
                throw SetupFailure("screen gave \(terminal.capabilities.colors), \(terminal.colorPairs.capacity) pairs")
            }
            terminal.draw(frame)
            XCTAssertTrue(terminal.colorPairs.approximating)
            let wrong = mismatches(terminal, frame, number: 0)
            found = wrong.filter { texts.contains(frame[$0.x, $0.y].style) }
            defaultPairs = wrong.filter { $0.shown == .defaults && $0.expected.fg != -1 && $0.expected.bg != -1 }.count
        }
        report(found)
        XCTAssertEqual(defaultPairs, 0, "no coloured cell falls back to the default pair")
    }
}

/// The pseudo-terminal or the terminal type is not what `make deps` installs: a failure, not a
/// skip, so a machine that cannot run these checks says so.
struct SetupFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
