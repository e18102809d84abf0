import Geo

/// What sort of place a destination is: the file's `kind` column.
public enum DestinationKind: String, CaseIterable, Sendable {
    case landmark, island, archipelago, mountain, volcano, range, waterfall, lake, bay, desert, canyon, park, region, country

    /// The word a suggestion shows after the name: "Santorini — island, GR".
    public var word: String {
        switch self {
        case .range: "mountain range"
        default: rawValue
        }
    }
}

/// A place travellers go to that is not a town: a landmark, an island, a
/// mountain, a park, a region (Resources/destinations.tsv).
public struct Destination: Hashable, Sendable {
    /// The name a traveller uses, English where there is one: "Mount Fuji".
    public var name: String
    public var kind: DestinationKind
    /// ISO 3166-1 alpha-2 of the country it lies in; nil for none (a sea, Antarctica).
    public var countryCode: String?
    /// Its point: where its name goes on the map and where a point destination is.
    public var coordinate: GeoPoint
    /// What it covers, for an island, a park, a region; nil for a point.
    public var extent: GeoBox?
    /// Importance on the scale of a place's population: it ranks like a place of `weight` inhabitants.
    public var weight: Int
    /// Other names: own-language names, other spellings and scripts.
    public var alternates: [String]

    public init(name: String, kind: DestinationKind, countryCode: String?, coordinate: GeoPoint,
                extent: GeoBox?, weight: Int, alternates: [String] = []) {
        self.name = name
        self.kind = kind
        self.countryCode = countryCode
        self.coordinate = coordinate
        self.extent = extent
        self.weight = weight
        self.alternates = alternates
    }

    /// "Santorini — island, GR"; "Weddell Sea — bay" without a country.
    public var displayName: String {
        "\(name) \u{2014} " + ([kind.word, countryCode].compactMap { $0 }.joined(separator: ", "))
    }
}
