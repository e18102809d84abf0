import Foundation
import Model
import Geo

/// Flickr `flickr.photos.search` by bounding box (SPEC 6).
public struct FlickrSource: PhotoSource {
    public static let defaultEndpoint = "https://api.flickr.com/services/rest/"
    /// Flickr serves at most about this many results for one query.
    public static let maxReachableResults = 4000
    /// The `url_*` extras asked for, smallest first; only these sizes are used.
    public static let sizeExtras = ["url_q", "url_n", "url_m", "url_z", "url_c", "url_l", "url_h", "url_k"]
    /// The widest large image the photo view fetches.
    public static let maxLargeWidth = 2048
    public static let extras = sizeExtras + ["owner_name", "date_taken", "license"]
    /// Before Flickr existed: a harmless "limiting agent" so a bbox-only search
    /// isn't narrowed to the last few hours of uploads.
    static let minUploadDate = "946684800"

    public let name = PhotoSourceChoice.flickr.rawValue
    public let apiKey: String
    public let endpoint: String
    private let http: any HTTPFetching

    public init(apiKey: String, endpoint: String = FlickrSource.defaultEndpoint, http: any HTTPFetching) {
        self.apiKey = apiKey
        self.endpoint = endpoint
        self.http = http
    }

    public func search(_ query: PhotoQuery) async throws(PhotoSourceError) -> SearchPage {
        let url = Self.searchURL(query, apiKey: apiKey, endpoint: endpoint)
        let body: Data
        do {
            body = try await fetchOK(http, url: url, headers: ["Accept": "application/json"])
        } catch {
            // A transport error may quote the URL (a refused redirect, a bad endpoint): never the key in full.
            throw error.hiding(apiKey: apiKey)
        }
        return try Self.parse(body, perPage: query.perPage)
    }

    /// West, south, east, north around the centre, clamped to the globe. The
    /// centre is clamped first, so the box never collapses or turns inside out.
    public static func boundingBox(_ query: PhotoQuery) -> (minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        let w = query.halfWidthDegrees
        let lat = min(max(query.center.latitude, -90), 90)
        let lon = min(max(query.center.longitude, -180), 180)
        return (max(lon - w, -180), max(lat - w, -90), min(lon + w, 180), min(lat + w, 90))
    }

    public static func searchURL(_ query: PhotoQuery, apiKey: String, endpoint: String = defaultEndpoint) -> String {
        let box = boundingBox(query)
        let bbox = [box.minLon, box.minLat, box.maxLon, box.maxLat].map(QueryString.number).joined(separator: ",")
        return QueryString.url(endpoint, [
            ("method", "flickr.photos.search"),
            ("api_key", apiKey),
            ("bbox", bbox),
            ("min_upload_date", minUploadDate),
            ("safe_search", "1"),
            ("content_type", "1"),
            ("media", "photos"),
        ] + filterParameters(query.filter) + [
            ("sort", sortName(query.filter.sort)),
            ("extras", extras.joined(separator: ",")),
            ("per_page", String(query.perPage)),
            ("page", String(query.page)),
            ("format", "json"),
            ("nojsoncallback", "1"),
        ])
    }

    /// The filter's fields as flickr.photos.search takes them, each only when set: `text`, `tags`
    /// with `tag_mode=all`, and the taken range as MySQL datetimes, both ends inclusive (a `to` of
    /// 2023 reaches 2023-12-31 23:59:59).
    static func filterParameters(_ filter: AlbumFilter) -> [(String, String)] {
        var items: [(String, String)] = []
        if let text = filter.text { items.append(("text", text)) }
        if !filter.tags.isEmpty {
            items.append(("tags", filter.tagList))
            items.append(("tag_mode", "all"))
        }
        if let from = filter.taken.from { items.append(("min_taken_date", "\(from.firstDay) 00:00:00")) }
        if let to = filter.taken.to { items.append(("max_taken_date", "\(to.lastDay) 23:59:59")) }
        return items
    }

    /// Flickr's name for the album's order.
    static func sortName(_ sort: AlbumSort) -> String {
        switch sort {
        case .interesting: "interestingness-desc"
        case .recent: "date-taken-desc"
        case .relevant: "relevance"
        }
    }

    /// Pages a caller may ask for: Flickr's own count, capped so that
    /// page × perPage stays within the results it really serves; at least 1.
    public static func usablePages(reported: Int, perPage: Int) -> Int {
        let cap = max(maxReachableResults / max(perPage, 1), 1)
        return max(min(reported, cap), 1)
    }

    public static func parse(_ data: Data, perPage: Int) throws(PhotoSourceError) -> SearchPage {
        let root = try Lenient.object(unwrapJSONP(data))
        if let stat = root["stat"] as? String, stat != "ok" {
            let code = Lenient.int(root["code"]) ?? 0
            let message = TextCleaner.cleanOptional(root["message"] as? String) ?? "stat \(TextCleaner.clean(stat))"
            throw .flickr(code: code, message: message)
        }
        guard let photosValue = root["photos"] else {
            throw .malformed("no \"photos\" in the Flickr answer")
        }
        guard let photos = photosValue as? [String: Any] else {
            throw .malformed("\"photos\" is not an object")
        }
        let list: [Any]
        switch photos["photo"] {
        case nil, is NSNull: list = []
        case let array as [Any]: list = array
        default: throw .malformed("\"photos.photo\" is not a list")
        }
        let parsed = list.compactMap { photo($0) }
        let page = max(Lenient.int(photos["page"]) ?? 1, 1)
        let total = max(Lenient.int(photos["total"]) ?? parsed.count, 0)
        let perPageSent = max(Lenient.int(photos["perpage"]) ?? perPage, 1)
        let reportedPages = Lenient.int(photos["pages"])
            ?? (total + perPageSent - 1) / perPageSent
        return SearchPage(photos: parsed, page: page,
                          pageCount: usablePages(reported: reportedPages, perPage: perPage),
                          total: total)
    }

    /// Size suffixes in the order the grid prefers them: about 320 px first, then larger and larger.
    /// Every size the search asks for is here, so a photo offered only at 1600 or 2048 px still shows.
    static let gridOrder = ["n", "m", "q", "z", "c", "l", "b", "h", "k", "o"]
    /// Each size suffix with its longest side in pixels (Flickr's size table), largest first: what
    /// a size is taken to be when the answer has no `width_*` for it. The original's is unknown.
    static let nominalSizes: [(suffix: String, side: Int?)] = [
        ("o", nil), ("k", 2048), ("h", 1600), ("l", 1024), ("b", 1024), ("c", 800), ("z", 640), ("m", 500),
        ("n", 320), ("q", 150),
    ]

    /// The suffix of the largest size the answer has that is at most `maxLargeWidth` wide: its
    /// `width_*`, else its nominal side. Nil when it has none within that width.
    static func largestSize(_ p: [String: Any]) -> String? {
        var best: (suffix: String, width: Int)?
        for (suffix, side) in nominalSizes where Lenient.url(p["url_\(suffix)"]) != nil {
            guard let width = Lenient.int(p["width_\(suffix)"]) ?? side, width > 0, width <= maxLargeWidth else { continue }
            if best.map({ width > $0.width }) ?? true { best = (suffix, width) }
        }
        return best?.suffix
    }

    static func photo(_ value: Any) -> NewPhoto? {
        guard let p = value as? [String: Any], let rawID = Lenient.string(p["id"]) else { return nil }
        guard let grid = gridOrder.first(where: { Lenient.url(p["url_\($0)"]) != nil }),
              let imageURL = Lenient.url(p["url_\(grid)"]) else { return nil }
        let large = largestSize(p)
        let id = TextCleaner.clean(rawID, maxLength: 64)
        let owner = Lenient.string(p["owner"]).map { TextCleaner.clean($0, maxLength: 64) }
        return NewPhoto(
            source: PhotoSourceChoice.flickr.rawValue,
            sourceID: id,
            title: TextCleaner.clean(Lenient.string(p["title"]) ?? ""),
            author: TextCleaner.cleanOptional(Lenient.string(p["ownername"])),
            dateTaken: TextCleaner.cleanOptional(Lenient.string(p["datetaken"]), maxLength: 40),
            url: imageURL,
            largeURL: large.flatMap { Lenient.url(p["url_\($0)"]) } ?? imageURL,
            pageURL: owner.flatMap { pageURL(owner: $0, id: id) },
            license: Lenient.string(p["license"]).map(licenseName),
            width: Lenient.int(p["width_\(grid)"]),
            height: Lenient.int(p["height_\(grid)"]))
    }

    /// The photo's page on flickr.com: a link for the browser and for
    /// attribution, never downloaded by the app.
    static func pageURL(owner: String, id: String) -> String? {
        guard !owner.isEmpty, !id.isEmpty else { return nil }
        return "https://www.flickr.com/photos/\(QueryString.encode(owner))/\(QueryString.encode(id))"
    }

    /// Flickr's licence ids (flickr.photos.licenses.getInfo) as short names.
    static let licenses: [String: String] = [
        "0": "All Rights Reserved",
        "1": "CC BY-NC-SA 2.0", "2": "CC BY-NC 2.0", "3": "CC BY-NC-ND 2.0",
        "4": "CC BY 2.0", "5": "CC BY-SA 2.0", "6": "CC BY-ND 2.0",
        "7": "No known copyright restrictions", "8": "United States Government Work",
        "9": "CC0 1.0", "10": "Public Domain Mark 1.0",
        "11": "CC BY 4.0", "12": "CC BY-SA 4.0", "13": "CC BY-ND 4.0",
        "14": "CC BY-NC 4.0", "15": "CC BY-NC-SA 4.0", "16": "CC BY-NC-ND 4.0",
    ]

    static func licenseName(_ id: String) -> String {
        licenses[id] ?? "Flickr licence \(TextCleaner.clean(id, maxLength: 16))"
    }

    /// Accepts `jsonFlickrApi({...})` too, in case an endpoint ignores nojsoncallback.
    static func unwrapJSONP(_ data: Data) -> Data {
        let prefix = Data("jsonFlickrApi(".utf8)
        var body = data
        while let first = body.first, first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09 {
            body.removeFirst()
        }
        guard body.starts(with: prefix) else { return data }
        body.removeFirst(prefix.count)
        while let last = body.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x3B || last == 0x09 {
            body.removeLast()
        }
        guard body.last == 0x29 else { return data }
        body.removeLast()
        return body
    }
}
