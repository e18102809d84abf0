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
        // Every command is in the man page, and the hand-written sections follow the generated ones.
        for command in ["pins", "album", "drop", "export", "import", "render", "config"] {
            XCTAssertTrue(page.contains(".It Em \(command)"), command)
        }
        for section in [".Sh KEYS", ".Sh ENVIRONMENT", ".Sh FILES"] {
            XCTAssertTrue(page.contains(section), section)
        }
    }

    func testTheCompletionsAreTheCurrentOnes() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try cli(["--generate-completion-script", shell])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, try committed("completions/vtourist.\(shell)"), "\(shell): run make cli-docs")
        }
    }
}
