import XCTest
import Model
import Geo
@testable import PhotoSources

final class SettingsTests: XCTestCase {
    typealias S = PhotoSourceSettings

    func testNoKeyMeansCommons() {
        let s = S.resolve(environment: [:], stored: [:])
        XCTAssertEqual(s.kind, .commons)
        XCTAssertNil(s.flickrAPIKey)
        XCTAssertEqual(s.endpoint, "https://commons.wikimedia.org/w/api.php")
        XCTAssertEqual(s.halfWidthDegrees, 0.5)
        XCTAssertEqual(s.perPage, 21)
        XCTAssertEqual(s.problems, [])
    }

    func testKeyInEnvironmentOrSettingMeansFlickr() {
        let fromEnv = S.resolve(environment: ["FLICKR_API_KEY": "envkey"], stored: [:])
        XCTAssertEqual(fromEnv.kind, .flickr)
        XCTAssertEqual(fromEnv.flickrAPIKey, "envkey")
        XCTAssertEqual(fromEnv.endpoint, "https://api.flickr.com/services/rest/")

        let fromStore = S.resolve(environment: [:], stored: ["flickr_api_key": "storedkey"])
        XCTAssertEqual(fromStore.kind, .flickr)
        XCTAssertEqual(fromStore.flickrAPIKey, "storedkey")

        // The environment overrides the stored key (SPEC 5).
        let both = S.resolve(environment: ["FLICKR_API_KEY": "envkey"], stored: ["flickr_api_key": "storedkey"])
        XCTAssertEqual(both.flickrAPIKey, "envkey")

        // Blank values count as unset.
        XCTAssertEqual(S.resolve(environment: ["FLICKR_API_KEY": "  "], stored: [:]).kind, .commons)
    }

    func testSourceOverride() {
        let env = S.resolve(environment: ["FLICKR_API_KEY": "k", "VTOURIST_SOURCE": "commons"], stored: [:])
        XCTAssertEqual(env.kind, .commons)
        XCTAssertEqual(env.flickrAPIKey, "k")

        let stored = S.resolve(environment: [:], stored: ["flickr_api_key": "k", "source": "commons"])
        XCTAssertEqual(stored.kind, .commons)

        // The environment beats the stored choice; names are case-insensitive.
        let both = S.resolve(environment: ["VTOURIST_SOURCE": "Flickr"], stored: ["flickr_api_key": "k", "source": "commons"])
        XCTAssertEqual(both.kind, .flickr)
        XCTAssertEqual(both.problems, [])
    }

    func testFlickrWithoutKeyFallsBackWithAMessage() {
        let s = S.resolve(environment: ["VTOURIST_SOURCE": "flickr"], stored: [:])
        XCTAssertEqual(s.kind, .commons)
        XCTAssertEqual(s.problems.count, 1)
        XCTAssertTrue(s.problems[0].contains("API key"), s.problems[0])
    }

    func testUnknownSourceName() {
        let s = S.resolve(environment: ["VTOURIST_SOURCE": "picasa\u{1B}[2J"], stored: ["flickr_api_key": "k"])
        XCTAssertEqual(s.kind, .flickr, "a bad override leaves the default choice")
        XCTAssertEqual(s.problems.count, 1)
        XCTAssertTrue(s.problems[0].contains("picasa"), s.problems[0])
        XCTAssertFalse(s.problems[0].contains("\u{1B}"))
        // A bad environment value falls through to a good stored one.
        let stored = S.resolve(environment: ["VTOURIST_SOURCE": "nope"], stored: ["source": "commons", "flickr_api_key": "k"])
        XCTAssertEqual(stored.kind, .commons)
        XCTAssertEqual(Settings.problem(.source, "flickr"), nil)
        XCTAssertNotNil(Settings.problem(.source, "bing"))
    }

    func testMessagesDropWhatATerminalWouldObey() {
        // The settings' messages use the one control rule: escape sequences go whole, direction overrides too.
        XCTAssertEqual(Settings.shown("x\u{202E}y\u{1B}[2Jz"), "xyz")
        let (_, problems) = Settings.read(stored: [.source: "picasa\u{1B}]0;pwned\u{07}\u{202E}"])
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].contains("\u{201C}picasa\u{201D}"), problems[0])
        XCTAssertFalse(problems[0].contains("pwned"), problems[0])
    }

    func testEndpointsFromEnvironment() {
        let s = S.resolve(environment: ["VTOURIST_FLICKR_ENDPOINT": "http://127.0.0.1:8080/flickr/rest",
                                        "VTOURIST_COMMONS_ENDPOINT": "http://localhost:8081/commons/api.php",
                                        "FLICKR_API_KEY": "k"], stored: [:])
        XCTAssertEqual(s.problems, [])
        XCTAssertEqual(s.endpoint, "http://127.0.0.1:8080/flickr/rest")
        XCTAssertEqual(s.commonsEndpoint, "http://localhost:8081/commons/api.php")
        XCTAssertEqual(S.resolve(environment: ["VTOURIST_COMMONS_ENDPOINT": "https://example.org/w/api.php"], stored: [:]).endpoint,
                       "https://example.org/w/api.php")
        XCTAssertEqual(S.resolve(environment: ["VTOURIST_COMMONS_ENDPOINT": "http://[::1]:9/api.php"], stored: [:]).endpoint,
                       "http://[::1]:9/api.php")
        XCTAssertEqual(S.resolve(environment: ["VTOURIST_COMMONS_ENDPOINT": "http://127.1.2.3/api.php"], stored: [:]).problems, [])
    }

    func testBadEndpointsKeepTheDefault() {
        for bad in ["http://example.org/api", "ftp://127.0.0.1/x", "not a url", "https://", "http://127.0.0.1.evil.com/x",
                    "http://localhost.example.com/", "https://exa mple.org"] {
            let s = S.resolve(environment: ["VTOURIST_COMMONS_ENDPOINT": bad], stored: [:])
            XCTAssertEqual(s.commonsEndpoint, CommonsSource.defaultEndpoint, bad)
            XCTAssertEqual(s.problems.count, 1, bad)
            XCTAssertTrue(s.problems.first?.hasPrefix("VTOURIST_COMMONS_ENDPOINT") ?? false, "\(s.problems)")
        }
    }

    func testAreaAndPerPageValidation() {
        let good = S.resolve(environment: [:], stored: ["area_half_width": "0.1", "photos_per_collection": "60"])
        XCTAssertEqual(good.halfWidthDegrees, 0.1)
        XCTAssertEqual(good.perPage, 60)
        XCTAssertEqual(good.problems, [])

        for (area, perPage) in [("0.05", "0"), ("1.5", "61"), ("abc", "twenty"), ("nan", "-3"), ("inf", "21.5")] {
            let s = S.resolve(environment: [:], stored: ["area_half_width": area, "photos_per_collection": perPage])
            XCTAssertEqual(s.halfWidthDegrees, 0.5, area)
            XCTAssertEqual(s.perPage, 21, perPage)
            XCTAssertEqual(s.problems.count, 2, "\(s.problems)")
            XCTAssertTrue(s.problems[0].contains("0.1 to 1.0"), s.problems[0])
            XCTAssertTrue(s.problems[1].contains("1 to 60"), s.problems[1])
        }
        XCTAssertNil(Settings.problem(.areaHalfWidth, "1.0"))
        XCTAssertNotNil(Settings.problem(.areaHalfWidth, "1.01"))
        XCTAssertNil(Settings.problem(.photosPerCollection, " 1 "))
        XCTAssertNotNil(Settings.problem(.photosPerCollection, "100"))
    }

    func testImplausibleKeyIsIgnored() {
        let s = S.resolve(environment: ["FLICKR_API_KEY": "abc&method=x"], stored: [:])
        XCTAssertEqual(s.kind, .commons)
        XCTAssertNil(s.flickrAPIKey)
        XCTAssertEqual(s.problems.count, 1)
    }

    func testMakeSourceAndQuery() {
        let http = FakeHTTP([])
        let flickr = S.resolve(environment: ["FLICKR_API_KEY": "k", "VTOURIST_FLICKR_ENDPOINT": "http://127.0.0.1:1/rest"], stored: [:])
        let source = flickr.makeSource(http: http, userAgent: testUserAgent)
        XCTAssertEqual(source.name, "flickr")
        XCTAssertEqual((source as? FlickrSource)?.endpoint, "http://127.0.0.1:1/rest")
        XCTAssertEqual((source as? FlickrSource)?.apiKey, "k")
        XCTAssertEqual(S.resolve(environment: [:], stored: [:]).makeSource(http: http, userAgent: testUserAgent).name, "commons")

        let s = S.resolve(environment: [:], stored: ["area_half_width": "0.3", "photos_per_collection": "12"])
        let q = s.query(center: GeoPoint(latitude: 1, longitude: 2), page: 4)
        XCTAssertEqual(q, PhotoQuery(center: GeoPoint(latitude: 1, longitude: 2), halfWidthDegrees: 0.3, perPage: 12, page: 4))
    }
}
