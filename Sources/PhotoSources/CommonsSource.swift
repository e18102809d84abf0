import Foundation
import Model
import Geo

/// Wikimedia Commons: files (namespace 6) geotagged near the pin, found with
/// `generator=geosearch`, with `prop=imageinfo` thumbnails (SPEC 6).
///
/// Geosearch has no offset: it returns the nearest `ggslimit` files (at most
/// 500). Page N asks for the nearest N × perPage, orders them by distance
/// (`prop=coordinates` with `codistancefrompoint`) and keeps the last perPage.
/// MediaWiki renders at most 50 thumbnails per request and says so with a
/// `continue` (`iicontinue`); the search follows it until every photo of the
/// page has its image info.
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

    /// How many nearest files page N needs (nil when the page lies beyond geosearch's reach).
    public static func resultLimit(_ query: PhotoQuery) -> Int? {
        let skip = (query.page - 1) * query.perPage
        guard skip < maxResults else { return nil }
        return min(query.page * query.perPage, maxResults)
    }

    /// The request for `query`; `continuation` is the previous answer's `continue` object.
    public static func searchURL(_ query: PhotoQuery, endpoint: String = defaultEndpoint,
                                 continuation: [String: String] = [:]) -> String {
        let coord = QueryString.number(query.center.latitude) + "|" + QueryString.number(query.center.longitude)
        var items: [(String, String)] = [
            ("action", "query"),
            ("format", "json"),
            ("formatversion", "2"),
            ("generator", "geosearch"),
            ("ggscoord", coord),
            ("ggsradius", String(radiusMeters(halfWidthDegrees: query.halfWidthDegrees))),
            ("ggsnamespace", "6"),
            ("ggslimit", String(resultLimit(query) ?? query.perPage)),
            ("prop", "imageinfo|coordinates"),
            ("iiprop", "url|size|mime|extmetadata|user"),
            ("iiurlwidth", String(gridWidth)),
            ("iiextmetadatafilter", "Artist|LicenseShortName|ImageDescription|ObjectName|DateTimeOriginal"),
            ("iiextmetadatalanguage", "en"),
            ("codistancefrompoint", coord),
            ("colimit", "max"),
        ]
        let ours = Set(items.map(\.0))
        // MediaWiki continuation: send back every key of `continue` as it came.
        for key in continuation.keys.sorted() where !ours.contains(key) && isParameterName(key) {
            if let value = continuation[key] { items.append((key, value)) }
        }
        return QueryString.url(endpoint, items)
    }

    public func search(_ query: PhotoQuery) async throws(PhotoSourceError) -> SearchPage {
        guard Self.resultLimit(query) != nil else {
            // Beyond the 500 nearest files: nothing more to show.
            return SearchPage(photos: [], page: query.page,
                              pageCount: max(Self.maxResults / query.perPage, 1), total: Self.maxResults)
        }
        var merged = Batch(entries: [:], continuation: nil)
        var continuation: [String: String] = [:]
        for _ in 0..<Self.maxRequests {
            let url = Self.searchURL(query, endpoint: endpoint, continuation: continuation)
            let body = try await fetchOK(http, url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"])
            let batch = try Self.parseBatch(body)
            merged.merge(batch)
            guard let next = batch.continuation, !next.isEmpty, next != continuation else { break }
            let wanted = Self.slice(merged, query)
            if wanted.allSatisfy({ $0.info != nil }) { break }
            continuation = next
        }
        return Self.assemble(merged, query)
    }

    /// Parses one answer as page `page` of `perPage` (the answer must hold
    /// the nearest page × perPage files, as `searchURL` asks).
    public static func parse(_ data: Data, page: Int = 1, perPage: Int) throws(PhotoSourceError) -> SearchPage {
        let query = PhotoQuery(center: GeoPoint(latitude: 0, longitude: 0), perPage: perPage, page: page)
        return assemble(try parseBatch(data), query)
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
        }
    }

    static func parseBatch(_ data: Data) throws(PhotoSourceError) -> Batch {
        let root = try Lenient.object(data)
        // The classic error object, or with `errorformat` other than bc a list of them ("text" for "info").
        if let error = (root["error"] as? [String: Any]) ?? ((root["errors"] as? [Any])?.first as? [String: Any]) {
            let code = TextCleaner.clean(Lenient.string(error["code"]) ?? "unknown", maxLength: 60)
            let info = TextCleaner.clean(Lenient.string(error["info"] ?? error["text"]) ?? "", maxLength: 200)
            throw .malformed("Commons API error \(code): \(info)")
        }
        var continuation: [String: String]? = nil
        if let raw = root["continue"] {
            guard let object = raw as? [String: Any] else { throw .malformed("\"continue\" is not an object") }
            continuation = object.reduce(into: [:]) { out, pair in
                if let value = Lenient.string(pair.value) { out[pair.key] = value }
            }
        }
        // No "query" at all is how MediaWiki says "nothing found".
        guard let queryValue = root["query"] else { return Batch(entries: [:], continuation: continuation) }
        guard let query = queryValue as? [String: Any] else { throw .malformed("\"query\" is not an object") }
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
        return Batch(entries: entries, continuation: continuation)
    }

    /// The page's share of the results: nearest first, ties by generator order, then page id.
    static func slice(_ batch: Batch, _ query: PhotoQuery) -> ArraySlice<Entry> {
        let ordered = batch.entries.values.sorted {
            ($0.distance, $0.index, $0.pageID) < ($1.distance, $1.index, $1.pageID)
        }
        let start = min((query.page - 1) * query.perPage, ordered.count)
        let end = min(start + query.perPage, ordered.count)
        return ordered[start..<end]
    }

    static func assemble(_ batch: Batch, _ query: PhotoQuery) -> SearchPage {
        let found = batch.entries.count
        let limit = resultLimit(query) ?? maxResults
        // A full answer means more files may lie further out.
        let more = found >= limit && limit < maxResults
        let reached = (found + query.perPage - 1) / query.perPage
        // Otherwise every file is known (found ≤ limit, so reached ≤ page).
        let pageCount = more ? query.page + 1 : max(reached, 1)
        let photos = slice(batch, query).compactMap(photo)
        return SearchPage(photos: photos, page: query.page, pageCount: pageCount, total: found)
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
