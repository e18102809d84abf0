import Foundation
import TestSupport
import XCTest

/// The album filter on the command line, through the real binary against the local stand-in: `drop`'s
/// options reach the search and the store, `album --json` and `pins --json` show them, export and
/// import carry them, every bad one is refused before anything is stored, and a kill -9 of
/// `drop --wait` keeps the filter for the app to resume with.
final class FilterCommandLineTests: EndToEndTestCase {
    let flickr: [String: String?] = ["FLICKR_API_KEY": "good-key"]

    struct Filter: Decodable, Equatable {
        struct Taken: Decodable, Equatable { var from: String?; var to: String? }
        var text: String?
        var tags: [String]
        var taken: Taken
        var sort: String
    }

    struct Album: Decodable {
        struct Pin: Decodable { var id: Int64; var filter: Filter? }
        var pin: Pin
        var state: String
        var filter: Filter?
    }

    func album(_ id: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws -> Album {
        let r = try cli(["album", id, "--json", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try JSONDecoder().decode(Album.self, from: Data(r.stdout.utf8))
    }

    func path(_ name: String) throws -> String { try temporaryDirectory().appendingPathComponent(name).path }

    /// The options reach Flickr's search as its parameters, the store keeps them (each later process
    /// reads them back), a search that matches nothing ends empty, and both pin files carry them.
    func testTheFilterIsSearchedStoredListedExportedAndImported() throws {
        let db = try path("filter.sqlite")
        let r = try cli(["drop", "40.85", "14.27", "--text", "street food", "--tags", "market, night", "--taken", "2019..2023",
                         "--sort", "recent", "--wait", "--db", db], environment: flickr)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "1\n")
        let asked = try XCTUnwrap(server.searchRequests().last.map(PhotoServer.parameters), "no search reached the server")
        XCTAssertEqual(asked["text"], "street food")
        XCTAssertEqual(asked["tags"], "market,night")
        XCTAssertEqual(asked["tag_mode"], "all")
        XCTAssertEqual(asked["min_taken_date"], "2019-01-01 00:00:00")
        XCTAssertEqual(asked["max_taken_date"], "2023-12-31 23:59:59")
        XCTAssertEqual(asked["sort"], "date-taken-desc")
        let expected = Filter(text: "street food", tags: ["market", "night"], taken: .init(from: "2019", to: "2023"), sort: "recent")
        let stored = try album("1", db: db)
        XCTAssertEqual(stored.state, "ready")
        XCTAssertEqual(stored.filter, expected)
        XCTAssertEqual(stored.pin.filter, expected)

        // Nothing matches: the album ends empty, not failed, and says so.
        let none = try cli(["drop", "41.89", "12.51", "--text", "nomatch", "--wait", "--db", db], environment: flickr)
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertTrue(none.stderr.contains("No photos match \u{201C}nomatch\u{201D} here (pin 2)"), none.stderr)
        XCTAssertEqual(try album("2", db: db).state, "empty")
        // Without options: no filter, and nothing of one asked.
        XCTAssertEqual(try cli(["drop", "48.85", "2.35", "--db", db]).status, 0)

        let listed = try JSONDecoder().decode([Album.Pin].self, from: Data(try cli(["pins", "--json", "--db", db]).stdout.utf8))
        XCTAssertEqual(listed.map(\.filter), [expected, Filter(text: "nomatch", tags: [], taken: .init(), sort: "interesting"), nil])

        for format in ["geojson", "gpx"] {
            let exported = try cli(["export", "--format", format, "--db", db])
            XCTAssertEqual(exported.status, 0, exported.stderr)
            let file = try path("pins.\(format)")
            try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: file))
            let fresh = try path("fresh-\(format).sqlite")
            let imported = try cli(["import", file, "--db", fresh])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            let again = try JSONDecoder().decode([Album.Pin].self, from: Data(try cli(["pins", "--json", "--db", fresh]).stdout.utf8))
            XCTAssertEqual(again.map(\.filter), listed.map(\.filter), format)
        }
    }

    /// Every bad filter of the command line and of a pin file: status 64, one line naming the field,
    /// no pin and no database.
    func testEveryBadFilterIsOneLineAndAddsNoPin() throws {
        let db = try path("refused.sqlite")
        let cases: [(words: [String], says: String)] = [
            (["--text", String(repeating: "a", count: 101)], "text: 101 characters, at most 100"),
            (["--text", "a\u{7}b"], "text: control characters are not allowed"),
            (["--text", "   "], "text: only spaces: type some words, or leave it empty"),
            (["--tags", ""], "tags: empty: give tags separated by commas"),
            (["--tags", "a,,b"], "tags: an empty tag (two commas in a row?)"),
            (["--tags", (1...21).map { "t\($0)" }.joined(separator: ",")], "tags: 21 tags, at most 20"),
            (["--taken", "2023..2019"], "taken: from 2023 comes after to 2019: swap them"),
            (["--taken", "2023-02-30"], "taken: date 2023-02-30 is not a day of the calendar"),
            (["--taken", "9999.."], "taken: from 9999 is in the future (today is "),
            (["--taken", "1700..1800"], "taken: from 1700 is before 1826, the first photograph"),
            (["--sort", "newest"], "sort: unknown order \u{201C}newest\u{201D}: use interesting, recent, relevant"),
            (["--sort", "relevant"], "sort: relevant orders by the text: give some text, or choose interesting or recent"),
            (["--text", "street", "food"], "\u{201C}food\u{201D} follows --text street: quote text of several words "
                + "(--text \"street food\"); the place words go before the filter options"),
        ]
        for c in cases {
            let r = try cli(["drop", "Naples", "--wait", "--db", db] + c.words, environment: flickr)
            XCTAssertEqual(r.status, 64, "\(c.words): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(c.words)")
            // The whole line, but for today's date where it is named.
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "\(c.words): \(r.stderr)")
            if c.says.hasSuffix("(today is ") {
                XCTAssertTrue(r.stderr.hasPrefix("vtourist: " + c.says), "\(c.words): \(r.stderr)")
            } else {
                XCTAssertEqual(r.stderr, "vtourist: " + c.says + "\n", "\(c.words)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "a refused drop created the database")
        XCTAssertEqual(server.searchRequests(), [], "a refused drop searched")

        let file = try path("bad.geojson")
        try Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}},{"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":{"filter":{"taken":{"from":"2023","to":"2019"}}}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let r = try cli(["import", file, "--db", db])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertEqual(r.stderr, "vtourist: cannot import \(file): feature 2: bad filter: taken: from 2023 comes after to 2019: "
                       + "swap them; nothing was imported\n")
        XCTAssertEqual(try pins(db: db), [])
    }

    /// kill -9 of `drop --wait` while its filtered search is under way: the pin keeps its filter, and the
    /// app, started afterwards, searches again with it and finishes the album.
    func testAKilledDropKeepsTheFilterAndTheAppResumesWithIt() throws {
        server.set(.holdSearch, true)
        let db = try path("killed.sqlite")
        let drop = try session([try vtouristBinary(), "drop", "40.85", "14.27", "--text", "castle", "--sort", "relevant",
                                "--wait", "--db", db], width: 100, height: 10, environment: flickr)
        try waitFor("the search to reach the server") { server.searchRequests().isEmpty ? nil : true }
        let pid = try XCTUnwrap(drop.appPID)
        XCTAssertEqual(kill(pid, SIGKILL), 0)
        XCTAssertEqual(drop.waitForExit(), 128 + SIGKILL)
        let expected = Filter(text: "castle", tags: [], taken: .init(), sort: "relevant")
        let killed = try album("1", db: db)
        XCTAssertEqual(killed.state, "downloading")
        XCTAssertEqual(killed.filter, expected)

        server.set(.holdSearch, false)
        let app = try app(db, environment: flickr)
        let done = try waitFor("the album to be finished") { () -> Album? in
            let a = try album("1", db: db)
            return a.state == "ready" ? a : nil
        }
        XCTAssertEqual(done.filter, expected)
        let searches = server.searchRequests().map(PhotoServer.parameters)
        XCTAssertGreaterThanOrEqual(searches.count, 2, "the app did not search again")
        XCTAssertTrue(searches.allSatisfy { $0["text"] == "castle" && $0["sort"] == "relevance" }, "\(searches)")
        try app.keys("q")
        XCTAssertEqual(app.waitForExit(), 0)
    }
}
