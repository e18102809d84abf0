import Curses
import Foundation
import Terminal
import XCTest

/// The real `NcursesTerminal` on a pseudo-terminal: this process's stdin and
/// stdout are pointed at the pty's slave for the length of a test, and a
/// thread reads everything written to it from the master side (and answers
/// the device attributes request when told to).
final class InlineTerminalTests: XCTestCase {
    private var picture: InlinePicture { InlinePicture(key: "1@4x2", x: 5, y: 3, columns: 4, rows: 2,
                                        sequence: KittyGraphics.place(id: 9, columns: 4, rows: 2),
                                        transmit: KittyGraphics.transmit([1, 2, 3], format: .zlibRGB(width: 1, height: 1),
                                                                         id: 9, passthrough: false),
                                        imageID: 9) }
    private var kittyClear: [UInt8] { KittyGraphics.delete(id: 9, passthrough: false) }

    func testPictureIsWrittenOnceAtItsPlaceAndClearedWhenTakenAway() throws {
        var placed: [UInt8] = [], repeated: [UInt8] = [], detected: InlineProtocol?
        var cellSize: (width: Int, height: Int)? = (0, 0)
        try withTerminal(["VTOURIST_IMAGES": "kitty"]) { terminal, pty in
            detected = terminal.capabilities.inlineImages
            cellSize = terminal.cellPixelSize
            let blank = CellBuffer(width: terminal.size.width, height: terminal.size.height)
            terminal.draw(blank)
            terminal.showInline(picture)
            placed = pty.take(until: Array("\u{1B}8".utf8))
            terminal.draw(blank)
            terminal.showInline(picture)
            terminal.showInline(nil)
            // Written in order on one fd: once the clear is here, anything sent before it is too.
            repeated = pty.take(until: kittyClear)
        }
        XCTAssertEqual(detected, .kitty)
        XCTAssertNil(cellSize, "a pty reports no pixels")
        let expected = Array("\u{1B}7\u{1B}[4;6H".utf8) + picture.transmit + picture.sequence + Array("\u{1B}8".utf8)
        XCTAssertTrue(placed.contains(expected), "cursor to row 4, column 6, the picture, cursor back: \(show(placed))")
        XCTAssertFalse(repeated.contains(picture.sequence), "the same picture again: \(show(repeated))")
        XCTAssertTrue(repeated.hasSuffix(kittyClear))
    }

    func testARepaintPlacesTheKittyPictureAgainWithoutItsData() throws {
        var again: [UInt8] = []
        try withTerminal(["VTOURIST_IMAGES": "kitty"]) { terminal, pty in
            let blank = CellBuffer(width: terminal.size.width, height: terminal.size.height)
            terminal.draw(blank)
            terminal.showInline(picture)
            _ = pty.take(until: Array("\u{1B}8".utf8))
            // Another program used the screen: every cell is written again, and the picture placed.
            terminal.invalidate()
            terminal.draw(blank)
            terminal.showInline(picture)
            again = pty.take(until: Array("\u{1B}8".utf8))
        }
        XCTAssertTrue(again.contains(Array("\u{1B}7\u{1B}[4;6H".utf8) + picture.sequence), show(again))
        XCTAssertFalse(again.contains(picture.transmit), "no image data again: \(show(again))")
    }

    func testASixelPictureTakenAwayHasItsRowsSentAgain() throws {
        var removal: [UInt8] = []
        try withTerminal(["VTOURIST_IMAGES": "sixel"]) { terminal, pty in
            var frame = CellBuffer(width: terminal.size.width, height: terminal.size.height)
            for (i, scalar) in "under the picture".unicodeScalars.enumerated() { frame[2 + i, 4] = Cell(scalar) }
            terminal.draw(frame)
            terminal.showInline(picture)
            _ = pty.take(until: Array("\u{1B}8".utf8))
            terminal.showInline(nil)
            terminal.showInline(picture)
            removal = pty.take(until: Array("\u{1B}8".utf8))
        }
        let text = String(decoding: removal, as: UTF8.self)
        XCTAssertTrue(text.contains("under the picture"), "row 5 sent again: \(show(removal))")
        XCTAssertTrue(removal.contains(picture.sequence), "then drawn anew")
    }

    func testAPictureOffTheScreenIsNotDrawnAndKittyPicturesGoAtExit() throws {
        var offScreen: [UInt8] = [], atExit: [UInt8] = []
        try withTerminal(["VTOURIST_IMAGES": "kitty"]) { terminal, pty in
            terminal.draw(CellBuffer(width: terminal.size.width, height: terminal.size.height))
            var tooLow = picture
            tooLow.y = terminal.size.height - 1   // two rows from the last row down
            terminal.showInline(tooLow)
            terminal.showInline(picture)
            offScreen = pty.take(until: Array("\u{1B}8".utf8))
            terminal.shutdown()
            atExit = pty.take(until: kittyClear)
        }
        XCTAssertTrue(offScreen.contains(picture.sequence), "the picture that fits is drawn")
        XCTAssertFalse(String(decoding: offScreen, as: UTF8.self).contains("\u{1B}[24;6H"), show(offScreen))
        XCTAssertTrue(atExit.hasSuffix(kittyClear), "the picture deleted before the terminal is given back")
    }

    func testPlaceholderCellsAreWrittenWithTheirDiacriticsInTheColourThatCarriesTheId() throws {
        var written: [UInt8] = [], depth: TerminalCapabilities.ColorDepth?
        let color = PlaceholderID.color(slot: 40)
        try withTerminal(["VTOURIST_IMAGES": "kitty-unicode"]) { terminal, pty in
            depth = terminal.capabilities.colors
            var frame = CellBuffer(width: terminal.size.width, height: terminal.size.height)
            frame.put("end", x: 0, y: 10)
            frame.draw(ImagePlaceholder.cells(columns: 3, rows: 2, color: color), x: 5, y: 3, skippingBlank: false)
            terminal.draw(frame)
            written = pty.take(until: Array("end".utf8))
        }
        XCTAssertEqual(depth, .indexed256)
        let text = String(decoding: written, as: UTF8.self)
        for row in 0..<2 {
            let cells = (0..<3).map { column in
                String(String.UnicodeScalarView(ImagePlaceholder(row: row, column: column).scalars))
            }.joined()
            XCTAssertTrue(text.contains(cells), "row \(row): \(show(written))")
        }
        XCTAssertTrue(text.contains("\u{1B}[38;5;40m"), "the 256-colour foreground is the id: \(show(written))")
    }

    func testTheTerminalIsAskedAndKeysTypedMeanwhileAreKept() throws {
        var detected: InlineProtocol?, first: Event?, second: Event?
        try withTerminal(["TERM": "xterm-256color"], answer: Array("j\u{1B}[?62;1;4;6c".utf8)) { terminal, _ in
            detected = terminal.capabilities.inlineImages
            first = terminal.nextEvent(timeoutMs: 2000)
            second = terminal.nextEvent(timeoutMs: 0)
        }
        XCTAssertEqual(detected, .sixel)
        XCTAssertEqual(first, .key(.char("j")), "the key typed before the reply")
        XCTAssertNil(second, "nothing of the reply left over")
    }

    func testASilentTerminalGetsCellsAndItsLateReplyIsNotTakenForKeys() throws {
        var detected: InlineProtocol? = .kitty, events: [Event] = []
        try withTerminal(["TERM": "xterm-256color"], answer: nil) { terminal, pty in
            detected = terminal.capabilities.inlineImages
            pty.type(Array("\u{1B}[?62;4cq".utf8))
            while let event = terminal.nextEvent(timeoutMs: 500) { events.append(event) }
        }
        XCTAssertNil(detected)
        XCTAssertEqual(events, [.key(.char("q"))])
    }

    /// Keys typed while the question waits, and for the seconds a late reply is watched for, are
    /// given back to ncurses: arrows and Home must still arrive as keys, not as Esc and letters.
    func testArrowsTypedWhileTheTerminalIsAskedStayKeys() throws {
        var during: [Event] = [], after: [Event] = []
        try withTerminal(["TERM": "xterm-256color"], answer: Array("\u{1B}OA\u{1B}OB\u{1B}[?62;1;4;6c".utf8)) { terminal, _ in
            while let event = terminal.nextEvent(timeoutMs: 300) { during.append(event) }
        }
        try withTerminal(["TERM": "xterm-256color"], answer: nil) { terminal, pty in
            pty.type(Array("\u{1B}OC\u{1B}[D\u{1B}OHx".utf8))
            while let event = terminal.nextEvent(timeoutMs: 500) { after.append(event) }
        }
        XCTAssertEqual(during, [.key(.up), .key(.down)])
        XCTAssertEqual(after, [.key(.right), .key(.left), .key(.home), .key(.char("x"))])
    }

    func testTheStartDoesNotAskAndPicturesAreCellsUntilDetected() throws {
        var atStart: InlineProtocol? = .kitty, askedAtStart = true, detected: InlineProtocol?, askedLater = false
        try withTerminal(["TERM": "xterm-256color"], answer: Array("\u{1B}[?62;4c".utf8), detect: false) { terminal, pty in
            // The terminal is drawn to at once; it is asked only when the app says (after its first frame).
            terminal.draw(CellBuffer(width: 10, height: 2))
            atStart = terminal.capabilities.inlineImages
            askedAtStart = pty.sawRequest
            terminal.detectInlinePictures()
            detected = terminal.capabilities.inlineImages
            askedLater = pty.sawRequest
        }
        XCTAssertNil(atStart)
        XCTAssertFalse(askedAtStart)
        XCTAssertEqual(detected, .sixel)
        XCTAssertTrue(askedLater)
    }

    func testEnvironmentThatDecidesIsNotAsked() throws {
        var asked = true, detected: InlineProtocol? = .kitty
        try withTerminal(["TERM": "xterm-256color", "NO_COLOR": "1"], answer: Array("\u{1B}[?62;4c".utf8)) { terminal, pty in
            detected = terminal.capabilities.inlineImages
            asked = pty.sawRequest
        }
        XCTAssertNil(detected)
        XCTAssertFalse(asked)
    }

    // MARK: The pseudo-terminal

    private func show(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{1B}", with: "⎋")
    }

    /// Runs `body` with a fresh `NcursesTerminal` on a pty, in an environment
    /// with `environment` and none of the variables that name a terminal.
    private func withTerminal(_ environment: [String: String], answer: [UInt8]? = nil, detect: Bool = true,
                              _ body: (NcursesTerminal, PseudoTerminal) throws -> Void) throws {
        // The locale too: the terminal takes it from the environment, and the caller's may have none.
        var settings: [String: String?] = ["TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
                                           "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        for name in ["LC_CTYPE", "TMUX", "KITTY_WINDOW_ID", "TERM_PROGRAM", "LC_TERMINAL", "NO_COLOR", "VTOURIST_IMAGES"] {
            settings[name] = .some(nil)
        }
        for (name, value) in environment { settings[name] = value }
        let saved = settings.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        for (name, value) in settings {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        let pty = try PseudoTerminal(answer: answer)
        defer { pty.close() }
        var failure: Error?
        pty.attach()
        do {
            let terminal = try NcursesTerminal()
            if detect { terminal.detectInlinePictures() }
            do { try body(terminal, pty) } catch { failure = error }
            terminal.shutdown()
        } catch {
            failure = error
        }
        pty.detach()
        if let failure { throw failure }
    }
}

/// A pty whose slave becomes this process's stdin and stdout while attached.
final class PseudoTerminal: @unchecked Sendable {
    private let master: Int32
    private let slave: Int32
    private var savedIn: Int32 = -1
    private var savedOut: Int32 = -1
    private let condition = NSCondition()
    private var output: [UInt8] = []
    private var taken = 0
    private var answered = false
    private var stopped = false
    private let answer: [UInt8]?
    private var reader: Thread?

    init(answer: [UInt8]?) throws {
        // glibc declares these only under _XOPEN_SOURCE, which Swift's Glibc module lacks: look them up.
        typealias OpenMaster = @convention(c) (Int32) -> Int32
        typealias Prepare = @convention(c) (Int32) -> Int32
        typealias SlaveName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let library = dlopen(nil, RTLD_NOW)
        guard let openSymbol = dlsym(library, "posix_openpt"), let grantSymbol = dlsym(library, "grantpt"),
              let unlockSymbol = dlsym(library, "unlockpt"), let nameSymbol = dlsym(library, "ptsname") else {
            throw SequenceError("no pseudo-terminal functions")
        }
        master = unsafeBitCast(openSymbol, to: OpenMaster.self)(O_RDWR | O_NOCTTY)
        guard master >= 0, unsafeBitCast(grantSymbol, to: Prepare.self)(master) == 0,
              unsafeBitCast(unlockSymbol, to: Prepare.self)(master) == 0,
              let name = unsafeBitCast(nameSymbol, to: SlaveName.self)(master) else {
            throw SequenceError("no pseudo-terminal")
        }
        slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw SequenceError("cannot open \(String(cString: name))") }
        self.answer = answer
        let reader = Thread { [self] in readLoop() }
        self.reader = reader
        reader.start()
    }

    /// Whether the device attributes request was seen.
    var sawRequest: Bool {
        condition.lock()
        defer { condition.unlock() }
        return output.contains(Array("\u{1B}[c".utf8))
    }

    func attach() {
        fflush(nil)
        savedIn = dup(STDIN_FILENO)
        savedOut = dup(STDOUT_FILENO)
        dup2(slave, STDIN_FILENO)
        dup2(slave, STDOUT_FILENO)
    }

    func detach() {
        fflush(nil)
        dup2(savedIn, STDIN_FILENO)
        dup2(savedOut, STDOUT_FILENO)
        Glibc.close(savedIn)
        Glibc.close(savedOut)
    }

    /// Bytes as if typed on the keyboard.
    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// What was written since the last `take`, up to and including the first `marker` in it.
    func take(until marker: [UInt8]) -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        // Only ends a hang: the bytes were written before this is called.
        let giveUp = Date().addingTimeInterval(30)
        while true {
            let fresh = Array(output[taken...])
            if let range = fresh.firstRange(of: marker) {
                taken += range.upperBound
                return Array(fresh[..<range.upperBound])
            }
            if !condition.wait(until: giveUp) { return fresh }
        }
    }

    func close() {
        condition.lock()
        stopped = true
        // The reader thread clears `reader` under the lock when it ends: read it under the lock too.
        let thread = reader
        condition.unlock()
        Glibc.close(slave)
        thread?.cancel()
        // The reader sees the master's end when the slave is gone.
        while true {
            condition.lock()
            let done = reader == nil
            condition.unlock()
            if done { break }
            usleep(1000)
        }
        Glibc.close(master)
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var fd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, 100)
            condition.lock()
            let stop = stopped
            condition.unlock()
            if ready > 0 {
                let count = read(master, &buffer, buffer.count)
                if count > 0 {
                    condition.lock()
                    output += buffer[..<count]
                    let ask = !answered && output.contains(Array("\u{1B}[c".utf8))
                    if ask { answered = true }
                    condition.broadcast()
                    condition.unlock()
                    if ask, let answer { type(answer) }
                    continue
                }
            }
            if stop && ready <= 0 || ready < 0 || fd.revents & Int16(POLLHUP) != 0 && stop { break }
        }
        condition.lock()
        reader = nil
        condition.unlock()
    }
}

private extension Array where Element == UInt8 {
    func contains(_ other: [UInt8]) -> Bool { firstRange(of: other) != nil }
    func hasSuffix(_ other: [UInt8]) -> Bool { count >= other.count && Array(suffix(other.count)) == other }
}

struct SequenceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
