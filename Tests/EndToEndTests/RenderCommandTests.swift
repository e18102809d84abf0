import Foundation
import XCTest

/// `vtourist render IMAGE [--size COLSxROWS]` on real files.
final class RenderCommandTests: EndToEndTestCase {
    let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/images")

    func render(_ arguments: [String], terminal: String = "xterm-256color", extra: [String: String?] = [:])
        throws -> (status: Int32, stdout: String, stderr: String) {
        var overrides = extra
        overrides["TERM"] = terminal
        return try cli(["render"] + arguments, environment: overrides)
    }

    func testAPictureFitsItsBoxKeepingItsAspect() throws {
        // 1024×768 in 40×40 cells (a cell is about twice as tall as wide): 40 columns, 15 rows.
        let r = try render([images.appendingPathComponent("quadrants_1024x768.jpg").path, "--size", "40x40"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 15)
        XCTAssertTrue(r.stdout.contains("\u{1B}[0;"), "coloured")
        XCTAssertTrue(r.stdout.contains("38;5;") || r.stdout.contains("48;5;"), "256 colours on xterm-256color")
        XCTAssertFalse(r.stdout.contains("38;2;"), "no true colour unless COLORTERM says so")
    }

    func testColourDepthFollowsTheTerminal() throws {
        let photo = images.appendingPathComponent("quadrants_1024x768.jpg").path
        let direct = try render([photo, "--size", "20x10"], extra: ["COLORTERM": "truecolor"])
        XCTAssertTrue(direct.stdout.contains("8;2;"), direct.stdout.debugDescription)
        let none = try render([photo, "--size", "20x10"], extra: ["NO_COLOR": "1"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertFalse(none.stdout.contains("\u{1B}"), "no colour: no escape sequences at all")
        let ascii = try render([photo, "--size", "20x10"], extra: ["LANG": "C", "LC_ALL": "C"])
        XCTAssertTrue(ascii.stdout.unicodeScalars.allSatisfy(\.isASCII), "ASCII without a UTF-8 locale")
    }

    /// A file that is no picture, or names nothing, is bad input: status 64 and one line, whether the
    /// plain form or the argument parser (here after a leading --db) reads the command line.
    func testWhatCannotBeReadGetsOneLine() throws {
        let cases: [(String, String)] = [
            ("picture.png", "not a JPEG (a PNG picture)"),
            ("page.html", "not a JPEG (a web page)"),
            ("empty.jpg", "empty file"),
            ("huge_header_60000x60000.jpg", "too large (60000×60000)"),
            ("no-such-file.jpg", "no such file"),
            ("", "it is a folder"),
        ]
        let db = try temporaryDirectory().appendingPathComponent("unused.sqlite").path
        for (file, words) in cases {
            let path = file.isEmpty ? images.path : images.appendingPathComponent(file).path
            for arguments in [["render", path], ["--db", db, "render", path]] {
                let r = try cli(arguments, environment: ["TERM": "xterm-256color"])
                XCTAssertEqual(r.status, 64, "\(arguments)")
                XCTAssertEqual(r.stdout, "", "\(arguments)")
                let lines = r.stderr.split(separator: "\n")
                XCTAssertEqual(lines.count, 1, "\(arguments): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(words), "\(arguments): \(r.stderr)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "render made a database")
        let badSize = try render([images.appendingPathComponent("pixel_1x1.jpg").path, "--size", "80by40"])
        XCTAssertNotEqual(badSize.status, 0)
        XCTAssertTrue(badSize.stderr.contains("COLSxROWS"), badSize.stderr)
    }

    /// The plain form skips the argument parser; every other form goes through it, with its messages.
    func testEveryFormOfTheArgumentsGivesTheSamePictureOrTheParsersMessage() throws {
        let photo = images.appendingPathComponent("quadrants_1024x768.jpg").path
        let plain = try render([photo, "--size", "20x10"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        for form in [["--size", "20x10", photo], [photo, "--size=20x10"], ["--size=20x10", photo]] {
            let r = try render(form)
            XCTAssertEqual(r.status, 0, "\(form): \(r.stderr)")
            XCTAssertEqual(r.stdout, plain.stdout, "\(form)")
        }
        let folder = try render([images.path])
        XCTAssertEqual(folder.status, 64)
        XCTAssertTrue(folder.stderr.contains("it is a folder"), folder.stderr)
        let help = try render([photo, "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: vtourist render"), help.stdout)
        let two = try render([photo, photo])
        XCTAssertNotEqual(two.status, 0)
        XCTAssertTrue(two.stderr.contains("Unexpected argument"), two.stderr)
        let none = try render([])
        XCTAssertNotEqual(none.status, 0)
        XCTAssertTrue(none.stderr.contains("Missing expected argument"), none.stderr)
        let twice = try render([photo, "--size", "20x10", "--size", "30x10"])
        XCTAssertEqual(twice.status, 0, "the parser takes the last --size: \(twice.stderr)")
    }

    /// A file that is there but cannot be read is no fault of the command line: status 1. (The
    /// process's own memory file opens, and its first read fails, even for root.)
    func testAFileThatCannotBeReadIsAFailureNotBadInput() throws {
        let r = try render(["/proc/self/mem"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "vtourist: cannot read /proc/self/mem: Input/output error\n")
    }

    func testATruncatedPictureShowsThePartThatDecoded() throws {
        let r = try render([images.appendingPathComponent("truncated_128x128.jpg").path, "--size", "20x10"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.isEmpty)
    }
}
