import XCTest
import Model
import PhotoSources
@testable import vtourist

/// `vtourist config`: values, origins, masking and refusals, as pure functions of the stored texts
/// and the environment.
final class ConfigReportTests: XCTestCase {
    let key = "0123456789abcdef0123456789abcdef"
    let otherKey = "ffffffffffffffffffffffffffff9876"

    func testDefaultsWhenNothingIsStored() {
        let report = ConfigReport(stored: [:], environment: [:])
        XCTAssertEqual(report.entries, [
            ConfigEntry(key: .source, value: "commons", origin: .default),
            ConfigEntry(key: .flickrAPIKey, value: nil, origin: .default),
            ConfigEntry(key: .areaHalfWidth, value: "0.5", origin: .default),
            ConfigEntry(key: .photosPerCollection, value: "21", origin: .default),
            ConfigEntry(key: .confirmDelete, value: "on", origin: .default),
            ConfigEntry(key: .allowDrag, value: "on", origin: .default),
            ConfigEntry(key: .contact, value: nil, origin: .default),
            ConfigEntry(key: .largeCacheMB, value: "256", origin: .default),
            ConfigEntry(key: .slideshowSeconds, value: "4", origin: .default),
            ConfigEntry(key: .caBundle, value: nil, origin: .default),
        ])
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(report.table, """
            NAME                   VALUE      ORIGIN
            source                 commons    default
            flickr_api_key         (not set)  default
            area_half_width        0.5        default
            photos_per_collection  21         default
            confirm_delete         on         default
            allow_drag             on         default
            contact                (not set)  default
            large_cache_mb         256        default
            slideshow_seconds      4          default
            ca_bundle              (not set)  default

            """)
    }

    func testStoredValuesAndTheKeyMasked() {
        let report = ConfigReport(stored: [.flickrAPIKey: key, .areaHalfWidth: "0.25", .allowDrag: "no"], environment: [:])
        XCTAssertEqual(report.entry(.flickrAPIKey), ConfigEntry(key: .flickrAPIKey, value: "••••••••cdef", origin: .database))
        XCTAssertEqual(report.entry(.source), ConfigEntry(key: .source, value: "flickr", origin: .default),
                       "a key makes Flickr the default source")
        XCTAssertEqual(report.entry(.areaHalfWidth).value, "0.25")
        XCTAssertEqual(report.entry(.allowDrag), ConfigEntry(key: .allowDrag, value: "off", origin: .database))
        XCTAssertFalse(report.table.contains(key))
        XCTAssertFalse(report.json.contains(key))
        XCTAssertTrue(report.table.contains("flickr_api_key         ••••••••cdef  database\n"), report.table)
    }

    func testTheEnvironmentOverridesTheKeyAndTheSource() {
        let report = ConfigReport(stored: [.flickrAPIKey: key, .source: "flickr"],
                                  environment: ["FLICKR_API_KEY": otherKey, "VTOURIST_SOURCE": "commons"])
        XCTAssertEqual(report.entry(.flickrAPIKey),
                       ConfigEntry(key: .flickrAPIKey, value: "••••••••9876", origin: .environment, variable: "FLICKR_API_KEY"))
        XCTAssertEqual(report.entry(.source),
                       ConfigEntry(key: .source, value: "commons", origin: .environment, variable: "VTOURIST_SOURCE"))
        XCTAssertTrue(report.table.contains("source                 commons       environment (VTOURIST_SOURCE)\n"), report.table)
        XCTAssertEqual(report.json(.source), """
            {
              "name" : "source",
              "origin" : "environment",
              "value" : "commons",
              "variable" : "VTOURIST_SOURCE"
            }
            """)
    }

    func testAnInvalidVariableOverridesNothingAndSaysSo() {
        let report = ConfigReport(stored: [.flickrAPIKey: key], environment: ["FLICKR_API_KEY": "not a key", "VTOURIST_SOURCE": "bing"])
        XCTAssertEqual(report.entry(.flickrAPIKey).origin, .database)
        XCTAssertEqual(report.entry(.source), ConfigEntry(key: .source, value: "flickr", origin: .default))
        XCTAssertEqual(report.problems.count, 2, "\(report.problems)")
        XCTAssertFalse(report.problems.joined().contains("not a key"))
    }

    func testABlankVariableCountsAsUnset() {
        let report = ConfigReport(stored: [:], environment: ["FLICKR_API_KEY": "  ", "VTOURIST_SOURCE": ""])
        XCTAssertEqual(report.entry(.flickrAPIKey).origin, .default)
        XCTAssertEqual(report.entry(.source).origin, .default)
        XCTAssertEqual(report.problems, [])
    }

    func testAnInvalidStoredValueReadsAsTheDefaultWithAProblem() {
        let report = ConfigReport(stored: [.photosPerCollection: "99", .flickrAPIKey: "bad key!"], environment: [:])
        XCTAssertEqual(report.entry(.photosPerCollection), ConfigEntry(key: .photosPerCollection, value: "21", origin: .default))
        XCTAssertEqual(report.entry(.flickrAPIKey), ConfigEntry(key: .flickrAPIKey, value: nil, origin: .default))
        XCTAssertEqual(report.problems.count, 2, "\(report.problems)")
        XCTAssertFalse(report.problems.joined().contains("bad key"))
    }

    func testFlickrChosenWithoutAKeySaysCommonsIsUsed() {
        let report = ConfigReport(stored: [.source: "flickr"], environment: [:])
        XCTAssertEqual(report.entry(.source), ConfigEntry(key: .source, value: "flickr", origin: .database))
        XCTAssertEqual(report.problems, ["Flickr needs an API key (setting or FLICKR_API_KEY); using Wikimedia Commons instead."])
    }

    func testJSONListsNameValueOrigin() throws {
        let report = ConfigReport(stored: [.photosPerCollection: "30"], environment: [:])
        let decoded = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [[String: Any]]
        let rows = try XCTUnwrap(decoded)
        XCTAssertEqual(rows.map { $0["name"] as? String }, SettingCatalog.standard.keys.map(\.rawValue))
        XCTAssertEqual(rows[3]["value"] as? String, "30")
        XCTAssertEqual(rows[3]["origin"] as? String, "database")
        XCTAssertTrue(rows[1]["value"] is NSNull, "an unset key is null")
        XCTAssertNil(rows[1]["variable"])
    }

    // MARK: Masking

    func testMasking() {
        XCTAssertEqual(Settings.masked(apiKey: key), "••••••••cdef")
        XCTAssertEqual(Settings.masked(apiKey: "abcdefghijkl"), "••••••••ijkl")
        XCTAssertEqual(Settings.masked(apiKey: "abcdefghijk"), "••••••••", "a short key shows nothing")
        XCTAssertEqual(Settings.masked(apiKey: "ab"), "••••••••")
        XCTAssertEqual(Settings.shown(" \(key)\n", secret: true), "••••••••cdef")
    }

    /// The settings fuzz target's input: a key ending in controls showed them in its last 4 characters.
    func testAMaskedKeyShowsNoControlCharacters() {
        let fuzzed = String(decoding: [0x20, 0x39, 0x61, 0x0C, 0x0C, 0x0C, 0x0C, 0x63, 0x64, 0x66, 0x20, 0x65, 0x0A, 0x01, 0x0C], as: UTF8.self)
        let shown = Settings.shown(fuzzed, secret: true)
        XCTAssertFalse(shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }, shown.debugDescription)
        XCTAssertEqual(shown, "••••••••", "what is left, 9acdf e, is too short to show any of")
    }

    // MARK: Names

    func testNames() {
        XCTAssertEqual(ConfigReport.key(named: "photos_per_collection"), .photosPerCollection)
        XCTAssertEqual(ConfigReport.key(named: "Photos-Per-Collection"), .photosPerCollection)
        XCTAssertEqual(ConfigReport.key(named: "flickr_api_key"), .flickrAPIKey)
        XCTAssertNil(ConfigReport.key(named: "colour"))
        XCTAssertNil(ConfigReport.key(named: ""))
        XCTAssertEqual(ConfigReport.unknownName("colour"), "unknown setting “colour”; the settings are: source, "
                       + "flickr_api_key, area_half_width, photos_per_collection, confirm_delete, allow_drag, contact, "
                       + "large_cache_mb, slideshow_seconds, ca_bundle")
        XCTAssertFalse(ConfigReport.unknownName(key).contains("0123"), "a key typed as a name is not repeated")
        let long = ConfigReport.unknownName(String(repeating: "x", count: 10_000))
        XCTAssertTrue(long.hasPrefix("unknown setting “xxxxxxxxxxxxxxxxxxxx…”;"), long)
        XCTAssertFalse(ConfigReport.unknownName("a\u{1B}[2Jb\nc").contains("\u{1B}"))
    }

    // MARK: Setting

    func testValuesToStoreAreTheSettingsOwn() {
        XCTAssertEqual(ConfigReport.valueToStore(.areaHalfWidth, " 0.25 "), .success("0.25"))
        XCTAssertEqual(ConfigReport.valueToStore(.photosPerCollection, "60"), .success("60"))
        XCTAssertEqual(ConfigReport.valueToStore(.confirmDelete, "No"), .success("off"))
        XCTAssertEqual(ConfigReport.valueToStore(.source, "Commons"), .success("commons"))
        XCTAssertEqual(ConfigReport.valueToStore(.flickrAPIKey, "  \(key)\r\n"), .success(key), "pasted whitespace is trimmed")
    }

    func testRefusals() {
        func refusal(_ key: SettingKey, _ text: String) -> String {
            if case .failure(let r) = ConfigReport.valueToStore(key, text) { return r.description }
            return "stored"
        }
        XCTAssertEqual(refusal(.areaHalfWidth, "2"),
                       "cannot set area_half_width to “2”: the search area must be a half-width of 0.1 to 1.0 degree")
        XCTAssertEqual(refusal(.photosPerCollection, "abc"),
                       "cannot set photos_per_collection to “abc”: photos per collection must be a whole number from 1 to 60")
        XCTAssertEqual(refusal(.photosPerCollection, "0"),
                       "cannot set photos_per_collection to “0”: photos per collection must be a whole number from 1 to 60")
        XCTAssertEqual(refusal(.confirmDelete, "maybe"), "cannot set confirm_delete to “maybe”: expected on or off")
        let long = refusal(.areaHalfWidth, String(repeating: "9", count: 10_000))
        XCTAssertEqual(long, "cannot set area_half_width to “99999999999999999999…”: the search area must be a half-width of 0.1 to 1.0 degree")
        XCTAssertEqual(refusal(.source, "fl\u{1B}[31m\nickr"),
                       "cannot set source to “fl ickr”: the photo source must be flickr or commons")
    }

    func testKeyRefusalsSayWhyWithoutTheKey() {
        func refusal(_ text: String) -> String {
            if case .failure(let r) = ConfigReport.valueToStore(.flickrAPIKey, text) { return r.description }
            return "stored"
        }
        let rule = "cannot set flickr_api_key: an API key is 1 to 128 letters, digits, - or _; "
        XCTAssertEqual(refusal(""), rule + "this one is empty")
        XCTAssertEqual(refusal(" \n "), rule + "this one is empty")
        XCTAssertEqual(refusal("0123456789 abcdef"), rule + "this one has a space in it")
        XCTAssertEqual(refusal("0123456789\u{7}abcdef"), rule + "this one has a control character in it")
        XCTAssertEqual(refusal("0123456789&abcdef"), rule + "this one has “&” in it")
        XCTAssertEqual(refusal("0123456789éabcdef"), rule + "this one has a character that is not plain ASCII in it")
        XCTAssertEqual(refusal(String(repeating: "a", count: 10_000)), rule + "this one is 10000 characters long")
        XCTAssertFalse(refusal("secretsecret12345 x").contains("secret"))
    }

    func testWhatSetSays() {
        XCTAssertEqual(ConfigReport.stored(.photosPerCollection, value: "30", environment: [:]),
                       ["photos_per_collection = 30 (stored in the database)"])
        XCTAssertEqual(ConfigReport.stored(.flickrAPIKey, value: key, environment: ["FLICKR_API_KEY": otherKey]),
                       ["flickr_api_key = ••••••••cdef (stored in the database)",
                        "FLICKR_API_KEY is set and overrides it; unset FLICKR_API_KEY for the stored value to count."])
        XCTAssertEqual(ConfigReport.stored(.source, value: "flickr", environment: ["VTOURIST_SOURCE": "commons"]).count, 2)
        XCTAssertEqual(ConfigReport.stored(.source, value: "flickr", environment: ["VTOURIST_SOURCE": "bing"]).count, 1,
                       "an invalid variable overrides nothing")
    }

    func testAContactIsAnEmailOrWebAddress() {
        XCTAssertEqual(Settings.contact(" me@example.org "), "me@example.org")
        XCTAssertEqual(Settings.contact("https://example.org/me"), "https://example.org/me")
        for bad in ["", "me", "@x", "me@", "ftp://x.org", "a b@example.org", "me@example.org)\r\nX-Evil: 1",
                    String(repeating: "a", count: 300) + "@x.org"] {
            XCTAssertNil(Settings.contact(bad), bad)
        }
        XCTAssertEqual(Settings.userAgent(version: "1.0", contact: "me@example.org"),
                       "vtourist/1.0 (terminal Virtual Tourist; me@example.org)")
        XCTAssertEqual(Settings.userAgent(version: "1.0", contact: nil), "vtourist/1.0 (terminal Virtual Tourist)")
    }

    func testConfigShowsTheKeyAsTheSettingsScreenDoes() {
        let key = "0123456789abcdef0123456789abcdef"
        let settings = Settings(stored: [.flickrAPIKey: key])
        let report = ConfigReport(stored: [.flickrAPIKey: key], environment: [:])
        XCTAssertEqual(report.entry(.flickrAPIKey).value, settings.shown(.flickrAPIKey))
        XCTAssertEqual(ConfigReport.stored(.flickrAPIKey, value: key, environment: [:]).first,
                       "flickr_api_key = \(settings.shown(.flickrAPIKey)) (stored in the database)")
        XCTAssertFalse(report.table.contains(key))
    }

    func testAnIgnoredStoredValueIsShownAsEveryMessageShowsAValue() {
        let text = "wide\u{1B}[31m " + String(repeating: "9", count: 30)
        let problems = Settings.read(stored: [.areaHalfWidth: text]).problems
        XCTAssertEqual(problems, ["The stored search area \u{201C}\(Settings.shown(text))\u{201D} was ignored: "
                                  + Settings.expected(.areaHalfWidth) + "."])
        XCTAssertTrue(problems[0].contains("\u{2026}\u{201D}"), "a long value is cut with \u{2026}: \(problems)")
        XCTAssertFalse(problems[0].contains("\u{1B}"))
    }
}
