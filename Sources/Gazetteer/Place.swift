import Geo

/// A populated place from the gazetteer.
public struct Place: Hashable, Sendable {
    public var name: String
    /// State, province or other first-level region, when known.
    public var admin1: String?
    /// ISO 3166-1 alpha-2, e.g. "IT".
    public var countryCode: String
    public var coordinate: GeoPoint
    public var population: Int
    /// The capital of its country.
    public var isCapital: Bool
    /// Its place in the gazetteer, 0 the most populous: a fixed order for
    /// everything that ranks places (map labels, completions).
    public var rank: Int

    public init(name: String, admin1: String?, countryCode: String, coordinate: GeoPoint, population: Int,
                isCapital: Bool = false, rank: Int = 0) {
        self.name = name
        self.admin1 = admin1
        self.countryCode = countryCode
        self.coordinate = coordinate
        self.population = population
        self.isCapital = isCapital
        self.rank = rank
    }

    /// "Naples, Campania, IT"; "The Valley, AI" when the region is unknown.
    public var displayName: String {
        [name, admin1, countryCode].compactMap { $0 }.joined(separator: ", ")
    }
}

/// A country as the map labels it: its name at a point inside it.
public struct Country: Hashable, Sendable {
    /// ISO 3166-1 alpha-2, e.g. "IT".
    public var code: String
    /// English name, e.g. "Italy".
    public var name: String
    /// Where its name goes on the map (see docs/data-places.md).
    public var labelPoint: GeoPoint
    /// Area in square kilometres: big countries are named first.
    public var areaKm2: Int
    /// Rank of its capital in the gazetteer, if known.
    public var capitalRank: Int?

    public init(code: String, name: String, labelPoint: GeoPoint, areaKm2: Int, capitalRank: Int?) {
        self.code = code
        self.name = name
        self.labelPoint = labelPoint
        self.areaKm2 = areaKm2
        self.capitalRank = capitalRank
    }
}

/// A box of latitudes and longitudes. `west` > `east` means the box
/// crosses the antimeridian.
public struct GeoBox: Hashable, Sendable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Every longitude between these latitudes.
    public static func band(south: Double, north: Double) -> GeoBox {
        GeoBox(south: south, west: -180, north: north, east: 180)
    }

    public var crossesAntimeridian: Bool { west > east }

    public func contains(_ p: GeoPoint) -> Bool {
        guard p.latitude >= south, p.latitude <= north else { return false }
        return crossesAntimeridian ? (p.longitude >= west || p.longitude <= east)
                                   : (p.longitude >= west && p.longitude <= east)
    }
}

/// How a place or destination matches a typed name, best first. They are
/// ranked by its `tier` (whole names, starts, typos), then by weight (a place's
/// population, a destination's weight) times the kind's `share`: the go-to
/// prompt's list, its Enter and `vtourist drop PLACE` all read the same order
/// (`Gazetteer.search`).
public enum NameMatch: Int, Comparable, Sendable {
    /// Its own name, case, accents and punctuation aside: "Bogota" and "Bogotá" for both
    /// Bogotá, Colombia and Bogota, New Jersey (the bigger first), "St Louis" for St. Louis;
    /// or an alternate name that is its own cut short at a word ("New York" for New York City).
    case name
    /// Its own name, which a bigger place of its country close by also goes by: the same city
    /// listed twice ("Victoria", the old name of Hong Kong's centre, after Victoria, Canada).
    case nameOfABiggerPlace
    /// One of its alternate names: "Napoli" for Naples.
    case alternateName
    /// The start of its own name: "Bathin" for Bathinda.
    case namePrefix
    /// The start of an alternate name: "Sao Petersb" for Saint Petersburg.
    case alternatePrefix
    /// One typo (a letter inserted, left out, replaced, or two swapped) from a name or alternate
    /// name of a destination or big place, when nothing matches otherwise: "Santorni" for Santorini.
    case typo
    /// One typo from the start of such a name: "Eifel Tow" for Eiffel Tower.
    case typoPrefix

    public static func < (a: NameMatch, b: NameMatch) -> Bool { a.rawValue < b.rawValue }

    /// A name the place or destination goes by, whole (its own or an alternate), not a start or a typo:
    /// what the command line accepts for a place (`Gazetteer.lookUp`).
    public var isWholeName: Bool { tier == 0 }

    /// Whole names, then starts of own names, then starts of alternate names, then typos: a strict
    /// order (what completes a prefix stays as the prompt has always shown it). Among whole names
    /// the kind of match weighs (`share`) but importance decides.
    var tier: Int {
        switch self {
        case .name, .nameOfABiggerPlace, .alternateName: 0
        case .namePrefix: 1
        case .alternatePrefix: 2
        case .typo: 3
        case .typoPrefix: 4
        }
    }

    /// How much of its weight a match of this kind ranks with: an alternate name counts as a place a
    /// hundred times smaller, so Köln (1,024,621, "Cologne") beats Cologne, Lombardy (7,032), and
    /// Sakata (100,273) keeps its name from Jakarta, which GeoNames also lists as "Sakata".
    /// `nameLength`: a name of three letters or fewer (folded, without spaces) is mostly a code or
    /// an abbreviation when it is an alternate ("Sol" for Seoul, "Pa" for Chongqing): it counts for far less.
    func share(nameLength: Int) -> Double {
        switch self {
        case .name, .namePrefix, .typo, .typoPrefix: 1
        case .nameOfABiggerPlace, .alternateName: nameLength <= 3 ? 1e-4 : 1e-2
        case .alternatePrefix: 1  // a tier of its own
        }
    }

    /// What ranks a match of this kind within its tier (higher first).
    func rankingWeight(_ weight: Int, nameLength: Int) -> Double {
        Double(weight) * share(nameLength: nameLength)
    }
}

/// A place and how it matched the name asked for.
public struct PlaceMatch: Hashable, Sendable {
    public var place: Place
    public var match: NameMatch

    public init(place: Place, match: NameMatch) {
        self.place = place
        self.match = match
    }
}
