import Foundation

/// net_proxy.py as a child process: a TCP proxy on 127.0.0.1 in front of a local server, that a
/// test turns into a bad network (an outage, flapping, latency). Stops when released.
public final class NetProxy: Sendable {
    public let port: Int
    private let pid: pid_t
    private let folder: String
    private var controlDir: String { folder + "/control" }
    private var statsFile: String { folder + "/stats.json" }

    /// Starts the proxy in front of 127.0.0.1:`targetPort`, adding `rttMs` of round trip.
    public init(targetPort: Int, rttMs: Int = 0) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("net_proxy.py").path
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-net-proxy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/control", withIntermediateDirectories: true)
        let out = folder + "/out.txt"
        let child = try spawnProgram("/usr/bin/python3", [script, "--target-port", String(targetPort), "--rtt-ms", String(rttMs),
                                                          "--control-dir", folder + "/control", "--stats-file", folder + "/stats.json"],
                                     environment: PhotoServer.environment, stdout: out, stderr: folder + "/err.txt")
        pid = child
        // The proxy prints "PORT <n>" when it listens; the limit only ends a hang.
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
        guard let found else {
            kill(child, SIGKILL)
            waitForExit(child)
            try? FileManager.default.removeItem(atPath: folder)
            throw PhotoServerError(message: "the network proxy did not start")
        }
        port = found
    }

    deinit {
        kill(pid, SIGKILL)
        waitForExit(pid)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// http://127.0.0.1:port: the server's URLs reached through the proxy.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// The network goes (true: connections refused, open ones reset) or comes back (false).
    public func setDown(_ down: Bool) {
        let path = controlDir + "/gate-down"
        if down {
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        } else {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The network goes down and comes back every `seconds`, starting down; nil stops the flapping.
    public func flap(every seconds: Double?) {
        let path = controlDir + "/flap"
        if let seconds {
            _ = FileManager.default.createFile(atPath: path, contents: Data(String(seconds).utf8))
        } else {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Counters: `accepted` (connections since start), `open`, `refused_periods` (outages so far),
    /// `down` (1 while down).
    public func stats() -> [String: Int] {
        guard let data = FileManager.default.contents(atPath: statsFile),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object.compactMapValues { ($0 as? NSNumber)?.intValue }
    }
}
