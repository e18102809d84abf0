import Curses
import Terminal
import XCTest

final class TerminalProbeTests: XCTestCase {
    func depth(_ env: [String: String], _ colors: Int) -> TerminalCapabilities.ColorDepth {
        TerminalProbe.depth(environment: env, terminfoColors: colors)
    }

    func testColourDepthFollowsTerminfoAndTheEnvironment() {
        XCTAssertEqual(depth(["TERM": "xterm-256color"], 256), .indexed256)
        XCTAssertEqual(depth(["TERM": "xterm-256color", "COLORTERM": "truecolor"], 256), .trueColor)
        XCTAssertEqual(depth(["TERM": "xterm-256color", "COLORTERM": "24bit"], 256), .trueColor)
        XCTAssertEqual(depth(["TERM": "xterm-direct"], 1 << 24), .trueColor)
        XCTAssertEqual(depth(["TERM": "screen"], 8), .eight)
        XCTAssertEqual(depth(["TERM": "vt100"], -1), .none)
        XCTAssertEqual(depth(["TERM": "vt100", "COLORTERM": "truecolor"], -1), .none, "no colours at all stays none")
        XCTAssertEqual(depth(["TERM": "dumb"], 8), .none)
        XCTAssertEqual(depth([:], 256), .none)
        XCTAssertEqual(depth(["TERM": "xterm-256color", "NO_COLOR": "1", "COLORTERM": "truecolor"], 256), .none)
        XCTAssertEqual(depth(["TERM": "xterm-256color", "NO_COLOR": ""], 256), .indexed256, "an empty NO_COLOR does not count")
    }

    func testCOLORTERMOpensTheDirectColourVariantOfAn256ColourType() {
        func direct(_ env: [String: String]) -> String? { TerminalProbe.directColorType(environment: env) }
        XCTAssertEqual(direct(["TERM": "xterm-256color", "COLORTERM": "truecolor"]), "xterm-direct")
        XCTAssertEqual(direct(["TERM": "xterm", "COLORTERM": "24bit"]), "xterm-direct")
        XCTAssertEqual(direct(["TERM": "tmux-256color", "COLORTERM": "truecolor"]), "tmux-direct")
        XCTAssertNil(direct(["TERM": "xterm-256color"]), "nothing says true colour")
        XCTAssertNil(direct(["TERM": "xterm-direct", "COLORTERM": "truecolor"]), "already direct")
        XCTAssertNil(direct(["TERM": "screen-256color", "COLORTERM": "truecolor"]), "no direct variant known")
        XCTAssertNil(direct(["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]))
        XCTAssertNil(direct(["TERM": "linux", "COLORTERM": "truecolor"]))
    }
}
