import Foundation

/// The local Flickr/Commons stand-in (photo_server.py) as a child process on
/// 127.0.0.1, for tests that need a real HTTP peer. Stops when released.
public final class PhotoServer: @unchecked Sendable {
    public let port: Int
    private let pid: pid_t
    private let statsFile: String

    /// Starts the server; every response waits `delayMs` first, image n another n × `staggerMs`.
    public init(delayMs: Int = 0, staggerMs: Int = 0) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("photo_server.py").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-photo-server-\(UUID().uuidString)").path
        statsFile = out + ".stats"
        let child = try spawnProgram("/usr/bin/env", ["python3", script, "--delay-ms", String(delayMs),
                                                      "--stagger-ms", String(staggerMs), "--stats-file", statsFile],
                                     stdout: out)
        pid = child
        // The server prints "PORT <n>" when it listens; the limit only ends a hang.
        let deadline = Date().addingTimeInterval(20)
        var found: Int?
        while found == nil, Date() < deadline {
            if let text = try? String(contentsOfFile: out, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }) {
                found = Int(line.dropFirst(5))
            } else {
                usleep(20_000)
            }
        }
        try? FileManager.default.removeItem(atPath: out)
        guard let found else {
            kill(child, SIGKILL)
            waitForExit(child)
            throw PhotoServerError(message: "the photo server did not start")
        }
        port = found
    }

    deinit {
        kill(pid, SIGKILL)
        waitForExit(pid)
        try? FileManager.default.removeItem(atPath: statsFile)
    }

    public var base: String { "http://127.0.0.1:\(port)" }
    public var flickrEndpoint: String { base + "/flickr/rest" }
    public var commonsEndpoint: String { base + "/commons/api.php" }

    /// Counters: requests, image_requests, max_in_flight, max_images_in_flight.
    public func stats() -> [String: Int] {
        guard let data = FileManager.default.contents(atPath: statsFile),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Int] else { return [:] }
        return object
    }
}

public struct PhotoServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
