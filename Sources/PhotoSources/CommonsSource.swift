import Foundation
import Model
import Geo

/// Wikimedia Commons: files (namespace 6) near the pin, with `prop=imageinfo` thumbnails (SPEC 6).
///
/// The plain album (and a filter with neither text nor tags) finds files geotagged near the pin
/// with `generator=geosearch`. Geosearch has no offset: it returns the nearest `ggslimit` files
/// (at most 500). Page N asks for the nearest N × window, orders them by distance
/// (`prop=coordinates` with `codistancefrompoint`) and keeps the last window.
/// A filter with text or tags searches with CirrusSearch instead (`generator=search`, the words
/// with `nearcoord:` and `filetype:bitmap`), page N at offset (N − 1) × window, best match first.
/// The window is perPage, or `candidatesPerPhoto` × perPage when a taken range is filtered here:
/// Commons cannot search by date, so a page keeps the first perPage files of its window whose
/// DateTimeOriginal lies in the range. `recent` orders each page by date taken, newest first.
/// MediaWiki renders at most 50 thumbnails per request and says so with a `continue`
/// (`iicontinue`); the search follows it until the page's photos are known.
public struct CommonsSource: PhotoSource {
    public static let defaultEndpoint = "https://commons.wikimedia.org/w/api.php"
    /// Geosearch's largest radius, in metres.
    public static let maxRadiusMeters = 10_000
    /// Geosearch's largest `ggslimit` for ordinary clients.
    public static let maxResults = 500
    /// Thumbnails MediaWiki renders per request.
    public static let thumbnailsPerRequest = 50
    /// Width asked of the grid thumbnail.
    public static let gridWidth = 320
    /// Originals larger than this are not used as the detail image.
    public static let maxOriginalBytes = 5 << 20
    /// Requests one search may make while following `continue`.
    static let maxRequests = maxResults / thumbnailsPerRequest + 1
    /// CirrusSearch serves results only while offset + limit ≤ 10,000 (`Searcher::MAX_OFFSET_LIMIT`).
    public static let maxSearchResults = 10_000
    /// Files looked at per photo wanted when the taken range is filtered here (see `window`).
    public static let candidatesPerPhoto = 4
    /// The widest `nearcoord:` radius sent, in kilometres: the widest area's half-width × 111 km.
    /// nearcoord itself sets no upper limit (docs/photo-sources.md).
    public static let maxSearchRadiusKilometers = Int((Settings.areaHalfWidthRange.upperBound * 111).rounded())

    public let name = PhotoSourceChoice.commons.rawValue
    public let endpoint: String
    public let userAgent: String
    let http: any HTTPFetching

    public init(endpoint: String = CommonsSource.defaultEndpoint,
                userAgent: String,
                http: any HTTPFetching) {
        self.endpoint = endpoint
        self.userAgent = userAgent
        self.http = http
    }

    /// Half-width in degrees × 111 km, within geosearch's 10…10,000 m.
    public static func radiusMeters(halfWidthDegrees: Double) -> Int {
        let metres = halfWidthDegrees.isFinite ? halfWidthDegrees * 111_000 : Double(maxRadiusMeters)
        return Int(min(max(metres.rounded(), 10), Double(maxRadiusMeters)))
    }

    /// `nearcoord:`'s radius: half-width × 111 km in whole kilometres, 1…`maxSearchRadiusKilometers`.
    /// Whole, because nearcoord reads only `^(\d+)(m|km|mi|ft|yd)$` and drops a filter it cannot
    /// read, which would search all of Commons.
    public static func searchRadiusKilometers(halfWidthDegrees: Double) -> Int {
        let km = halfWidthDegrees.isFinite ? halfWidthDegrees * 111 : Double(maxSearchRadiusKilometers)
        return Int(min(max(km.rounded(), 1), Double(maxSearchRadiusKilometers)))
    }

    /// Whether `filter` is searched with CirrusSearch (it has text or tags) rather than geosearch.
    public static func usesTextSearch(_ filter: AlbumFilter) -> Bool {
        filter.text != nil || !filter.tags.isEmpty
    }

    /// The files one page is chosen from: perPage, or `candidatesPerPhoto` × perPage (within
    /// the 500 one request may list) when the taken range is filtered here.
    public static func window(_ query: PhotoQuery) -> Int {
        query.filter.taken.isOpen ? query.perPage : min(query.perPage * candidatesPerPhoto, maxResults)
    }

    /// How many nearest files page N needs from geosearch (nil when the page lies beyond its reach).
    public static func resultLimit(_ query: PhotoQuery) -> Int? {
        let window = window(query)
        let skip = (query.page - 1) * window
        guard skip < maxResults else { return nil }
        return min(query.page * window, maxResults)
    }

    /// Where page N starts in CirrusSearch's results and how many it asks for (nil beyond reach).
    public static func searchRange(_ query: PhotoQuery) -> (offset: Int, limit: Int)? {
        let window = window(query)
        let offset = (query.page - 1) * window
        guard offset < maxSearchResults else { return nil }
        return (offset, min(window, maxSearchResults - offset))
    }

    /// The pages a text search can reach: CirrusSearch stops at `maxSearchResults`.
    static func reachableSearchPages(window: Int) -> Int {
        max((maxSearchResults + window - 1) / window, 1)
    }

    /// CirrusSearch's query: the text, the tags as more words (Commons has categories, not tags)
    /// as far as CirrusSearch takes them, the circle around the pin and still images only.
    public static func searchText(_ query: PhotoQuery) -> String {
        let point = QueryString.number(query.center.latitude) + "," + QueryString.number(query.center.longitude)
        let radius = searchRadiusKilometers(halfWidthDegrees: query.halfWidthDegrees)
        let words = PhotoSourceChoice.commonsSearchWords(query.filter).words
        return "\(words) nearcoord:\(radius)km,\(point) filetype:bitmap"
    }

    /// The image information every request asks for, geosearch or text search.
    static let imageInfoParameters: [(String, String)] = [
        ("iiprop", "url|size|mime|extmetadata|user"),
        ("iiurlwidth", String(gridWidth)),
        ("iiextmetadatafilter", "Artist|LicenseShortName|ImageDescription|ObjectName|DateTimeOriginal"),
        ("iiextmetadatalanguage", "en"),
    ]

    /// Replication lag, in seconds, above which Commons is asked to refuse the request (`maxlag`),
    /// the value Wikimedia recommends: a busy Commons answers error `maxlag` and the search waits.
    public static let maxLag = 5
    /// The pause when a `maxlag` error comes without `Retry-After`: at least `maxLag` seconds, as
    /// the maxlag manual asks of clients.
    public static let maxLagPause = Double(maxLag)

    /// What every request to the API starts with.
    static let requestHead: [(String, String)] = [
        ("action", "query"), ("format", "json"), ("formatversion", "2"), ("maxlag", String(maxLag)),
    ]

    /// The request's own parameters, before any continuation.
    static func parameters(_ query: PhotoQuery) -> [(String, String)] {
        let head = requestHead
        if usesTextSearch(query.filter) {
            let range = searchRange(query) ?? (0, window(query))
            return head + [
                ("generator", "search"),
                ("gsrsearch", searchText(query)),
                ("gsrnamespace", "6"),
                ("gsrlimit", String(range.limit)),
                ("gsroffset", String(range.offset)),
                // Generators leave out searchinfo unless asked (MediaWiki T263841).
                ("gsrinfo", "totalhits"),
                ("prop", "imageinfo"),
            ] + imageInfoParameters
        }
        let coord = QueryString.number(query.center.latitude) + "|" + QueryString.number(query.center.longitude)
        return head + [
            ("generator", "geosearch"),
            ("ggscoord", coord),
            ("ggsradius", String(radiusMeters(halfWidthDegrees: query.halfWidthDegrees))),
            ("ggsnamespace", "6"),
            ("ggslimit", String(resultLimit(query) ?? query.perPage)),
            ("prop", "imageinfo|coordinates"),
        ] + imageInfoParameters + [
            ("codistancefrompoint", coord),
            ("colimit", "max"),
        ]
    }

    /// The request for `query`; `continuation` is the previous answer's `continue` object.
    public static func searchURL(_ query: PhotoQuery, endpoint: String = defaultEndpoint,
                                 continuation: [String: String] = [:]) -> String {
        var items = parameters(query)
        let ours = Set(items.map(\.0))
        // MediaWiki continuation: send back every key of `continue` as it came.
        for key in continuation.keys.sorted() where !ours.contains(key) && isParameterName(key) {
            if let value = continuation[key] { items.append((key, value)) }
        }
        return QueryString.url(endpoint, items)
    }

    public func search(_ query: PhotoQuery) async throws(PhotoSourceError) -> SearchPage {
        if let beyond = Self.beyondReach(query) { return beyond }
        let ours = Set(Self.parameters(query).map(\.0))
        var merged = Batch(entries: [:], continuation: nil)
        var continuation: [String: String] = [:]
        for _ in 0..<Self.maxRequests {
            let url = Self.searchURL(query, endpoint: endpoint, continuation: continuation)
            let batch = try await fetchBatch(url)
            merged.merge(batch)
            guard let next = batch.continuation, !next.isEmpty, next != continuation,
                  next.keys.contains(where: { !ours.contains($0) && $0 != "continue" }) else { break }
            // A continuation holding only the generator's next offset adds no image info (guard);
            // nor is any needed once every file up to the page's last photo has it.
            if Self.select(Self.candidates(merged, query), query, complete: false) != nil { break }
            continuation = next
        }
        return Self.assemble(merged, query)
    }

    /// The answer for a page no request can reach (past geosearch's 500 nearest files or
    /// CirrusSearch's 10,000 results), or nil.
    static func beyondReach(_ query: PhotoQuery) -> SearchPage? {
        let window = window(query)
        if usesTextSearch(query.filter) {
            guard searchRange(query) == nil else { return nil }
            return SearchPage(photos: [], page: query.page, pageCount: reachableSearchPages(window: window),
                              total: maxSearchResults)
        }
        guard resultLimit(query) == nil else { return nil }
        return SearchPage(photos: [], page: query.page, pageCount: max(maxResults / window, 1), total: maxResults)
    }

    /// Parses one answer as page `page` of `perPage` of the plain album (the answer must hold
    /// the nearest page × perPage files, as `searchURL` asks).
    public static func parse(_ data: Data, page: Int = 1, perPage: Int) throws(PhotoSourceError) -> SearchPage {
        try parse(data, query: PhotoQuery(center: GeoPoint(latitude: 0, longitude: 0), perPage: perPage, page: page))
    }

    /// Parses one answer to `searchURL(query)` (its continuations merged in, if any).
    public static func parse(_ data: Data, query: PhotoQuery) throws(PhotoSourceError) -> SearchPage {
        assemble(try parseBatch(data), query)
    }

    // MARK: - Parsing

    struct Entry {
        var pageID: Int
        var title: String
        var distance: Double
        var index: Int
        var info: [String: Any]?
    }

    struct Batch {
        var entries: [Int: Entry]
        var continuation: [String: String]?
        /// CirrusSearch's count of matches (`query.searchinfo.totalhits`), when it gave one.
        var totalHits: Int? = nil
        /// The offset of the next results (`continue.gsroffset`), when more are to be had.
        var nextOffset: Int? = nil

        /// Later answers add image info the earlier ones left out.
        mutating func merge(_ other: Batch) {
            for (id, entry) in other.entries {
                if var existing = entries[id] {
                    if existing.info == nil { existing.info = entry.info }
                    entries[id] = existing
                } else {
                    entries[id] = entry
                }
            }
            continuation = other.continuation
            totalHits = other.totalHits ?? totalHits
            if let next = other.nextOffset { nextOffset = max(next, nextOffset ?? next) }
        }
    }

    /// One request to the API and its answer read: a `maxlag` error (HTTP 200, or 503 from a cache
    /// in front) is `.busy` with what `Retry-After` asked; any other status but 2xx is `.http`.
    func fetchBatch(_ url: String) async throws(PhotoSourceError) -> Batch {
        let answer = try await fetchAnswer(http, url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"])
        guard answer.isSuccess else {
            if let busy = Self.maxLagError(answer.body, retryAfter: answer.retryAfter) { throw busy }
            throw .http(status: answer.status, retryAfter: answer.retryAfter)
        }
        return try Self.parseBatch(answer.body, retryAfter: answer.retryAfter)
    }

    /// The API's error object: the classic one, or with `errorformat` other than bc a list of them
    /// ("text" for "info"). Nil when the answer is not JSON or holds none.
    static func apiError(_ root: [String: Any]) -> (code: String, info: String)? {
        guard let error = (root["error"] as? [String: Any]) ?? ((root["errors"] as? [Any])?.first as? [String: Any]) else {
            return nil
        }
        let code = TextCleaner.clean(Lenient.string(error["code"]) ?? "unknown", maxLength: 60)
        let info = TextCleaner.clean(Lenient.string(error["info"] ?? error["text"]) ?? "", maxLength: 200)
        return (code, info)
    }

    /// `.busy` when `data` is the API's `maxlag` error, else nil.
    static func maxLagError(_ data: Data, retryAfter: Double?) -> PhotoSourceError? {
        guard let root = try? Lenient.object(data), let error = apiError(root), error.code == "maxlag" else { return nil }
        return .busy("Commons is lagging (\(error.info))", retryAfter: retryAfter ?? maxLagPause)
    }

    /// `retryAfter`: what the answer's `Retry-After` asked, for a `maxlag` error.
    static func parseBatch(_ data: Data, retryAfter: Double? = nil) throws(PhotoSourceError) -> Batch {
        let root = try Lenient.object(data)
        if let error = apiError(root) {
            if let busy = maxLagError(data, retryAfter: retryAfter) { throw busy }
            throw .malformed("Commons API error \(error.code): \(error.info)")
        }
        var continuation: [String: String]? = nil
        if let raw = root["continue"] {
            guard let object = raw as? [String: Any] else { throw .malformed("\"continue\" is not an object") }
            continuation = object.reduce(into: [:]) { out, pair in
                if let value = Lenient.string(pair.value) { out[pair.key] = value }
            }
        }
        let nextOffset = continuation?["gsroffset"].flatMap { Int($0) }
        // No "query" at all is how MediaWiki says "nothing found".
        guard let queryValue = root["query"] else {
            return Batch(entries: [:], continuation: continuation, nextOffset: nextOffset)
        }
        guard let query = queryValue as? [String: Any] else { throw .malformed("\"query\" is not an object") }
        let totalHits = (query["searchinfo"] as? [String: Any]).flatMap { Lenient.int($0["totalhits"]) }
        let pages: [Any]
        switch query["pages"] {
        case nil, is NSNull: pages = []
        case let array as [Any]: pages = array
        // formatversion=1 keys pages by id.
        case let object as [String: Any]: pages = Array(object.values)
        default: throw .malformed("\"query.pages\" is neither a list nor an object")
        }
        var entries: [Int: Entry] = [:]
        for value in pages {
            guard let page = value as? [String: Any], let id = Lenient.int(page["pageid"]) else { continue }
            let coordinates = page["coordinates"] as? [Any]
            let distance = (coordinates?.first as? [String: Any]).flatMap { Lenient.double($0["dist"]) }
            let info = (page["imageinfo"] as? [Any])?.first as? [String: Any]
            entries[id] = Entry(pageID: id, title: Lenient.string(page["title"]) ?? "",
                                distance: distance ?? .infinity,
                                index: Lenient.int(page["index"]) ?? Int.max,
                                info: info)
        }
        return Batch(entries: entries, continuation: continuation, totalHits: totalHits.map { max($0, 0) },
                     nextOffset: nextOffset)
    }

    /// The files page N is chosen from, in the source's order: geosearch's nearest first (ties by
    /// generator order, then page id), CirrusSearch's best match first (`index`).
    static func candidates(_ batch: Batch, _ query: PhotoQuery) -> ArraySlice<Entry> {
        let ordered = batch.entries.values.sorted {
            ($0.distance, $0.index, $0.pageID) < ($1.distance, $1.index, $1.pageID)
        }
        let window = window(query)
        // A text search's answer is the page's window already; geosearch's holds every nearer file too.
        let skip = usesTextSearch(query.filter) ? 0 : (query.page - 1) * window
        let start = min(skip, ordered.count)
        let end = min(start + window, ordered.count)
        return ordered[start..<end]
    }

    /// The page's photos from its candidates: in order, those that parse and (when a taken range
    /// is set) were taken within it, the first perPage; then, for `recent`, newest first. Nil while
    /// a candidate before the last one kept has no image info yet, unless `complete` (every answer
    /// is in: files still without info are left out).
    static func select(_ candidates: ArraySlice<Entry>, _ query: PhotoQuery, complete: Bool) -> [NewPhoto]? {
        let taken = query.filter.taken
        var kept: [(photo: NewPhoto, day: CalendarDay?)] = []
        for entry in candidates {
            guard let info = entry.info else {
                if complete { continue } else { return nil }
            }
            guard let photo = photo(entry) else { continue }
            let day = takenDay(info)
            if !taken.isOpen {
                guard let day, taken.contains(day) else { continue }
            }
            kept.append((photo, day))
            if kept.count == query.perPage { break }
        }
        if query.filter.sort == .recent {
            // Stable: same-day photos keep the source's order; undated ones go last.
            kept = kept.enumerated().sorted { a, b in
                switch (a.element.day, b.element.day) {
                case let (x?, y?) where x != y: return x > y
                case (nil, _?): return false
                case (_?, nil): return true
                default: return a.offset < b.offset
                }
            }.map(\.element)
        }
        return kept.map(\.photo)
    }

    static func assemble(_ batch: Batch, _ query: PhotoQuery) -> SearchPage {
        let photos = select(candidates(batch, query), query, complete: true) ?? []
        let found = batch.entries.count
        let window = window(query)
        if usesTextSearch(query.filter) {
            let offset = searchRange(query)?.offset ?? 0
            let more = (batch.nextOffset ?? 0) > offset
            var pageCount = batch.totalHits.map { (min($0, maxSearchResults) + window - 1) / window } ?? query.page
            if more { pageCount = max(pageCount, query.page + 1) }
            pageCount = max(min(pageCount, reachableSearchPages(window: window)), 1)
            return SearchPage(photos: photos, page: query.page, pageCount: pageCount,
                              total: batch.totalHits ?? offset + found)
        }
        let limit = resultLimit(query) ?? maxResults
        // A full answer means more files may lie further out.
        let more = found >= limit && limit < maxResults
        let reached = (found + window - 1) / window
        // Otherwise every file is known (found ≤ limit, so reached ≤ page).
        let pageCount = more ? query.page + 1 : max(reached, 1)
        return SearchPage(photos: photos, page: query.page, pageCount: pageCount, total: found)
    }

    /// The day a file was taken, from its DateTimeOriginal: a `<time datetime="…">` in the value
    /// first (as Commons' date templates write it), else the day the plain text starts with.
    static func takenDay(_ info: [String: Any]) -> CalendarDay? {
        let meta = info["extmetadata"] as? [String: Any]
        guard let raw = ((meta?["DateTimeOriginal"] as? [String: Any])?["value"]).flatMap(Lenient.string) else { return nil }
        if let attribute = raw.range(of: "datetime=\""),
           let day = CalendarDay.leading(String(raw[attribute.upperBound...].prefix(10))) {
            return day
        }
        return CalendarDay.leading(TextCleaner.plainText(fromHTML: raw, maxLength: 40))
    }

    static func photo(_ entry: Entry) -> NewPhoto? {
        guard let info = entry.info else { return nil }
        guard (Lenient.string(info["mime"]) ?? "").lowercased() == "image/jpeg" else { return nil }
        let original = Lenient.url(info["url"])
        guard let imageURL = Lenient.url(info["thumburl"]) ?? original else { return nil }
        let size = Lenient.int(info["size"])
        let responsive = (info["responsiveUrls"] as? [String: Any]).flatMap { Lenient.url($0["2"]) }
        // The original is the detail image when it is small enough to fetch quickly.
        let largeURL = (size.map { $0 > 0 && $0 <= maxOriginalBytes } ?? false ? original : nil)
            ?? responsive ?? imageURL
        let meta = info["extmetadata"] as? [String: Any]
        func field(_ name: String, _ maxLength: Int = TextCleaner.defaultMaxLength) -> String? {
            guard let value = (meta?[name] as? [String: Any])?["value"] else { return nil }
            guard let text = Lenient.string(value) else { return nil }
            let plain = TextCleaner.plainText(fromHTML: text, maxLength: maxLength)
            return plain.isEmpty ? nil : plain
        }
        let usedThumb = Lenient.url(info["thumburl"]) != nil
        return NewPhoto(
            source: PhotoSourceChoice.commons.rawValue,
            sourceID: String(entry.pageID),
            title: field("ObjectName") ?? titleFromFileName(entry.title),
            author: field("Artist") ?? TextCleaner.cleanOptional(Lenient.string(info["user"])),
            dateTaken: field("DateTimeOriginal", 40),
            url: imageURL,
            largeURL: largeURL,
            pageURL: Lenient.url(info["descriptionurl"]),
            license: field("LicenseShortName", 80),
            width: Lenient.int(info[usedThumb ? "thumbwidth" : "width"]),
            height: Lenient.int(info[usedThumb ? "thumbheight" : "height"]))
    }

    /// "File:Eiffel_Tower_at_night.jpg" reads "Eiffel Tower at night".
    static func titleFromFileName(_ title: String) -> String {
        var name = Substring(title)
        if name.hasPrefix("File:") { name = name.dropFirst(5) }
        if let dot = name.lastIndex(of: "."), name.distance(from: dot, to: name.endIndex) <= 5, dot != name.startIndex {
            name = name[..<dot]
        }
        return TextCleaner.clean(name.replacingOccurrences(of: "_", with: " "))
    }

    private static func isParameterName(_ key: String) -> Bool {
        !key.isEmpty && key.count <= 40 && key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "_" }
    }
}
