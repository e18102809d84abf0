import Foundation
import Geo
import Locking
import WorldMap

/// GeoNames places with at least 1000 inhabitants: nearest place to a point
/// and name completion for the go-to prompt.
///
/// The file is memory-mapped and read in place: loading checks the header,
/// queries decode only the records they return.
public final class Gazetteer: Sendable {
    public static let resourceName = "places.vtgaz"

    let data: Data
    let layout: PlacesLayout
    let lazyDestinations: LazyDestinations
    /// The names of the bigger places without spaces, made at the first search (see `bigPlaceNames`).
    let lazyBigPlaceNames = Locked<CompactKeys?>(nil)
    /// `prepareInBackground` has started.
    private let lazyPrepared = Locked(false)
    /// The folder of `destination(named:near:)`, kept: `pins --json` asks once for each of 10,000 pins.
    let lookupFolder = Locked(SearchFolder())

    private init(data: Data, layout: PlacesLayout, destinations: LazyDestinations) {
        self.data = data
        self.layout = layout
        self.lazyDestinations = destinations
    }

    /// The places file at `url`, and the destinations file at `destinations`
    /// (nil or a missing file: no destinations), which is read at its first use.
    public static func load(from url: URL, destinations: URL? = nil) throws -> Gazetteer {
        let data: Data
        do {
            data = try MappedFile.data(at: url)
        } catch {
            throw GazetteerError.unreadable(path: url.path, reason: error.description)
        }
        let layout = data.withUnsafeBytes { bytes in Result { () throws(PlacesLayoutError) in try PlacesLayout(bytes) } }
        let present = destinations.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
        switch layout {
        case .success(let layout): return Gazetteer(data: data, layout: layout, destinations: LazyDestinations(url: present))
        case .failure(let error): throw GazetteerError.invalidFormat(path: url.path, reason: error.reason)
        }
    }

    /// The places file at `url` with these destinations (for tests and benchmarks).
    public static func load(from url: URL, destinations: [Destination]) throws -> Gazetteer {
        let places = try load(from: url)
        return Gazetteer(data: places.data, layout: places.layout, destinations: LazyDestinations(destinations))
    }

    /// The copy shipped with the app, found by `ResourceLocator`, with the
    /// destinations file beside it.
    public static func bundled(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Gazetteer {
        guard let url = ResourceLocator.url(for: resourceName, environment: environment) else {
            throw GazetteerError.missingResource(resourceName)
        }
        return try load(from: url, destinations: url.deletingLastPathComponent().appendingPathComponent(DestinationsFile.resourceName))
    }

    // MARK: Destinations

    /// Why the destinations file could not be used, if it could not (reading it if not yet read).
    public var destinationsProblem: GazetteerError? {
        if case .failure(let error) = lazyDestinations.result { return error }
        return nil
    }

    /// Starts, on a thread of its own and once only, what the first search
    /// would otherwise wait for: reading the destinations file and indexing
    /// the big places' names (a few hundred milliseconds). A use meanwhile waits for it.
    public func prepareInBackground() {
        guard lazyPrepared.withLock({ started in
            defer { started = true }
            return !started
        }) else { return }
        Thread.detachNewThread { [self] in
            _ = lazyDestinations.result
            _ = bigPlaceNames
        }
    }

    /// Waits for what `prepareInBackground` began, if it began: a process does not end with the
    /// file half read (its buffers would be left behind, and the leak check counts them).
    public func finishPreparing() {
        guard lazyPrepared.withLock({ $0 }) else { return }
        _ = lazyDestinations.result
        _ = bigPlaceNames
    }

    /// `destinations(in:minWeight:limit:)` if the file has been read, else nil at once (and the
    /// reading starts in the background): for a frame that must not wait for it.
    public func destinationsIfReady(in box: GeoBox, minWeight: Int, limit: Int) -> [Destination]? {
        guard let index = lazyDestinations.indexIfReady else {
            prepareInBackground()
            return nil
        }
        guard limit > 0, box.south <= box.north, box.south.isFinite, box.north.isFinite,
              box.west.isFinite, box.east.isFinite else { return [] }
        return index.inside(box, minWeight: minWeight, limit: limit)
    }

    /// Every destination, heaviest first; none when the file is missing or damaged.
    public var destinations: [Destination] { lazyDestinations.index.all }

    /// Destinations whose point lies inside `box` (west > east: across the
    /// antimeridian) with a weight of at least `minWeight`, heaviest first,
    /// at most `limit` of them.
    public func destinations(in box: GeoBox, minWeight: Int, limit: Int) -> [Destination] {
        guard limit > 0, box.south <= box.north, box.south.isFinite, box.north.isFinite,
              box.west.isFinite, box.east.isFinite else { return [] }
        return lazyDestinations.index.inside(box, minWeight: minWeight, limit: limit)
    }

    /// Number of places.
    public var count: Int { layout.count }

    /// The place of a given rank (0 = most populous), if in range.
    public func place(rank: Int) -> Place? {
        guard rank >= 0, rank < layout.count else { return nil }
        return data.withUnsafeBytes { decode(rank, ByteReader($0)) }
    }

    // MARK: Nearest place

    /// The place closest to `point` along the great circle; nil when none is within `limitKm` (a
    /// bounded search stops there: a point in mid-ocean costs three small scans, not the world's).
    public func nearest(to point: GeoPoint, withinKm limitKm: Double = .infinity) -> (place: Place, distanceKm: Double)? {
        guard point.latitude.isFinite, point.longitude.isFinite, layout.count > 0 else { return nil }
        var lon = point.longitude.truncatingRemainder(dividingBy: 360)
        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        let p = GeoPoint(latitude: min(max(point.latitude, -90), 90), longitude: lon)
        return data.withUnsafeBytes { raw -> (place: Place, distanceKm: Double)? in
            let r = ByteReader(raw)
            var best: (rank: Int, km: Double)?
            var radius = min(25.0, limitKm)
            while true {
                let wholeWorld = scan(around: p, radiusKm: radius, r, best: &best)
                if let found = best, found.km <= radius || wholeWorld {
                    guard found.km <= limitKm else { return nil }
                    return decode(found.rank, r).map { ($0, found.km) }
                }
                if wholeWorld || radius >= limitKm { return nil }
                // Everything closer than the best so far lies within its distance.
                radius = min(limitKm, best.map { $0.km } ?? radius * 2)
            }
        }
    }

    private static let earthRadiusKm = 6371.0088
    private static let kmPerDegree = earthRadiusKm * .pi / 180

    /// Looks at every place in the grid cells that cover the spherical cap of
    /// `radiusKm` around `p`; returns whether those cells were the whole grid.
    private func scan(around p: GeoPoint, radiusKm: Double, _ r: ByteReader, best: inout (rank: Int, km: Double)?) -> Bool {
        let cols = PlacesLayout.gridColumns, rows = PlacesLayout.gridRows
        let margin = 0.001  // degrees, for rounding at cell edges
        let angle = min(radiusKm / Self.earthRadiusKm, .pi)
        let spanLat = angle * 180 / .pi + margin
        let latLow = p.latitude - spanLat, latHigh = p.latitude + spanLat
        var allLongitudes = latLow <= -90 || latHigh >= 90
        var spanLon = 180.0
        if !allLongitudes {
            let s = sin(angle) / cos(p.latitude * .pi / 180)
            if s >= 1 { allLongitudes = true } else { spanLon = asin(s) * 180 / .pi + margin }
        }
        let rowLow = max(0, Int((latLow + 90).rounded(.down)))
        let rowHigh = min(rows - 1, Int((latHigh + 90).rounded(.down)))
        var colLow = 0, colCount = cols
        if !allLongitudes {
            colLow = Int((p.longitude - spanLon + 180).rounded(.down))
            colCount = min(cols, Int((p.longitude + spanLon + 180).rounded(.down)) - colLow + 1)
        }
        let latRad = p.latitude * .pi / 180
        for row in rowLow...rowHigh {
            // Skip rows whose nearest latitude is already farther than the best.
            let rowSouth = Double(row - 90), rowNorth = rowSouth + 1
            let gap = max(0, rowSouth - p.latitude, p.latitude - rowNorth)
            if let b = best, gap * Self.kmPerDegree > b.km { continue }
            for k in 0..<colCount {
                let col = ((colLow + k) % cols + cols) % cols
                let cell = row * cols + col
                let start = Int(r.u32(layout.gridStarts + 4 * cell))
                let end = min(Int(r.u32(layout.gridStarts + 4 * cell + 4)), layout.gridItemCount)
                guard start < end else { continue }
                for item in start..<end {
                    let rank = Int(r.u32(layout.gridItems + 4 * item))
                    guard rank < layout.count else { continue }
                    let base = layout.records + rank * PlacesLayout.recordSize
                    let lat = Double(r.i32(base)) / 100_000
                    // Latitude difference alone is a lower bound on the distance.
                    if let b = best, abs(lat - p.latitude) * Self.kmPerDegree > b.km { continue }
                    let lon = Double(r.i32(base + 4)) / 100_000
                    let km = haversineKm(latRad, p.longitude, lat, lon)
                    if let b = best, km > b.km || (km == b.km && rank > b.rank) { continue }
                    best = (rank, km)
                }
            }
        }
        return rowLow == 0 && rowHigh == rows - 1 && colCount == cols
    }

    /// Same formula as `distanceKm`, with the query's latitude already in radians.
    @inline(__always) private func haversineKm(_ la1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let la2 = lat2 * .pi / 180
        let dLat = la2 - la1
        let dLon = (lon2 - lon1) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(la1) * cos(la2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Self.earthRadiusKm * asin(min(1, sqrt(h)))
    }

    // MARK: Countries and boxes

    /// Every country that has places, by code.
    public func countries() -> [Country] {
        data.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            return (0..<layout.countryCount).map { i in
                let c = layout.countries + i * PlacesLayout.countrySize
                let capital = r.u32(c + 10)
                return Country(
                    code: String(decoding: [r.u8(c), r.u8(c + 1)], as: UTF8.self),
                    name: string(Int(r.u32(c + 2)), r) ?? "?",
                    labelPoint: GeoPoint(latitude: Double(r.i32(c + 14)) / 100_000,
                                         longitude: Double(r.i32(c + 18)) / 100_000),
                    areaKm2: Int(r.u32(c + 22)),
                    capitalRank: capital == PlacesLayout.noRank ? nil : Int(capital))
            }
        }
    }

    /// Places inside `box` with at least `minPopulation` inhabitants, most
    /// populous first, at most `limit` of them.
    ///
    /// Ranks run in population order, so the population bound is a rank
    /// bound: a few places are read straight from the top of the table, many
    /// through the 1° grid cells under the box (each cell's ranks ascend, so
    /// a cell is left at the first rank past the bound).
    public func places(in box: GeoBox, minPopulation: Int, limit: Int) -> [Place] {
        guard limit > 0, box.south <= box.north, box.south.isFinite, box.north.isFinite,
              box.west.isFinite, box.east.isFinite else { return [] }
        return data.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            let bound = rankBound(minPopulation: minPopulation, r)
            var ranks: [Int] = []
            let cells = gridCells(box)
            if bound <= 4 * cells.count {
                for rank in 0..<bound where ranks.count < limit && box.contains(point(rank, r)) {
                    ranks.append(rank)
                }
                return ranks.compactMap { decode($0, r) }
            }
            for cell in cells {
                let start = Int(r.u32(layout.gridStarts + 4 * cell))
                let end = min(Int(r.u32(layout.gridStarts + 4 * cell + 4)), layout.gridItemCount)
                guard start < end else { continue }
                for item in start..<end {
                    let rank = Int(r.u32(layout.gridItems + 4 * item))
                    if rank >= bound { break }
                    if box.contains(point(rank, r)) { ranks.append(rank) }
                }
            }
            ranks.sort()
            return ranks.prefix(limit).compactMap { decode($0, r) }
        }
    }

    /// The number of places with at least `population` inhabitants: the rank a place of that
    /// population would have (map labels rank a destination's weight among places with it).
    public func placeCount(atLeast population: Int) -> Int {
        data.withUnsafeBytes { rankBound(minPopulation: population, ByteReader($0)) }
    }

    /// The number of places with at least `minPopulation` inhabitants (records are sorted by population).
    private func rankBound(minPopulation: Int, _ r: ByteReader) -> Int {
        var low = 0, high = layout.count
        while low < high {
            let mid = (low + high) / 2
            if Int(r.u32(layout.records + mid * PlacesLayout.recordSize + 8)) >= minPopulation {
                low = mid + 1
            } else {
                high = mid
            }
        }
        return low
    }

    private func point(_ rank: Int, _ r: ByteReader) -> GeoPoint {
        let base = layout.records + rank * PlacesLayout.recordSize
        return GeoPoint(latitude: Double(r.i32(base)) / 100_000, longitude: Double(r.i32(base + 4)) / 100_000)
    }

    /// The grid cells a box touches.
    private func gridCells(_ box: GeoBox) -> [Int] {
        let cols = PlacesLayout.gridColumns, rows = PlacesLayout.gridRows
        let rowLow = min(max(Int((box.south + 90).rounded(.down)), 0), rows - 1)
        let rowHigh = min(max(Int((box.north + 90).rounded(.down)), 0), rows - 1)
        var colRanges: [ClosedRange<Int>] = []
        func col(_ lon: Double) -> Int { min(max(Int((lon + 180).rounded(.down)), 0), cols - 1) }
        if box.crossesAntimeridian {
            colRanges = [col(box.west)...(cols - 1), 0...col(box.east)]
        } else {
            colRanges = [col(box.west)...col(box.east)]
        }
        var cells: [Int] = []
        for row in rowLow...rowHigh {
            for range in colRanges {
                for c in range { cells.append(row * cols + c) }
            }
        }
        return cells
    }

    // MARK: Names

    /// Places only (no destinations) whose name starts with `query`, best match first (see
    /// `rankedMatches`); the go-to prompt and `vtourist drop` use `search`.
    /// "paris, tex" narrows by region or country ("Paris, Texas"); alternate
    /// names such as "Napoli" also match.
    public func complete(_ query: String, limit: Int) -> [Place] {
        rankedMatches(query, limit: limit).map(\.place)
    }

    /// The first of `rankedMatches`: the place (not destination) a name means.
    public func place(named query: String) -> Place? {
        rankedMatches(query, limit: 1).first?.place
    }

    /// The places a typed name may mean, best first, destinations left out
    /// (`search` ranks both, in this order among places): by how they match
    /// (`NameMatch`), then by population. Case and accents are folded as
    /// everywhere else; "name, qualifier…" keeps the places whose region or
    /// country starts with each qualifier, and falls back to the whole text
    /// as one name when that leaves nothing.
    public func rankedMatches(_ query: String, limit: Int) -> [PlaceMatch] {
        guard limit > 0, let q = NameQuery(query) else { return [] }
        let limit = min(limit, 1000)  // keeps the top-k lists small whatever the caller asks
        return data.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            var found = ranked(q.name, q.qualifiers, limit: limit, r)
            if found.isEmpty, !q.qualifiers.isEmpty {
                // A name with a comma in it, or qualifiers that match nothing.
                found = ranked(q.whole, [], limit: limit, r)
            }
            return found.compactMap { hit in decode(hit.rank, r).map { PlaceMatch(place: $0, match: hit.match) } }
        }
    }

    /// How far apart two listings may lie and still be one city (Victoria and Hong Kong are 3 km apart).
    static let sameCityKm = 10.0

    /// The `limit` best index entries for a folded name: every entry whose key
    /// is the name, ranked by `NameMatch` then population, then those whose key
    /// starts with it (own names before alternate names, each by population).
    func ranked(_ prefix: [UInt8], _ qualifiers: [[UInt8]], whole wholeQualifiers: Bool = false, limit: Int,
                        _ r: ByteReader) -> [(rank: Int, match: NameMatch)] {
        func matches(_ rank: Int, _ qualifiers: [[UInt8]], _ r: ByteReader) -> Bool {
            self.matches(rank, qualifiers, whole: wholeQualifiers, r)
        }
        let low = partitionPoint { compareKey($0, prefix, r) >= 0 }
        let high = partitionPoint { compareKey($0, prefix, r) > 0 }
        // Entries whose key is the whole name sort first in the run.
        var exactEnd = low
        var exactNames: [Int] = [], exactAliases: [Int] = []
        while exactEnd < high, keyLength(exactEnd, r) == prefix.count {
            let (rank, isAlias) = entry(exactEnd, r)
            exactEnd += 1
            guard rank < layout.count, qualifiers.isEmpty || matches(rank, qualifiers, r) else { continue }
            if isAlias && !isShortForm(prefix, ofNameOf: rank, r) { exactAliases.append(rank) } else { exactNames.append(rank) }
        }
        var hits: [(rank: Int, match: NameMatch)] = exactNames.map { rank in
            (rank, nameMatch(rank, biggerNamesakes: exactAliases.filter { $0 < rank }, r))
        }
        let named = Set(exactNames)
        hits += exactAliases.filter { !named.contains($0) }.map { ($0, NameMatch.alternateName) }
        let nameLength = prefix.lazy.filter { $0 != 0x20 }.count
        func order(_ hit: (rank: Int, match: NameMatch)) -> (Int, Double, Int) {
            let population = Int(r.u32(layout.records + hit.rank * PlacesLayout.recordSize + 8))
            return (hit.match.tier, -hit.match.rankingWeight(population, nameLength: nameLength), hit.rank)
        }
        var seen = Set(hits.map(\.rank))
        if hits.count < limit {
            var names = TopRanks(capacity: limit)
            var aliases = TopRanks(capacity: 2 * limit)  // room for places also in `names`
            for entry in exactEnd..<high {
                let (rank, isAlias) = self.entry(entry, r)
                guard rank < layout.count, !seen.contains(rank),
                      isAlias ? aliases.wouldTake(rank) : names.wouldTake(rank) else { continue }
                if !qualifiers.isEmpty && !matches(rank, qualifiers, r) { continue }
                if isAlias { aliases.insert(rank) } else { names.insert(rank) }
            }
            for (ranks, match) in [(names.ranks, NameMatch.namePrefix), (aliases.ranks, .alternatePrefix)] {
                for rank in ranks where !seen.contains(rank) {
                    seen.insert(rank)
                    hits.append((rank, match))
                }
            }
        }
        hits.sort { order($0) < order($1) }
        return Array(hits.prefix(limit))
    }

    /// Is `name` its own name cut short at a word ("New York" for New York City), or with a word
    /// shortened as travellers write it ("St Petersburg" for Saint Petersburg): then the alternate
    /// name is the name the place goes by and matches as its own name does.
    private func isShortForm(_ name: [UInt8], ofNameOf rank: Int, _ r: ByteReader) -> Bool {
        guard let own = string(Int(r.u32(layout.records + rank * PlacesLayout.recordSize + 12)), r) else { return false }
        let folded = Array(searchFold(own).utf8)
        if folded.count > name.count && folded.starts(with: name) && folded[name.count] == 0x20 { return true }
        return abbreviated(folded) == abbreviated(name)
    }

    /// `isShortForm` for a name typed without its spaces ("Newyork").
    func isShortForm(compact name: [UInt8], ofNameOf rank: Int, _ r: ByteReader) -> Bool {
        guard let own = string(Int(r.u32(layout.records + rank * PlacesLayout.recordSize + 12)), r) else { return false }
        let folded = Array(searchFold(own).utf8)
        if abbreviated(folded).filter({ $0 != 0x20 }) == name { return true }
        var letters: [UInt8] = []
        for b in folded {
            if b == 0x20 {
                if letters == name { return true }
            } else {
                letters.append(b)
            }
        }
        return false
    }

    /// How a place whose own name folds to the query matches it: by its name,
    /// or behind other places of that name when a bigger place of its country
    /// within `sameCityKm` also goes by it, which makes it the same city listed twice.
    private func nameMatch(_ rank: Int, biggerNamesakes: [Int], _ r: ByteReader) -> NameMatch {
        let base = layout.records + rank * PlacesLayout.recordSize
        let country = r.u8(base + 18)
        let here = point(rank, r)
        let listedTwice = biggerNamesakes.contains { other in
            r.u8(layout.records + other * PlacesLayout.recordSize + 18) == country
                && distanceKm(here, point(other, r)) <= Self.sameCityKm
        }
        return listedTwice ? .nameOfABiggerPlace : .name
    }

    /// An index entry's place rank, and whether its key is an alternate name.
    func entry(_ entry: Int, _ r: ByteReader) -> (rank: Int, isAlias: Bool) {
        let value = r.u24(layout.index + entry * PlacesLayout.indexEntrySize + 3)
        return (Int(value & ~PlacesLayout.aliasFlag), value & PlacesLayout.aliasFlag != 0)
    }

    /// First index entry for which `isAtOrAfter` holds (it must be monotonic).
    private func partitionPoint(_ isAtOrAfter: (Int) -> Bool) -> Int {
        var low = 0, high = layout.indexCount
        while low < high {
            let mid = (low + high) / 2
            if isAtOrAfter(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Compares an entry's key, cut to the prefix's length, with the prefix:
    /// −1, 0 (the key starts with the prefix) or 1. ASCII capitals in keys
    /// that point at place names are lowered on the way.
    private func compareKey(_ entry: Int, _ prefix: [UInt8], _ r: ByteReader) -> Int {
        let (start, length) = keyBytes(entry, r)
        let n = min(length, prefix.count)
        for i in 0..<n {
            var b = r.u8(start + i)
            if b >= 0x41 && b <= 0x5A { b += 0x20 }
            if b != prefix[i] { return b < prefix[i] ? -1 : 1 }
        }
        return length < prefix.count ? -1 : 0
    }

    private func keyLength(_ entry: Int, _ r: ByteReader) -> Int { keyBytes(entry, r).length }

    func keyBytes(_ entry: Int, _ r: ByteReader) -> (start: Int, length: Int) {
        let offset = Int(r.u24(layout.index + entry * PlacesLayout.indexEntrySize))
        return stringBytes(offset, r) ?? (0, 0)
    }

    /// Does every qualifier start the place's region, its country's name, or equal its country code?
    /// `whole`: equal its region or its country's name (a qualifier typed without a comma, "Oslo Norway").
    func matches(_ rank: Int, _ qualifiers: [[UInt8]], whole: Bool = false, _ r: ByteReader) -> Bool {
        let base = layout.records + rank * PlacesLayout.recordSize
        let admin = r.u16(base + 16)
        let country = Int(r.u8(base + 18))
        var fields: [(start: Int, length: Int)] = []
        if admin != PlacesLayout.noAdmin1, Int(admin) < layout.admin1Count,
           let folded = stringBytes(Int(r.u32(layout.admin1 + Int(admin) * PlacesLayout.admin1Size + 4)), r) {
            fields.append(folded)
        }
        let countryBase = layout.countries + country * PlacesLayout.countrySize
        if country < layout.countryCount,
           let folded = stringBytes(Int(r.u32(countryBase + 6)), r) {
            fields.append(folded)
        }
        let code = [r.u8(countryBase) | 0x20, r.u8(countryBase + 1) | 0x20]
        return qualifiers.allSatisfy { q in
            (!whole && q == code) || fields.contains { field in
                (whole ? field.length == q.count : field.length >= q.count)
                    && q.indices.allSatisfy { r.u8(field.start + $0) == q[$0] }
            }
        }
    }

    // MARK: Decoding

    /// Start and length of the string at `offset` in the string section, if it fits there.
    func stringBytes(_ offset: Int, _ r: ByteReader) -> (start: Int, length: Int)? {
        guard offset < layout.stringsLength else { return nil }
        let length = Int(r.u8(layout.strings + offset))
        guard offset + 1 + length <= layout.stringsLength else { return nil }
        return (layout.strings + offset + 1, length)
    }

    private func string(_ offset: Int, _ r: ByteReader) -> String? {
        guard let (start, length) = stringBytes(offset, r) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: r.bytes[start..<start + length]), as: UTF8.self)
    }

    func decode(_ rank: Int, _ r: ByteReader) -> Place? {
        guard rank >= 0, rank < layout.count else { return nil }
        let base = layout.records + rank * PlacesLayout.recordSize
        let admin = r.u16(base + 16)
        let country = Int(r.u8(base + 18))
        var admin1: String?
        if admin != PlacesLayout.noAdmin1, Int(admin) < layout.admin1Count {
            admin1 = string(Int(r.u32(layout.admin1 + Int(admin) * PlacesLayout.admin1Size)), r)
        }
        var code = "??"
        if country < layout.countryCount {
            let c = layout.countries + country * PlacesLayout.countrySize
            code = String(decoding: [r.u8(c), r.u8(c + 1)], as: UTF8.self)
        }
        let point = GeoPoint(latitude: Double(r.i32(base)) / 100_000, longitude: Double(r.i32(base + 4)) / 100_000)
        return Place(name: string(Int(r.u32(base + 12)), r) ?? "?", admin1: admin1, countryCode: code,
                     coordinate: point, population: Int(r.u32(base + 8)),
                     isCapital: r.u8(base + 19) & PlacesLayout.capitalFlag != 0, rank: rank)
    }
}

/// The smallest distinct ranks seen, in order.
private struct TopRanks {
    let capacity: Int
    var ranks: [Int] = []

    init(capacity: Int) {
        self.capacity = capacity
        ranks.reserveCapacity(capacity + 1)
    }

    func wouldTake(_ rank: Int) -> Bool {
        if ranks.count == capacity, let worst = ranks.last, rank >= worst { return false }
        return !ranks.contains(rank)
    }

    mutating func insert(_ rank: Int) {
        ranks.insert(rank, at: ranks.firstIndex { $0 > rank } ?? ranks.count)
        if ranks.count > capacity { ranks.removeLast() }
    }
}

/// A go-to query split at commas: "Paris, Texas" → name "paris", qualifiers ["texas"].
struct NameQuery {
    var name: [UInt8]
    var qualifiers: [[UInt8]]
    var whole: [UInt8]

    init?(_ text: String) {
        // A destination's suggestion reads back: "Santorini — island, GR" is the name "Santorini"
        // (whole, commas and all) and the qualifiers "island", "GR".
        if text.unicodeScalars.contains("\u{2014}"), let dash = text.range(of: " \u{2014} ") {
            let named = Array(searchFold(String(text[..<dash.lowerBound])).utf8)
            guard !named.isEmpty else { return nil }
            name = named
            qualifiers = text[dash.upperBound...].split(separator: ",").map { Array(searchFold(String($0)).utf8) }.filter { !$0.isEmpty }
            whole = Array(searchFold(text).utf8)
            return
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Array(searchFold(String($0)).utf8) }
        guard let first = parts.first, !first.isEmpty else { return nil }
        name = first
        qualifiers = parts.dropFirst().filter { !$0.isEmpty }
        whole = Array(searchFold(text).utf8)
    }
}

/// Words a traveller writes short, folded: "saint petersburg" is written "st petersburg".
private let shortWords: [([UInt8], [UInt8])] = [("saint", "st"), ("sainte", "ste"), ("mount", "mt"), ("fort", "ft")]
    .map { (Array($0.utf8), Array($1.utf8)) }

/// A folded name with each of `shortWords` written short.
func abbreviated(_ folded: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(folded.count)
    for (i, word) in folded.split(separator: 0x20, omittingEmptySubsequences: false).enumerated() {
        if i > 0 { out.append(0x20) }
        out += shortWords.first { $0.0.elementsEqual(word) }?.1 ?? Array(word)
    }
    return out
}
