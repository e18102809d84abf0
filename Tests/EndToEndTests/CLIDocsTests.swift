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
            if let abstract = argument["abstract"] as? String, !abstract.isEmpty { items.append(abstract) }
        }
        for sub in command["subcommands"] as? [[String: Any]] ?? [] {
            items.append(".It Em " + (sub["commandName"] as? String ?? "?"))
            if let abstract = sub["abstract"] as? String, !abstract.isEmpty { items.append(abstract) }
            items += manPageItems(sub)
        }
        return items
    }

    func testTheCompletionsAreTheCurrentOnes() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try cli(["--generate-completion-script", shell])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, try committed("completions/vtourist.\(shell)"), "\(shell): run make cli-docs")
        }
    }
}
