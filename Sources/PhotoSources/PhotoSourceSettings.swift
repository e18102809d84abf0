import Foundation
import HTTP
import Model
import WorldMap

/// Which photo source to use and how, from the environment and the stored
/// settings (SPEC 2.3, 5). A pure function of its two dictionaries.
public struct PhotoSourceSettings: Sendable, Equatable {
    public typealias Kind = PhotoSourceChoice

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

    public static let defaultHalfWidth = Settings.defaultAreaHalfWidth
    public static let defaultPerPage = Settings.defaultPhotosPerCollection

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
        let usableKey = key.flatMap(Settings.apiKey)
        if key != nil && usableKey == nil {
            problems.append("The Flickr API key was ignored: \(Settings.expected(.flickrAPIKey)).")
        }

        var kind: Kind = usableKey != nil ? .flickr : .commons
        for (origin, text) in [("VTOURIST_SOURCE", value(environment[Env.source])), ("the stored source", value(stored[Key.source]))] {
            guard let text else { continue }
            if let chosen = Settings.source(text) {
                kind = chosen
                break
            }
            problems.append("Unknown photo source \"\(TextCleaner.clean(text, maxLength: 40))\" in \(origin): \(Settings.expected(.source)).")
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
            if let d = Settings.areaHalfWidth(text) {
                halfWidth = d
            } else {
                problems.append("The stored search area \"\(TextCleaner.clean(text, maxLength: 20))\" was ignored (\(Settings.expected(.areaHalfWidth))); using \(defaultHalfWidth).")
            }
        }
        var perPage = defaultPerPage
        if let text = value(stored[Key.photosPerCollection]) {
            if let n = Settings.photosPerCollection(text) {
                perPage = n
            } else {
                problems.append("The stored photos per collection \"\(TextCleaner.clean(text, maxLength: 20))\" was ignored (\(Settings.expected(.photosPerCollection))); using \(defaultPerPage).")
            }
        }

        return PhotoSourceSettings(kind: kind, flickrAPIKey: usableKey, flickrEndpoint: flickrEndpoint,
                                   commonsEndpoint: commonsEndpoint, halfWidthDegrees: halfWidth,
                                   perPage: perPage, problems: problems)
    }

    /// Why an endpoint can't be used, or nil. SPEC 5: https anywhere, http only on loopback
    /// (the HTTP layer's own policy, so what is accepted here is what it will fetch).
    public static func endpointProblem(_ text: String) -> String? {
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "has spaces or control characters"
        }
        switch URLPolicy.check(text) {
        case .success: return nil
        case .failure(.insecureURL): return "uses plain http:// on a host that isn't loopback"
        case .failure(.unsupportedScheme): return "is not an http(s) URL"
        case .failure: return "is not a URL with a host"
        }
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

}
