import Foundation
import TestSupport
import XCTest

/// Runs a command and returns its exit status and output. Output goes through
/// files, not pipes: a daemon the command starts (the tmux server) may keep
/// inherited pipes open for ever.
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil)
    throws -> (status: Int32, stdout: String, stderr: String) {
    let dir = FileManager.default.temporaryDirectory
    let outPath = dir.appendingPathComponent("vtourist-out-\(UUID().uuidString)").path
    let errPath = dir.appendingPathComponent("vtourist-err-\(UUID().uuidString)").path
    defer {
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
    }
    let pid = try spawnProgram(executable, arguments, environment: environment, stdout: outPath, stderr: errPath)
    let status = waitForExit(pid)
    let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    return (status, stdout, stderr)
}

/// The release binary under test: $VTOURIST_BIN (set by `make test`), else
/// the newest build in .build.
func vtouristBinary() throws -> String {
    if let bin = ProcessInfo.processInfo.environment["VTOURIST_BIN"], !bin.isEmpty {
        return bin
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    for config in ["release", "debug"] {
        let path = root.appendingPathComponent(".build/\(config)/vtourist").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw BinaryNotFound()
}

struct BinaryNotFound: Error, CustomStringConvertible {
    var description: String { "no vtourist binary: run `make test` (it builds the release binary and sets VTOURIST_BIN)" }
}

/// A real terminal: a tmux server of our own (its own socket), one window
/// running the app. Keys go in with send-keys, the screen comes back with
/// capture-pane.
final class TmuxSession {
    let socket: String
    let name = "vt"
    /// The shell around the app writes the app's exit status here.
    let exitFile: String
    private static let tmux = "/usr/bin/tmux"

    init(command: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        socket = "vtourist-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        var env = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "tmux-256color"]
        env.merge(environment) { $1 }
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(TmuxSession.quote($0.value))" }
        let unset = environment["NO_COLOR"] == nil ? "-u NO_COLOR " : ""
        exitFile = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-exit-\(socket)").path
        let app = "env \(unset)" + assignments.joined(separator: " ") + " " + command.map(TmuxSession.quote).joined(separator: " ")
        let shell = "\(app); echo $? > \(TmuxSession.quote(exitFile)); sleep 600"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), shell])
    }

    deinit { kill() }

    static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        let r = try runProcess(TmuxSession.tmux, ["-L", socket] + args)
        if r.status != 0 { throw TmuxError(message: "tmux \(args.joined(separator: " ")): \(r.stderr)") }
        return r.stdout
    }

    /// Sends tmux key names: "Up", "Enter", "Escape", "BTab", "S-Left", "q"…
    func keys(_ names: String...) throws {
        for n in names { try tmux(["send-keys", "-t", name, n]) }
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    func screen() -> String {
        (try? tmux(["capture-pane", "-p", "-t", name])) ?? ""
    }

    /// The screen with colour escapes, for checking colours and attributes.
    func screenWithEscapes() -> String {
        (try? tmux(["capture-pane", "-p", "-e", "-t", name])) ?? ""
    }

    /// Waits until the screen satisfies `check` (polling; the limit only ends a hang).
    @discardableResult
    func wait(for description: String, timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line,
              _ check: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = screen()
            if check(last) {
                // A whole frame: the same screen twice in a row (tmux may show one half drawn).
                usleep(40_000)
                let again = screen()
                if again == last { return last }
                continue
            }
            usleep(50_000)
        }
        XCTFail("timed out waiting for \(description); screen was:\n\(last)", file: file, line: line)
        return last
    }

    @discardableResult
    func wait(forText text: String, timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line) -> String {
        wait(for: "\u{201C}\(text)\u{201D}", timeout: timeout, file: file, line: line) { $0.contains(text) }
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// The app's process: the child of the pane's shell.
    var appPID: Int32? {
        guard let shell = (try? tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]))
            .flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// nil while the program runs, else its exit status (128+N after signal N).
    var exitStatus: Int32? {
        guard let text = try? String(contentsOfFile: exitFile, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func waitForExit(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let s = exitStatus { return s }
            usleep(50_000)
        }
        XCTFail("the app did not exit", file: file, line: line)
        return nil
    }

    func kill() {
        _ = try? runProcess(TmuxSession.tmux, ["-L", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: exitFile)
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
