import Curses
import Terminal
import XCTest

final class InlineDetectionTests: XCTestCase {
    private var sixelReply: [UInt8] { Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8) }
    private var plainReply: [UInt8] { Array("\u{1B}[?62;1;6;9;15;22c".utf8) }

    /// Detection with a terminal that answers `reply` (nil: silence), and whether it was asked.
    private func detect(_ env: [String: String], reply: [UInt8]? = nil) -> (InlineProtocol?, asked: Bool) {
        var asked = false
        let result = TerminalProbe.inlineProtocol(environment: env) { request, timeout in
            XCTAssertEqual(request, Array("\u{1B}[c".utf8))
            XCTAssertEqual(timeout, 150)
            asked = true
            return reply
        }
        return (result, asked)
    }

    func testTheEnvironmentDecidesWhereItCan() {
        let table: [([String: String], InlineProtocol?)] = [
            (["TERM": "xterm-kitty"], .kitty),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], .kitty),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .iterm2),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .iterm2),
            (["TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"], .iterm2),
            // screen does not pass the sequences on, nor a tmux that cannot be asked (no TMUX).
            (["TERM": "screen-256color", "KITTY_WINDOW_ID": "1"], nil),
            (["TERM": "tmux-256color", "TERM_PROGRAM": "iTerm.app"], nil),
            // No colour, no pictures; nor on terminals that cannot have them.
            (["TERM": "xterm-kitty", "NO_COLOR": "1"], nil),
            (["TERM": "dumb"], nil),
            (["TERM": "vt100"], nil),
            (["TERM": "linux", "KITTY_WINDOW_ID": "3"], nil),
            ([:], nil),
            // VTOURIST_IMAGES overrides everything.
            (["TERM": "xterm-256color", "VTOURIST_IMAGES": "sixel"], .sixel),
            (["TERM": "screen", "TMUX": "x", "VTOURIST_IMAGES": "kitty"], .kitty),
            (["TERM": "xterm-kitty", "VTOURIST_IMAGES": "cells"], nil),
            (["TERM": "xterm-kitty", "VTOURIST_IMAGES": "ITERM2"], .iterm2),
            (["TERM": "xterm-kitty", "VTOURIST_IMAGES": "bogus"], .kitty),
        ]
        for (env, expected) in table {
            let (found, asked) = detect(env, reply: sixelReply)
            XCTAssertEqual(found, expected, "\(env)")
            XCTAssertFalse(asked, "the environment decided \(env); the terminal must not be asked")
            XCTAssertEqual(TerminalProbe.inlineRules(environment: env), .decided(expected), "\(env)")
        }
    }

    func testInsideTmuxTmuxIsAskedAboutItsPassthroughAndTheTerminalOutside() {
        let inside = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"]
        XCTAssertEqual(TerminalProbe.inlineRules(environment: inside), .askTmux(forced: false))
        XCTAssertEqual(TerminalProbe.inlineRules(environment: inside.merging(["VTOURIST_IMAGES": "kitty-unicode"]) { $1 }),
                       .askTmux(forced: true))
        XCTAssertEqual(TerminalProbe.inlineRules(environment: ["TERM": "xterm-kitty", "VTOURIST_IMAGES": "kitty-unicode"]),
                       .decided(.kittyUnicode), "forced outside tmux: nothing to ask")
        XCTAssertEqual(TerminalProbe.inlineRules(environment: inside.merging(["NO_COLOR": "1"]) { $1 }), .decided(nil))

        /// What detection finds when tmux answers `passthrough` and `client` ("termname|termtype").
        func detect(_ env: [String: String], passthrough: String?, client: String?) -> TerminalProbe.InlineDetection {
            var asked: [[String]] = []
            let found = TerminalProbe.inlineDetection(environment: env, query: { _, _ in
                XCTFail("the terminal is not asked inside tmux")
                return nil
            }, tmux: { arguments in
                asked.append(arguments)
                return arguments == TerminalProbe.tmuxPassthroughQuery ? passthrough : client
            })
            XCTAssertEqual(asked, [TerminalProbe.tmuxPassthroughQuery, TerminalProbe.tmuxClientQuery])
            return found
        }
        let hint = TerminalProbe.tmuxPassthroughHint
        let table: [(String?, String?, TerminalProbe.InlineDetection)] = [
            ("on", "xterm-kitty|", .init(.kittyUnicode)),
            ("all", "xterm-256color|kitty(0.35.2)", .init(.kittyUnicode)),
            ("on", "xterm-ghostty|", .init(.kittyUnicode)),
            // The outer terminal would take it but tmux holds it back: cells, and how to let it through.
            ("off", "xterm-kitty|kitty(0.35.2)", .init(nil, hint: hint)),
            (nil, "xterm-kitty|", .init(nil, hint: hint)),
            // An outer terminal without kitty's placeholders: cells, nothing to say.
            ("on", "xterm-256color|", .init(nil)),
            ("on", "xterm-256color|WezTerm 20240203", .init(nil)),
            ("on", nil, .init(nil)),
            // What tmux should never answer is taken as off.
            ("yes please", "xterm-kitty|", .init(nil, hint: hint)),
            ("\u{1B}[31mon", "xterm-kitty|", .init(nil, hint: hint)),
            (" ON\n", "xterm-kitty|", .init(.kittyUnicode)),
        ]
        for (passthrough, client, expected) in table {
            XCTAssertEqual(detect(inside, passthrough: passthrough, client: client), expected, "\(passthrough ?? "-") \(client ?? "-")")
        }
        // Forced: the placeholders whatever the outer terminal; the hint while tmux holds them back.
        let forced = inside.merging(["VTOURIST_IMAGES": "kitty-unicode"]) { $1 }
        XCTAssertEqual(detect(forced, passthrough: "on", client: "xterm-256color|"), .init(.kittyUnicode))
        XCTAssertEqual(detect(forced, passthrough: "off", client: ""), .init(.kittyUnicode, hint: hint))
        XCTAssertNil(TerminalProbe.inlineProtocol(environment: inside, query: nil), "tmux cannot be asked: cells")
    }

    func testOtherwiseTheDeviceAttributesTell() {
        let env = ["TERM": "xterm-256color"]
        XCTAssertEqual(TerminalProbe.inlineRules(environment: env), .askTheTerminal)
        XCTAssertEqual(detect(env, reply: sixelReply).0, .sixel)
        XCTAssertEqual(detect(env, reply: plainReply).0, nil)
        XCTAssertEqual(detect(env, reply: nil).0, nil, "no answer within the timeout")
        XCTAssertEqual(detect(env, reply: Array("garbage".utf8)).0, nil)
        XCTAssertTrue(detect(env, reply: nil).asked)
        XCTAssertNil(TerminalProbe.inlineProtocol(environment: env, query: nil), "no way to ask")
    }

    func testDeviceAttributesReplyParser() throws {
        func attributes(_ text: String) -> [Int]? {
            TerminalProbe.deviceAttributes(in: Array(text.utf8))?.attributes
        }
        XCTAssertEqual(attributes("\u{1B}[?63;1;2;4;6;9;15;22c"), [63, 1, 2, 4, 6, 9, 15, 22])
        XCTAssertEqual(attributes("\u{1B}[?62;1;6;9;15;22c"), [62, 1, 6, 9, 15, 22])
        XCTAssertEqual(attributes("\u{1B}[?1;2c"), [1, 2], "a VT100 with options")
        XCTAssertEqual(attributes("\u{1B}[?4c"), [4])
        XCTAssertNil(attributes("\u{1B}[?63;1;4"), "partial: no final c yet")
        XCTAssertNil(attributes("\u{1B}[?c"), "no numbers")
        XCTAssertNil(attributes("\u{1B}[63;4c"), "no question mark")
        XCTAssertNil(attributes(""))
        XCTAssertNil(attributes("\u{1B}[?6x;4c"), "garbage inside")
        XCTAssertEqual(attributes("\u{1B}[?6x\u{1B}[?64;4c"), [64, 4], "a broken reply then a whole one")
    }

    func testReplyIsFoundAmongKeysTypedMeanwhile() throws {
        // An arrow key and a letter typed before, a letter after.
        let bytes = Array("\u{1B}[Aq\u{1B}[?64;1;4cj".utf8)
        let found = try XCTUnwrap(TerminalProbe.deviceAttributes(in: bytes))
        XCTAssertEqual(found.attributes, [64, 1, 4])
        XCTAssertEqual(Array(bytes[..<found.range.lowerBound]), Array("\u{1B}[Aq".utf8))
        XCTAssertEqual(Array(bytes[found.range.upperBound...]), Array("j".utf8))
    }
}
