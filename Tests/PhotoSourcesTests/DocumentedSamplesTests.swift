import Foundation
import Model
import TestSupport
import Geo
import XCTest

@testable import PhotoSources

/// The parsers against response samples from Flickr's and MediaWiki's own documentation
/// (Tests/Fixtures/api-samples; its README says where each comes from).
final class DocumentedSamplesTests: XCTestCase {
    private func parsed(_ name: String, _ parse: (Data) throws(PhotoSourceError) -> SearchPage) throws -> Result<SearchPage, PhotoSourceError> {
        let data = try APISamples.data(name)
        do throws(PhotoSourceError) {
            return .success(try parse(data))
        } catch {
            return .failure(error)
        }
    }

    private func flickr(_ name: String, perPage: Int = 10) throws -> Result<SearchPage, PhotoSourceError> {
        try parsed(name) { data throws(PhotoSourceError) in try FlickrSource.parse(data, perPage: perPage) }
    }

    private func commons(_ name: String, perPage: Int = 10) throws -> Result<SearchPage, PhotoSourceError> {
        try parsed(name) { data throws(PhotoSourceError) in try CommonsSource.parse(data, perPage: perPage) }
    }

    // MARK: - Flickr

    /// The documented example has no `url_*` extras: its paging is read, its photos (nothing to show) are not.
    func testFlickrDocumentedSearchWithoutExtras() throws {
        let page = try flickr("flickr-search-documented.json").get()
        XCTAssertEqual(page.page, 2)
        XCTAssertEqual(page.total, 881)
        XCTAssertEqual(page.pageCount, 89)
        XCTAssertEqual(page.photos, [])
        XCTAssertEqual(try flickr("flickr-search-documented.jsonp").get(), page, "the JSONP form reads the same")
    }

    func testFlickrDocumentedSearchWithTheExtrasWeAskFor() throws {
        let page = try flickr("flickr-search-extras.json").get()
        XCTAssertEqual(page.page, 2)
        XCTAssertEqual(page.total, 881)
        XCTAssertEqual(page.pageCount, 89)
        XCTAssertEqual(page.photos.map(\.sourceID), ["2636", "2635", "2633", "2610"])
        XCTAssertEqual(page.photos.map(\.title), ["test_04", "test_03", "test_01", "00_tall"])
        XCTAssertEqual(page.photos.map(\.author), ["Bees", "Bees", "Bees", "Cal Henderson"])
        XCTAssertEqual(page.photos.map(\.license), ["CC BY 2.0", "All Rights Reserved", "CC0 1.0", "CC BY-SA 2.0"])
        XCTAssertTrue(page.photos.allSatisfy { $0.source == "flickr" && $0.dateTaken == "2004-11-19 12:51:19" })
        let base = "https://live.staticflickr.com/2/"
        // The grid takes the 320 size when there is one, the detail view 1024, else the next one down.
        XCTAssertEqual(page.photos.map(\.url), [base + "2636_a123456_n.jpg", base + "2635_b123456_n.jpg",
                                                base + "2633_c123456_q.jpg", base + "2610_d123456_n.jpg"])
        XCTAssertEqual(page.photos.map(\.largeURL), [base + "2636_a123456_b.jpg", base + "2635_b123456_z.jpg",
                                                     base + "2633_c123456_q.jpg", base + "2610_d123456_b.jpg"])
        XCTAssertEqual(page.photos.map(\.width), [320, 320, 150, 240])
        XCTAssertEqual(page.photos.map(\.height), [240, 240, 150, 320])
        XCTAssertEqual(page.photos[3].pageURL, "https://www.flickr.com/photos/12037949754%40N01/2610")
    }

    func testFlickrDocumentedFailures() throws {
        XCTAssertEqual(try flickr("flickr-fail-documented.jsonp"), .failure(.flickr(code: 97, message: "Missing signature")))
        let invalidKey = try flickr("flickr-fail-invalid-key.json")
        XCTAssertEqual(invalidKey, .failure(.flickr(code: 100, message: "Invalid API Key (Key has invalid format)")))
        guard case let .failure(error) = invalidKey else { return XCTFail("no error") }
        XCTAssertTrue(error.description.contains("API key"), error.description)
        let unavailable = try flickr("flickr-fail-unavailable.json")
        XCTAssertEqual(unavailable, .failure(.flickr(code: 105, message: "Service currently unavailable (Site Disabled)")))
        XCTAssertTrue(PhotoSourceError.flickrUnavailableCodes.contains(105))
    }

    // MARK: - MediaWiki

    /// formatversion 1 keys pages by id: read all the same (a page without image info shows nothing).
    func testCommonsDocumentedGeosearchInTheFirstJSONVersion() throws {
        let batch = try CommonsSource.parseBatch(APISamples.data("commons-geosearch-documented-v1.json"))
        XCTAssertEqual(batch.entries.keys.sorted(), [18618509])
        XCTAssertEqual(batch.entries[18618509]?.title, "Wikimedia Foundation")
        XCTAssertNil(batch.continuation)
        let page = try commons("commons-geosearch-documented-v1.json").get()
        XCTAssertEqual(page.total, 1)
        XCTAssertEqual(page.pageCount, 1)
        XCTAssertEqual(page.photos, [])
    }

    func testCommonsGeosearchWithImageInfoAndContinue() throws {
        let batch = try CommonsSource.parseBatch(APISamples.data("commons-geosearch-imageinfo.json"))
        XCTAssertEqual(batch.continuation, ["iicontinue": "Harbour_at_dusk.jpg|20190613094512", "continue": "||coordinates"])
        XCTAssertEqual(batch.entries.count, 3)
        XCTAssertEqual(batch.entries[60011223]?.distance, 1655.1)

        // Nearest first; the file whose image info is still to come is left out.
        let page = try commons("commons-geosearch-imageinfo.json", perPage: 3).get()
        XCTAssertEqual(page.total, 3)
        XCTAssertEqual(page.photos.map(\.sourceID), ["48765432", "51234567"])
        let old = page.photos[0], castle = page.photos[1]
        XCTAssertEqual(castle.source, "commons")
        XCTAssertEqual(castle.title, "Castle by the sea")
        XCTAssertEqual(castle.author, "Example uploader")
        XCTAssertEqual(castle.license, "CC BY-SA 4.0")
        XCTAssertEqual(castle.dateTaken, "2016-06-08 12:31:05")
        XCTAssertEqual(castle.url, "https://upload.wikimedia.org/wikipedia/commons/thumb/a/ab/Castle_by_the_sea.jpg/320px-Castle_by_the_sea.jpg")
        XCTAssertEqual(castle.largeURL, "https://upload.wikimedia.org/wikipedia/commons/a/ab/Castle_by_the_sea.jpg")
        XCTAssertEqual(castle.pageURL, "https://commons.wikimedia.org/wiki/File:Castle_by_the_sea.jpg")
        XCTAssertEqual(castle.width, 320)
        XCTAssertEqual(castle.height, 240)
        // No ObjectName or Artist: the file name and the uploader stand in.
        XCTAssertEqual(old.title, "Old town square")
        XCTAssertEqual(old.author, "Another uploader")
        XCTAssertEqual(old.license, "Public domain")
    }

    /// The search follows `continue` until every photo of the page has its image info.
    func testCommonsSearchFollowsTheDocumentedContinuation() async throws {
        let first = String(decoding: try APISamples.data("commons-geosearch-imageinfo.json"), as: UTF8.self)
        let second = String(decoding: try APISamples.data("commons-geosearch-imageinfo-continued.json"), as: UTF8.self)
        let http = FakeHTTP([.body(200, first), .body(200, second)])
        let source = CommonsSource(endpoint: "http://127.0.0.1:8123/w/api.php", userAgent: testUserAgent, http: http)
        let page = try await source.search(PhotoQuery(center: GeoPoint(latitude: 40.85, longitude: 14.26), perPage: 3))
        XCTAssertEqual(page.photos.map(\.sourceID), ["48765432", "60011223", "51234567"])
        XCTAssertEqual(page.photos[1].title, "Harbour at dusk")
        XCTAssertEqual(page.photos[1].height, 213)
        XCTAssertEqual(http.requests.count, 2)
        let again = queryItems(http.requests[1].url)
        XCTAssertEqual(again["iicontinue"], "Harbour_at_dusk.jpg|20190613094512")
        XCTAssertEqual(again["continue"], "||coordinates")
        XCTAssertNil(queryItems(http.requests[0].url)["iicontinue"])
    }

    /// A text search follows the documented `continue` (image info by file name) and stops at
    /// `batchcomplete`, whose generator offset it does not follow.
    func testCommonsTextSearchFollowsTheDocumentedContinuation() async throws {
        let first = String(decoding: try APISamples.data("commons-search-imageinfo.json"), as: UTF8.self)
        let second = String(decoding: try APISamples.data("commons-search-imageinfo-continued.json"), as: UTF8.self)
        let http = FakeHTTP([.body(200, first), .body(200, second)])
        let source = CommonsSource(endpoint: "http://127.0.0.1:8123/w/api.php", userAgent: testUserAgent, http: http)
        let query = PhotoQuery(center: GeoPoint(latitude: 40.85, longitude: 14.26), perPage: 4,
                               filter: AlbumFilter(text: "castle sea"))
        let page = try await source.search(query)
        XCTAssertEqual(page.photos.map(\.sourceID), ["51234567", "60011223", "48765432"])
        XCTAssertEqual(page.photos.map(\.dateTaken), ["2016-06-08 12:31:05", "2021:09:14 19:02:11", nil])
        XCTAssertEqual(page.total, 57)
        XCTAssertEqual(http.requests.count, 2)
        let again = queryItems(http.requests[1].url)
        XCTAssertEqual(again["iicontinue"], "Harbour_at_dusk.jpg|20210914190211")
        XCTAssertEqual(again["continue"], "||")
        XCTAssertEqual(again["gsroffset"], "0")
        XCTAssertEqual(again["gsrsearch"], "castle sea nearcoord:56km,40.85,14.26 filetype:bitmap")
        // Nothing found: the documented empty answer is an empty page, not an error.
        let none = CommonsSource(endpoint: "http://127.0.0.1:8123/w/api.php", userAgent: testUserAgent,
                                 http: FakeHTTP([.body(200, String(decoding: try APISamples.data("commons-search-empty.json"), as: UTF8.self))]))
        let empty = try await none.search(query)
        XCTAssertEqual(empty.photos, [])
        XCTAssertEqual(empty.pageCount, 1)
    }

    func testCommonsDocumentedErrorsInBothFormats() throws {
        for (name, code) in [("commons-error-bc.json", "unknown_action"), ("commons-errors-plaintext.json", "badvalue")] {
            guard case let .failure(.malformed(why)) = try commons(name) else { return XCTFail(name) }
            XCTAssertTrue(why.contains("Commons API error \(code)"), why)
            XCTAssertTrue(why.contains("Unrecognized value for parameter \"action\": blah."), why)
        }
    }

    /// The documented maxlag error is no unreadable answer: Commons is busy, for what Retry-After
    /// asked, else for the lag the request allowed.
    func testCommonsDocumentedMaxlagIsBusy() throws {
        let data = try APISamples.data("commons-error-maxlag.json")
        let busy = PhotoSourceError.busy("Commons is lagging (Waiting for 10.64.48.35: 6.2 seconds lagged)", retryAfter: 5)
        XCTAssertEqual(try commons("commons-error-maxlag.json"), .failure(busy))
        XCTAssertEqual(CommonsSource.maxLagError(data, retryAfter: 12),
                       .busy("Commons is lagging (Waiting for 10.64.48.35: 6.2 seconds lagged)", retryAfter: 12))
        XCTAssertNil(CommonsSource.maxLagError(try APISamples.data("commons-error-bc.json"), retryAfter: 12))
    }
}
