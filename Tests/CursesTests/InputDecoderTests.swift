import Curses
import Terminal
import XCTest

/// The decoder on its own: the characters ncurses hands over when terminfo does not name a
/// sequence (an Esc, then the rest of the sequence as characters).
final class InputDecoderTests: XCTestCase {
    /// Every event in `text`, read as characters, with nothing after it.
    private func events(_ text: String) -> [Event] {
        InputDecoder.events(in: text.unicodeScalars.map { .character($0.value) })
    }

    private func keys(_ keys: Key...) -> [Event] { keys.map { .key($0) } }

    func testHomeEndAndPagesWhateverTheTerminalSends() {
        let table: [(String, Key)] = [
            ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
            ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
            ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[3~", .delete),
            ("\u{1B}[A", .up), ("\u{1B}OB", .down), ("\u{1B}[C", .right), ("\u{1B}OD", .left),
            ("\u{1B}[1;2A", .shiftUp), ("\u{1B}[1;2B", .shiftDown), ("\u{1B}[1;2C", .shiftRight), ("\u{1B}[1;2D", .shiftLeft),
            ("\u{1B}O2A", .shiftUp), ("\u{1B}[1;2H", .home), ("\u{1B}[4;2~", .end), ("\u{1B}[Z", .backTab),
            ("\u{1B}OP", .function(1)), ("\u{1B}[1;1S", .function(4)), ("\u{1B}[15~", .function(5)),
            ("\u{1B}[17~", .function(6)), ("\u{1B}[21~", .function(10)), ("\u{1B}[24~", .function(12)),
            ("\u{1B}[[A", .function(1)), ("\u{1B}[[E", .function(5)), ("\u{1B}OM", .enter),
        ]
        for (sequence, key) in table {
            XCTAssertEqual(events(sequence), [.key(key)], sequence.debugDescription)
        }
    }

    func testAltKeysAndUnknownSequencesAreIgnoredWhole() {
        // Each followed by a letter typed after it, which must come through alone.
        let ignored = [
            "\u{1B}p", "\u{1B}P", "\u{1B}1", "\u{1B}\r", "\u{1B}\u{7F}", "\u{1B}é", "\u{1B}\u{1B}[A",
            "\u{1B}[2~", "\u{1B}[1;5C", "\u{1B}[1;3A", "\u{1B}[5;5~", "\u{1B}[1;2P", "\u{1B}[E", "\u{1B}[99~",
            "\u{1B}[?1;2c", "\u{1B}[<0;10;5M", "\u{1B}[2A", "\u{1B}[1;2;3A", "\u{1B}Oy", "\u{1B}[201~",
            "\u{1B}[" + String(repeating: "1", count: 500) + "~", "\u{1B}[[Z",
        ]
        for sequence in ignored {
            XCTAssertEqual(events(sequence + "q"), keys(.char("q")), sequence.debugDescription)
        }
    }

    func testALoneEscIsEscOnlyOnceNothingFollows() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed(.character(0x1B)), [])
        XCTAssertTrue(decoder.isPending)
        XCTAssertEqual(decoder.patienceMs, 0, "an Esc waits for nothing but what came with it")
        _ = decoder.feed(.character(0x5B))
        XCTAssertEqual(decoder.patienceMs, InputDecoder.sequenceDelayMs, "a sequence begun waits for its end")
        XCTAssertEqual(decoder.flush(), [])
        _ = decoder.feed(.character(0x1B))
        XCTAssertEqual(decoder.flush(), keys(.escape))
        XCTAssertFalse(decoder.isPending)
        XCTAssertNil(decoder.patienceMs)
        // Two quick Escs (Alt+Esc) are one Esc; an Esc then a key later is Esc then the key.
        XCTAssertEqual(events("\u{1B}\u{1B}"), keys(.escape))
        var later = InputDecoder()
        _ = later.feed(.character(0x1B))
        XCTAssertEqual(later.flush() + later.feed(.character(0x70)), keys(.escape, .char("p")))
    }

    func testSequencesSplitAcrossReadsDecodeTheSame() {
        var decoder = InputDecoder()
        var seen: [Event] = []
        for scalar in "\u{1B}[5~\u{1B}[1;2Dx".unicodeScalars { seen += decoder.feed(.character(scalar.value)) }
        XCTAssertEqual(seen, keys(.pageUp, .shiftLeft, .char("x")))
        XCTAssertFalse(decoder.isPending)
        // Unfinished when the input stops: dropped, never Esc and letters.
        for partial in ["\u{1B}[", "\u{1B}O", "\u{1B}[1;", "\u{1B}[[", "\u{1B}[20"] {
            XCTAssertEqual(events(partial), [], partial.debugDescription)
        }
    }

    func testABrokenSequenceIsDroppedAndWhatBrokeItCounts() {
        XCTAssertEqual(events("\u{1B}[1\u{1B}[B"), keys(.down), "a new Esc starts afresh")
        XCTAssertEqual(events("\u{1B}[1\u{3}"), keys(.control("c")))
        XCTAssertEqual(events("\u{1B}[é"), keys(.char("é")))
    }

    func testKeysNcursesDecodedAfterAnEscAreAltKeys() {
        XCTAssertEqual(InputDecoder.events(in: [.character(0x1B), .decoded(.key(.up)), .character(0x71)]), keys(.char("q")))
        XCTAssertEqual(InputDecoder.events(in: [.character(0x1B), .decoded(nil), .character(0x71)]), keys(.char("q")))
        let click = Event.mouse(MouseEvent(.press, x: 1, y: 2))
        XCTAssertEqual(InputDecoder.events(in: [.character(0x1B), .decoded(click)]), [.key(.escape), click],
                       "a mouse report is no key: the Esc was alone")
        XCTAssertEqual(InputDecoder.events(in: [.decoded(.key(.home)), .decoded(nil), .character(0x61)]), keys(.home, .char("a")))
    }

    func testABracketedPasteIsOneEvent() {
        XCTAssertEqual(events("\u{1B}[200~hello\r\nwörld\rthree\ttabs\u{1B}[201~q"),
                       [.paste("hello\nwörld\nthree\ttabs"), .key(.char("q"))])
        // Nothing inside turns into keys: Esc, controls, sequences, not even a false end marker.
        XCTAssertEqual(events("\u{1B}[200~a\u{1B}[Ab\u{3}c\u{1B}[20d\u{1B}\u{1B}[201~"), [.paste("a[Abc[20d")])
        XCTAssertEqual(InputDecoder.events(in: [.character(0x1B), .character(0x5B), .character(0x32), .character(0x30),
                                                .character(0x30), .character(0x7E), .character(0x78), .decoded(.key(.up)),
                                                .decoded(.mouse(MouseEvent(.press, x: 0, y: 0))), .character(0x79)]),
                       [.paste("xy")], "keys and clicks ncurses decoded inside a paste are dropped; the lost end gives it as it stands")
        XCTAssertEqual(events("\u{1B}[200~\u{1B}[201~x"), keys(.char("x")), "an empty paste is nothing")
        XCTAssertEqual(events("\u{1B}[200~\u{1B}[201"), [], "an empty paste cut short is nothing")
    }

    func testAPasteKeepsItsFirst4096CharactersAndTheKeysAfterIt() {
        let long = String(repeating: "abcdefgh", count: 1000)
        let seen = events("\u{1B}[200~" + long + "\u{1B}[201~\u{1B}[6~")
        XCTAssertEqual(seen, [.paste(String(long.prefix(InputDecoder.pasteLimit))), .key(.pageDown)])
        var decoder = InputDecoder()
        for scalar in "\u{1B}[200~abc".unicodeScalars { _ = decoder.feed(.character(scalar.value)) }
        XCTAssertEqual(decoder.patienceMs, InputDecoder.pasteIdleMs)
        XCTAssertEqual(decoder.flush(), [.paste("abc")], "a paste whose end never comes is given as it stands")
    }
}
