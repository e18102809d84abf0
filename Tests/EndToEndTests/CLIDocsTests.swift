import Foundation
import XCTest

/// The man page and the shell completions are made from the command-line definitions
/// (scripts/make_cli_docs.sh, `make cli-docs`): these tests fail when a command or an option
/// changed and they were not made again.
final class CLIDocsTests: EndToEndTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func committed(_ path: String) throws -> String {
        try String(contentsOf: CLIDocsTests.root.appendingPathComponent(path), encoding: .utf8)
    }

    func testTheManPageIsMadeFromTheCurrentCommands() throws {
        let r = try cli(["--experimental-dump-help"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, try committed("docs/cli-help.json"),
                       "the commands changed: run make cli-docs to make docs/vtourist.1 and completions/ again")
        let page = try committed("docs/vtourist.1")
        // Every command, option and argument of the binary, in its order and with its help line, is
        // the man page's list (its `.It` lines up to the hand-written sections).
        let help = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let expected = Self.manPageItems(try XCTUnwrap(help["command"] as? [String: Any]))
        let generated = try XCTUnwrap(page.components(separatedBy: ".Sh KEYS").first)
        let lines = generated.components(separatedBy: "\n")
        var items: [String] = []
        for (i, line) in lines.enumerated() where line.hasPrefix(".It ") {
            items.append(line)
            if i + 1 < lines.count, !lines[i + 1].hasPrefix(".") { items.append(lines[i + 1]) }
        }
        XCTAssertGreaterThan(expected.filter { $0.hasPrefix(".It Em ") }.count, 10, "every subcommand, nested ones too")
        XCTAssertEqual(items.count, expected.count, "run make cli-docs")
        for (i, (item, wanted)) in zip(items, expected).enumerated() where item != wanted {
            XCTFail("man page item \(i): \(item.debugDescription), the commands say \(wanted.debugDescription): run make cli-docs")
            break
        }
        for section in [".Sh KEYS", ".Sh ENVIRONMENT", ".Sh FILES"] {
            XCTAssertTrue(page.contains(section), section)
        }
    }

    /// The `.It` lines (each followed by its help line) that swift-argument-parser's manual makes of
    /// `--experimental-dump-help`'s command tree: the displayed arguments, then each subcommand.
    static func manPageItems(_ command: [String: Any]) -> [String] {
        var items: [String] = []
        for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool == true {
            let names = (argument["names"] as? [[String: String]] ?? []).compactMap { name -> String? in
                switch name["kind"] {
                case "short": name["name"]
                case "long": name["name"].map { "-" + $0 }
                default: nil
                }
            }.joined(separator: " , ")
            let value = argument["valueName"] as? String ?? ""
            let repeating = argument["isRepeating"] as? Bool == true ? "..." : ""
            switch argument["kind"] as? String {
            case "positional": items.append(".It Ar " + value + repeating)
            case "option": items.append(".It Fl \(names) Ar \(value)" + repeating)
            default: items.append(".It Fl " + names)
            }
            if let abstract = argument["abstract"] as? String, !abstract.isEmpty { items.append(groffEscaped(abstract)) }
        }
        for sub in command["subcommands"] as? [[String: Any]] ?? [] {
            items.append(".It Em " + (sub["commandName"] as? String ?? "?"))
            if let abstract = sub["abstract"] as? String, !abstract.isEmpty { items.append(groffEscaped(abstract)) }
            items += manPageItems(sub)
        }
        return items
    }

    /// Every character beyond ASCII as the page writes it (scripts/make_cli_docs.sh): `°` is `\[u00B0]`.
    static func groffEscaped(_ text: String) -> String {
        text.unicodeScalars.map { $0.isASCII ? String($0) : String(format: "\\[u%04X]", $0.value) }.joined()
    }

    /// The page as `man` shows it in a UTF-8 locale: groff's text, without bold or underlining.
    func renderedManPage() throws -> String {
        let page = CLIDocsTests.root.appendingPathComponent("docs/vtourist.1").path
        let r = try runProcess("/usr/bin/groff", ["-mandoc", "-Tutf8", "-P-cbou", page],
                               environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    /// The lines of one section of the rendered page (from its heading to the next), trimmed.
    static func section(_ name: String, of text: String) -> [String] {
        var lines: [String] = []
        var inside = false
        for line in text.components(separatedBy: "\n") {
            let heading = !line.isEmpty && !line.hasPrefix(" ")
            if heading { inside = line == name; continue }
            if inside { lines.append(line.trimmingCharacters(in: .whitespaces)) }
        }
        return lines
    }

    /// The help's characters beyond ASCII reach the page (as groff escapes) and show as written.
    func testTheManPageKeepsEveryCharacter() throws {
        let page = try committed("docs/vtourist.1")
        XCTAssertFalse(page.contains("4051N"), "the degrees and minutes lost their signs: run make cli-docs")
        XCTAssertTrue(page.contains("drop 40\\[u00B0]51\\[u2032]N 14\\[u00B0]16\\[u2032]E"))
        XCTAssertTrue(page.unicodeScalars.allSatisfy(\.isASCII), "every other character is an escape")
        let text = try renderedManPage()
        // Filled text breaks lines where it likes: compared as words.
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(words.contains("degrees and minutes (drop 40°51′N 14°16′E)"), text)
        XCTAssertTrue(Self.section("EXAMPLES", of: text).contains("vtourist drop 40°51′N 14°16′E --wait"), text)
    }

    /// Exit status 75 (a wait that ran out) is in the page's EXIT STATUS and in the manual's table.
    func testExitStatus75IsDocumented() throws {
        let exit = Self.section("EXIT STATUS", of: try renderedManPage())
        XCTAssertTrue(exit.contains { $0.hasPrefix("75 ") && $0.hasSuffix("A wait that ran out (EX_TEMPFAIL): drop --wait --timeout ended") },
                      exit.joined(separator: "\n"))
        let manual = try committed("docs/manual.md")
        let table = try XCTUnwrap(manual.components(separatedBy: "### Exit status").last)
        XCTAssertTrue(table.contains("\n| 75 | a wait that ran out (EX_TEMPFAIL)"), "the manual's exit-status table")
    }

    /// Every command line of the page's EXAMPLES runs, in its order, against a fresh database and
    /// the local stand-in, and exits 0.
    func testEveryExampleOfTheManPageWorks() throws {
        let examples = Self.section("EXAMPLES", of: try renderedManPage()).filter { $0.hasPrefix("vtourist ") }
        XCTAssertGreaterThanOrEqual(examples.count, 10, "the page's examples")
        let dir = try temporaryDirectory()
        let binDir = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: binDir, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: binDir.appendingPathComponent("vtourist").path,
                                                   withDestinationPath: try vtouristBinary())
        let work = dir.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let env = environment(["PATH": binDir.path + ":/usr/bin:/bin"])
        for example in examples {
            let r = try runProcess("/bin/sh", ["-c", "cd \(TmuxSession.quote(work.path)) && " + example], environment: env)
            XCTAssertEqual(r.status, 0, "\(example): \(r.stderr)")
        }
        // They did what they say.
        let db = try XCTUnwrap(env["VTOURIST_DB"])
        let listed = try pins(db: db)
        XCTAssertEqual(listed.count, 3, "two drops and a pin by name; the import skipped them all")
        XCTAssertEqual(listed.first?.name, "Bay of Naples")
        XCTAssertEqual(listed.first?.photos, 12, "photos_per_collection 12")
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("naples-photos/index.html").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("pins.gpx").path))
    }

    func testTheCompletionsAreTheCurrentOnes() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try cli(["--generate-completion-script", shell])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, try committed("completions/vtourist.\(shell)"), "\(shell): run make cli-docs")
        }
    }
}
