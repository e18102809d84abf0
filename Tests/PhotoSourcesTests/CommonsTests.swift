import Foundation
import XCTest
import Geo
@testable import PhotoSources

final class CommonsParseTests: XCTestCase {
    func parse(_ text: String, page: Int = 1, perPage: Int = 21) throws(PhotoSourceError) -> SearchPage {
        try CommonsSource.parse(Fixture.data(text), page: page, perPage: perPage)
    }

    func testSuccessOrdersByDistanceKeepsJPEGsAndReadsAttribution() throws {
        let page = try parse(Fixture.commonsWithContinue, perPage: 4)
        // The PNG and the file without image info are left out; nearest first.
        XCTAssertEqual(page.photos.map(\.sourceID), ["100", "300"])
        XCTAssertEqual(page.total, 4)
        // A full answer (4 of 4 asked) means more may lie further out.
        XCTAssertEqual(page.pageCount, 2)

        let eiffel = page.photos[0]
        XCTAssertEqual(eiffel.source, "commons")
        XCTAssertEqual(eiffel.title, "Eiffel Tower from Trocadero")
        XCTAssertEqual(eiffel.author, "Uploader1")
        XCTAssertEqual(eiffel.license, "Public domain")
        XCTAssertNil(eiffel.dateTaken)
        XCTAssertEqual(eiffel.url, "https://upload.wikimedia.org/wikipedia/commons/thumb/e/e1/Eiffel.jpg/320px-Eiffel.jpg")
        // 12 MB original: the detail view gets the 640 px rendition instead.
        XCTAssertEqual(eiffel.largeURL, "https://upload.wikimedia.org/wikipedia/commons/thumb/e/e1/Eiffel.jpg/640px-Eiffel.jpg")
        XCTAssertEqual(eiffel.pageURL, "https://commons.wikimedia.org/wiki/File:Eiffel_Tower_from_Trocadero.jpg")
        XCTAssertEqual(eiffel.width, 320)
        XCTAssertEqual(eiffel.height, 213)

        let louvre = page.photos[1]
        XCTAssertEqual(louvre.title, "Louvre Pyramid")
        XCTAssertEqual(louvre.author, "Jane & John")
        XCTAssertEqual(louvre.license, "CC BY-SA 4.0")
        XCTAssertEqual(louvre.dateTaken, "2019-06-01 10:00:00")
        // Under 5 MB: the original itself is the detail image.
        XCTAssertEqual(louvre.largeURL, "https://upload.wikimedia.org/wikipedia/commons/a/ab/Louvre_Pyramid.jpg")
    }

    func testPagingSlicesByDistance() throws {
        // Page 2 of 2 per page: the third and fourth nearest; the fourth has no image info.
        let page = try parse(Fixture.commonsWithContinue, page: 2, perPage: 2)
        XCTAssertEqual(page.photos.map(\.sourceID), ["300"])
        XCTAssertEqual(page.page, 2)
        XCTAssertEqual(page.pageCount, 3)
    }

    func testNoContinueVersionOnePagesAndHTMLInArtist() throws {
        let page = try parse(Fixture.commonsNoContinue)
        // No coordinates: generator order (index) decides.
        XCTAssertEqual(page.photos.map(\.sourceID), ["10", "11"])
        XCTAssertEqual(page.total, 2, "the missing file has no page id")
        XCTAssertEqual(page.pageCount, 1)

        let new = page.photos[0]
        XCTAssertEqual(new.title, "New bridge")
        XCTAssertEqual(new.author, "OtherUser")
        XCTAssertEqual(new.largeURL, new.url)
        XCTAssertNil(new.pageURL)

        let old = page.photos[1]
        XCTAssertEqual(old.title, "Old bridge")
        XCTAssertEqual(old.author, "Photo by Ann")
        XCTAssertEqual(old.largeURL, "https://upload.wikimedia.org/Old_bridge.jpg")
    }

    func testEmptyResult() throws {
        let page = try parse(Fixture.commonsEmpty)
        XCTAssertEqual(page, SearchPage(photos: [], page: 1, pageCount: 1, total: 0))
        XCTAssertEqual(try parse(#"{"query":{"pages":[]}}"#).photos, [])
    }

    func testAPIErrorAndWrongShapes() {
        for (text, fragment) in [(Fixture.commonsError, "badcoord"), (Fixture.commonsPagesWrongShape, "pages"),
                                 (#"{"query":[1]}"#, "query"), (#"{"continue":"x","query":{}}"#, "continue"),
                                 (Fixture.flickrTruncated, "JSON"), ("[]", "object")] {
            do {
                _ = try parse(text)
                XCTFail("expected an error for \(text)")
            } catch {
                guard case let .malformed(why) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(why.contains(fragment), why)
            }
        }
    }

    /// The answer the commons fuzz target found: a thumbnail URL with a right-to-left override
    /// (U+202E) in it was taken as the photo's image.
    static let fuzzedBidiThumbnail = #"""
        {"batchcomplete":"","query":{"pages":{
          "11":{"pageid":11,"ns":6,"title":"File:Old bridge.jpg","index":1,
            "imageinfo":[{"user":"Someone","size":"2000","mime":"image/jpeg",
              "thumburl":"https://u\u202ewikimedia.org/thumb/Old_bridge.jpg/320px-Old_bridge.jpg","thumbwidth":320,"thu0bheight":200,
              "url":"//tps://upload.wikimedia.org/Old_bridge.jpg","descriptionurl":"https://commons.wikimedia.org/wiki/File:Old_bijgder.pg",
              "extmetadata":{"ImageDescription":{"value":"<p>A bridge</p>"},
                             "Artist":{"value":"<span c31m"}}}]},
          "10":{"pageid":10,"ns":7,"title":"File:New bridge.jpeg","i/dex":0,
            "imageinfo":[{"user":"Other\u001b[5mUser","size":1000,"mime":"image/jpeg",
              "thumburl":"https://upload.wikimedia.org/thumb/New_bridge.jpeg/320px-New_bridge.jpeg"}]},
          "-1":{"ns":6,"title":"File:Missing.jpg","missing":""}
        }}}
        """#

    func testAThumbnailURLWithABidiOverrideIsRefused() throws {
        let page = try parse(Self.fuzzedBidiThumbnail)
        let bridge = try XCTUnwrap(page.photos.first { $0.sourceID == "11" })
        // The original stands in for the refused thumbnail, as for a missing one.
        XCTAssertEqual(bridge.url, "https://tps://upload.wikimedia.org/Old_bridge.jpg")
        for photo in page.photos {
            for url in [photo.url, photo.largeURL, photo.pageURL].compactMap({ $0 }) {
                XCTAssertFalse(url.unicodeScalars.contains { $0.properties.generalCategory == .format }, url)
            }
        }
    }

    func testTitleFromFileName() {
        XCTAssertEqual(CommonsSource.titleFromFileName("File:Eiffel_Tower_at_night.jpg"), "Eiffel Tower at night")
        XCTAssertEqual(CommonsSource.titleFromFileName("File:St. Paul's Cathedral, London.JPEG"), "St. Paul's Cathedral, London")
        XCTAssertEqual(CommonsSource.titleFromFileName("File:.jpg"), ".jpg")
    }
}

final class CommonsURLTests: XCTestCase {
    let paris = GeoPoint(latitude: 48.8584, longitude: 2.2945)

    func testRequestParameters() {
        let query = PhotoQuery(center: paris, halfWidthDegrees: 0.5, perPage: 21, page: 2)
        let url = CommonsSource.searchURL(query, endpoint: "http://127.0.0.1:9/commons/api.php")
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:9/commons/api.php?"), url)
        XCTAssertFalse(url.contains("|"), "pipes are percent-encoded")
        let items = queryItems(url)
        XCTAssertEqual(items["action"], "query")
        XCTAssertEqual(items["format"], "json")
        XCTAssertEqual(items["formatversion"], "2")
        XCTAssertEqual(items["generator"], "geosearch")
        XCTAssertEqual(items["ggscoord"], "48.8584|2.2945")
        XCTAssertEqual(items["ggsnamespace"], "6")
        XCTAssertEqual(items["ggsradius"], "10000")
        XCTAssertEqual(items["ggslimit"], "42")
        XCTAssertEqual(items["prop"], "imageinfo|coordinates")
        XCTAssertEqual(items["iiprop"], "url|size|mime|extmetadata|user")
        XCTAssertEqual(items["iiurlwidth"], "320")
        XCTAssertEqual(items["codistancefrompoint"], "48.8584|2.2945")
        XCTAssertNil(items["iicontinue"])
        XCTAssertTrue(CommonsSource.searchURL(query).hasPrefix("https://commons.wikimedia.org/w/api.php?"))
    }

    func testRadiusIsCappedAtTenKilometres() {
        XCTAssertEqual(CommonsSource.radiusMeters(halfWidthDegrees: 0.1), 10_000)
        XCTAssertEqual(CommonsSource.radiusMeters(halfWidthDegrees: 1.0), 10_000)
        XCTAssertEqual(CommonsSource.radiusMeters(halfWidthDegrees: 0.05), 5_550)
        XCTAssertEqual(CommonsSource.radiusMeters(halfWidthDegrees: 0), 10)
        XCTAssertEqual(CommonsSource.radiusMeters(halfWidthDegrees: .nan), 10_000)
    }

    func testLimitGrowsWithPageUpToFiveHundred() {
        func limit(_ page: Int, _ perPage: Int) -> Int? {
            CommonsSource.resultLimit(PhotoQuery(center: paris, perPage: perPage, page: page))
        }
        XCTAssertEqual(limit(1, 21), 21)
        XCTAssertEqual(limit(3, 21), 63)
        XCTAssertEqual(limit(9, 60), 500)
        XCTAssertNil(limit(10, 60))
    }

    func testContinuationIsSentBackButCannotOverrideOurs() {
        let query = PhotoQuery(center: paris)
        let url = CommonsSource.searchURL(query, continuation: [
            "iicontinue": "Zebra.jpg|20240101000000", "continue": "||", "ggslimit": "5000", "bad key": "x", "Upper": "y",
        ])
        let items = queryItems(url)
        XCTAssertEqual(items["iicontinue"], "Zebra.jpg|20240101000000")
        XCTAssertEqual(items["continue"], "||")
        XCTAssertEqual(items["ggslimit"], "21")
        XCTAssertNil(items["bad key"])
        XCTAssertNil(items["Upper"])
    }
}
