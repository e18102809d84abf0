import Foundation
import XCTest

/// However the app ends, the terminal is given back: the alternate screen is
/// left, the cursor shown again, and the line discipline (echo, canonical
/// input) is as the shell had it. The bytes come from tmux's pipe-pane, the
/// modes from `stty -a` run by the shell before and after the app.
final class TerminalRestoreTests: EndToEndTestCase {
    static let enterAlternateScreen = "\u{1B}[?1049h"
    static let leaveAlternateScreen = "\u{1B}[?1049l"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let bracketedPasteOn = "\u{1B}[?2004h"
    static let bracketedPasteOff = "\u{1B}[?2004l"

    /// Starts the app, waits for the map, ends it with `end`, and returns how it exited.
    func runAndEnd(_ end: (TmuxSession, Int32) throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws
        -> (status: Int32?, output: String, before: String, after: String) {
        let db = try temporaryDirectory().appendingPathComponent("restore.sqlite").path
        let t = try app(db, recording: true)
        t.wait(forText: "? help", file: file, line: line)
        let pid = try XCTUnwrap(t.appPID, file: file, line: line)
        try end(t, pid)
        let status = t.waitForExit(file: file, line: line)
        let output = String(decoding: t.recordedOutput(file: file, line: line), as: UTF8.self)
        return (status, output, t.sttyBeforeStart ?? "", t.sttyAfterExit ?? "")
    }

    /// The last `restore` comes after the last `take`, and `take` was used at all.
    func assertUndone(_ take: String, by restore: String, in output: String, _ what: String,
                      file: StaticString = #filePath, line: UInt = #line) {
        guard let taken = output.range(of: take, options: .backwards) else {
            return XCTFail("the app never sent \(what) (\(take.debugDescription))", file: file, line: line)
        }
        let restored = output.range(of: restore, options: .backwards)
        XCTAssertNotNil(restored, "\(what) was never undone", file: file, line: line)
        if let restored { XCTAssertGreaterThan(restored.lowerBound, taken.lowerBound, "\(what) is still on", file: file, line: line) }
    }

    func assertRestored(_ run: (status: Int32?, output: String, before: String, after: String),
                        file: StaticString = #filePath, line: UInt = #line) {
        assertUndone(Self.enterAlternateScreen, by: Self.leaveAlternateScreen, in: run.output, "the alternate screen", file: file, line: line)
        assertUndone(Self.hideCursor, by: Self.showCursor, in: run.output, "the hidden cursor", file: file, line: line)
        assertUndone(Self.bracketedPasteOn, by: Self.bracketedPasteOff, in: run.output, "bracketed paste mode", file: file, line: line)
        XCTAssertFalse(run.before.isEmpty, "no stty before the app", file: file, line: line)
        XCTAssertEqual(run.after, run.before, "the terminal's modes were not restored", file: file, line: line)
        let modes = Set(run.after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        XCTAssertTrue(modes.isSuperset(of: ["echo", "icanon"]), run.after, file: file, line: line)
    }

    func testQuit() throws {
        let run = try runAndEnd { t, _ in try t.keys("q") }
        XCTAssertEqual(run.status, 0)
        assertRestored(run)
    }

    func testSIGINT() throws {
        let run = try runAndEnd { _, pid in XCTAssertEqual(kill(pid, SIGINT), 0) }
        XCTAssertEqual(run.status, 128 + SIGINT)
        assertRestored(run)
    }

    func testSIGTERM() throws {
        let run = try runAndEnd { _, pid in XCTAssertEqual(kill(pid, SIGTERM), 0) }
        XCTAssertEqual(run.status, 128 + SIGTERM)
        assertRestored(run)
    }

    func testSIGHUP() throws {
        let run = try runAndEnd { _, pid in XCTAssertEqual(kill(pid, SIGHUP), 0) }
        XCTAssertEqual(run.status, 128 + SIGHUP)
        assertRestored(run)
    }

    /// Ctrl-Z (SIGTSTP): the terminal is the shell's while the app is away, bracketed paste mode
    /// included, and the app's again when it goes on. (In a pane whose process group has no job
    /// control the kernel drops the stop itself; the hand-over happens all the same.)
    func testSuspendGivesTheTerminalBackAndContinuingTakesItAgain() throws {
        var handedOver = ""
        let run = try runAndEnd { t, pid in
            let outputFile = try XCTUnwrap(t.outputFile)
            func output() -> String { String(decoding: FileManager.default.contents(atPath: outputFile) ?? Data(), as: UTF8.self) }
            XCTAssertEqual(kill(pid, SIGTSTP), 0)
            handedOver = try waitFor("the terminal to be handed over") { () -> String? in
                let text = output()
                return text.contains(Self.bracketedPasteOff) && text.contains(Self.leaveAlternateScreen) ? text : nil
            }
            XCTAssertEqual(kill(pid, SIGCONT), 0)
            try waitFor("the terminal to be taken again") { () -> Bool? in
                let text = output()
                guard let off = text.range(of: Self.bracketedPasteOff, options: .backwards),
                      let on = text.range(of: Self.bracketedPasteOn, options: .backwards) else { return nil }
                return on.lowerBound > off.lowerBound ? true : nil
            }
            try t.keys("q")
        }
        XCTAssertEqual(run.status, 0)
        assertRestored(run)
        let off = try XCTUnwrap(handedOver.range(of: Self.bracketedPasteOff))
        let left = try XCTUnwrap(handedOver.range(of: Self.leaveAlternateScreen))
        XCTAssertLessThan(off.lowerBound, left.lowerBound, "paste mode off before the screen is given back")
    }

    /// What the checks above would see if the app did not restore anything:
    /// nobody can clean up after SIGKILL, and the checks notice.
    func testTheChecksSeeATerminalLeftBehind() throws {
        let run = try runAndEnd { _, pid in XCTAssertEqual(kill(pid, SIGKILL), 0) }
        XCTAssertEqual(run.status, 128 + SIGKILL)
        XCTAssertNotNil(run.output.range(of: Self.enterAlternateScreen))
        let left = run.output.range(of: Self.leaveAlternateScreen, options: .backwards)
        let entered = run.output.range(of: Self.enterAlternateScreen, options: .backwards)
        XCTAssertTrue(left == nil || left!.lowerBound < entered!.lowerBound, "the alternate screen was left after SIGKILL?")
        XCTAssertNotEqual(run.after, run.before, "the modes look restored after SIGKILL: the stty check cannot fail")
        let modes = Set(run.after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        XCTAssertTrue(modes.contains("-echo") || modes.contains("-icanon"), run.after)
    }
}
