import Foundation
import TestSupport
import XCTest

/// `vtourist config` through the real binary (SPEC 4): the listing with origins, get, set with the
/// settings' own checks, the environment's overrides, and the key never shown in full. Every run has
/// the test's whole environment (no FLICKR_API_KEY or VTOURIST_SOURCE of the caller's).
final class ConfigCommandTests: EndToEndTestCase {
    let key = "0123456789abcdef0123456789abcdef"
    let envKey = "fedcba9876543210fedcba9876547777"

    var db: String {
        get throws { try XCTUnwrap(environment()["VTOURIST_DB"]) }
    }

    /// The stored text of a setting, read with sqlite3 rather than the app; nil when not stored.
    func storedText(_ name: String) throws -> String? {
        let path = try db
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let r = try runProcess("/usr/bin/sqlite3", [path, "SELECT value FROM setting WHERE key = '\(name)';"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = r.stdout.trimmingCharacters(in: .newlines)
        return text.isEmpty ? nil : text
    }

    func assertOK(_ r: (status: Int32, stdout: String, stderr: String), file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
    }

    /// Refused as bad input: status 64, one line on stderr, nothing on stdout, nothing stored, no database made.
    func assertRefused(_ arguments: [String], message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try cli(arguments)
        XCTAssertEqual(r.status, 64, file: file, line: line)
        XCTAssertEqual(r.stdout, "", file: file, line: line)
        XCTAssertEqual(r.stderr, "vtourist: " + message + "\n", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: try db), "bad input made a database", file: file, line: line)
    }

    struct Entry: Decodable, Equatable {
        var name: String
        var value: String?
        var origin: String
        var variable: String?
    }

    // MARK: Listing

    func testTheListingOfDefaults() throws {
        let r = try cli(["config"])
        assertOK(r)
        XCTAssertEqual(r.stdout, """
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
        XCTAssertEqual(try cli(["config", "list"]).stdout, r.stdout)
    }

    func testSetThenListWithOriginsAndTheEnvironmentOnTop() throws {
        assertOK(try cli(["config", "set", "photos_per_collection", "30"]))
        assertOK(try cli(["config", "set", "flickr_api_key", key]))
        assertOK(try cli(["config", "set", "allow-drag", "no"]))
        let plain = try cli(["config"])
        assertOK(plain)
        XCTAssertEqual(plain.stdout, """
            NAME                   VALUE         ORIGIN
            source                 flickr        default
            flickr_api_key         ••••••••cdef  database
            area_half_width        0.5           default
            photos_per_collection  30            database
            confirm_delete         on            default
            allow_drag             off           database
            contact                (not set)     default
            large_cache_mb         256           default
            slideshow_seconds      4             default
            ca_bundle              (not set)     default

            """)
        let overridden = try cli(["config", "--json"], environment: ["FLICKR_API_KEY": envKey, "VTOURIST_SOURCE": "commons"])
        assertOK(overridden)
        let entries = try JSONDecoder().decode([Entry].self, from: Data(overridden.stdout.utf8))
        XCTAssertEqual(entries, [
            Entry(name: "source", value: "commons", origin: "environment", variable: "VTOURIST_SOURCE"),
            Entry(name: "flickr_api_key", value: "••••••••7777", origin: "environment", variable: "FLICKR_API_KEY"),
            Entry(name: "area_half_width", value: "0.5", origin: "default"),
            Entry(name: "photos_per_collection", value: "30", origin: "database"),
            Entry(name: "confirm_delete", value: "on", origin: "default"),
            Entry(name: "allow_drag", value: "off", origin: "database"),
            Entry(name: "contact", value: nil, origin: "default"),
            Entry(name: "large_cache_mb", value: "256", origin: "default"),
            Entry(name: "slideshow_seconds", value: "4", origin: "default"),
            Entry(name: "ca_bundle", value: nil, origin: "default"),
        ])
        for r in [plain, overridden] {
            XCTAssertFalse(r.stdout.contains(key) || r.stdout.contains(envKey), "a key in full")
        }
    }

    func testGet() throws {
        assertOK(try cli(["config", "set", "area_half_width", "0.25"]))
        let text = try cli(["config", "get", "area_half_width"])
        assertOK(text)
        XCTAssertEqual(text.stdout, "0.25\n")
        let json = try cli(["config", "get", "source", "--json"], environment: ["VTOURIST_SOURCE": " Flickr "])
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual(try JSONDecoder().decode(Entry.self, from: Data(json.stdout.utf8)),
                       Entry(name: "source", value: "flickr", origin: "environment", variable: "VTOURIST_SOURCE"))
        // Flickr chosen without a key: the value stands, and stderr says what happens instead.
        XCTAssertEqual(json.stderr, "vtourist: Flickr needs an API key (setting or FLICKR_API_KEY); using Wikimedia Commons instead.\n")
        let unset = try cli(["config", "get", "flickr_api_key", "--json"])
        XCTAssertEqual(try JSONDecoder().decode(Entry.self, from: Data(unset.stdout.utf8)),
                       Entry(name: "flickr_api_key", value: nil, origin: "default"))
    }

    // MARK: Setting

    func testSetSaysWhatWasStoredInItsCanonicalForm() throws {
        let r = try cli(["config", "set", "confirm_delete", "No"])
        assertOK(r)
        XCTAssertEqual(r.stdout, "confirm_delete = off (stored in the database)\n")
        XCTAssertEqual(try storedText("confirm_delete"), "off")
        let negative = try cli(["config", "set", "source", "COMMONS"])
        XCTAssertEqual(negative.stdout, "source = commons (stored in the database)\n")
    }

    func testAPastedKeyIsTrimmedAndNeverShown() throws {
        let r = try cli(["config", "set", "flickr_api_key", "  \(key)\r\n"])
        assertOK(r)
        XCTAssertEqual(r.stdout, "flickr_api_key = ••••••••cdef (stored in the database)\n")
        XCTAssertEqual(try storedText("flickr_api_key"), key)
        XCTAssertEqual(try cli(["config", "get", "flickr_api_key"]).stdout, "••••••••cdef\n")
    }

    func testSettingWhatTheEnvironmentOverridesSaysSo() throws {
        let r = try cli(["config", "set", "flickr_api_key", key], environment: ["FLICKR_API_KEY": envKey])
        assertOK(r)
        XCTAssertEqual(r.stdout, """
            flickr_api_key = ••••••••cdef (stored in the database)
            FLICKR_API_KEY is set and overrides it; unset FLICKR_API_KEY for the stored value to count.

            """)
        XCTAssertEqual(try storedText("flickr_api_key"), key)
        let source = try cli(["config", "set", "source", "flickr"], environment: ["VTOURIST_SOURCE": "commons"])
        XCTAssertTrue(source.stdout.contains("VTOURIST_SOURCE is set and overrides it"), source.stdout)
        XCTAssertEqual(try storedText("source"), "flickr")
    }

    // MARK: Unsetting

    func testUnsetReturnsASettingToItsDefault() throws {
        assertOK(try cli(["config", "set", "flickr_api_key", key]))
        assertOK(try cli(["config", "set", "source", "commons"]))
        assertOK(try cli(["config", "set", "photos_per_collection", "30"]))
        assertOK(try cli(["config", "set", "contact", "me@example.org"]))
        let source = try cli(["config", "unset", "source"])
        assertOK(source)
        // Back to automatic: the stored key chooses Flickr.
        XCTAssertEqual(source.stdout, "source = flickr (default)\n")
        XCTAssertNil(try storedText("source"))
        let count = try cli(["config", "unset", "Photos-Per-Collection"])
        assertOK(count)
        XCTAssertEqual(count.stdout, "photos_per_collection = 21 (default)\n")
        let removedKey = try cli(["config", "unset", "flickr_api_key"])
        assertOK(removedKey)
        XCTAssertEqual(removedKey.stdout, "flickr_api_key is not set (default)\n")
        XCTAssertNil(try storedText("flickr_api_key"))
        XCTAssertEqual(try cli(["config", "unset", "contact"]).stdout, "contact is not set (default)\n")
        XCTAssertNil(try storedText("contact"))
        XCTAssertEqual(try cli(["config", "get", "source"]).stdout, "commons\n", "no key left: commons")
        // Unsetting what is not stored changes nothing and says the same.
        XCTAssertEqual(try cli(["config", "unset", "contact"]).stdout, "contact is not set (default)\n")
        // A variable still overrides; unset says so.
        assertOK(try cli(["config", "set", "source", "commons"]))
        let overridden = try cli(["config", "unset", "source"], environment: ["VTOURIST_SOURCE": "flickr", "FLICKR_API_KEY": envKey])
        assertOK(overridden)
        XCTAssertEqual(overridden.stdout, "source is no longer stored; VTOURIST_SOURCE is set and overrides it (flickr)\n")
        XCTAssertNil(try storedText("source"))
    }

    func testUnsetCreatesNoDatabaseAndRefusesUnknownNames() throws {
        let r = try cli(["config", "unset", "area_half_width"])
        assertOK(r)
        XCTAssertEqual(r.stdout, "area_half_width = 0.5 (default)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: try db), "unset made a database")
        try assertRefused(["config", "unset", "colour"], message: "unknown setting \u{201C}colour\u{201D}; the settings are: "
                          + "source, flickr_api_key, area_half_width, photos_per_collection, confirm_delete, allow_drag, contact, "
                          + "large_cache_mb, slideshow_seconds, ca_bundle")
        let missing = try cli(["config", "unset"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.hasPrefix("Error: Missing expected argument '<name>'"), missing.stderr)
    }

    // MARK: Usage errors

    /// A usage error shows the usage of what the user typed, never a hidden command's.
    func testUsageErrorsNameNoHiddenCommand() throws {
        for (arguments, usage) in [(["bogus"], "Usage: vtourist [--db <path>] <subcommand>"),
                                   (["--bogus"], "Usage: vtourist [--db <path>] <subcommand>"),
                                   (["config", "--bogus"], "Usage: vtourist config [--json] [--db <path>]"),
                                   (["config", "bogus", "x"], "Usage: vtourist config [--json] [--db <path>]")] {
            let r = try cli(arguments)
            XCTAssertEqual(r.status, 64, "\(arguments)")
            XCTAssertEqual(r.stdout, "", "\(arguments)")
            XCTAssertTrue(r.stderr.contains(usage), "\(arguments): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("vtourist app"), "\(arguments): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("config list"), "\(arguments): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: try db), "a usage error made a database")
        // The help lists no hidden command either, and names unset.
        let help = try cli(["config", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("vtourist config unset <name>"), help.stdout)
        XCTAssertFalse(help.stdout.contains("  list"), help.stdout)
    }

    /// What `config set` stores is what the photo search uses: the stand-in answers with as many
    /// photos as asked for, from the source the settings choose.
    func testTheAlbumFollowsTheStoredSettings() throws {
        assertOK(try cli(["config", "set", "photos_per_collection", "3"]))
        assertOK(try cli(["config", "set", "flickr_api_key", key]))
        // Commons leads nowhere: only the Flickr the stored key chooses can fill the album.
        let drop = try cli(["drop", "48.85", "2.35", "--wait"],
                           environment: ["VTOURIST_COMMONS_ENDPOINT": "http://127.0.0.1:9/commons/api.php"])
        XCTAssertEqual(drop.status, 0, drop.stderr)
        let listed = try pins(db: try db)
        XCTAssertEqual(listed.map(\.photos), [3])
        XCTAssertEqual(listed.map(\.state), ["ready"])
    }

    // MARK: Bad input: one line, nothing stored, no database made

    let rangeArea = "the search area must be a half-width of 0.1 to 1.0 degree"
    let rangePhotos = "photos per collection must be a whole number from 1 to 60"
    let keyRule = "an API key is 1 to 128 letters, digits, - or _"

    func testAnUnknownNameListsTheKnownOnes() throws {
        let known = "the settings are: source, flickr_api_key, area_half_width, photos_per_collection, confirm_delete, allow_drag, contact, "
            + "large_cache_mb, slideshow_seconds, ca_bundle"
        try assertRefused(["config", "set", "colour", "blue"], message: "unknown setting “colour”; " + known)
        try assertRefused(["config", "get", "colour"], message: "unknown setting “colour”; " + known)
        try assertRefused(["config", "get", key], message: "unknown setting; " + known)
    }

    func testOutOfRange() throws {
        try assertRefused(["config", "set", "photos_per_collection", "61"],
                          message: "cannot set photos_per_collection to “61”: " + rangePhotos)
        try assertRefused(["config", "set", "photos_per_collection", "99"],
                          message: "cannot set photos_per_collection to “99”: " + rangePhotos)
        try assertRefused(["config", "set", "area_half_width", "-5"], message: "cannot set area_half_width to “-5”: " + rangeArea)
        try assertRefused(["config", "set", "area_half_width", "0.05"], message: "cannot set area_half_width to “0.05”: " + rangeArea)
    }

    func testNonNumeric() throws {
        try assertRefused(["config", "set", "photos_per_collection", "twenty"],
                          message: "cannot set photos_per_collection to “twenty”: " + rangePhotos)
        try assertRefused(["config", "set", "area_half_width", "nan"], message: "cannot set area_half_width to “nan”: " + rangeArea)
        try assertRefused(["config", "set", "confirm_delete", "maybe"], message: "cannot set confirm_delete to “maybe”: expected on or off")
        try assertRefused(["config", "set", "source", "bing"], message: "cannot set source to “bing”: the photo source must be flickr or commons")
        try assertRefused(["config", "set", "source", "bogus"], message: "cannot set source to “bogus”: the photo source must be flickr or commons")
    }

    func testTheLargeImageBudgetAndTheSlideshowIntervalAreWholeNumbersInTheirRanges() throws {
        let budget = "the large-image budget must be a whole number of megabytes from 0 (none stored) to 4096"
        for bad in ["-1", "4097", "1.5", "256MB", "lots", ""] {
            try assertRefused(["config", "set", "large_cache_mb", "--", bad],
                              message: "cannot set large_cache_mb to \u{201C}\(bad)\u{201D}: " + budget)
        }
        let interval = "the slideshow interval must be a whole number of seconds from 1 to 60"
        for bad in ["0", "61", "2.5", "-4"] {
            try assertRefused(["config", "set", "slideshow_seconds", "--", bad],
                              message: "cannot set slideshow_seconds to \u{201C}\(bad)\u{201D}: " + interval)
        }
        for (name, value) in [("large_cache_mb", "0"), ("large-cache-mb", " 4096 "), ("slideshow_seconds", "1"), ("Slideshow-Seconds", "60")] {
            assertOK(try cli(["config", "set", name, value]))
        }
        XCTAssertEqual(try storedText("large_cache_mb"), "4096")
        XCTAssertEqual(try storedText("slideshow_seconds"), "60")
        XCTAssertEqual(try cli(["config", "unset", "large_cache_mb"]).stdout, "large_cache_mb = 256 (default)\n")
    }

    func testACABundleIsAReadablePEMFileAndTheVariableOverridesIt() throws {
        let rule = "the CA bundle must be a readable PEM file of certificates (-----BEGIN CERTIFICATE-----)"
        try assertRefused(["config", "set", "ca_bundle", "/nonexistent/corp.pem"],
                          message: "cannot set ca_bundle: \(rule); there is no file \u{201C}/nonexistent/corp.pem\u{201D}")
        try assertRefused(["config", "set", "ca_bundle", "/tmp"], message: "cannot set ca_bundle: \(rule); \u{201C}/tmp\u{201D} is a folder")
        let authority = TestCertificates.authority
        XCTAssertEqual(try cli(["config", "set", "ca_bundle", authority]).stdout, "ca_bundle = \(authority) (stored in the database)\n")
        XCTAssertEqual(try storedText("ca_bundle"), authority)
        let server = TestCertificates.server
        let overridden = try cli(["config", "get", "ca_bundle", "--json"], environment: ["VTOURIST_CA_BUNDLE": server])
        assertOK(overridden)
        let entry = try JSONDecoder().decode(Entry.self, from: Data(overridden.stdout.utf8))
        XCTAssertEqual(entry, Entry(name: "ca_bundle", value: server, origin: "environment", variable: "VTOURIST_CA_BUNDLE"))
        let ignored = try cli(["config", "get", "ca_bundle"], environment: ["VTOURIST_CA_BUNDLE": "/nonexistent/ca.pem"])
        XCTAssertEqual(ignored.stdout, authority + "\n", "an invalid variable overrides nothing")
        XCTAssertEqual(ignored.stderr, "vtourist: VTOURIST_CA_BUNDLE was ignored: \(rule); there is no file \u{201C}/nonexistent/ca.pem\u{201D}.\n")
        XCTAssertEqual(try cli(["config", "unset", "ca_bundle"]).stdout, "ca_bundle is not set (default)\n")
    }

    func testATenThousandCharacterValue() throws {
        let huge = String(repeating: "7", count: 10_000)
        try assertRefused(["config", "set", "photos_per_collection", huge],
                          message: "cannot set photos_per_collection to “77777777777777777777…”: " + rangePhotos)
        try assertRefused(["config", "set", "flickr_api_key", huge],
                          message: "cannot set flickr_api_key: \(keyRule); this one is 10000 characters long")
        try assertRefused(["config", "set", String(repeating: "n", count: 10_000), "1"],
                          message: "unknown setting “nnnnnnnnnnnnnnnnnnnn…”; the settings are: source, flickr_api_key, "
                            + "area_half_width, photos_per_collection, confirm_delete, allow_drag, contact, "
                            + "large_cache_mb, slideshow_seconds, ca_bundle")
    }

    func testControlCharacters() throws {
        try assertRefused(["config", "set", "source", "\u{1B}[2Jflickr\u{7}"],
                          message: "cannot set source to “flickr”: the photo source must be flickr or commons")
        try assertRefused(["config", "set", "flickr_api_key", "0123456789\u{1B}abcdef"],
                          message: "cannot set flickr_api_key: \(keyRule); this one has a control character in it")
    }

    func testMalformedAndEmptyKeys() throws {
        try assertRefused(["config", "set", "flickr_api_key", ""], message: "cannot set flickr_api_key: \(keyRule); this one is empty")
        try assertRefused(["config", "set", "flickr_api_key", " \n "], message: "cannot set flickr_api_key: \(keyRule); this one is empty")
        try assertRefused(["config", "set", "flickr_api_key", "0123456789 abcdef0123"],
                          message: "cannot set flickr_api_key: \(keyRule); this one has a space in it")
        try assertRefused(["config", "set", "flickr_api_key", "0123456789abcdef&x=1"],
                          message: "cannot set flickr_api_key: \(keyRule); this one has “&” in it")
    }

    /// A stored key stays when a bad one is refused.
    func testARefusedValueLeavesTheStoredOne() throws {
        assertOK(try cli(["config", "set", "flickr_api_key", key]))
        let r = try cli(["config", "set", "flickr_api_key", "not a key"])
        XCTAssertEqual(r.status, 64)
        XCTAssertEqual(try storedText("flickr_api_key"), key)
        XCTAssertFalse(r.stderr.contains("not a key"))
    }

    /// A good value the database cannot take is no fault of the command line: status 1, one line.
    func testAGoodValueWhereNoDatabaseCanBeIsAFailure() throws {
        let file = try temporaryDirectory().appendingPathComponent("file").path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        let r = try cli(["config", "set", "source", "flickr", "--db", file + "/vt.sqlite"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.hasPrefix("vtourist: "), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr)
    }

    func testMisusedArguments() throws {
        for arguments in [["config", "set", "source"], ["config", "set", "source", "flickr", "commons"],
                          ["config", "set", "source", "--bogus"], ["config", "get"]] {
            let r = try cli(arguments)
            XCTAssertEqual(r.status, 64, "\(arguments)")
            XCTAssertTrue(r.stderr.hasPrefix("Error: "), "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stdout, "")
        }
        // After --, a value may start with a dash.
        let r = try cli(["config", "set", "allow_drag", "--", "no"])
        assertOK(r)
    }

    func testAnInvalidStoredValueIsReportedAndReadsAsTheDefault() throws {
        assertOK(try cli(["config", "set", "photos_per_collection", "30"]))
        let update = try runProcess("/usr/bin/sqlite3", [try db, "UPDATE setting SET value = 'lots' WHERE key = 'photos_per_collection';"])
        XCTAssertEqual(update.status, 0, update.stderr)
        let r = try cli(["config", "get", "photos_per_collection", "--json"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(try JSONDecoder().decode(Entry.self, from: Data(r.stdout.utf8)),
                       Entry(name: "photos_per_collection", value: "21", origin: "default"))
        XCTAssertEqual(r.stderr, "vtourist: The stored photos per collection “lots” was ignored: \(rangePhotos).\n")
    }

    // MARK: The contact in the User-Agent

    func testTheContactSettingGoesOutInEveryRequestsUserAgent() throws {
        let db = try temporaryDirectory().appendingPathComponent("ua.sqlite").path
        var r = try cli(["drop", "40.85", "14.27", "--wait", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        let before = server.userAgents()
        XCTAssertFalse(before.isEmpty)
        // One User-Agent: the program's version, as --version prints it, and no placeholder address.
        let version = try cli(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(Set(before), ["vtourist/\(version) (terminal Virtual Tourist)"])
        try assertRefused(["config", "set", "contact", "not an address", "--db", db],
                          message: "cannot set contact to “not an address”: a contact is an e-mail address (name@example.org) or a web address (https://…), up to 200 characters")
        r = try cli(["config", "set", "contact", "tourist@example.org", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try cli(["drop", "41.89", "12.51", "--wait", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        let after = Array(server.userAgents().dropFirst(before.count))
        XCTAssertFalse(after.isEmpty)
        XCTAssertEqual(Set(after), ["vtourist/\(version) (terminal Virtual Tourist; tourist@example.org)"])
    }
}
