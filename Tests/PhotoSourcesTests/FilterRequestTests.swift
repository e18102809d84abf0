import Foundation
import XCTest
import Geo
import Model
import TestSupport
@testable import PhotoSources

/// An album's filter in the requests the sources send, every parameter checked, and what Commons
/// does itself with what it cannot search (docs/photo-sources.md, "Filters").
final class FilterRequestTests: XCTestCase {
    let rome = GeoPoint(latitude: 41.9, longitude: 12.5)

    func query(_ filter: AlbumFilter = .none, perPage: Int = 21, page: Int = 2, halfWidth: Double = 0.5) -> PhotoQuery {
        PhotoQuery(center: rome, halfWidthDegrees: halfWidth, perPage: perPage, page: page, filter: filter)
    }

    func taken(_ text: String) throws -> TakenRange { try TakenRange.parse(text) }

    static let flickrExtras = "extras=url_q%2Curl_n%2Curl_m%2Curl_z%2Curl_c%2Curl_l%2Curl_h%2Curl_k%2Cowner_name%2Cdate_taken%2Clicense"
    static let imageInfo = "prop=imageinfo&iiprop=url%7Csize%7Cmime%7Cextmetadata%7Cuser&iiurlwidth=320"
        + "&iiextmetadatafilter=Artist%7CLicenseShortName%7CImageDescription%7CObjectName%7CDateTimeOriginal"
        + "&iiextmetadatalanguage=en"

    // MARK: Flickr

    func testFlickrWithoutAFilterSendsTheSameRequestAsBefore() {
        XCTAssertEqual(FlickrSource.searchURL(query(), apiKey: "k"),
                       "https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key=k"
                       + "&bbox=12%2C41.4%2C13%2C42.4&min_upload_date=946684800&safe_search=1&content_type=1&media=photos"
                       + "&sort=interestingness-desc&" + Self.flickrExtras
                       + "&per_page=21&page=2&format=json&nojsoncallback=1")
    }

    func testFlickrSendsEveryFieldOfTheFilter() throws {
        let filter = AlbumFilter(text: "street food", tags: ["market", "night life"], taken: try taken("2019..2023-06"),
                                 sort: .recent)
        XCTAssertEqual(FlickrSource.searchURL(query(filter), apiKey: "k"),
                       "https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key=k"
                       + "&bbox=12%2C41.4%2C13%2C42.4&min_upload_date=946684800&safe_search=1&content_type=1&media=photos"
                       + "&text=street%20food&tags=market%2Cnight%20life&tag_mode=all"
                       + "&min_taken_date=2019-01-01%2000%3A00%3A00&max_taken_date=2023-06-30%2023%3A59%3A59"
                       + "&sort=date-taken-desc&" + Self.flickrExtras
                       + "&per_page=21&page=2&format=json&nojsoncallback=1")
    }

    func testFlickrTakenEndsAreWholeDaysBothInclusive() throws {
        func dates(_ range: String) throws -> (String?, String?) {
            let items = queryItems(FlickrSource.searchURL(query(AlbumFilter(taken: try taken(range))), apiKey: "k"))
            return (items["min_taken_date"], items["max_taken_date"])
        }
        // A year reaches its last day; a February its 29th in a leap year; one day is that day.
        XCTAssertTrue(try dates("2023") == ("2023-01-01 00:00:00", "2023-12-31 23:59:59"))
        XCTAssertTrue(try dates("2024-02..2024-02") == ("2024-02-01 00:00:00", "2024-02-29 23:59:59"))
        XCTAssertTrue(try dates("2023-02..") == ("2023-02-01 00:00:00", nil))
        XCTAssertTrue(try dates("..1999-12-31") == (nil, "1999-12-31 23:59:59"))
        // Only what is set is sent: no text, tags or tag_mode for a date-only filter.
        let items = queryItems(FlickrSource.searchURL(query(AlbumFilter(taken: try taken("2023"))), apiKey: "k"))
        XCTAssertNil(items["text"])
        XCTAssertNil(items["tags"])
        XCTAssertNil(items["tag_mode"])
        XCTAssertEqual(items["sort"], "interestingness-desc")
    }

    func testFlickrSortFollowsTheAlbum() {
        let expected: [AlbumSort: String] = [.interesting: "interestingness-desc", .recent: "date-taken-desc", .relevant: "relevance"]
        for sort in AlbumSort.allCases {
            let url = FlickrSource.searchURL(query(AlbumFilter(text: "x", sort: sort)), apiKey: "k")
            XCTAssertEqual(queryItems(url)["sort"], expected[sort], "\(sort)")
        }
    }

    func testFlickrTagsOnlyAskForAllOfThem() {
        let items = queryItems(FlickrSource.searchURL(query(AlbumFilter(tags: ["a", "b", "c"])), apiKey: "k"))
        XCTAssertEqual(items["tags"], "a,b,c")
        XCTAssertEqual(items["tag_mode"], "all")
        XCTAssertNil(items["text"])
    }

    func testTypedCharactersReachTheServicesAsTyped() {
        let filter = AlbumFilter(text: "fish & chips #1 \"best\" 100% caf\u{E9}=", tags: ["a+b", "k\u{F8}benhavn"])
        let flickr = FlickrSource.searchURL(query(filter), apiKey: "k")
        let commons = CommonsSource.searchURL(query(filter))
        for url in [flickr, commons] {
            XCTAssertFalse(url.contains(" ") || url.contains("#") || url.contains("\"") || url.contains("+"), url)
            XCTAssertEqual(url.components(separatedBy: "&").count, queryItems(url).count, "an & of the text split a parameter")
        }
        XCTAssertEqual(queryItems(flickr)["text"], "fish & chips #1 \"best\" 100% caf\u{E9}=")
        XCTAssertEqual(queryItems(flickr)["tags"], "a+b,k\u{F8}benhavn")
        XCTAssertEqual(queryItems(commons)["gsrsearch"],
                       "fish & chips #1 \"best\" 100% caf\u{E9}= a+b k\u{F8}benhavn nearcoord:56km,41.9,12.5 filetype:bitmap")
    }

    // MARK: Commons requests

    func testCommonsWithoutAFilterKeepsGeosearchAsBefore() {
        XCTAssertEqual(CommonsSource.searchURL(query()),
                       "https://commons.wikimedia.org/w/api.php?action=query&format=json&formatversion=2&maxlag=5"
                       + "&generator=geosearch&ggscoord=41.9%7C12.5&ggsradius=10000&ggsnamespace=6&ggslimit=42"
                       + "&prop=imageinfo%7Ccoordinates&iiprop=url%7Csize%7Cmime%7Cextmetadata%7Cuser&iiurlwidth=320"
                       + "&iiextmetadatafilter=Artist%7CLicenseShortName%7CImageDescription%7CObjectName%7CDateTimeOriginal"
                       + "&iiextmetadatalanguage=en&codistancefrompoint=41.9%7C12.5&colimit=max")
        // The order alone changes nothing in the request: it orders the page afterwards.
        XCTAssertEqual(CommonsSource.searchURL(query(AlbumFilter(sort: .recent))), CommonsSource.searchURL(query()))
    }

    func testCommonsTextAndTagsSearchWithCirrusSearch() {
        let filter = AlbumFilter(text: "castle", tags: ["sea", "old town"])
        XCTAssertEqual(CommonsSource.searchURL(query(filter)),
                       "https://commons.wikimedia.org/w/api.php?action=query&format=json&formatversion=2&maxlag=5"
                       + "&generator=search&gsrsearch=castle%20sea%20old%20town%20nearcoord%3A56km%2C41.9%2C12.5%20filetype%3Abitmap"
                       + "&gsrnamespace=6&gsrlimit=21&gsroffset=21&gsrinfo=totalhits&" + Self.imageInfo)
        // Tags alone search too, as words.
        let tagsOnly = queryItems(CommonsSource.searchURL(query(AlbumFilter(tags: ["fountain"]), page: 1)))
        XCTAssertEqual(tagsOnly["generator"], "search")
        XCTAssertEqual(tagsOnly["gsrsearch"], "fountain nearcoord:56km,41.9,12.5 filetype:bitmap")
        XCTAssertEqual(tagsOnly["gsroffset"], "0")
        XCTAssertNil(tagsOnly["ggscoord"])
        XCTAssertNil(tagsOnly["codistancefrompoint"])
    }

    func testCommonsPagesByOffsetAndAsksForFourTimesAsManyWhenItFiltersTheDates() throws {
        func range(_ filter: AlbumFilter, perPage: Int, page: Int) -> (String?, String?) {
            let items = queryItems(CommonsSource.searchURL(query(filter, perPage: perPage, page: page)))
            return (items["gsroffset"], items["gsrlimit"])
        }
        let text = AlbumFilter(text: "bridge")
        XCTAssertTrue(range(text, perPage: 21, page: 1) == ("0", "21"))
        XCTAssertTrue(range(text, perPage: 21, page: 3) == ("42", "21"))
        let dated = AlbumFilter(text: "bridge", taken: try taken("2019..2023"))
        XCTAssertTrue(range(dated, perPage: 21, page: 1) == ("0", "84"))
        XCTAssertTrue(range(dated, perPage: 21, page: 3) == ("168", "84"))
        XCTAssertTrue(range(dated, perPage: 60, page: 2) == ("240", "240"))
        // Geosearch with a taken range: the nearest page × 4 × perPage files.
        let geo = queryItems(CommonsSource.searchURL(query(AlbumFilter(taken: try taken("2019")), perPage: 21, page: 2)))
        XCTAssertEqual(geo["generator"], "geosearch")
        XCTAssertEqual(geo["ggslimit"], "168")
        // CirrusSearch stops at 10,000 results: the last page is cut to fit, the next is not asked.
        XCTAssertTrue(range(text, perPage: 21, page: 477) == ("9996", "4"))
        XCTAssertNil(CommonsSource.searchRange(query(text, perPage: 21, page: 478)))
    }

    func testSearchRadiusIsWholeKilometresWithinTheCap() {
        XCTAssertEqual(CommonsSource.maxSearchRadiusKilometers, 111)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: 0.1), 11)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: 0.5), 56)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: 0.55), 61)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: 1.0), 111)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: 40), 111)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: .infinity), 111)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: .nan), 111)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: 0), 1)
        XCTAssertEqual(CommonsSource.searchRadiusKilometers(halfWidthDegrees: -3), 1)
        // nearcoord reads only a whole number before its unit: never a decimal point in the request.
        for width in stride(from: 0.1, through: 1.0, by: 0.05) {
            let words = queryItems(CommonsSource.searchURL(query(AlbumFilter(text: "x"), halfWidth: width)))["gsrsearch"] ?? ""
            XCTAssertNotNil(words.range(of: #"nearcoord:[0-9]+km,41\.9,12\.5 "#, options: .regularExpression), words)
        }
    }

    /// CirrusSearch refuses a search whose words pass 300 characters (cirrussearch-query-too-long),
    /// which failed the whole album; the tags that do not fit are left out, and the editor says so.
    func testCommonsSendsNoMoreWordsThanCirrusSearchTakes() throws {
        let long = (0..<20).map { String(repeating: Character(UnicodeScalar(UInt8(97 + $0))), count: 99) + "\u{E9}" }
        let filter = try AlbumFilter(text: String(repeating: "w", count: 100), tags: long).validated(today: CalendarDay(year: 2026, month: 1, day: 1))
        let words = try XCTUnwrap(queryItems(CommonsSource.searchURL(query(filter)))["gsrsearch"]?
            .components(separatedBy: " nearcoord:").first)
        // The text and the first tag (201 characters); a second would make 302.
        XCTAssertEqual(words, String(repeating: "w", count: 100) + " " + long[0])
        XCTAssertLessThanOrEqual(words.unicodeScalars.count + 2, 300)
        XCTAssertEqual(PhotoSourceChoice.commonsSearchWords(filter).leftOut, Array(long.dropFirst()))
        XCTAssertTrue(PhotoSourceChoice.commons.filterNotes(filter)
            .contains("Commons searches at most 298 characters of words: the last 19 tags are left out."))
        // Flickr takes them all.
        XCTAssertEqual(queryItems(FlickrSource.searchURL(query(filter), apiKey: "k"))["tags"], long.joined(separator: ","))
        // Exactly at the limit it still fits; a short filter loses nothing and the notes say nothing of it.
        let exact = AlbumFilter(text: String(repeating: "x", count: 97), tags: [String(repeating: "y", count: 100), String(repeating: "z", count: 99)])
        XCTAssertEqual(exact.text!.count + 1 + 100 + 1 + 99, 298)
        XCTAssertEqual(PhotoSourceChoice.commonsSearchWords(exact).leftOut, [])
        XCTAssertFalse(PhotoSourceChoice.commons.filterNotes(AlbumFilter(tags: ["a"])).contains { $0.contains("left out") })
    }

    // MARK: Commons answers

    func testTheDocumentedSearchAnswerComesBestMatchFirst() throws {
        let dated = AlbumFilter(text: "castle sea")
        var merged = try CommonsSource.parseBatch(APISamples.data("commons-search-imageinfo.json"))
        merged.merge(try CommonsSource.parseBatch(APISamples.data("commons-search-imageinfo-continued.json")))
        let page = CommonsSource.assemble(merged, query(dated, perPage: 4, page: 1))
        // By `index`, not by the order listed (page id); the PNG is found but not kept.
        XCTAssertEqual(page.photos.map(\.sourceID), ["51234567", "60011223", "48765432"])
        XCTAssertEqual(page.photos.map(\.title), ["Castle by the sea", "Harbour at dusk", "Old town square"])
        XCTAssertEqual(page.total, 57)
        XCTAssertEqual(page.pageCount, 15)
        XCTAssertEqual(page.photos[1].height, 213)
    }

    func testPageCountComesFromTotalHitsOrTheNextOffset() throws {
        func page(_ json: String, _ q: PhotoQuery) throws -> SearchPage {
            try CommonsSource.parse(Data(json.utf8), query: q)
        }
        let text = AlbumFilter(text: "bridge")
        // totalhits beyond CirrusSearch's reach: only the pages it serves.
        let huge = try page(#"{"batchcomplete":true,"continue":{"gsroffset":21,"continue":"gsroffset||"},"query":{"searchinfo":{"totalhits":250000}}}"#,
                            query(text, perPage: 21, page: 1))
        XCTAssertEqual(huge.pageCount, 477)
        XCTAssertEqual(huge.total, 250_000)
        // No totalhits: a next offset means one more page.
        let more = try page(#"{"batchcomplete":true,"continue":{"gsroffset":42,"continue":"gsroffset||"}}"#, query(text, page: 2))
        XCTAssertEqual(more.pageCount, 3)
        let last = try page(#"{"batchcomplete":true}"#, query(text, page: 2))
        XCTAssertEqual(last.pageCount, 2)
        XCTAssertEqual(last.photos, [])
        let none = try page(String(decoding: try APISamples.data("commons-search-empty.json"), as: UTF8.self), query(text, page: 1))
        XCTAssertEqual(none.photos, [])
        XCTAssertEqual(none.total, 0)
        XCTAssertEqual(none.pageCount, 1)
    }

    /// A search answer's files, n from `first`, each taken on `dates[n]` (nil: no DateTimeOriginal).
    func searchAnswer(_ dates: [String?], first: Int = 0, totalHits: Int = 500, withInfo: (Int) -> Bool = { _ in true },
                      mime: (Int) -> String = { _ in "image/jpeg" }) -> String {
        var pages: [[String: Any]] = []
        for (i, date) in dates.enumerated() {
            let n = first + i
            var page: [String: Any] = ["pageid": 1000 + n, "ns": 6, "title": "File:P\(n).jpg", "index": n + 1]
            if withInfo(n) {
                var meta: [String: Any] = ["ObjectName": ["value": "P\(n)"]]
                if let date { meta["DateTimeOriginal"] = ["value": date] }
                page["imageinfo"] = [["url": "https://upload.example/P\(n).jpg", "thumburl": "https://upload.example/320px-P\(n).jpg",
                                      "mime": mime(n), "size": 1000, "extmetadata": meta]]
            }
            pages.append(page)
        }
        let body: [String: Any] = ["batchcomplete": true, "query": ["searchinfo": ["totalhits": totalHits], "pages": pages]]
        return String(decoding: try! JSONSerialization.data(withJSONObject: body), as: UTF8.self)
    }

    func testTheTakenRangeKeepsTheFirstDatedMatchesInOrder() throws {
        let filter = AlbumFilter(text: "x", taken: try taken("2019..2023"))
        let dates: [String?] = [
            "2018-12-31 23:59:59",                       // the day before: out
            "2019-01-01 00:00:00",                       // the first day: in
            nil,                                         // undated: left out
            "2023:12:31 18:00:00",                       // Exif's colons, the last day: in
            "<time class=\"dtstart\" datetime=\"2021-05-04\">4 May 2021</time>", // read from the attribute: in
            "4 May 2021",                                // no day it starts with: left out
            "2024-01-01",                                // after: out
            "2020-02-29",                                // in, but past perPage
        ]
        let page = try CommonsSource.parse(Data(searchAnswer(dates).utf8), query: query(filter, perPage: 3, page: 1))
        XCTAssertEqual(page.photos.map(\.sourceID), ["1001", "1003", "1004"])
        XCTAssertEqual(page.photos.map(\.dateTaken), ["2019-01-01 00:00:00", "2023:12:31 18:00:00", "4 May 2021"])
    }

    func testRecentOrdersThePageNewestFirstUndatedLast() throws {
        let dates: [String?] = [nil, "2019-05-01", "2023-01-02 10:00:00", "2019-05-01 08:00", "2021-07-07"]
        let filter = AlbumFilter(text: "x", sort: .recent)
        let page = try CommonsSource.parse(Data(searchAnswer(dates).utf8), query: query(filter, perPage: 5, page: 1))
        // Same day: the source's order stays.
        XCTAssertEqual(page.photos.map(\.sourceID), ["1002", "1004", "1001", "1003", "1000"])
        // Geosearch pages are reordered the same way, nearest files chosen first.
        let interesting = try CommonsSource.parse(Data(searchAnswer(dates).utf8), query: query(AlbumFilter(text: "x"), perPage: 5, page: 1))
        XCTAssertEqual(interesting.photos.map(\.sourceID), ["1000", "1001", "1002", "1003", "1004"])
    }

    func testGeosearchFiltersTheDatesOfItsNearestWindow() throws {
        // Page 2 of 2 per page with a taken range: the nearest 16, page 2's window is files 8..<16.
        var pages: [[String: Any]] = []
        for n in 0..<16 {
            let date = n % 2 == 0 ? "2020-06-0\(1 + n % 9)" : "2010-01-01"
            pages.append(["pageid": 2000 + n, "ns": 6, "title": "File:G\(n).jpg", "index": n,
                          "coordinates": [["lat": 0, "lon": 0, "dist": Double(n) * 10]],
                          "imageinfo": [["url": "https://upload.example/G\(n).jpg", "mime": "image/jpeg",
                                         "extmetadata": ["DateTimeOriginal": ["value": date]]]]])
        }
        let body = try JSONSerialization.data(withJSONObject: ["query": ["pages": pages]])
        let q = query(AlbumFilter(taken: try taken("2020")), perPage: 2, page: 2)
        XCTAssertEqual(CommonsSource.resultLimit(q), 16)
        let page = try CommonsSource.parse(body, query: q)
        XCTAssertEqual(page.photos.map(\.sourceID), ["2008", "2010"])
        // 16 found of 16 asked: more may lie further out.
        XCTAssertEqual(page.pageCount, 3)
    }

    // MARK: Following continue

    func testASearchStopsFollowingContinueOnceThePageIsDecided() async throws {
        // Four dated matches come first with their info; the rest have none yet.
        let dates: [String?] = (0..<8).map { _ in "2020-01-01" }
        var first = searchAnswer(dates, withInfo: { $0 < 4 })
        first = first.replacingOccurrences(of: #""batchcomplete":true"#, with: #""continue":{"iicontinue":"P4.jpg|1","continue":"||"}"#)
        let http = FakeHTTP([.body(200, first)])
        let source = CommonsSource(endpoint: "http://127.0.0.1:9/w/api.php", userAgent: testUserAgent, http: http)
        let page = try await source.search(query(AlbumFilter(text: "x", taken: try taken("2020")), perPage: 4, page: 1))
        XCTAssertEqual(page.photos.count, 4)
        XCTAssertEqual(http.requests.count, 1)

        // With an undecided page it follows, sending the key back and its own offset unchanged.
        let later = searchAnswer(dates)
        let http2 = FakeHTTP([.body(200, first), .body(200, later)])
        let source2 = CommonsSource(endpoint: "http://127.0.0.1:9/w/api.php", userAgent: testUserAgent, http: http2)
        let full = try await source2.search(query(AlbumFilter(text: "x", taken: try taken("2020")), perPage: 6, page: 1))
        XCTAssertEqual(full.photos.count, 6)
        XCTAssertEqual(http2.requests.count, 2)
        let again = queryItems(http2.requests[1].url)
        XCTAssertEqual(again["iicontinue"], "P4.jpg|1")
        XCTAssertEqual(again["gsroffset"], "0")
    }

    func testTheGeneratorsNextOffsetIsNotFollowed() async throws {
        let answer = #"{"batchcomplete":true,"continue":{"gsroffset":21,"continue":"gsroffset||"},"query":{"pages":[]}}"#
        let http = FakeHTTP([.body(200, answer)])
        let source = CommonsSource(endpoint: "http://127.0.0.1:9/w/api.php", userAgent: testUserAgent, http: http)
        let page = try await source.search(query(AlbumFilter(text: "x"), page: 1))
        XCTAssertEqual(http.requests.count, 1)
        XCTAssertEqual(page.pageCount, 2)
    }

    func testAPageBeyondCirrusSearchsReachAsksNothing() async throws {
        let http = FakeHTTP([])
        let source = CommonsSource(endpoint: "http://127.0.0.1:9/w/api.php", userAgent: testUserAgent, http: http)
        let page = try await source.search(query(AlbumFilter(text: "x"), perPage: 21, page: 478))
        XCTAssertEqual(page.photos, [])
        XCTAssertEqual(page.pageCount, 477)
        XCTAssertEqual(http.requests.count, 0)
    }

    // MARK: What the editor says is what is done

    func testCommonsNotesMatchWhatCommonsDoes() throws {
        let tags = AlbumFilter(tags: ["market"])
        XCTAssertTrue(PhotoSourceChoice.commons.filterNotes(tags).contains { $0.contains("searched as words") })
        XCTAssertTrue(queryItems(CommonsSource.searchURL(query(tags)))["gsrsearch"]?.hasPrefix("market ") ?? false)

        let dated = AlbumFilter(taken: try taken("2020"))
        XCTAssertTrue(PhotoSourceChoice.commons.filterNotes(dated).contains { $0.contains("those without one are left out") })
        XCTAssertEqual(CommonsSource.window(query(dated)), 4 * 21)

        let recentNear = AlbumFilter(sort: .recent)
        XCTAssertEqual(PhotoSourceChoice.commons.filterNotes(recentNear),
                       ["Commons orders each page by date taken, newest first; pages come nearest first."])
        XCTAssertFalse(CommonsSource.usesTextSearch(recentNear))
        XCTAssertEqual(PhotoSourceChoice.commons.filterNotes(AlbumFilter(text: "x", sort: .recent)),
                       ["Commons orders each page by date taken, newest first; pages come best match first."])
        XCTAssertEqual(PhotoSourceChoice.flickr.filterNotes(AlbumFilter(text: "x", tags: ["a"], taken: dated.taken, sort: .recent)), [])
        XCTAssertEqual(PhotoSourceChoice.commons.filterNotes(.none), [])
    }
}
