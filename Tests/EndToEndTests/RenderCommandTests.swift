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

    /// Each row of terminal output as its cells: the symbol and its 256-colour pens (nil: none set or
    /// not an indexed colour). Understands what `render` writes: SGR, REP and cursor-forward.
    static func cells(_ output: String) -> [[(symbol: Character, fg: Int?, bg: Int?)]] {
        output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            var row: [(symbol: Character, fg: Int?, bg: Int?)] = []
            var fg: Int?, bg: Int?
            var rest = Substring(line)
            while let first = rest.first {
                guard first == "\u{1B}" else {
                    row.append((first, fg, bg))
                    rest = rest.dropFirst()
                    continue
                }
                let body = rest.dropFirst(2).prefix { $0.isNumber || $0 == ";" }
                let final = rest.dropFirst(2 + body.count).first ?? "?"
                rest = rest.dropFirst(3 + body.count)
                let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                switch final {
                case "m":
                    var i = 0
                    while i < numbers.count {
                        switch numbers[i] {
                        case 0: (fg, bg) = (nil, nil)
                        case 38, 48:
                            let indexed = i + 2 < numbers.count && numbers[i + 1] == 5
                            let pen = indexed ? numbers[i + 2] : nil
                            if numbers[i] == 38 { fg = pen } else { bg = pen }
                            i += indexed ? 2 : 4
                        default: break
                        }
                        i += 1
                    }
                case "b": row += Array(repeating: row.last ?? (" ", fg, bg), count: max(1, numbers.first ?? 1))
                case "C": row += Array(repeating: (" ", nil, nil), count: max(1, numbers.first ?? 1))
                default: break
                }
            }
            return row
        }
    }

    func testAPictureFitsItsBoxKeepingItsAspect() throws {
        // 1024×768 in 40×40 cells (a cell is about twice as tall as wide): 40 columns, 15 rows.
        let r = try render([images.appendingPathComponent("quadrants_1024x768.jpg").path, "--size", "40x40"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 15)
        let rows = Self.cells(r.stdout)
        XCTAssertEqual(rows.map(\.count), Array(repeating: 40, count: 15), "every row 40 columns wide")
        // The quadrants keep their places: red top left, green top right (xterm pens 196 and 46).
        XCTAssertEqual(rows.first?.first?.bg, 196, r.stdout.debugDescription)
        XCTAssertEqual(rows.first?.last?.bg, 46, r.stdout.debugDescription)
        XCTAssertTrue(r.stdout.contains("\u{1B}[0;"), "coloured")
        XCTAssertTrue(r.stdout.contains("38;5;") || r.stdout.contains("48;5;"), "256 colours on xterm-256color")
        XCTAssertFalse(r.stdout.contains("38;2;"), "no true colour unless COLORTERM says so")
    }

    func testColourDepthFollowsTheTerminal() throws {
        let photo = images.appendingPathComponent("quadrants_1024x768.jpg").path
        let widths = Array(repeating: 20, count: 8)  // 1024×768 in 20×10 cells: 20 columns, 8 rows
        let direct = try render([photo, "--size", "20x10"], extra: ["COLORTERM": "truecolor"])
        XCTAssertEqual(direct.status, 0, direct.stderr)
        XCTAssertTrue(direct.stdout.contains("8;2;"), direct.stdout.debugDescription)
        XCTAssertFalse(direct.stdout.contains("8;5;"), "true colour only: \(direct.stdout.debugDescription)")
        XCTAssertEqual(Self.cells(direct.stdout).map(\.count), widths)
        let none = try render([photo, "--size", "20x10"], extra: ["NO_COLOR": "1"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertFalse(none.stdout.contains("\u{1B}"), "no colour: no escape sequences at all")
        XCTAssertEqual(Self.cells(none.stdout).map(\.count), widths)
        XCTAssertTrue(none.stdout.contains("\u{2588}"), "the picture in symbols alone: \(none.stdout.debugDescription)")
        let ascii = try render([photo, "--size", "20x10"], extra: ["LANG": "C", "LC_ALL": "C"])
        XCTAssertEqual(ascii.status, 0, ascii.stderr)
        XCTAssertEqual(Self.cells(ascii.stdout).map(\.count), widths, "the whole picture, in ASCII")
        XCTAssertTrue(ascii.stdout.unicodeScalars.allSatisfy(\.isASCII), "ASCII without a UTF-8 locale")
        XCTAssertTrue(ascii.stdout.contains("48;5;196"), "still in colour: \(ascii.stdout.debugDescription)")
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
        // The file is the first half of a 128×128 JPEG: a red top half, then noise that ends part-way.
        let r = try render([images.appendingPathComponent("truncated_128x128.jpg").path, "--size", "20x10"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = Self.cells(r.stdout)
        XCTAssertEqual(rows.map(\.count), Array(repeating: 20, count: 10), r.stdout.debugDescription)
        for row in rows.prefix(4) {
            XCTAssertTrue(row.allSatisfy { $0.bg == 196 }, "the red top half: \(r.stdout.debugDescription)")
        }
        // Below it the noise that did decode: many colours, not one fill.
        let noise = rows.dropFirst(5).prefix(2).flatMap { $0.flatMap { [$0.fg, $0.bg] } }.compactMap { $0 }
        XCTAssertGreaterThanOrEqual(Set(noise).count, 3, r.stdout.debugDescription)
    }
}
