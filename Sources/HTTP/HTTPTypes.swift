import Foundation

/// GET, or HEAD (the offline probe: any answer at all means the host is reachable).
public enum HTTPMethod: String, Sendable, Equatable {
    case get = "GET"
    case head = "HEAD"
}

/// One GET (or HEAD) request. Only `http` (loopback hosts) and `https` URLs are fetched.
public struct HTTPRequest: Sendable, Equatable {
    public var url: String
    public var method: HTTPMethod = .get
    public var headers: [String: String]
    /// The largest body accepted, after content decoding; more fails as `tooLarge`.
    public var maxBytes: Int
    /// The whole transfer, redirects included, must finish within this many seconds.
    public var timeout: TimeInterval

    public static let defaultMaxBytes = 20 * 1024 * 1024
    public static let defaultTimeout: TimeInterval = 60

    public init(
        url: String,
        method: HTTPMethod = .get,
        headers: [String: String] = [:],
        maxBytes: Int = HTTPRequest.defaultMaxBytes,
        timeout: TimeInterval = HTTPRequest.defaultTimeout
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.maxBytes = maxBytes
        self.timeout = timeout
    }
}

/// A complete answer. 4xx and 5xx are responses too: callers decide what they mean.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names are lower-cased; repeated headers are joined with ", ".
    public var headers: [String: String]
    public var body: Data
    /// The URL that answered, after redirects.
    public var url: String

    public init(status: Int, headers: [String: String], body: Data, url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// What a client's transfers have cost so far, from curl's own counts.
public struct HTTPStatistics: Sendable, Equatable {
    /// Requests curl finished (each redirect hop counts), failed ones included.
    public var transfers: Int
    /// New connections curl had to open (CURLINFO_NUM_CONNECTS), cancelled transfers included.
    public var connectionsOpened: Int
    /// `connectionsOpened` by host name (lower-cased) of the URL asked for.
    public var connectionsByHost: [String: Int]

    public init(transfers: Int = 0, connectionsOpened: Int = 0, connectionsByHost: [String: Int] = [:]) {
        self.transfers = transfers
        self.connectionsOpened = connectionsOpened
        self.connectionsByHost = connectionsByHost
    }
}

/// Identifies a started transfer, for `HTTPClient.cancel`.
public struct TransferID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public var description: String { "transfer \(rawValue)" }
}

public enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidURL(String)
    /// Plain http to a host that is not loopback.
    case insecureURL(String)
    case unsupportedScheme(String)
    case dnsFailed(host: String)
    case connectionRefused(host: String)
    case timedOut
    /// The connection broke before the answer was whole: reset, closed early, an HTTP/2 stream error.
    case connectionLost(String)
    /// The proxy the environment names (`proxy`, e.g. `http://10.0.0.1:3128 (https_proxy)`) could not be reached.
    case proxyFailed(proxy: String, detail: String)
    case tooLarge(limit: Int)
    case tls(String)
    case transport(String)
    case cancelled
    case shuttingDown

    /// One line, free of control characters (URLs and hosts may come from a server).
    public var description: String {
        let text: String
        switch self {
        case .invalidURL(let url): text = "not a valid web address: \(url)"
        case .insecureURL(let url): text = "refusing unencrypted http to a non-local host (https is required): \(url)"
        case .unsupportedScheme(let scheme): text = "only http and https addresses can be fetched, not \(scheme)"
        case .dnsFailed(let host): text = "could not find the server \(host) (DNS lookup failed)"
        case .connectionRefused(let host): text = "could not connect to \(host)"
        case .timedOut: text = "the server took too long to answer"
        case .connectionLost(let detail): text = "the connection broke: \(detail)"
        case .proxyFailed(let proxy, let detail): text = "could not reach the proxy \(proxy): \(detail)"
        case .tooLarge(let limit): text = "the response is larger than the limit of \(Self.byteCount(limit))"
        case .tls(let detail): text = "secure connection failed: \(detail)"
        case .transport(let detail): text = "network error: \(detail)"
        case .cancelled: text = "cancelled"
        case .shuttingDown: text = "the network is shutting down"
        }
        return Self.singleLine(text)
    }

    static func singleLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            scalars.append(isControl ? " " : scalar)
        }
        return String(scalars)
    }

    static func byteCount(_ bytes: Int) -> String {
        if bytes >= 1024 * 1024, bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024)) MB" }
        if bytes >= 1024, bytes % 1024 == 0 { return "\(bytes / 1024) KB" }
        return "\(bytes) bytes"
    }
}
