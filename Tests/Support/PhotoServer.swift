import Foundation

/// The local Flickr/Commons stand-in (photo_server.py) as a child process on
/// 127.0.0.1, for tests that need a real HTTP peer. Stops when released.
///
/// It is also a trap: point the proxy variables of a process at `proxy` and
/// any request that process makes for a host other than loopback reaches the
/// server as a proxy request, is refused and shows in `leaks()`.
public final class PhotoServer: Sendable {
    public let port: Int
    /// "https" when started with a certificate, else "http".
    public let scheme: String
    private let pid: pid_t
    private let folder: String
    private var statsFile: String { folder + "/stats.json" }
    private var leaksFile: String { folder + "/leaks.txt" }
    private var controlDir: String { folder + "/control" }

    /// What the server can be told to do while it runs.
    public enum Switch: String, Sendable {
        /// Image requests wait until this is turned off (see also `holdImages(from:)`).
        case holdImages = "hold-images"
        /// Every search fails (Flickr `stat: fail` 105, Commons HTTP 503).
        case searchDown = "search-down"
        /// Titles, authors and licences are hostile text (escape sequences, C1, bidi overrides,
        /// combining, wide and zero-width characters, very long text).
        case hostileText = "hostile-text"
        /// Every search (Flickr and Commons) waits until this is turned off.
        case holdSearch = "hold-search"
        /// Every search fails as the fault the file names (`set(.searchFault, to: "hang")`).
        case searchFault = "search-fault"
        /// Every image fails as the fault the file names, or photo n as the n-th of a comma-separated
        /// list (round; `ok` for a good one): `set(.imageFault, to: "huge")`.
        case imageFault = "image-fault"
        /// Every large image (the photo view's) fails as the fault the file names, or photo n as the
        /// n-th of a comma-separated list (`ok` for a good one); thumbnails are served as usual.
        case largeFault = "large-fault"
        /// Every large image waits until this is turned off; one whose client leaves meanwhile
        /// counts in `stats()["large_cancelled"]`.
        case holdLarge = "hold-large"
    }

    /// The environment the server runs with: nothing from the caller's.
    public static let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"]

    /// Starts the server; every response waits `delayMs` first, image n another n × `staggerMs`.
    /// With `tlsCertificate` (one of `TestCertificates`) it speaks https, photo URLs included.
    /// `port` 0 takes a free one; another (a port a test kept closed) brings a server "back up" there.
    public init(delayMs: Int = 0, staggerMs: Int = 0, switchedOn: Set<Switch> = [], tlsCertificate: String? = nil,
                port requested: Int = 0) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("photo_server.py").path
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-photo-server-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/control", withIntermediateDirectories: true)
        let out = folder + "/out.txt"
        let control = folder + "/control"
        for s in switchedOn { _ = FileManager.default.createFile(atPath: control + "/" + s.rawValue, contents: Data()) }
        let child = try spawnProgram("/usr/bin/python3", [script, "--port", String(requested), "--delay-ms", String(delayMs),
                                                          "--stagger-ms", String(staggerMs),
                                                          "--stats-file", folder + "/stats.json",
                                                          "--leaks-file", folder + "/leaks.txt",
                                                          "--control-dir", control]
                                         + (tlsCertificate.map { ["--tls-cert", $0] } ?? []),
                                     environment: Self.environment, stdout: out)
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
        guard let found else {
            kill(child, SIGKILL)
            waitForExit(child)
            try? FileManager.default.removeItem(atPath: folder)
            throw PhotoServerError(message: "the photo server did not start")
        }
        port = found
        scheme = tlsCertificate == nil ? "http" : "https"
    }

    deinit {
        kill(pid, SIGKILL)
        waitForExit(pid)
        try? FileManager.default.removeItem(atPath: folder)
    }

    public var base: String { "\(scheme)://127.0.0.1:\(port)" }
    public var flickrEndpoint: String { base + "/flickr/rest" }
    public var commonsEndpoint: String { base + "/commons/api.php" }
    /// The proxy URL that turns the server into a trap for requests meant for other hosts.
    public var proxy: String { base }

    /// Counters: requests, image_requests, in_flight, images_in_flight, max_in_flight, max_images_in_flight.
    public func stats() -> [String: Int] {
        guard let data = FileManager.default.contents(atPath: statsFile),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Int] else { return [:] }
        return object
    }

    /// Every request that reached the server as a proxy request ("CONNECT host:443",
    /// "GET http://host/…"): each one would have left the machine.
    public func leaks() -> [String] {
        guard let text = try? String(contentsOfFile: leaksFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// Every large image request (its path) and Commons thumbnail request (`commons pageids=N
    /// iiurlwidth=W`) so far, in order.
    public func largeRequests() -> [String] {
        let text = (try? String(contentsOfFile: controlDir + "/large-requests.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The query string of every search so far (Flickr, and Commons other than its large-image
    /// lookups), as the server received it, in order of arrival.
    public func searchRequests() -> [String] {
        let text = (try? String(contentsOfFile: controlDir + "/search-requests.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The parameters of one line of `searchRequests()`, percent-decoded.
    public static func parameters(_ query: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            out[key] = value
        }
        return out
    }

    /// Holds only the images numbered `first` and up (Flickr's n.jpg); the others are served.
    public func holdImages(from first: Int) {
        _ = FileManager.default.createFile(atPath: controlDir + "/" + Switch.holdImages.rawValue, contents: Data(String(first).utf8))
    }

    /// The User-Agent of every request so far, in order.
    public func userAgents() -> [String] {
        let text = (try? String(contentsOfFile: controlDir + "/user-agents.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Turns a switch on with what it says (a fault's name); requests that arrive afterwards see it.
    public func set(_ s: Switch, to text: String) {
        _ = FileManager.default.createFile(atPath: controlDir + "/" + s.rawValue, contents: Data(text.utf8))
    }

    /// The faults a search can be given by Flickr key or `searchFault` (photo_server.py's SEARCH_FAULTS).
    public static let searchFaults = ["bad-key", "unavailable", "malformed", "wrong-shape", "http500", "http404", "html",
                                      "garbage", "truncated", "empty", "hang", "slow", "gzip-bomb", "endless",
                                      "redirect-other", "redirect-http", "redirect-loop"]
    /// The faults an image can be given by `img-`/`imgs-` keys or `imageFault` (its IMAGE_FAULTS, in that
    /// order: `img-mixed` gives photo n the n-th).
    public static let imageFaults = ["html", "random", "trunc", "half", "endless", "404", "500", "hang", "slow", "huge",
                                     "bomb", "gzip-bomb", "redirect-other", "redirect-http", "redirect-loop", "refused", "dns"]
    /// Faults that heal in the real world (photo_server.py's PASSING_FAULTS): `429` (Retry-After: 3),
    /// `429-date` (an HTTP-date 3 s ahead), `503` (no Retry-After), `maxlag` (a Commons search: the API
    /// error, HTTP 200, Retry-After: 5), `flaky3` (an image: every third one fails once with 500). Each
    /// lasts while its switch is on.
    public static let passingFaults = ["429", "429-date", "503", "maxlag", "flaky3"]
    /// The host of the `dns` fault: its first label is longer than DNS allows, so a lookup fails
    /// without a query being sent. Exempt it from a proxy trap (`no_proxy`) so that it is looked up.
    public static let dnsFailingHost = String(repeating: "x", count: 64) + ".vtourist-dns.example"
    /// The host `redirect-other` sends to: not loopback, reachable only through a proxy (the trap).
    public static let elsewhereHost = String(repeating: "y", count: 64) + ".elsewhere.example"

    /// Turns a switch on or off; requests that arrive afterwards see it.
    public func set(_ s: Switch, _ on: Bool) {
        let path = controlDir + "/" + s.rawValue
        if on {
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        } else {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

public struct PhotoServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
