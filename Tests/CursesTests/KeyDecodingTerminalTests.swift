@preconcurrency import CNcursesw
@testable import Curses
import Foundation
import Terminal
import XCTest

/// Keys as a terminal really sends them, written into a pty the real `NcursesTerminal` reads,
/// with terminal types whose terminfo names only some of the keys (vt100 has no Home, End, PgUp,
/// PgDn, Delete). Each burst is one write, as a terminal sends a key; a key typed after it marks
/// the end, so the tests wait for events, not for time.
final class KeyDecodingTerminalTests: XCTestCase {
    func testKeysTerminfoDoesNotNameArriveAsKeysNotEscAndLetters() throws {
        var seen: [Event] = [], described: [String: Bool] = [:]
        try withTerminal(term: "vt100") { terminal, pty in
            for name in ["khome", "kend", "kpp", "knp", "kdch1"] { described[name] = vt_terminfo_string(name) != nil }
            pty.type(Array(("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}[5~\u{1B}[6~\u{1B}[3~"
                + "\u{1B}[2~\u{1B}[15~\u{1B}[1;5C\u{1B}[1;2A\u{1B}OA\u{1B}[Dq").utf8))
            seen = events(from: terminal, until: .key(.char("q")))
        }
        XCTAssertEqual(described, ["khome": false, "kend": false, "kpp": false, "knp": false, "kdch1": false],
                       "vt100's terminfo must lack these keys for this test to mean anything")
        XCTAssertEqual(seen, [.home, .end, .home, .end, .home, .end, .home, .end, .pageUp, .pageDown, .delete,
                              .function(5), .shiftUp, .up, .left, .char("q")].map { .key($0) })
    }

    func testAltKeyIsOneIgnoredKeyAndALoneEscIsEsc() throws {
        var alt: [Event] = [], lone: Event?, after: [Event] = [], xterm: [Event] = []
        try withTerminal(term: "vt100") { terminal, pty in
            pty.type(Array("\u{1B}p".utf8))
            pty.type(Array("\u{1B}xq".utf8))
            alt = events(from: terminal, until: .key(.char("q")))
            pty.type([0x1B])
            lone = terminal.nextEvent(timeoutMs: 10_000)
            pty.type(Array("j".utf8))
            after = events(from: terminal, until: .key(.char("j")))
        }
        try withTerminal(term: "xterm-256color") { terminal, pty in
            // Known to this terminfo as keys the app has no use for (Insert, Ctrl+Right), or not at all.
            pty.type(Array("\u{1B}p\u{1B}[2~\u{1B}[1;5C\u{1B}\u{1B}[A\u{1B}[[A\u{1B}[Hq".utf8))
            xterm = events(from: terminal, until: .key(.char("q")))
        }
        XCTAssertEqual(alt, [.key(.char("q"))], "Alt+p and Alt+x are neither Esc nor letters")
        XCTAssertEqual(lone, .key(.escape))
        XCTAssertEqual(after, [.key(.char("j"))])
        XCTAssertEqual(xterm, [.key(.function(1)), .key(.home), .key(.char("q"))])
    }

    func testABracketedPasteIsOneBoundedEventAndTheModeIsSwitchedOffAtTheEnd() throws {
        var switchedOn: [UInt8] = [], switchedOff: [UInt8] = [], seen: [Event] = []
        let text = String(repeating: "0123456789 ", count: 600)  // 6,600 characters, more than the pty holds at once
        try withTerminal(term: "vt100") { terminal, pty in
            switchedOn = pty.take(until: Array("\u{1B}[?2004h".utf8))
            // Typed from another thread: the pty's buffer fills before the terminal reads it.
            let typist = Thread { pty.type(Array(("\u{1B}[200~wörld\r\n" + text + "\u{1B}[201~\u{1B}[6~q").utf8)) }
            typist.start()
            seen = events(from: terminal, until: .key(.char("q")))
            terminal.shutdown()
            switchedOff = pty.take(until: Array("\u{1B}[?2004l".utf8))
        }
        XCTAssertTrue(switchedOn.hasSuffix(Array("\u{1B}[?2004h".utf8)), "bracketed paste mode switched on at start")
        XCTAssertTrue(switchedOff.hasSuffix(Array("\u{1B}[?2004l".utf8)), "and off when the terminal is given back")
        let expected = String(("wörld\n" + text).prefix(InputDecoder.pasteLimit))
        XCTAssertEqual(seen, [.paste(expected), .key(.pageDown), .key(.char("q"))])
    }

    func testKeysTypedWhileTheTerminalIsAskedAreDecodedTheSameWay() throws {
        var seen: [Event] = []
        try withTerminal(term: "xterm-256color", answer: Array("\u{1B}p\u{1B}[[B\u{1B}[?62;1;6c".utf8)) { terminal, pty in
            terminal.detectInlinePictures()
            pty.type(Array("q".utf8))
            seen = events(from: terminal, until: .key(.char("q")))
        }
        XCTAssertEqual(seen, [.key(.function(2)), .key(.char("q"))])
    }

    // MARK: Helpers

    /// Events until `marker` (included); the time limit only ends a hang.
    private func events(from terminal: NcursesTerminal, until marker: Event) -> [Event] {
        var seen: [Event] = []
        while let event = terminal.nextEvent(timeoutMs: 10_000) {
            seen.append(event)
            if event == marker { break }
        }
        return seen
    }

    /// Runs `body` with a fresh `NcursesTerminal` on a pty, with `TERM=term` and none of the
    /// variables that name a terminal or change its keys.
    private func withTerminal(term: String, answer: [UInt8]? = nil,
                              _ body: (NcursesTerminal, PseudoTerminal) throws -> Void) throws {
        var settings: [String: String?] = ["TERM": term, "COLUMNS": "80", "LINES": "24", "LC_ALL": "C.UTF-8"]
        for name in ["TMUX", "KITTY_WINDOW_ID", "TERM_PROGRAM", "LC_TERMINAL", "NO_COLOR", "VTOURIST_IMAGES",
                     "COLORTERM", "ESCDELAY"] {
            settings[name] = .some(nil)
        }
        let saved = settings.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        for (name, value) in settings {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
            setlocale(LC_ALL, "C")
        }
        let pty = try PseudoTerminal(answer: answer)
        defer { pty.close() }
        var failure: Error?
        pty.attach()
        do {
            let terminal = try NcursesTerminal()
            do { try body(terminal, pty) } catch { failure = error }
            terminal.shutdown()
        } catch {
            failure = error
        }
        pty.detach()
        if let failure { throw failure }
    }
}

private extension Array where Element == UInt8 {
    func hasSuffix(_ other: [UInt8]) -> Bool { count >= other.count && Array(suffix(other.count)) == other }
}
