import Foundation
import HTTP
import Model
import Geo

/// Which photo source to use and how, from the environment and the stored
/// settings (SPEC 2.3, 5). A pure function of its two dictionaries.
public struct PhotoSourceSettings: Sendable, Equatable {
    public typealias Kind = PhotoSourceChoice

    /// Environment variables read (SPEC 5).
    public enum Env {
        public static let flickrAPIKey = EnvironmentVariable.flickrAPIKey
        public static let source = EnvironmentVariable.source
        public static let flickrEndpoint = "VTOURIST_FLICKR_ENDPOINT"
        public static let commonsEndpoint = "VTOURIST_COMMONS_ENDPOINT"
        public static let caBundle = EnvironmentVariable.caBundle
    }

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
                halfWidthDegrees: Double = Settings.defaultAreaHalfWidth,
                perPage: Int = Settings.defaultPhotosPerCollection,
                problems: [String] = []) {
        self.kind = kind
        self.flickrAPIKey = flickrAPIKey
        self.flickrEndpoint = flickrEndpoint
        self.commonsEndpoint = commonsEndpoint
        self.halfWidthDegrees = halfWidthDegrees
        self.perPage = perPage
        self.problems = problems
    }

    /// From stored texts by their setting names (as the store keeps them), for tests and tools.
    public static func resolve(environment: [String: String], stored: [String: String]) -> PhotoSourceSettings {
        var texts: [SettingKey: String] = [:]
        for (name, text) in stored { if let key = SettingCatalog.standard.key(named: name) { texts[key] = text } }
        let (settings, problems) = Settings.read(stored: texts)
        return resolve(environment: environment, settings: settings, problems: problems)
    }

    /// The stored settings with the environment's overrides (SPEC 5): `FLICKR_API_KEY` over the stored key,
    /// `VTOURIST_SOURCE` over the stored source, then `Settings.effectiveSource` decides. Flickr without a key
    /// falls back to Commons with a message. `problems` (the stored texts' own) come first in the result's.
    public static func resolve(environment: [String: String], settings stored: Settings,
                               problems storedProblems: [String] = []) -> PhotoSourceSettings {
        let overrides = EnvironmentOverrides(environment: environment, catalog: stored.catalog)
        var problems = storedProblems + overrides.problems
        func value(_ name: String) -> String? { EnvironmentOverrides.value(name, in: environment) }
        var settings = stored
        overrides.apply(to: &settings)
        var kind = settings.effectiveSource
        if kind == .flickr && settings.flickrAPIKey == nil {
            problems.append("Flickr needs an API key (setting or \(Env.flickrAPIKey)); using Wikimedia Commons instead.")
            kind = .commons
        }

        func endpoint(_ name: String, default fallback: String) -> String {
            guard let text = value(name) else { return fallback }
            if let problem = endpointProblem(text) {
                problems.append("\(name) \(problem); using the default.")
                return fallback
            }
            return text
        }
        let flickrEndpoint = endpoint(Env.flickrEndpoint, default: FlickrSource.defaultEndpoint)
        let commonsEndpoint = endpoint(Env.commonsEndpoint, default: CommonsSource.defaultEndpoint)

        return PhotoSourceSettings(kind: kind, flickrAPIKey: settings.flickrAPIKey, flickrEndpoint: flickrEndpoint,
                                   commonsEndpoint: commonsEndpoint, halfWidthDegrees: settings.areaHalfWidth,
                                   perPage: settings.photosPerCollection, problems: problems)
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

    /// Builds the chosen source over `http`; `userAgent` is `Settings.userAgent`, the one every request sends.
    public func makeSource(http: any HTTPFetching, userAgent: String) -> any PhotoSource {
        switch kind {
        case .flickr:
            if let flickrAPIKey { return FlickrSource(apiKey: flickrAPIKey, endpoint: flickrEndpoint, http: http) }
            return CommonsSource(endpoint: commonsEndpoint, userAgent: userAgent, http: http)
        case .commons:
            return CommonsSource(endpoint: commonsEndpoint, userAgent: userAgent, http: http)
        }
    }

    /// The query for a pin with these settings.
    /// `perPage` defaults to the setting; a collection keeps the one it began with.
    public func query(center: GeoPoint, page: Int = 1, perPage: Int? = nil, filter: AlbumFilter = .none) -> PhotoQuery {
        PhotoQuery(center: center, halfWidthDegrees: halfWidthDegrees, perPage: perPage ?? self.perPage, page: page,
                   filter: filter)
    }

}

/// The settings the environment overrides (SPEC 5: each catalog row's `variable`), each valid, and one
/// message per variable that is set but not a valid value (it overrides nothing).
public struct EnvironmentOverrides: Equatable, Sendable {
    /// The canonical text each overriding variable gives its setting.
    public private(set) var texts: [SettingKey: String] = [:]
    /// Every setting a variable overrides, with the variable (the settings screen shows them as such).
    public private(set) var overridden: [SettingKey: String] = [:]
    public private(set) var problems: [String] = []

    public init(environment: [String: String], catalog: SettingCatalog = .standard) {
        for (key, variable) in catalog.variables {
            guard let text = Self.value(variable, in: environment) else { continue }
            let row = catalog[key]
            if let value = row.normalize(text) {
                texts[key] = value
                overridden[key] = variable
            } else {
                // A key is not repeated; a CA bundle's reason names its file.
                problems.append("\(variable)\(row.quoted(text)) was ignored: \(row.reason(text)).")
            }
        }
    }

    public var flickrAPIKey: String? { texts[.flickrAPIKey] }
    public var source: PhotoSourceChoice? { texts[.source].flatMap(Settings.source) }
    /// The CA bundle's absolute path, checked as the setting is.
    public var caBundle: String? { texts[.caBundle] }

    /// The settings with every overridden value in place of the stored one.
    public func apply(to settings: inout Settings) {
        for (key, text) in texts { settings.catalog[key].read(&settings, text) }
    }

    /// The variable in effect for `key`, if it overrides it.
    public func variable(for key: SettingKey) -> String? { overridden[key] }

    /// The CA bundle the HTTP client trusts besides the system's: `VTOURIST_CA_BUNDLE` over the setting.
    public static func caBundle(environment: [String: String], settings: Settings) -> String? {
        EnvironmentOverrides(environment: environment).caBundle ?? settings.caBundle
    }

    /// A variable's text, trimmed; nil when unset or blank (blank counts as unset).
    static func value(_ name: String, in environment: [String: String]) -> String? {
        guard let t = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
        return t
    }
}
