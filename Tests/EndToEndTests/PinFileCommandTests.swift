import Foundation
import TestSupport
import XCTest

/// `vtourist export` and `vtourist import` through the real binary: both formats, the round trip,
/// duplicates, `import --wait` against the local photo stand-in, and every bad input refused whole.
final class PinFileCommandTests: EndToEndTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try temporaryDirectory()
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        let p = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    /// Pins dropped at three places, one of them far from any named place.
    func droppedDatabase() throws -> String {
        let db = path("source.sqlite")
        for place in [["40.85", "14.27"], ["--", "-33.9", "151.2"], ["--", "-45.1234567", "-120.7654321"]] {
            let r = try cli(["drop", "--db", db] + place)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        return db
    }

    struct Listed: Decodable, Equatable {
        var latitude: Double
        var longitude: Double
        var name: String?
        var createdAt: String
    }

    func listed(_ db: String) throws -> [Listed] {
        let r = try cli(["pins", "--json", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONDecoder().decode([Listed].self, from: Data(r.stdout.utf8))
    }

    func testRoundTripInBothFormats() throws {
        let source = try droppedDatabase()
        let original = try listed(source)
        XCTAssertEqual(original.count, 3)
        for format in ["geojson", "gpx"] {
            let exported = try cli(["export", "--format", format, "--db", source])
            XCTAssertEqual(exported.status, 0, exported.stderr)
            XCTAssertEqual(exported.stderr, "")
            let file = try write("pins.\(format)", exported.stdout)
            let fresh = path("fresh-\(format).sqlite")
            let imported = try cli(["import", file, "--db", fresh])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            XCTAssertEqual(imported.stderr, "added 3 pins, skipped 0 duplicates, 0 not points\n")
            XCTAssertEqual(imported.stdout, "")
            XCTAssertEqual(try listed(fresh), original, format)
            // The new albums are left downloading for the app, as `drop` leaves them.
            XCTAssertEqual(try pins(db: fresh).map(\.state), ["downloading", "downloading", "downloading"])
            // Again into the same database: every pin is already there.
            let again = try cli(["import", file, "--db", fresh])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertEqual(again.stderr, "added 0 pins, skipped 3 duplicates, 0 not points\n")
            XCTAssertEqual(try listed(fresh).count, 3)
        }
    }

    func testExportFormats() throws {
        let source = try droppedDatabase()
        let geojson = try cli(["export", "--db", source])
        XCTAssertEqual(geojson.status, 0, geojson.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(object["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 3)
        let geometry = try XCTUnwrap(features[0]["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["coordinates"] as? [Double], [14.27, 40.85])
        let properties = try XCTUnwrap(features[0]["properties"] as? [String: Any])
        XCTAssertEqual(properties["photos"] as? Int, 0)
        XCTAssertNotNil(properties["name"] as? String)
        XCTAssertNotNil(properties["created"] as? String)

        let gpx = try cli(["export", "--format", "gpx", "--db", source])
        XCTAssertEqual(gpx.status, 0, gpx.stderr)
        XCTAssertTrue(gpx.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\""), gpx.stdout)
        XCTAssertTrue(gpx.stdout.contains("<wpt lat=\"-45.1234567\" lon=\"-120.7654321\">"), gpx.stdout)

        try makeEmptyDatabase(path("empty.sqlite"))
        let empty = try cli(["export", "--db", path("empty.sqlite")])
        XCTAssertEqual(empty.stdout, "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
        let bad = try cli(["export", "--format", "kml", "--db", source])
        XCTAssertNotEqual(bad.status, 0)
    }

    func testDuplicatesAndOtherGeometriesAreCounted() throws {
        let db = path("dups.sqlite")
        let file = try write("mixed.geojson", """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [14.27, 40.85]}, "properties": {"name": "Naples"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [14.270000001, 40.85]}, "properties": {"name": "Naples"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [14.27, 40.85]}, "properties": {"name": "Napoli"}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, "properties": {}},
              {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}, "properties": {}}
            ]}
            """)
        let r = try cli(["import", file, "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "added 2 pins, skipped 1 duplicate, 2 not points\n")
        XCTAssertEqual(try listed(db).map(\.name), ["Naples", "Napoli"])
    }

    func testImportWaitDownloadsEveryAlbum() throws {
        let db = path("wait.sqlite")
        let file = try write("two.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="40.85" lon="14.27"><name>Naples</name></wpt>
              <wpt lat="48.85" lon="2.35"><name>Paris</name></wpt>
            </gpx>
            """)
        let r = try cli(["import", file, "--wait", "--db", db], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("added 2 pins, skipped 0 duplicates, 0 not points\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("Albums 2/2 done"), r.stderr)
        let listed = try pins(db: db)
        XCTAssertEqual(listed.map(\.state), ["ready", "ready"])
        XCTAssertEqual(listed.map(\.downloaded), [21, 21])
    }

    func testImportWaitFailsWhenASearchFails() throws {
        let db = path("refused-key.sqlite")
        let file = try write("one.geojson", #"{"type":"Feature","geometry":{"type":"Point","coordinates":[14.27,40.85]},"properties":{"name":"Naples"}}"#)
        let r = try cli(["import", file, "--wait", "--db", db], environment: ["FLICKR_API_KEY": "bad-key"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("added 1 pin, skipped 0 duplicates, 0 not points\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("vtourist: the photo search failed for 1 of 1 imported pins (pin 1: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("API key"), r.stderr)
        // The pin stays, its album failed: the app offers a retry, as after `drop --wait`.
        XCTAssertEqual(try pins(db: db).map(\.state), ["failed"])
    }

    /// A refused file: exit 64 (bad input, or 1 where given), one line on stderr, and nothing stored
    /// (not even a database file).
    func assertRefused(_ file: String, _ message: String, status: Int32 = 64,
                       file sourceFile: StaticString = #filePath, line: UInt = #line) throws {
        let db = path("refused.sqlite")
        let r = try cli(["import", file, "--db", db])
        XCTAssertEqual(r.status, status, file: sourceFile, line: line)
        XCTAssertEqual(r.stdout, "", file: sourceFile, line: line)
        XCTAssertEqual(r.stderr, "vtourist: cannot import \(file): \(message)\n", file: sourceFile, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "a refused file left a database", file: sourceFile, line: line)
    }

    func testBadInputIsRefusedWhole() throws {
        let whole = "; nothing was imported"
        try assertRefused(try write("empty.geojson", ""), "the file is empty" + whole)
        try assertRefused(try write("truncated.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2"#),
                          "malformed JSON: Unexpected end of file during JSON parse" + whole)
        try assertRefused(try write("truncated.gpx", "<?xml version=\"1.0\"?>\n<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>a</name></wpt>\n"),
                          "malformed XML at line 3: the document ends before </gpx> (truncated?)" + whole)
        try assertRefused(try write("malformed.geojson", #"{"type": "FeatureCollection", "features": [,]}"#),
                          "malformed JSON: Invalid value around character 43" + whole)
        try assertRefused(try write("malformed.gpx", "<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>a & b</name></wpt>\n</gpx>\n"),
                          "malformed XML at line 2: an & that starts no entity (write &amp;)" + whole)
        try assertRefused(try write("range.geojson", """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[2,95]},"properties":{}}]}
            """), "feature 2: latitude 95 is outside −90…90" + whole)
        try assertRefused(try write("range.gpx", "<gpx>\n<wpt lat=\"1\" lon=\"2\"/>\n<wpt lat=\"1\" lon=\"-181\"/>\n</gpx>\n"),
                          "line 3: waypoint longitude -181 is outside −180…180" + whole)
        try assertRefused(try write("pins.csv", "latitude,longitude\n1,2\n"),
                          "neither GeoJSON nor GPX (expected a JSON object or a <gpx> document)" + whole)
        try assertRefused(try write("page.xml", "<html><body/></html>"),
                          "neither GeoJSON nor GPX (expected a JSON object or a <gpx> document)" + whole)
        try assertRefused(path("missing.gpx"), "no such file")
        try assertRefused(folder.path, "a folder, not a GeoJSON or GPX file")
    }

    /// A file that is there but cannot be read is no fault of the command line: status 1. (The
    /// process's own memory file opens, and its first read fails, even for root.)
    func testAFileThatCannotBeReadIsAFailureNotBadInput() throws {
        try assertRefused("/proc/self/mem", "cannot read it: Input/output error", status: 1)
    }

    func testEntityBombIsRefusedAtOnce() throws {
        var bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n <!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            bomb += " <!ENTITY lol\(level) \"" + String(repeating: level == 1 ? "&lol;" : "&lol\(level - 1);", count: 10) + "\">\n"
        }
        bomb += "]>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>&lol9;</name></wpt></gpx>\n"
        // Refused before anything is expanded; its time is measured by `make bench` (bench/pin_file_bench.py).
        try assertRefused(try write("bomb.gpx", bomb),
                          "refused: the GPX declares XML entities (<!ENTITY>), which vtourist never expands; nothing was imported")
    }

    /// 100,000 points against the release binary. Against a sanitized one (`make check-address-app`)
    /// 10,000: the same paths for the sanitizer to watch, in a tenth of the time (76 s for 100,000 under
    /// AddressSanitizer, 57 s for 20,000 in CI beside the other half); the scale is the release run's
    /// to prove.
    func testAHundredThousandPoints() throws {
        let count = sanitizerEnvironment.isEmpty ? 100_000 : 10_000
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        for i in 0..<count {
            if i > 0 { text += ",\n" }
            text += "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(Double(i % 3600) / 10 - 180),\(Double(i / 3600) - 50)]},\"properties\":{\"name\":\"p\(i)\"}}"
        }
        text += "]}\n"
        let file = try write("many.geojson", text)
        let db = path("many.sqlite")
        // How long the import takes is measured by `make bench` (bench/pin_file_bench.py), never asserted here.
        let r = try cli(["import", file, "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "added \(count) pins, skipped 0 duplicates, 0 not points\n")
        let exported = try cli(["export", "--format", "gpx", "--db", db])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertEqual(exported.stdout.components(separatedBy: "<wpt ").count - 1, count)
        // The GPX (over 10 MB with 100,000) comes back in whole.
        let again = try cli(["import", try write("many.gpx", exported.stdout), "--db", path("many-again.sqlite")])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "added \(count) pins, skipped 0 duplicates, 0 not points\n")
    }

    // MARK: Standard input and pipes

    /// `import -` reads standard input; `/dev/stdin` and `<(command)` are pipes, read as files are.
    func testImportReadsStandardInputAndPipes() throws {
        let bin = try vtouristBinary()
        let file = try write("one.geojson", #"{"type":"Feature","geometry":{"type":"Point","coordinates":[14.27,40.85]},"properties":{"name":"Naples"}}"#)
        let gpx = try write("one.gpx", "<gpx version=\"1.1\"><wpt lat=\"48.85\" lon=\"2.35\"><name>Paris</name></wpt></gpx>\n")
        let db = path("piped.sqlite")
        let cases: [(script: String, adds: String)] = [
            (#"cat "$2" | "$0" import - --db "$1""#, "Naples"),
            (#""$0" import /dev/stdin --db "$1" < "$3""#, "Paris"),
            (#""$0" --db "$1" import <(sed s/Naples/Napoli/ "$2")"#, "Napoli"),
        ]
        for c in cases {
            let r = try runProcess("/bin/bash", ["-c", c.script, bin, db, file, gpx], environment: environment())
            XCTAssertEqual(r.status, 0, "\(c.script): \(r.stderr)")
            XCTAssertEqual(r.stderr, "added 1 pin, skipped 0 duplicates, 0 not points\n", c.script)
        }
        XCTAssertEqual(try listed(db).map(\.name), ["Naples", "Paris", "Napoli"])
        // Standard input is refused whole too, and named as such.
        let bad = try runProcess("/bin/bash", ["-c", #"printf 'latitude,longitude' | "$0" import - --db "$1""#, bin, path("bad.sqlite")],
                                 environment: environment())
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, "vtourist: cannot import standard input: neither GeoJSON nor GPX "
                       + "(expected a JSON object or a <gpx> document); nothing was imported\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("bad.sqlite")))
    }

    // MARK: Coordinates as numbers

    /// A coordinate with float noise in the database is written with at most 7 decimals by
    /// `pins --json`, `album --json`, both export formats and the table.
    func testCoordinatesAreWrittenWithoutFloatNoise() throws {
        let db = path("noise.sqlite")
        XCTAssertEqual(try cli(["drop", "40.8522", "14.2681", "--db", db]).status, 0)
        let noisy = try runProcess("/usr/bin/sqlite3", [db, "UPDATE pin SET latitude = 40.852199999999996, longitude = 14.268110000000007;"])
        XCTAssertEqual(noisy.status, 0, noisy.stderr)
        let outputs = [
            try cli(["pins", "--json", "--db", db]), try cli(["album", "1", "--json", "--db", db]),
            try cli(["export", "--db", db]), try cli(["export", "--format", "gpx", "--db", db]), try cli(["pins", "--db", db]),
        ]
        for r in outputs {
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(r.stdout.contains("0000000"), r.stdout)
            XCTAssertFalse(r.stdout.contains("9999999"), r.stdout)
        }
        XCTAssertTrue(outputs[0].stdout.contains("\"latitude\" : 40.8522,"), outputs[0].stdout)
        XCTAssertTrue(outputs[0].stdout.contains("\"longitude\" : 14.26811,"), outputs[0].stdout)
        XCTAssertTrue(outputs[1].stdout.contains("\"longitude\" : 14.26811,"), outputs[1].stdout)
        XCTAssertTrue(outputs[2].stdout.contains("\"coordinates\":[14.26811,40.8522]"), outputs[2].stdout)
        XCTAssertTrue(outputs[3].stdout.contains("<wpt lat=\"40.8522\" lon=\"14.26811\">"), outputs[3].stdout)
        XCTAssertTrue(outputs[4].stdout.contains(" 40.8522 "), outputs[4].stdout)
        XCTAssertTrue(outputs[4].stdout.contains(" 14.26811 "), outputs[4].stdout)
        // Seven decimals survive, and tiny numbers have no exponent.
        let fine = try runProcess("/usr/bin/sqlite3", [db, "UPDATE pin SET latitude = -45.1234567, longitude = 0.00001;"])
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertTrue(try cli(["pins", "--json", "--db", db]).stdout.contains("\"longitude\" : 0.00001,"))
        XCTAssertTrue(try cli(["export", "--db", db]).stdout.contains("\"coordinates\":[0.00001,-45.1234567]"))
    }
}
