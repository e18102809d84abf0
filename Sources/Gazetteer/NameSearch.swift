import Geo

/// What a name finds: a populated place or a destination.
public enum Feature: Hashable, Sendable {
    case place(Place)
    case destination(Destination)

    public var name: String {
        switch self {
        case .place(let p): p.name
        case .destination(let d): d.name
        }
    }

    public var coordinate: GeoPoint {
        switch self {
        case .place(let p): p.coordinate
        case .destination(let d): d.coordinate
        }
    }

    /// What ranks it among namesakes: a place's population, a destination's weight.
    public var weight: Int {
        switch self {
        case .place(let p): p.population
        case .destination(let d): d.weight
        }
    }

    /// "Naples, Campania, IT"; "Santorini — island, GR".
    public var displayName: String {
        switch self {
        case .place(let p): p.displayName
        case .destination(let d): d.displayName
        }
    }

    /// A destination's kind; nil for a place.
    public var kind: DestinationKind? {
        if case .destination(let d) = self { return d.kind }
        return nil
    }

    /// What it covers (an island, a park, a region); nil for a point.
    public var extent: GeoBox? {
        if case .destination(let d) = self { return d.extent }
        return nil
    }
}

/// A place or destination and how it matched the name asked for.
public struct FeatureMatch: Hashable, Sendable {
    public var feature: Feature
    public var match: NameMatch

    public init(feature: Feature, match: NameMatch) {
        self.feature = feature
        self.match = match
    }
}

extension Gazetteer {
    /// Places of at least this many inhabitants are also found with their
    /// spaces left out ("Newyork") and one typo away ("Barcelnoa").
    public static let bigPlacePopulation = 15_000
    /// A typed name this long (folded, without spaces) at least is looked for one typo away.
    static let typoMinimumLength = 4

    /// The places and destinations a typed name may mean, best first: the
    /// ranking the go-to prompt's suggestions, its Enter and `vtourist drop NAME` share.
    ///
    /// By `NameMatch` (an own name beats an alternate name, which beats the
    /// start of a name; one typo away comes last, and only when nothing
    /// else matches), then by weight (a place's population, a destination's
    /// weight). Case, accents and punctuation never count; spaces do not for
    /// destinations and big places ("Machupicchu"); a leading article may be
    /// left out ("the Eiffel Tower"), though a name that has it matches first
    /// ("The Hague"). "name, qualifier…" keeps what lies in a region or
    /// country starting with each qualifier, or a destination of that kind ("Bali, island", "Bali, isl").
    public func search(_ query: String, limit: Int) -> [FeatureMatch] {
        guard limit > 0, let q = NameQuery(query) else { return [] }
        let limit = min(limit, 1000)  // keeps the lists small whatever the caller asks
        var hits = candidates(q.name, q.qualifiers, limit: limit, typos: false)
        if hits.isEmpty, !q.qualifiers.isEmpty {
            // A name with a comma in it, or qualifiers that match nothing.
            hits = candidates(q.whole, [], limit: limit, typos: false)
        }
        if hits.isEmpty {
            hits = candidates(q.name, q.qualifiers, limit: limit, typos: true)
        }
        let destinations = lazyDestinations.index.all
        return data.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            return hits.compactMap { hit -> FeatureMatch? in
                if hit.isDestination {
                    return FeatureMatch(feature: .destination(destinations[hit.id]), match: hit.match)
                }
                return decode(hit.id, r).map { FeatureMatch(feature: .place($0), match: hit.match) }
            }
        }
    }

    /// The first of `search`: what the go-to prompt's Enter and `vtourist drop NAME` go to.
    public func feature(named query: String) -> Feature? {
        search(query, limit: 1).first?.feature
    }

    /// One candidate of a search, before it is decoded.
    private struct Hit {
        var match: NameMatch
        /// Found only with the leading article left out: after those found with it.
        var withoutArticle: Bool
        var weight: Int
        var isDestination: Bool
        /// A place's rank or a destination's index.
        var id: Int

        var identity: Int { isDestination ? -1 - id : id }

        static func precedes(_ a: Hit, _ b: Hit) -> Bool {
            (a.match.rawValue, a.withoutArticle ? 1 : 0, -a.weight, a.isDestination ? 1 : 0, a.id)
                < (b.match.rawValue, b.withoutArticle ? 1 : 0, -b.weight, b.isDestination ? 1 : 0, b.id)
        }
    }

    /// The `limit` best candidates for a folded name with and without its leading article.
    private func candidates(_ name: [UInt8], _ qualifiers: [[UInt8]], limit: Int, typos: Bool) -> [Hit] {
        var variants = [(name, false)]
        if let bare = withoutArticle(name) { variants.append((bare, true)) }
        let destinations = lazyDestinations.index
        let bigPlaces = bigPlaceNames
        var best: [Int: Hit] = [:]
        func add(_ hit: Hit) {
            if let old = best[hit.identity], !Hit.precedes(hit, old) { return }
            best[hit.identity] = hit
        }
        data.withUnsafeBytes { raw in
            let r = ByteReader(raw)
            func population(_ rank: Int) -> Int { Int(r.u32(layout.records + rank * PlacesLayout.recordSize + 8)) }
            for (text, bare) in variants {
                let compact = text.filter { $0 != 0x20 }
                guard !compact.isEmpty else { continue }
                let placeFits = { (rank: Int) in qualifiers.isEmpty || self.matches(rank, qualifiers, r) }
                let destinationFits = { (id: Int) in
                    qualifiers.isEmpty || self.destination(destinations.all[id], fits: qualifiers, r)
                }
                if typos {
                    guard compact.count >= Self.typoMinimumLength else { continue }
                    for key in destinations.names.keys {
                        guard let match = typoMatch(compact, key.key), destinationFits(Int(key.id)) else { continue }
                        let id = Int(key.id)
                        add(Hit(match: match, withoutArticle: bare, weight: destinations.all[id].weight, isDestination: true, id: id))
                    }
                    for key in bigPlaces.keys {
                        guard let match = typoMatch(compact, key.key), placeFits(Int(key.id)) else { continue }
                        let rank = Int(key.id)
                        add(Hit(match: match, withoutArticle: bare, weight: population(rank), isDestination: false, id: rank))
                    }
                    continue
                }
                for hit in ranked(text, qualifiers, limit: limit, r) {
                    add(Hit(match: hit.match, withoutArticle: bare, weight: population(hit.rank), isDestination: false, id: hit.rank))
                }
                for (keys, isDestination) in [(destinations.names, true), (bigPlaces, false)] {
                    var found: [Hit] = []
                    for i in keys.range(startingWith: compact) {
                        let key = keys.keys[i]
                        let id = Int(key.id)
                        guard isDestination ? destinationFits(id) : placeFits(id) else { continue }
                        let whole = key.key.count == compact.count
                        let match: NameMatch = whole ? (key.isAlias ? .alternateName : .name)
                                                     : (key.isAlias ? .alternatePrefix : .namePrefix)
                        let weight = isDestination ? destinations.all[id].weight : population(id)
                        found.append(Hit(match: match, withoutArticle: bare, weight: weight, isDestination: isDestination, id: id))
                    }
                    // A short prefix starts many names: only the best few can make the list.
                    if found.count > limit {
                        found.sort(by: Hit.precedes)
                        found.removeLast(found.count - limit)
                    }
                    found.forEach(add)
                }
            }
        }
        return Array(best.values.sorted(by: Hit.precedes).prefix(limit))
    }

    /// Does every qualifier equal the destination's country code, or start its country's name or
    /// its kind's word (with three letters at least: "in" is India, not "island")?
    private func destination(_ d: Destination, fits qualifiers: [[UInt8]], _ r: ByteReader) -> Bool {
        let kind = Array(searchFold(d.kind.word).utf8)
        var countryName: [UInt8] = []
        if let code = d.countryCode {
            for i in 0..<layout.countryCount {
                let c = layout.countries + i * PlacesLayout.countrySize
                guard String(decoding: [r.u8(c), r.u8(c + 1)], as: UTF8.self) == code,
                      let (start, length) = stringBytes(Int(r.u32(c + 6)), r) else { continue }
                countryName = (0..<length).map { r.u8(start + $0) }
                break
            }
        }
        let code = Array((d.countryCode ?? "").lowercased().utf8)
        return qualifiers.allSatisfy { q in
            q == code || (q.count >= 3 && kind.starts(with: q)) || (!countryName.isEmpty && countryName.starts(with: q))
        }
    }

    /// The names and alternate names of places with at least
    /// `bigPlacePopulation` inhabitants, without spaces: made at the first search.
    var bigPlaceNames: CompactKeys {
        lazyBigPlaceNames.withLock { cached in
            if let cached { return cached }
            let made = data.withUnsafeBytes { raw in
                let r = ByteReader(raw)
                var low = 0, high = layout.count
                while low < high {
                    let mid = (low + high) / 2
                    if Int(r.u32(layout.records + mid * PlacesLayout.recordSize + 8)) >= Self.bigPlacePopulation {
                        low = mid + 1
                    } else {
                        high = mid
                    }
                }
                let bound = low
                var keys: [CompactKeys.Key] = []
                keys.reserveCapacity(bound * 2)
                for e in 0..<layout.indexCount {
                    let (rank, isAlias) = entry(e, r)
                    guard rank < bound else { continue }
                    let (start, length) = keyBytes(e, r)
                    var key: [UInt8] = []
                    key.reserveCapacity(length)
                    for i in 0..<length {
                        var b = r.u8(start + i)
                        if b == 0x20 { continue }
                        if b >= 0x41 && b <= 0x5A { b += 0x20 }
                        key.append(b)
                    }
                    if !key.isEmpty { keys.append(.init(key: key, id: Int32(rank), isAlias: isAlias)) }
                }
                return CompactKeys(keys)
            }
            cached = made
            return made
        }
    }
}

/// Leading articles a traveller may put before a name ("the Eiffel Tower"), folded.
private let leadingArticles: [[UInt8]] = ["the", "la", "le", "les", "el", "il", "lo", "los", "las", "der", "die", "das"]
    .map { Array($0.utf8) + [0x20] }

/// The folded name without its leading article, if it has one and more after it.
func withoutArticle(_ name: [UInt8]) -> [UInt8]? {
    for article in leadingArticles where name.count > article.count && name.starts(with: article) {
        return Array(name[article.count...])
    }
    return nil
}

/// How a key one typo away from the query matches it: `.typo` when the
/// whole key is, `.typoPrefix` when a start of it is; nil otherwise.
func typoMatch(_ query: [UInt8], _ key: [UInt8]) -> NameMatch? {
    let n = query.count
    if abs(key.count - n) <= 1, oneEditApart(query[...], key[...]) { return .typo }
    for length in [n, n + 1, n - 1] where length >= 1 && length < key.count {
        if oneEditApart(query[...], key[0..<length]) { return .typoPrefix }
    }
    return nil
}

/// Are `a` and `b` one edit apart: a letter inserted, deleted, replaced, or two neighbours swapped?
func oneEditApart(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    var i = a.startIndex, j = b.startIndex
    while i < a.endIndex, j < b.endIndex, a[i] == b[j] {
        i += 1
        j += 1
    }
    let restA = a.endIndex - i, restB = b.endIndex - j
    switch restA - restB {
    case 0:
        guard restA > 0 else { return false }  // equal
        if a[(i + 1)...].elementsEqual(b[(j + 1)...]) { return true }  // replaced
        return restA >= 2 && a[i] == b[j + 1] && a[i + 1] == b[j] && a[(i + 2)...].elementsEqual(b[(j + 2)...])
    case 1: return a[(i + 1)...].elementsEqual(b[j...])  // a letter too many
    case -1: return a[i...].elementsEqual(b[(j + 1)...])  // a letter missing
    default: return false
    }
}
