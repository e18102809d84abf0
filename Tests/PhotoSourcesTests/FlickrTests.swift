import Foundation
import XCTest
import Geo
@testable import PhotoSources

final class FlickrParseTests: XCTestCase {
    func parse(_ text: String, perPage: Int = 21) throws(PhotoSourceError) -> SearchPage {
        try FlickrSource.parse(Fixture.data(text), perPage: perPage)
    }

    func assertThrows(_ text: String, _ expected: (PhotoSourceError) -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let page = try parse(text)
            XCTFail("expected an error, got \(page)", file: file, line: line)
        } catch {
            XCTAssertTrue(expected(error), "unexpected \(error)", file: file, line: line)
        }
    }

    func testSuccessWithStringNumbersAndMissingFields() throws {
        let page = try parse(Fixture.flickrSuccess)
        XCTAssertEqual(page.page, 1)
        XCTAssertEqual(page.total, 1254)
        XCTAssertEqual(page.pageCount, 60)
        // The photo without URLs, the javascript: URL, the string and the id-less one are skipped.
        XCTAssertEqual(page.photos.map(\.sourceID), ["53712345678", "53712345679"])

        let first = page.photos[0]
        XCTAssertEqual(first.source, "flickr")
        XCTAssertEqual(first.title, "Tour Eiffel at dusk")
        XCTAssertEqual(first.author, "Jane Doe")
        XCTAssertEqual(first.dateTaken, "2024-05-01 20:14:02")
        XCTAssertEqual(first.license, "CC BY 2.0")
        XCTAssertEqual(first.url, "https://live.staticflickr.com/65535/53712345678_a1b2c3d4e5_n.jpg")
        XCTAssertEqual(first.largeURL, "https://live.staticflickr.com/65535/53712345678_a1b2c3d4e5_b.jpg")
        XCTAssertEqual(first.pageURL, "https://www.flickr.com/photos/12345678%40N00/53712345678")
        XCTAssertEqual(first.width, 320)
        XCTAssertEqual(first.height, 213)

        // Only q and z: the grid takes the 150 px square, the detail view the 640.
        let second = page.photos[1]
        XCTAssertEqual(second.title, "")
        XCTAssertNil(second.author)
        XCTAssertNil(second.dateTaken)
        XCTAssertEqual(second.license, "CC0 1.0")
        XCTAssertEqual(second.url, "https://live.staticflickr.com/65535/53712345679_ffeeddccbb_q.jpg")
        XCTAssertEqual(second.largeURL, "https://live.staticflickr.com/65535/53712345679_ffeeddccbb_z.jpg")
        XCTAssertEqual(second.width, 150)
        XCTAssertEqual(second.height, 150)
    }

    func testPageCountIsCappedToReachableResults() throws {
        let page = try parse(Fixture.flickrHuge, perPage: 21)
        XCTAssertEqual(page.total, 100_000)
        XCTAssertEqual(page.page, 2)
        XCTAssertEqual(page.pageCount, 4000 / 21)
        XCTAssertEqual(FlickrSource.usablePages(reported: 3, perPage: 60), 3)
        XCTAssertEqual(FlickrSource.usablePages(reported: 500, perPage: 60), 66)
        XCTAssertEqual(FlickrSource.usablePages(reported: 0, perPage: 1), 1)
    }

    func testEmptyResult() throws {
        let page = try parse(Fixture.flickrEmpty)
        XCTAssertEqual(page.photos, [])
        XCTAssertEqual(page.total, 0)
        XCTAssertEqual(page.pageCount, 1)
    }

    func testStatFailInvalidKey() {
        assertThrows(Fixture.flickrInvalidKey) { $0 == .flickr(code: 100, message: "Invalid API Key (Key has invalid format)") }
        XCTAssertTrue(PhotoSourceError.flickr(code: 100, message: "Invalid API Key").description.contains("key"))
    }

    func testStatFailUnavailableWithCodeAsString() {
        assertThrows(Fixture.flickrUnavailable) { $0 == .flickr(code: 105, message: "Service currently unavailable (Site Disabled)") }
        XCTAssertTrue(PhotoSourceError.flickr(code: 105, message: "x").description.contains("unavailable"))
    }

    func testTruncatedJSON() {
        assertThrows(Fixture.flickrTruncated) { if case .malformed = $0 { return true } else { return false } }
    }

    func testWrongShapes() {
        let malformed: (PhotoSourceError) -> Bool = { if case .malformed = $0 { return true } else { return false } }
        assertThrows(Fixture.flickrPhotosIsList, malformed)
        assertThrows(Fixture.flickrPhotoIsObject, malformed)
        assertThrows("[1,2,3]", malformed)
        assertThrows(#"{"stat":"ok"}"#, malformed)
        assertThrows("", malformed)
        assertThrows("<html><body>502 Bad Gateway</body></html>", malformed)
        assertThrows("\u{FF}\u{FE}garbage", malformed)
    }

    func testJSONPWrapperIsAccepted() throws {
        let page = try parse("jsonFlickrApi(" + Fixture.flickrEmpty + ");\n")
        XCTAssertEqual(page.total, 0)
    }

    func testControlCharactersNeverSurvive() throws {
        let page = try parse(Fixture.flickrEscapes)
        let photo = try XCTUnwrap(page.photos.first)
        XCTAssertEqual(photo.title, "Eviltitle line two")
        XCTAssertEqual(photo.author, "Mallory reversed")
        XCTAssertEqual(photo.dateTaken, "2024-01-01")
        for text in [photo.title ?? "", photo.author ?? "", photo.dateTaken ?? ""] {
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, text)
        }
    }

    /// The answer the flickr fuzz target found: a URL with a right-to-left override (U+202E) in it
    /// was taken as the photo's image, and would have been shown and opened reordered.
    static let fuzzedBidiURL = #"""
        {"photos":{"page":1,"pages":1,"perpag_":21,"tktal":1,"photo":[
          {"id":"7","owner":"1@N01","tielt":"E+vil\u001b[2J\u001b]0;pwned\u0007title\r\\nnilte\u009b31m two","ownername":"M1","title":"Evil\u002b[2J\u001b]0;","url_n":"https://l480","width_z":"640"},
          {"id":"53712345680","owner":"1@N01","title":"No sizes at all","license":"0"},
          {"id":"/3712345681","owner":"2@N0o\u0000\u0085\u202e0",
           "url_z":"https:/t/live.staticfliN01","title":"Evil\u002b[2J\u001b]0;","url_n":"https://\u202e0",
           "url_z":"https:/t/live.staticfliN01","title":"Evil\u002bjpg"}
        ]},"stat":"ok"}
        """#

    func testURLsWithABidiOverrideAreRefused() throws {
        let page = try parse(Self.fuzzedBidiURL)
        for photo in page.photos {
            for url in [photo.url, photo.largeURL, photo.pageURL].compactMap({ $0 }) {
                XCTAssertFalse(url.unicodeScalars.contains { $0.properties.generalCategory == .format }, url)
            }
        }
        // The first photo's only URL is fine; the third's one image URL carries the override.
        XCTAssertEqual(page.photos.map(\.sourceID), ["7"])
    }

    func testURLsWithInvisibleOrSpaceCharactersAreNotDownloadable() {
        for bad in ["https://example.org/\u{202E}gpj.exe", "https://example.org/a\u{200B}b.jpg",
                    "https://example.org/a\u{2066}b.jpg", "https://example.org/a\u{00A0}b.jpg",
                    "https://example.org/a\u{3000}b.jpg", "https://example.org/a\u{FEFF}b.jpg",
                    "https://example.org/a\u{2028}b.jpg"] {
            XCTAssertNil(Lenient.url(bad), bad.debugDescription)
        }
        XCTAssertEqual(Lenient.url("https://upload.wikimedia.org/Caf%C3%A9.jpg"), "https://upload.wikimedia.org/Caf%C3%A9.jpg")
        XCTAssertEqual(Lenient.url("https://example.org/Café.jpg"), "https://example.org/Café.jpg")
    }

    func testUnknownLicenceIdIsNamedPlainly() {
        XCTAssertEqual(FlickrSource.licenseName("99"), "Flickr licence 99")
        XCTAssertEqual(FlickrSource.licenseName("0"), "All Rights Reserved")
    }
}

final class FlickrURLTests: XCTestCase {
    func testRequestParameters() {
        let query = PhotoQuery(center: GeoPoint(latitude: 48.85, longitude: 2.35), halfWidthDegrees: 0.5, perPage: 21, page: 3)
        let url = FlickrSource.searchURL(query, apiKey: "abc123", endpoint: "http://127.0.0.1:8080/flickr/rest")
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:8080/flickr/rest?"), url)
        let items = queryItems(url)
        XCTAssertEqual(items["method"], "flickr.photos.search")
        XCTAssertEqual(items["api_key"], "abc123")
        XCTAssertEqual(items["bbox"], "1.85,48.35,2.85,49.35")
        XCTAssertEqual(items["per_page"], "21")
        XCTAssertEqual(items["page"], "3")
        XCTAssertEqual(items["format"], "json")
        XCTAssertEqual(items["nojsoncallback"], "1")
        XCTAssertEqual(items["safe_search"], "1")
        XCTAssertEqual(items["content_type"], "1")
        XCTAssertEqual(items["media"], "photos")
        XCTAssertEqual(items["sort"], "interestingness-desc")
        let extras = Set((items["extras"] ?? "").split(separator: ",").map(String.init))
        XCTAssertTrue(extras.isSuperset(of: ["url_q", "url_n", "url_z", "url_c", "url_l", "owner_name", "date_taken", "license"]), "\(extras)")
        XCTAssertTrue(FlickrSource.searchURL(query, apiKey: "k").hasPrefix("https://api.flickr.com/services/rest/?"))
    }

    func testKeyIsPercentEncoded() {
        let query = PhotoQuery(center: GeoPoint(latitude: 0, longitude: 0))
        let url = FlickrSource.searchURL(query, apiKey: "a&b=c d")
        XCTAssertEqual(queryItems(url)["api_key"], "a&b=c d")
        XCTAssertFalse(url.contains(" "))
    }

    func testBoundingBoxClampsNearPolesAndAntimeridian() {
        let north = FlickrSource.boundingBox(PhotoQuery(center: GeoPoint(latitude: 89.8, longitude: 179.9), halfWidthDegrees: 0.5))
        XCTAssertEqual(north.maxLat, 90)
        XCTAssertEqual(north.minLat, 89.3, accuracy: 1e-9)
        XCTAssertEqual(north.maxLon, 180)
        XCTAssertEqual(north.minLon, 179.4, accuracy: 1e-9)

        let south = FlickrSource.boundingBox(PhotoQuery(center: GeoPoint(latitude: -90, longitude: -180), halfWidthDegrees: 1.0))
        XCTAssertEqual(south.minLat, -90)
        XCTAssertEqual(south.maxLat, -89)
        XCTAssertEqual(south.minLon, -180)
        XCTAssertEqual(south.maxLon, -179)

        // Centres off the globe are clamped first, so the box stays valid and non-empty.
        for center in [GeoPoint(latitude: 95, longitude: 200), GeoPoint(latitude: -.infinity, longitude: .nan),
                       GeoPoint(latitude: 90, longitude: 180), GeoPoint(latitude: -90, longitude: 180)] {
            for w in [0.1, 0.5, 1.0, 0, 7, .nan] {
                let b = FlickrSource.boundingBox(PhotoQuery(center: center, halfWidthDegrees: w))
                XCTAssertLessThan(b.minLon, b.maxLon, "\(center) \(w)")
                XCTAssertLessThan(b.minLat, b.maxLat, "\(center) \(w)")
                XCTAssertTrue((-180...180).contains(b.minLon) && (-180...180).contains(b.maxLon))
                XCTAssertTrue((-90...90).contains(b.minLat) && (-90...90).contains(b.maxLat))
            }
        }
        let url = FlickrSource.searchURL(PhotoQuery(center: GeoPoint(latitude: 89.8, longitude: 179.9)), apiKey: "k")
        XCTAssertEqual(queryItems(url)["bbox"], "179.4,89.3,180,90")
    }

    func testQueryClampsItsValues() {
        let q = PhotoQuery(center: GeoPoint(latitude: 10, longitude: 10), halfWidthDegrees: 5, perPage: 500, page: -3)
        XCTAssertEqual(q.halfWidthDegrees, 1.0)
        XCTAssertEqual(q.perPage, 60)
        XCTAssertEqual(q.page, 1)
        let small = PhotoQuery(center: GeoPoint(latitude: 10, longitude: 10), halfWidthDegrees: 0.01, perPage: 0)
        XCTAssertEqual(small.halfWidthDegrees, 0.1)
        XCTAssertEqual(small.perPage, 1)
    }
}
