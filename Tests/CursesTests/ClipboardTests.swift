import Curses
import Foundation
import XCTest

/// OSC 52: the bytes that put text on the terminal's clipboard, and where none are sent.
final class ClipboardTests: XCTestCase {
    func testTheSequenceCarriesTheTextInBase64() {
        let url = "https://www.flickr.com/photos/someone/123/"
        let bytes = Clipboard.osc52(url)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}]52;c;"), text)
        XCTAssertTrue(text.hasSuffix("\u{07}"), text)
        let payload = text.dropFirst(7).dropLast()
        XCTAssertEqual(Data(base64Encoded: String(payload)).map { String(decoding: $0, as: UTF8.self) }, url)
        XCTAssertFalse(payload.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "nothing in it ends the sequence early")
    }

    func testTerminalsWithoutAClipboardGetNothing() {
        for term in ["linux", "dumb", "", "vt100", "vt220"] { XCTAssertFalse(Clipboard.mayTakeOSC52(term: term), term) }
        for term in ["xterm-256color", "tmux-256color", "xterm-kitty", "foot", "screen-256color"] {
            XCTAssertTrue(Clipboard.mayTakeOSC52(term: term), term)
        }
    }
}
