import Foundation
import HTTP
import PhotoSources
import TestSupport
import Model
import Geo
import XCTest

/// The local stand-in server answers in the shape the services document: every field the
/// parsers read is where the documentation samples (Tests/Fixtures/api-samples) have it, with
/// a JSON type the parser accepts, in both. So neither the stand-in nor a sample can drift
/// from what the parsers rely on without a test saying so.
final class StandInShapeTests: XCTestCase {
    /// What a field may be; numbers and strings mix freely in these APIs, and the parsers allow it.
    enum Kind: String { case string, number, bool, object, array, null }
    static let text: Set<Kind> = [.string]
    static let count: Set<Kind> = [.number, .string]

    /// The kinds found at `path` ("*": every element of a list or value of an object).
    static func kinds(_ value: Any, _ path: ArraySlice<String>) -> Set<Kind> {
        guard let key = path.first else { return [kind(value)] }
        let rest = path.dropFirst()
        if key == "*" {
            let children = (value as? [Any]) ?? (value as? [String: Any]).map { Array($0.values) } ?? []
            return children.reduce(into: []) { $0.formUnion(kinds($1, rest)) }
        }
        guard let child = (value as? [String: Any])?[key] else { return [] }
        return kinds(child, rest)
    }

    static func kind(_ value: Any) -> Kind {
        switch value {
        case is NSNull: return .null
        // JSON true and false come as NSNumbers made from a Bool, whose type code is "c".
        case let n as NSNumber: return String(cString: n.objCType) == "c" ? .bool : .number
        case is String: return .string
        case is [Any]: return .array
        default: return .object
        }
    }

    /// Checks every (path, allowed kinds) in both answers.
    func assertSameShape(_ fields: [(String, Set<Kind>)], sample: String, standIn: Data,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let documented = try JSONSerialization.jsonObject(with: APISamples.data(sample))
        let served = try JSONSerialization.jsonObject(with: standIn)
        for (path, allowed) in fields {
            let steps = ArraySlice(path.split(separator: ".").map(String.init))
            for (who, value) in [(sample, documented), ("the stand-in", served)] {
                let found = Self.kinds(value, steps)
                XCTAssertFalse(found.isEmpty, "\(who) has no \(path)", file: file, line: line)
                XCTAssertTrue(found.isSubset(of: allowed), "\(who): \(path) is \(found.map(\.rawValue).sorted())",
                              file: file, line: line)
            }
        }
    }

    func fetch(_ url: String) async throws -> Data {
        let client = HTTPClient(userAgent: "vtourist-tests")
        defer { client.shutdown() }
        let response = try await client.fetch(HTTPRequest(url: url))
        XCTAssertEqual(response.status, 200, url)
        return response.body
    }

    let naples = PhotoQuery(center: GeoPoint(latitude: 40.85, longitude: 14.27), perPage: 21)

    func testFlickrSearchAnswers() async throws {
        let server = try PhotoServer()
        let standIn = try await fetch(FlickrSource.searchURL(naples, apiKey: "good-key", endpoint: server.flickrEndpoint))
        let photo = "photos.photo.*."
        try assertSameShape([
            ("stat", Self.text), ("photos", [.object]), ("photos.page", Self.count), ("photos.pages", Self.count),
            ("photos.perpage", Self.count), ("photos.total", Self.count), ("photos.photo", [.array]),
            (photo + "id", Self.count), (photo + "owner", Self.text), (photo + "title", Self.text),
            (photo + "ownername", Self.text), (photo + "datetaken", Self.text), (photo + "license", Self.count),
            (photo + "url_q", Self.text), (photo + "width_q", Self.count), (photo + "height_q", Self.count),
            (photo + "url_z", Self.text), (photo + "width_z", Self.count), (photo + "height_z", Self.count),
        ], sample: "flickr-search-extras.json", standIn: standIn)
    }

    func testFlickrFailures() async throws {
        let server = try PhotoServer()
        let standIn = try await fetch(FlickrSource.searchURL(naples, apiKey: "bad-key", endpoint: server.flickrEndpoint))
        try assertSameShape([("stat", Self.text), ("code", Self.count), ("message", Self.text)],
                            sample: "flickr-fail-invalid-key.json", standIn: standIn)
    }

    func testCommonsGeosearchAnswers() async throws {
        let server = try PhotoServer()
        // Page 3 of 21 asks for the nearest 63 files: more than one answer's thumbnails, so a `continue` comes too.
        var query = naples
        query.page = 3
        let standIn = try await fetch(CommonsSource.searchURL(query, endpoint: server.commonsEndpoint))
        let page = "query.pages.*.", info = "query.pages.*.imageinfo.*."
        try assertSameShape([
            ("continue", [.object]), ("continue.*", Self.text), ("query", [.object]),
            // A list with formatversion=2, which we ask for; the parser also reads the older object form.
            ("query.pages", [.array, .object]),
            (page + "pageid", Self.count), (page + "title", Self.text), (page + "index", Self.count),
            (page + "coordinates", [.array]), (page + "coordinates.*.dist", Self.count), (page + "imageinfo", [.array]),
            (info + "url", Self.text), (info + "thumburl", Self.text), (info + "thumbwidth", Self.count),
            (info + "thumbheight", Self.count), (info + "size", Self.count), (info + "mime", Self.text),
            (info + "user", Self.text), (info + "descriptionurl", Self.text), (info + "extmetadata", [.object]),
            (info + "extmetadata.Artist.value", Self.text), (info + "extmetadata.LicenseShortName.value", Self.text),
            (info + "extmetadata.ObjectName.value", Self.text),
        ], sample: "commons-geosearch-imageinfo.json", standIn: standIn)
        // Asked with formatversion=2, the stand-in lists the pages, as the service does.
        let json = try JSONSerialization.jsonObject(with: standIn) as? [String: Any]
        let pages = (json?["query"] as? [String: Any])?["pages"]
        XCTAssertTrue(pages is [Any], "pages: \(String(describing: pages))")
    }

    func testCommonsTextSearchAnswers() async throws {
        let server = try PhotoServer()
        // 60 results: more than one answer's thumbnails, so the first answer continues with `iicontinue`.
        var query = naples
        query.perPage = 15
        query.filter = AlbumFilter(text: "castle", taken: try TakenRange.parse("2019"))
        let first = try await fetch(CommonsSource.searchURL(query, endpoint: server.commonsEndpoint))
        let page = "query.pages.*.", info = "query.pages.*.imageinfo.*."
        try assertSameShape([
            ("continue", [.object]), ("continue.iicontinue", Self.text), ("continue.continue", Self.text),
            ("query", [.object]), ("query.searchinfo.totalhits", Self.count), ("query.pages", [.array]),
            (page + "pageid", Self.count), (page + "title", Self.text), (page + "index", Self.count),
            (page + "imageinfo", [.array]), (info + "url", Self.text), (info + "thumburl", Self.text),
            (info + "thumbwidth", Self.count), (info + "thumbheight", Self.count), (info + "size", Self.count),
            (info + "mime", Self.text), (info + "user", Self.text), (info + "descriptionurl", Self.text),
            (info + "extmetadata.ObjectName.value", Self.text), (info + "extmetadata.DateTimeOriginal.value", Self.text),
        ], sample: "commons-search-imageinfo.json", standIn: first)
        // The last part: `batchcomplete` and the generator's next offset.
        let last = try await fetch(CommonsSource.searchURL(query, endpoint: server.commonsEndpoint,
                                                           continuation: ["iicontinue": "50", "continue": "||"]))
        try assertSameShape([("batchcomplete", [.bool]), ("continue.gsroffset", Self.count), ("continue.continue", Self.text),
                             ("query.searchinfo.totalhits", Self.count)],
                            sample: "commons-search-imageinfo-continued.json", standIn: last)
        try assertSameShape([("batchcomplete", [.bool]), ("query.searchinfo.totalhits", Self.count)],
                            sample: "commons-search-empty.json",
                            standIn: try await fetch(CommonsSource.searchURL(PhotoQuery(center: naples.center,
                                filter: AlbumFilter(text: "nomatch")), endpoint: server.commonsEndpoint)))
    }

    /// The walker itself: a missing field or a wrong kind is seen.
    func testShapesThatDifferAreSeen() throws {
        let value = try JSONSerialization.jsonObject(with: Data(#"{"a":[{"b":"1"},{"b":2},{"c":true}]}"#.utf8))
        XCTAssertEqual(Self.kinds(value, ["a", "*", "b"]), [.string, .number])
        XCTAssertEqual(Self.kinds(value, ["a", "*", "c"]), [.bool])
        XCTAssertEqual(Self.kinds(value, ["a", "*", "d"]), [])
        XCTAssertEqual(Self.kinds(value, ["a"]), [.array])
    }
}
