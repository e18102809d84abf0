import Foundation

/// Runs Tests/HTTPTests/Server/test_server.py on a free 127.0.0.1 port for one test.
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
    private let process = Process()
    private let input = Pipe()

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func url(_ path: String) -> String { baseURL + path }

    /// `arguments` go to the script, e.g. ["--delay-ms", "100"] or ["--routes", file].
    init(arguments: [String] = []) throws {
        let output = Pipe()
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            ? "/usr/bin/python3" : "/usr/bin/env"
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = (python == "/usr/bin/env" ? ["python3"] : [])
            + [Self.script.path, "--exit-on-stdin-eof"] + arguments
        // The server exits when this pipe closes, so it never outlives the test process.
        // Its own small environment: nothing of the caller's (proxies, locale) changes what is tested.
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()

        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
        guard firstLine.hasPrefix("PORT "), let port = Int(firstLine.dropFirst(5)) else {
            process.terminate()
            throw LaunchError(description: "test server did not start: \(text)")
        }
        self.port = port
    }

    /// Closing stdin ends the server; SIGKILL is the fallback because a child started from a
    /// dispatch thread inherits its blocked SIGTERM. Polls, as waitUntilExit spins off the main thread.
    func stop() {
        try? input.fileHandleForWriting.close()
        for attempt in 0..<500 where process.isRunning {
            if attempt == 200 { kill(process.processIdentifier, SIGKILL) }
            usleep(10_000)
        }
    }

    deinit { stop() }
}
