import Foundation
import HTTP
@testable import AlbumService
import PhotoSources
import TestSupport
import Model
import Geo
import XCTest

/// A filtered search through the real sources and libcurl against the stand-in server: what is
/// asked (its request log), what comes back, and the `nomatch` word the end-to-end tests use.
final class FilteredSearchTests: XCTestCase {
    let naples = GeoPoint(latitude: 40.85, longitude: 14.27)

    func search(_ source: any PhotoSource, _ query: PhotoQuery) async throws -> SearchPage {
        do throws(PhotoSourceError) {
            return try await source.search(query)
        } catch {
            XCTFail("search failed: \(error)")
            throw error
        }
    }

    func testFlickrSendsTheFilterAndNomatchFindsNothing() async throws {
        let server = try PhotoServer()
        let client = HTTPClient(userAgent: "vtourist-tests")
        defer { client.shutdown() }
        let flickr = FlickrSource(apiKey: "good-key", endpoint: server.flickrEndpoint, http: CurlFetcher(client: client))
        let filter = AlbumFilter(text: "street food", tags: ["market"], taken: try TakenRange.parse("2019..2023"), sort: .recent)
        let found = try await search(flickr, PhotoQuery(center: naples, perPage: 5, filter: filter))
        XCTAssertEqual(found.photos.count, 5)

        let none = try await search(flickr, PhotoQuery(center: naples, perPage: 5, filter: AlbumFilter(text: "street NoMatch")))
        XCTAssertEqual(none.photos, [])
        XCTAssertEqual(none.total, 0)
        XCTAssertEqual(none.pageCount, 1)
        let byTag = try await search(flickr, PhotoQuery(center: naples, perPage: 5, filter: AlbumFilter(tags: ["a", "nomatch"])))
        XCTAssertEqual(byTag.photos, [])

        let asked = server.searchRequests().map(PhotoServer.parameters)
        XCTAssertEqual(asked.count, 3)
        XCTAssertEqual(asked[0]["text"], "street food")
        XCTAssertEqual(asked[0]["tags"], "market")
        XCTAssertEqual(asked[0]["tag_mode"], "all")
        XCTAssertEqual(asked[0]["min_taken_date"], "2019-01-01 00:00:00")
        XCTAssertEqual(asked[0]["max_taken_date"], "2023-12-31 23:59:59")
        XCTAssertEqual(asked[0]["sort"], "date-taken-desc")
        XCTAssertEqual(asked[1]["text"], "street NoMatch")
        XCTAssertEqual(asked[2]["tags"], "a,nomatch")
    }

    func testCommonsSearchesTextFiltersDatesAndFollowsContinue() async throws {
        let server = try PhotoServer()
        let client = HTTPClient(userAgent: "vtourist-tests")
        defer { client.shutdown() }
        let commons = CommonsSource(endpoint: server.commonsEndpoint, userAgent: "vtourist-tests", http: CurlFetcher(client: client))
        let filter = AlbumFilter(text: "castle", taken: try TakenRange.parse("2019..2020"))
        let page = try await search(commons, PhotoQuery(center: naples, perPage: 21, filter: filter))
        // The stand-in dates file n in 2015 + n mod 10 and leaves every n mod 7 == 6 undated: of the
        // 84 candidates, 14 lie in 2019–2020, best match first.
        let numbers = page.photos.map { Int($0.sourceID)! - 100 }
        XCTAssertEqual(numbers, [4, 5, 14, 15, 24, 25, 35, 44, 45, 54, 64, 65, 74, 75])
        XCTAssertEqual(page.total, 120)
        XCTAssertEqual(page.pageCount, 2)
        // 84 candidates need two answers for their thumbnails (50 per answer).
        let asked = server.searchRequests().map(PhotoServer.parameters)
        XCTAssertEqual(asked.count, 2)
        XCTAssertEqual(asked[0]["generator"], "search")
        XCTAssertEqual(asked[0]["gsrsearch"], "castle nearcoord:56km,40.85,14.27 filetype:bitmap")
        XCTAssertEqual(asked[0]["gsrlimit"], "84")
        XCTAssertEqual(asked[0]["gsroffset"], "0")
        XCTAssertNil(asked[0]["iicontinue"])
        XCTAssertEqual(asked[1]["iicontinue"], "50")
        XCTAssertEqual(asked[1]["gsroffset"], "0")

        let recent = try await search(commons, PhotoQuery(center: naples, perPage: 4, filter: AlbumFilter(text: "castle", sort: .recent)))
        // Files 0…3 taken in 2015…2018: newest first.
        XCTAssertEqual(recent.photos.map(\.sourceID), ["103", "102", "101", "100"])

        let none = try await search(commons, PhotoQuery(center: naples, perPage: 21, filter: AlbumFilter(text: "nomatch here")))
        XCTAssertEqual(none.photos, [])
        XCTAssertEqual(none.total, 0)
        XCTAssertEqual(none.pageCount, 1)
    }
}
