import Foundation
import TestSupport
import XCTest

/// What helper tools (sqlite3, sha256sum, setpriv) run with: nothing of the caller's.
let toolEnvironment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

/// Runs a command and returns its exit status and output. Output goes through
/// files, not pipes: a daemon the command starts (the tmux server) may keep
/// inherited pipes open for ever.
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = toolEnvironment)
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

/// The release binary under test: $VTOURIST_BIN (`make test` sets it), else
/// .build/release/vtourist only if it is newer than every source file, so a
/// plain `swift test` never drives a stale build.
func vtouristBinary() throws -> String {
    if let bin = ProcessInfo.processInfo.environment["VTOURIST_BIN"], !bin.isEmpty {
        guard FileManager.default.isExecutableFile(atPath: bin) else {
            throw BinaryNotFound(reason: "VTOURIST_BIN=\(bin) is not an executable file")
        }
        return bin
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = root.appendingPathComponent(".build/release/vtourist").path
    guard let built = modificationDate(path) else {
        throw BinaryNotFound(reason: "VTOURIST_BIN is not set and there is no \(path)")
    }
    if let newer = newestSource(under: root), newer.date > built {
        throw BinaryNotFound(reason: "\(path) is older than \(newer.path)")
    }
    return path
}

private func modificationDate(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
}

/// The most recently changed file of the release binary: its code and the map and
/// gazetteer it ships with (Resources/).
private func newestSource(under root: URL) -> (path: String, date: Date)? {
    var files = [root.appendingPathComponent("Package.swift").path]
    for folder in ["Sources", "Resources"] {
        let top = root.appendingPathComponent(folder).path
        if let walker = FileManager.default.enumerator(atPath: top) {
            for case let name as String in walker { files.append(top + "/" + name) }
        }
    }
    return files.compactMap { path in modificationDate(path).map { (path, $0) } }.max { $0.1 < $1.1 }
}

/// How much longer every wait of these tests may take: VTOURIST_E2E_SLOW, a factor of 1 or more, for a
/// binary built with a sanitizer (its debug code runs several times slower); 1 when unset.
let waitScale: Double = {
    guard let text = ProcessInfo.processInfo.environment["VTOURIST_E2E_SLOW"], !text.isEmpty else { return 1 }
    guard let factor = Double(text), factor.isFinite, factor >= 1 else {
        fatalError("VTOURIST_E2E_SLOW=\(text) is not a factor of 1 or more (3: every wait may take three times as long)")
    }
    return factor
}()

struct BinaryNotFound: Error, CustomStringConvertible {
    let reason: String
    var description: String {
        "no up-to-date vtourist binary (\(reason)): run `make test`, or build with `swift build -c release --product vtourist` "
            + "and set VTOURIST_BIN to it"
    }
}

/// A real terminal: a tmux server of our own (its own socket), one window
/// running the app. Keys go in with send-keys, the screen comes back with
/// capture-pane.
final class TmuxSession {
    let socket: String
    let name = "vt"
    /// The shell around the app writes the app's exit status here...
    let exitFile: String
    /// ...and, just before, `stty -a` of the terminal the app leaves behind;
    let sttyFile: String
    /// `stty -a` of the same terminal just before the app started.
    let sttyBeforeFile: String
    /// Every byte the app wrote to the terminal, when recording.
    let outputFile: String?
    private let serverEnvironment: [String: String]
    private static let tmux = "/usr/bin/tmux"
    private static let exitedMarker = "<<the app has exited>>"

    /// Runs `command` with exactly `environment` (`env -i`: neither the caller's
    /// environment nor the tmux server's reaches it). With `recording`, every
    /// byte the app writes is kept in `outputFile`, from its very first one.
    /// `callerEnvironment` plays a caller who exported variables: tmux (client,
    /// server and the pane's shell) runs with them on top of its fixed environment.
    /// `serverOptions`: tmux commands run with the session's creation (`["set-option", "-g", …]`),
    /// before the app can ask. `tmuxVariables`: the app gets the pane's TMUX and TMUX_PANE, as a
    /// program in tmux has them, and can ask tmux itself.
    init(command: [String], width: Int = 100, height: Int = 30, environment: [String: String], recording: Bool = false,
         callerEnvironment: [String: String] = [:], serverOptions: [[String]] = [], tmuxVariables: Bool = false) throws {
        socket = "vtourist-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-\(socket)").path
        exitFile = tmp + ".exit"
        sttyFile = tmp + ".stty"
        sttyBeforeFile = tmp + ".stty-before"
        outputFile = recording ? tmp + ".output" : nil
        // tmux itself (client and server) runs with a fixed environment too; its
        // locale is UTF-8 so captures keep every character the app drew.
        serverEnvironment = ["PATH": "/usr/bin:/bin", "HOME": environment["HOME"] ?? "/nonexistent",
                             "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "SHELL": "/bin/sh"]
            .merging(callerEnvironment) { _, exported in exported }
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(TmuxSession.quote($0.value))" }
        let fromTmux = tmuxVariables ? "TMUX=\"$TMUX\" TMUX_PANE=\"$TMUX_PANE\" " : ""
        let app = "/usr/bin/env -i " + fromTmux + assignments.joined(separator: " ") + " "
            + command.map(TmuxSession.quote).joined(separator: " ")
        // With recording, the shell waits for a line (sent once pipe-pane is on) before starting the app.
        let gate = recording ? "read go; " : ""
        let marker = recording ? "; echo '\(TmuxSession.exitedMarker)'" : ""
        let shell = "\(gate)stty -a > \(TmuxSession.quote(sttyBeforeFile)) 2>&1; \(app); s=$?; stty -a > \(TmuxSession.quote(sttyFile)) 2>&1; echo $s > \(TmuxSession.quote(exitFile))"
            + "\(marker); sleep 600"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), shell]
            + serverOptions.flatMap { [";"] + $0 })
        if let outputFile {
            try tmux(["pipe-pane", "-O", "-t", name, "cat > \(TmuxSession.quote(outputFile))"])
            try keys("Enter")
        }
    }

    deinit { kill() }

    static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        let r = try runProcess(TmuxSession.tmux, ["-L", socket] + args, environment: serverEnvironment)
        if r.status != 0 { throw TmuxError(message: "tmux \(args.joined(separator: " ")): \(r.stderr)") }
        return r.stdout
    }

    /// Sends tmux key names: "Up", "Enter", "Escape", "BTab", "S-Left", "q"…
    /// An Esc with another key right behind it in one read is Alt+key, as a terminal sends it; a
    /// person pauses after Esc, so an Esc followed by more keys waits until the app has read it (the
    /// terminal's input queue is empty) and the screen shows it (changed).
    func keys(_ names: String...) throws {
        for (i, n) in names.enumerated() {
            let before = n == "Escape" && i < names.count - 1 ? screen() : nil
            try tmux(["send-keys", "-t", name, n])
            if let before {
                waitUntilInputIsRead()
                waitForChange(from: before)
            }
        }
    }

    /// The terminal the app reads, opened to ask how much input waits in it (nil: not known yet).
    private var inputQueue: Int32 = -1

    /// Waits until every byte sent to the app has been read from its terminal (the app's input is raw,
    /// so the queue holds each key until the app reads it; the limit only ends a wait on an app that
    /// does not read).
    func waitUntilInputIsRead(limit: Double = 10) {
        if inputQueue < 0, let tty = try? tmux(["display-message", "-p", "-t", name, "#{pane_tty}"])
            .trimmingCharacters(in: .whitespacesAndNewlines), !tty.isEmpty {
            inputQueue = open(tty, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        }
        guard inputQueue >= 0 else { return }
        let deadline = Date().addingTimeInterval(limit * waitScale)
        var waiting: Int32 = 0
        while Date() < deadline, ioctl(inputQueue, UInt(FIONREAD), &waiting) == 0, waiting > 0 { usleep(2_000) }
    }

    /// Waits until the screen differs from `before` (the limit only ends a wait for a key that changes nothing).
    private func waitForChange(from before: String, limit: Double = 3) {
        let deadline = Date().addingTimeInterval(limit * waitScale)
        while Date() < deadline, screen() == before { usleep(10_000) }
    }

    /// Types text literally. An argument that ends in `;` ends a tmux command there (the `;` would
    /// be dropped, as the last byte of a mouse report on row 26), so that `;` goes escaped.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", "--", text.hasSuffix(";") ? text.dropLast() + "\\;" : text])
    }

    func screen() -> String {
        capturedScreen() ?? ""
    }

    /// The screen, or nil when tmux did not answer (on a loaded machine a capture can fail): a wait
    /// never takes a failed capture for a screen, whose blank would pass any check for an absence.
    func capturedScreen() -> String? {
        try? tmux(["capture-pane", "-p", "-t", name])
    }

    /// The screen with colour escapes, for checking colours and attributes.
    func screenWithEscapes() -> String {
        (try? tmux(["capture-pane", "-p", "-e", "-t", name])) ?? ""
    }

    /// Waits until the screen satisfies `check` (polling; the limit only ends a hang).
    @discardableResult
    func wait(for description: String, timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line,
              _ check: (String) -> Bool) -> String {
        let (frame, last) = waitForFrame(timeout: timeout, capture: capturedScreen, same: ==, blank: "", check)
        if let frame { return frame }
        XCTFail("timed out waiting for \(description) (\(processReport)); screen was:\n\(last)", file: file, line: line)
        return last
    }

    /// Polls `capture` until a whole frame satisfies `check`: the same screen twice in a row (tmux
    /// may show one half drawn), or one that keeps changing while it satisfies it (a spinner turns
    /// every 100 ms, and on a loaded machine two captures may never catch the same frame) from the
    /// `screensInMotion`-th such capture in a row. A capture that failed (nil) is no screen: it passes
    /// nothing and breaks a run. nil once the limit passes, with the last screen captured.
    func waitForFrame<Screen>(timeout: Double, capture: () -> Screen?, same: (Screen, Screen) -> Bool,
                              blank: Screen, _ check: (Screen) -> Bool) -> (frame: Screen?, last: Screen) {
        let deadline = Date().addingTimeInterval(timeout * waitScale)
        var last: Screen? = nil
        var moving = 0
        while Date() < deadline {
            if let now = capture() {
                last = now
                if check(now) {
                    usleep(40_000)
                    guard let again = capture() else { moving = 0; continue }
                    if same(again, now) { return (now, now) }
                    moving = check(again) ? moving + 1 : 0
                    if moving >= Self.screensInMotion { return (again, again) }
                    continue
                }
            }
            moving = 0
            usleep(50_000)
        }
        return (nil, last ?? capture() ?? blank)
    }

    static let screensInMotion = 5

    @discardableResult
    func wait(forText text: String, timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line) -> String {
        wait(for: "\u{201C}\(text)\u{201D}", timeout: timeout, file: file, line: line) { $0.contains(text) }
    }

    /// After the key that drops a pin being moved: a pin with photos asks first (confirm delete), and
    /// `y` moves it; one without moves at once. Waits for the move to be under way either way.
    func answerMoveIfAsked(file: StaticString = #filePath, line: UInt = #line) throws {
        let screen = wait(for: "the drop or its question", file: file, line: line) {
            $0.contains("Move?") || !$0.contains("MOVING PIN")
        }
        if screen.contains("Move?") {
            try keys("y")
            wait(for: "the drop", file: file, line: line) { !$0.contains("MOVING PIN") }
            return
        }
        // A screen without the bar's MOVING PIN and no question may still have been half drawn (a
        // resize redraws it all): a question that comes after it is answered too.
        let after = wait(for: "the drop", file: file, line: line) { !$0.contains("MOVING PIN") || $0.contains("Move?") }
        if after.contains("Move?") {
            try keys("y")
            wait(for: "the drop", file: file, line: line) { !$0.contains("MOVING PIN") }
        }
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// The shell tmux runs in the pane (its environment is the tmux server's).
    var shellPID: Int32? {
        (try? tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The app's process: the child of the pane's shell.
    var appPID: Int32? {
        guard let shell = shellPID else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// nil while the program runs, else its exit status (128+N after signal N).
    var exitStatus: Int32? {
        guard let text = try? String(contentsOfFile: exitFile, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func waitForExit(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout * waitScale)
        while Date() < deadline {
            if let s = exitStatus { return s }
            usleep(50_000)
        }
        XCTFail("the app did not exit (\(processReport))", file: file, line: line)
        return nil
    }

    /// What a timed-out wait says of the app's process, to tell a starved or blocked app from one
    /// that lost a key: its state and the CPU time it has had (from /proc), its niceness and where
    /// it sleeps, and the machine's load.
    var processReport: String {
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        guard let pid = appPID, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return "no app process; load \(load)" }
        // After "pid (comm)": state is field 3, utime 14, stime 15, nice 19, threads 20.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        func field(_ n: Int) -> String { fields.count > n - 3 ? String(fields[n - 3]) : "?" }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let cpu = (Double(field(14)) ?? 0) / ticks + (Double(field(15)) ?? 0) / ticks
        let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? "?"
        return "app \(pid): state \(field(3)), \(String(format: "%.1f", cpu)) s of CPU, nice \(field(19)), "
            + "\(field(20)) threads, waiting in \(wchan.isEmpty ? "-" : wchan); load \(load)"
    }

    /// `stty -a` of the terminal once the app had exited.
    var sttyAfterExit: String? { try? String(contentsOfFile: sttyFile, encoding: .utf8) }

    /// `stty -a` of the terminal as the app found it.
    var sttyBeforeStart: String? { try? String(contentsOfFile: sttyBeforeFile, encoding: .utf8) }

    /// Every byte the app wrote, once the shell has said it exited (the pipe
    /// delivers in order, so nothing of the app's is still on its way).
    func recordedOutput(timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line) -> Data {
        guard let outputFile else {
            XCTFail("this session does not record its output", file: file, line: line)
            return Data()
        }
        let deadline = Date().addingTimeInterval(timeout * waitScale)
        var data = Data()
        while Date() < deadline {
            data = FileManager.default.contents(atPath: outputFile) ?? Data()
            if let range = data.range(of: Data(TmuxSession.exitedMarker.utf8)) {
                return data.subdata(in: data.startIndex..<range.lowerBound)
            }
            usleep(50_000)
        }
        XCTFail("the recording never reached the app's exit", file: file, line: line)
        return data
    }

    func kill() {
        if inputQueue >= 0 { close(inputQueue); inputQueue = -1 }
        _ = try? runProcess(TmuxSession.tmux, ["-L", socket, "kill-server"], environment: serverEnvironment)
        for path in [exitFile, sttyFile, sttyBeforeFile] + (outputFile.map { [$0] } ?? []) { try? FileManager.default.removeItem(atPath: path) }
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
