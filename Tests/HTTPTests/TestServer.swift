import Foundation
import Synchronization

/// Runs Tests/HTTPTests/Server/test_server.py on a free 127.0.0.1 port for one test.
///
/// Started with posix_spawn and reaped with waitpid, not Foundation's Process: what a Process
/// allocates for a child it ran stayed allocated at exit, in the sanitized suite's leak report as
/// indirect leaks.
///
/// Other test targets can copy this file and point `script` at the same server.
final class TestServer: Sendable {
    struct LaunchError: Error, CustomStringConvertible {
        var description: String
    }

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Server/test_server.py")

    let port: Int
    private let pid: pid_t
    /// The write end of the server's standard input while it runs; -1 once stopped.
    private let input: Mutex<Int32>

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func url(_ path: String) -> String { baseURL + path }

    /// `arguments` go to the script, e.g. ["--delay-ms", "100"] or ["--routes", file].
    init(arguments: [String] = []) throws {
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            ? "/usr/bin/python3" : "/usr/bin/env"
        let argv = [python] + (python == "/usr/bin/env" ? ["python3"] : [])
            + [Self.script.path, "--exit-on-stdin-eof"] + arguments
        // The server exits when its standard input closes, so it never outlives the test process.
        // Both pipes are made close-on-exec here, so no other child inherits an end of them.
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        guard pipe(&stdinPipe) == 0 else { throw LaunchError(description: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&stdoutPipe) == 0 else {
            close(stdinPipe[0]); close(stdinPipe[1])
            throw LaunchError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in stdinPipe + stdoutPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        // A child started from a dispatch thread would inherit its blocked signals (SIGTERM among
        // them): the server starts with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        // Its own small environment: nothing of the caller's (proxies, locale) changes what is tested.
        let environment = ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"]
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = environment.map { strdup($0) } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, python, &actions, &attributes, &cArgs, &cEnv)
        close(stdinPipe[0])
        close(stdoutPipe[1])
        guard rc == 0 else {
            close(stdinPipe[1])
            close(stdoutPipe[0])
            throw LaunchError(description: "cannot start \(python): \(String(cString: strerror(rc)))")
        }
        pid = child
        input = Mutex(stdinPipe[1])

        // The first line the server prints is "PORT <n>"; end of file means it did not start.
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 256)
        while !text.contains("\n") {
            let n = buffer.withUnsafeMutableBytes { read(stdoutPipe[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        // Nothing more is read: the server's later output would fill the pipe, so it goes nowhere.
        close(stdoutPipe[0])
        let firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
        guard firstLine.hasPrefix("PORT "), let port = Int(firstLine.dropFirst(5)) else {
            close(stdinPipe[1])
            kill(child, SIGKILL)
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            throw LaunchError(description: "test server did not start: \(text)")
        }
        self.port = port
    }

    /// Closing stdin ends the server; SIGKILL is the fallback when it has not exited after a while
    /// (the limit only ends a hang). The child is reaped either way. Stopping twice does nothing.
    func stop() {
        let fd = input.withLock { fd in
            defer { fd = -1 }
            return fd
        }
        guard fd >= 0 else { return }
        close(fd)
        var status: Int32 = 0
        for _ in 0..<200 {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno != EINTR) { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    deinit { stop() }
}
