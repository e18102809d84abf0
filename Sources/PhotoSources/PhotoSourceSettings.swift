import Foundation
import WorldMap

/// Which photo source to use and how, from the environment and the stored
/// settings (SPEC 2.3, 5). A pure function of its two dictionaries.
public struct PhotoSourceSettings: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case flickr, commons
    }

    /// Environment variables read (SPEC 5).
    public enum Env {
        public static let flickrAPIKey = "FLICKR_API_KEY"
        public static let source = "VTOURIST_SOURCE"
        public static let flickrEndpoint = "VTOURIST_FLICKR_ENDPOINT"
        public static let commonsEndpoint = "VTOURIST_COMMONS_ENDPOINT"
    }

    /// Keys of the stored settings (the same names the store uses).
    public enum Key {
        public static let source = "source"
        public static let flickrAPIKey = "flickr_api_key"
        public static let areaHalfWidth = "area_half_width"
        public static let photosPerCollection = "photos_per_collection"
    }

    public static let defaultHalfWidth = 0.5
    public static let defaultPerPage = 21

    /// The source searches go to.
    public var kind: Kind
    /// The Flickr key in effect (environment first), if any.
    public var flickrAPIKey: String?
    public var flickrEndpoint: String
    public var commonsEndpoint: String
    public var halfWidthDegrees: Double
    public var perPage: Int
    /// One message per bad value; each bad value fell back to its default.
    public var problems: [String]

    /// The endpoint of the chosen source.
    public var endpoint: String { kind == .flickr ? flickrEndpoint : commonsEndpoint }

    public init(kind: Kind, flickrAPIKey: String? = nil,
                flickrEndpoint: String = FlickrSource.defaultEndpoint,
                commonsEndpoint: String = CommonsSource.defaultEndpoint,
                halfWidthDegrees: Double = defaultHalfWidth, perPage: Int = defaultPerPage,
                problems: [String] = []) {
        self.kind = kind
        self.flickrAPIKey = flickrAPIKey
        self.flickrEndpoint = flickrEndpoint
        self.commonsEndpoint = commonsEndpoint
        self.halfWidthDegrees = halfWidthDegrees
        self.perPage = perPage
        self.problems = problems
    }

    /// Chooses: `VTOURIST_SOURCE`, else the stored `source`, else Flickr when
    /// a key is set (`FLICKR_API_KEY` or the stored key), else Commons.
    /// Flickr without a key falls back to Commons with a message.
    public static func resolve(environment: [String: String], stored: [String: String]) -> PhotoSourceSettings {
        var problems: [String] = []
        func value(_ text: String?) -> String? {
            guard let t = text?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
            return t
        }

        let key = value(environment[Env.flickrAPIKey]) ?? value(stored[Key.flickrAPIKey])
        if let k = key, !isPlausibleKey(k) {
            problems.append("The Flickr API key has characters an API key can't have; it was ignored.")
        }
        let usableKey = key.flatMap { isPlausibleKey($0) ? $0 : nil }

        var kind: Kind = usableKey != nil ? .flickr : .commons
        for (origin, text) in [("VTOURIST_SOURCE", value(environment[Env.source])), ("the stored source", value(stored[Key.source]))] {
            guard let text else { continue }
            if let chosen = Kind(rawValue: text.lowercased()) {
                kind = chosen
                break
            }
            problems.append("Unknown photo source \"\(TextCleaner.clean(text, maxLength: 40))\" in \(origin); use flickr or commons.")
        }
        if kind == .flickr && usableKey == nil {
            problems.append("Flickr needs an API key (setting or FLICKR_API_KEY); using Wikimedia Commons instead.")
            kind = .commons
        }

        var flickrEndpoint = FlickrSource.defaultEndpoint
        if let text = value(environment[Env.flickrEndpoint]) {
            if let problem = endpointProblem(text) {
                problems.append("VTOURIST_FLICKR_ENDPOINT \(problem); using the default.")
            } else {
                flickrEndpoint = text
            }
        }
        var commonsEndpoint = CommonsSource.defaultEndpoint
        if let text = value(environment[Env.commonsEndpoint]) {
            if let problem = endpointProblem(text) {
                problems.append("VTOURIST_COMMONS_ENDPOINT \(problem); using the default.")
            } else {
                commonsEndpoint = text
            }
        }

        var halfWidth = defaultHalfWidth
        if let text = value(stored[Key.areaHalfWidth]) {
            if let d = Double(text), d.isFinite, PhotoQuery.halfWidthRange.contains(d) {
                halfWidth = d
            } else {
                problems.append("The search area \"\(TextCleaner.clean(text, maxLength: 20))\" is not a half-width of 0.1 to 1.0 degree; using \(defaultHalfWidth).")
            }
        }
        var perPage = defaultPerPage
        if let text = value(stored[Key.photosPerCollection]) {
            if let n = Int(text), PhotoQuery.perPageRange.contains(n) {
                perPage = n
            } else {
                problems.append("Photos per collection \"\(TextCleaner.clean(text, maxLength: 20))\" is not a number from 1 to 60; using \(defaultPerPage).")
            }
        }

        return PhotoSourceSettings(kind: kind, flickrAPIKey: usableKey, flickrEndpoint: flickrEndpoint,
                                   commonsEndpoint: commonsEndpoint, halfWidthDegrees: halfWidth,
                                   perPage: perPage, problems: problems)
    }

    /// A message for a bad area half-width, nil when it is fine (for the settings screen).
    public static func halfWidthProblem(_ text: String) -> String? {
        if let d = Double(text.trimmingCharacters(in: .whitespaces)), d.isFinite, PhotoQuery.halfWidthRange.contains(d) { return nil }
        return "The search area must be a half-width from 0.1 to 1.0 degree."
    }

    /// A message for a bad photos-per-collection value, nil when it is fine.
    public static func perPageProblem(_ text: String) -> String? {
        if let n = Int(text.trimmingCharacters(in: .whitespaces)), PhotoQuery.perPageRange.contains(n) { return nil }
        return "Photos per collection must be a whole number from 1 to 60."
    }

    /// A message for a bad source name, nil when it is fine.
    public static func sourceProblem(_ text: String) -> String? {
        Kind(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) == nil
            ? "The photo source must be flickr or commons." : nil
    }

    /// Why an endpoint can't be used, or nil. SPEC 5: https anywhere, http only on loopback.
    public static func endpointProblem(_ text: String) -> String? {
        let lower = text.lowercased()
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "has spaces or control characters"
        }
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = text.dropFirst(7)
            guard isLoopback(host(of: rest)) else { return "uses plain http:// on a host that isn't loopback" }
        } else {
            return "is not an http(s) URL"
        }
        return host(of: rest).isEmpty ? "has no host" : nil
    }

    /// Builds the chosen source over `http`.
    public func makeSource(http: any HTTPFetching, userAgent: String = CommonsSource.defaultUserAgent) -> any PhotoSource {
        switch kind {
        case .flickr:
            if let flickrAPIKey { return FlickrSource(apiKey: flickrAPIKey, endpoint: flickrEndpoint, http: http) }
            return CommonsSource(endpoint: commonsEndpoint, userAgent: userAgent, http: http)
        case .commons:
            return CommonsSource(endpoint: commonsEndpoint, userAgent: userAgent, http: http)
        }
    }

    /// The query for a pin with these settings.
    public func query(center: GeoPoint, page: Int = 1) -> PhotoQuery {
        PhotoQuery(center: center, halfWidthDegrees: halfWidthDegrees, perPage: perPage, page: page)
    }

    static func isPlausibleKey(_ key: String) -> Bool {
        key.count <= 128 && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }

    /// The host of "host[:port]/path…" (IPv6 in brackets kept without them).
    static func host(of rest: Substring) -> String {
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            return String(authority.dropFirst().prefix { $0 != "]" }).lowercased()
        }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        // 127.0.0.0/8 written as a dotted quad; "127.0.0.1.example.com" is not loopback.
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { UInt8($0) != nil }
    }
}
