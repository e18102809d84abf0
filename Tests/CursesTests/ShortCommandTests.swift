@testable import Curses
import XCTest

/// The short commands the terminal asks things of (tmux): run with posix_spawn and a pipe.
final class ShortCommandTests: XCTestCase {
    func testWhatTheCommandPrintsComesBack() {
        XCTAssertEqual(ShortCommand.output("printf", ["%s|%s", "on", "xterm-kitty"], timeoutMs: 10_000), "on|xterm-kitty")
    }

    func testAFailedOrMissingCommandGivesNothing() {
        XCTAssertNil(ShortCommand.output("false", [], timeoutMs: 10_000))
        XCTAssertNil(ShortCommand.output("sh", ["-c", "printf partial; exit 3"], timeoutMs: 10_000))
        XCTAssertNil(ShortCommand.output("vtourist-no-such-program", [], timeoutMs: 10_000))
    }

    func testOutputLargerThanAPipeIsReadWhole() {
        let text = ShortCommand.output("sh", ["-c", "i=0; while [ $i -lt 20000 ]; do printf 0123456789; i=$((i+1)); done"],
                                       timeoutMs: 30_000)
        XCTAssertEqual(text?.count, 200_000)
    }
}
