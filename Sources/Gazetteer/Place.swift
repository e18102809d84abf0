import WorldMap

/// A populated place from the gazetteer.
public struct Place: Hashable, Sendable {
    public var name: String
    /// State, province or other first-level region, when known.
    public var admin1: String?
    /// ISO 3166-1 alpha-2, e.g. "IT".
    public var countryCode: String
    public var coordinate: GeoPoint
    public var population: Int

    public init(name: String, admin1: String?, countryCode: String, coordinate: GeoPoint, population: Int) {
        self.name = name
        self.admin1 = admin1
        self.countryCode = countryCode
        self.coordinate = coordinate
        self.population = population
    }

    /// "Naples, Campania, IT"; "The Valley, AI" when the region is unknown.
    public var displayName: String {
        [name, admin1, countryCode].compactMap { $0 }.joined(separator: ", ")
    }
}
