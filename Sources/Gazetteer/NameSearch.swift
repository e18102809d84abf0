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

/// What a place name typed on the command line means (`Gazetteer.lookUp`).
public enum NameLookup: Hashable, Sendable {
    /// The place or destination that goes by the name.
    case found(Feature)
    /// Nothing goes by that name; up to three that it may have meant (none when nothing is close).
    case unknown(suggestions: [Feature])
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
    /// Whole names first (own or alternate), then starts of names; one typo away comes last, and
    /// only when nothing else matches (`NameMatch.tier`). Within those, by weight (a place's
    /// population, a destination's weight) with the kind of match weighing in (`NameMatch.share`):
    /// an own name beats an alternate name of a place up to a hundred times bigger, so "Naples" is
    /// Naples, Campania before Naples, Florida, but "Cologne" is Köln, not Cologne, Lombardy.
    /// Case, accents and punctuation never count; spaces do not for
    /// destinations and big places ("Machupicchu"); a leading article may be
    /// left out ("the Eiffel Tower"), though a name that has it matches first
    /// ("The Hague"). "name, qualifier…" keeps what lies in a region or
    /// country starting with each qualifier, or a destination of that kind ("Bali, island", "Bali, isl");
    /// without a comma, last words that are the whole name of a region or country qualify a name
    /// that is not whole otherwise ("Oslo Norway", "Paris Texas").
    public func search(_ query: String, limit: Int) -> [FeatureMatch] {
        guard limit > 0, let q = NameQuery(query) else { return [] }
        let limit = min(limit, 1000)  // keeps the lists small whatever the caller asks
        var hits = candidates(q.name, q.qualifiers, limit: limit, typos: false)
        if hits.isEmpty, !q.qualifiers.isEmpty {
            // A name with a comma in it, or qualifiers that match nothing.
            hits = candidates(q.whole, [], limit: limit, typos: false)
        }
        if q.qualifiers.isEmpty, !hits.contains(where: { $0.match.isWholeName }) {
            let qualified = qualifiedBySpace(q.name, limit: limit)
            if !qualified.isEmpty {
                let ids = Set(qualified.map(\.identity))
                hits = Array((qualified + hits.filter { !ids.contains($0.identity) }).prefix(limit))
            }
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

    /// The first of `search`: what the go-to prompt's Enter goes to.
    public func feature(named query: String) -> Feature? {
        search(query, limit: 1).first?.feature
    }

    /// What a place name typed on the command line means (`vtourist drop PLACE`, `move PIN PLACE`),
    /// where nobody sees suggestions before Enter: the first of `search` when it goes by that
    /// whole name (`NameMatch.isWholeName`), else nothing, with up to three suggestions.
    public func lookUp(_ query: String) -> NameLookup {
        let found = search(query, limit: 6)
        if let first = found.first, first.match.isWholeName { return .found(first.feature) }
        var shown: [Feature] = []
        for hit in found where shown.count < 3 && !shown.contains(where: { $0.displayName == hit.feature.displayName }) {
            shown.append(hit.feature)
        }
        return .unknown(suggestions: shown)
    }

    /// "Oslo Norway" as "Oslo, Norway": the whole-name matches of the first words among what lies in
    /// the region or country the last words name in full, trying the longest name first.
    private func qualifiedBySpace(_ name: [UInt8], limit: Int) -> [Hit] {
        let words = name.split(separator: 0x20)
        guard words.count >= 2 else { return [] }
        for cut in stride(from: words.count - 1, through: 1, by: -1) {
            let head = Array(words[..<cut].joined(separator: [0x20]))
            let tail = Array(words[cut...].joined(separator: [0x20]))
            let found = candidates(head, [tail], whole: true, limit: limit, typos: false).filter { $0.match.isWholeName }
            if !found.isEmpty { return found }
        }
        return []
    }

    /// One candidate of a search, before it is decoded.
    private struct Hit {
        var match: NameMatch
        /// Found only with the leading article left out: after those found with it.
        var withoutArticle: Bool
        var weight: Int
        /// `weight` as the kind of match counts it (`NameMatch.rankingWeight`).
        var score: Double
        var isDestination: Bool
        /// A place's rank or a destination's index.
        var id: Int

        var identity: Int { isDestination ? -1 - id : id }

        init(match: NameMatch, withoutArticle: Bool, weight: Int, nameLength: Int, isDestination: Bool, id: Int) {
            self.match = match
            self.withoutArticle = withoutArticle
            self.weight = weight
            self.score = match.rankingWeight(weight, nameLength: nameLength)
            self.isDestination = isDestination
            self.id = id
        }

        static func precedes(_ a: Hit, _ b: Hit) -> Bool {
            (a.match.tier, a.withoutArticle ? 1 : 0, -a.score, a.match.rawValue, a.isDestination ? 1 : 0, a.id)
                < (b.match.tier, b.withoutArticle ? 1 : 0, -b.score, b.match.rawValue, b.isDestination ? 1 : 0, b.id)
        }
    }

    /// The `limit` best candidates for a folded name with and without its leading article.
    /// `whole`: the qualifiers name a region, country or kind in full (`matches(_:_:whole:_:)`).
    private func candidates(_ name: [UInt8], _ qualifiers: [[UInt8]], whole: Bool = false, limit: Int, typos: Bool) -> [Hit] {
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
                let placeFits = { (rank: Int) in qualifiers.isEmpty || self.matches(rank, qualifiers, whole: whole, r) }
                let destinationFits = { (id: Int) in
                    qualifiers.isEmpty || self.destination(destinations.all[id], fits: qualifiers, whole: whole, r)
                }
                if typos {
                    guard compact.count >= Self.typoMinimumLength else { continue }
                    compact.withUnsafeBufferPointer { query in
                        destinations.names.scan { i, key in
                            guard let match = typoMatch(query, key) else { return }
                            let id = Int(destinations.names.ids[i])
                            guard destinationFits(id) else { return }
                            add(Hit(match: match, withoutArticle: bare, weight: destinations.all[id].weight, nameLength: compact.count,
                                    isDestination: true, id: id))
                        }
                        bigPlaces.scan { i, key in
                            guard let match = typoMatch(query, key) else { return }
                            let rank = Int(bigPlaces.ids[i])
                            guard placeFits(rank) else { return }
                            add(Hit(match: match, withoutArticle: bare, weight: population(rank), nameLength: compact.count,
                                    isDestination: false, id: rank))
                        }
                    }
                    continue
                }
                for hit in ranked(text, qualifiers, whole: whole, limit: limit, r) {
                    add(Hit(match: hit.match, withoutArticle: bare, weight: population(hit.rank), nameLength: compact.count,
                            isDestination: false, id: hit.rank))
                }
                let spacedQuery = compact.count != text.count
                for (keys, isDestination) in [(destinations.names, true), (bigPlaces, false)] {
                    // A short prefix starts many names: only the best few can make the list.
                    var found: [Hit] = []
                    found.reserveCapacity(limit + 1)
                    for i in keys.range(startingWith: compact) {
                        // Where spaces play no part, `ranked` has found the place, telling a city listed twice.
                        if !isDestination && !spacedQuery && !keys.spaced[i] { continue }
                        let id = Int(keys.ids[i]), isAlias = keys.aliases[i]
                        let whole = keys.length(i) == compact.count
                        var match: NameMatch = whole ? (isAlias ? .alternateName : .name)
                                                     : (isAlias ? .alternatePrefix : .namePrefix)
                        if match == .alternateName, !isDestination, isShortForm(compact: compact, ofNameOf: id, r) { match = .name }
                        let weight = isDestination ? destinations.all[id].weight : population(id)
                        let hit = Hit(match: match, withoutArticle: bare, weight: weight, nameLength: compact.count,
                                      isDestination: isDestination, id: id)
                        if found.count == limit, let worst = found.last, !Hit.precedes(hit, worst) { continue }
                        guard isDestination ? destinationFits(id) : placeFits(id) else { continue }
                        found.insert(hit, at: found.firstIndex { Hit.precedes(hit, $0) } ?? found.count)
                        if found.count > limit { found.removeLast() }
                    }
                    found.forEach(add)
                }
            }
        }
        return Array(best.values.sorted(by: Hit.precedes).prefix(limit))
    }

    /// Does every qualifier equal the destination's country code, or start its country's name or
    /// its kind's word (with three letters at least: "in" is India, not "island")? `whole`: equal
    /// its country's name or its kind's word.
    private func destination(_ d: Destination, fits qualifiers: [[UInt8]], whole: Bool = false, _ r: ByteReader) -> Bool {
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
        if whole { return qualifiers.allSatisfy { $0 == kind || (!countryName.isEmpty && $0 == countryName) } }
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
                var keys: [CompactKeys.Entry] = []
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
                    if !key.isEmpty {
                        keys.append(.init(key: key, id: Int32(rank), isAlias: isAlias, hadSpaces: key.count != length))
                    }
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
func typoMatch(_ query: UnsafeBufferPointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> NameMatch? {
    let n = query.count
    // One edit leaves the first letter, or the second, where it was or one place off.
    guard n >= 2, key.count >= 2,
          key[0] == query[0] || key[0] == query[1] || key[1] == query[0] || key[1] == query[1] else { return nil }
    if abs(key.count - n) <= 1, oneEditApart(query, key) { return .typo }
    for length in (n - 1)...(n + 1) where length >= 1 && length < key.count {
        if oneEditApart(query, UnsafeBufferPointer(rebasing: key[0..<length])) { return .typoPrefix }
    }
    return nil
}

/// Are `a` and `b` one edit apart: a letter inserted, deleted, replaced, or two neighbours swapped?
func oneEditApart(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
    func same(_ from: Int, _ to: Int) -> Bool {
        // a[from...] equals b[to...]
        guard a.count - from == b.count - to else { return false }
        var x = from, y = to
        while x < a.count {
            if a[x] != b[y] { return false }
            x += 1
            y += 1
        }
        return true
    }
    switch a.count - b.count {
    case 0:
        guard i < a.count else { return false }  // equal
        if same(i + 1, i + 1) { return true }  // replaced
        return i + 1 < a.count && a[i] == b[i + 1] && a[i + 1] == b[i] && same(i + 2, i + 2)  // swapped
    case 1: return same(i + 1, i)  // a letter too many
    case -1: return same(i, i + 1)  // a letter missing
    default: return false
    }
}

extension Gazetteer {
    /// How far from a point destination a pin named by it may lie: a pin dropped on the map takes
    /// the cursor's point, which the go-to prompt put on the destination's but keys may have moved within its cell.
    public static let destinationPinKm = 25.0

    /// The destination called `name` (its own name or an alternate, folded, spaces aside) whose extent
    /// holds `point`, or whose point lies within `destinationPinKm` of it: the one a pin named so was dropped on.
    public func destination(named name: String, near point: GeoPoint) -> Destination? {
        let key = lookupFolder.withLock { $0.foldBytes(name) }.filter { $0 != 0x20 }
        guard !key.isEmpty else { return nil }
        let index = lazyDestinations.index
        for i in index.names.range(startingWith: key) where index.names.length(i) == key.count {
            let d = index.all[Int(index.names.ids[i])]
            if d.extent?.contains(point) == true || distanceKm(d.coordinate, point) <= Self.destinationPinKm { return d }
        }
        return nil
    }
}
