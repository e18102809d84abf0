import Foundation
import TestSupport
import XCTest

/// `vtourist import FILE --along KM` through the real binary and a real database: gpxpy's GPX files
/// (Tests/Fixtures/gpx), pins named by the nearest place, a second import adding nothing, the hint
/// for a file of tracks only, and every bad KM refused before anything is stored.
final class ImportAlongTests: EndToEndTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpx")

    var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try temporaryDirectory()
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        let p = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    /// Kilometres east along the equator, in degrees.
    func degrees(_ km: Double) -> Double { km / (6371.0088 * .pi / 180) }

    func testARealRouteEveryKilometreNamedByTheNearestPlaceAndOnlyOnce() throws {
        let db = path("route.sqlite")
        let r = try cli(["import", fixture("route.gpx"), "--along", "1", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "added 7 pins (7 along tracks), skipped 0 duplicates, 0 not points or lines\n")
        let listed = try pins(db: db)
        XCTAssertEqual(listed.count, 7)
        XCTAssertEqual(listed.map(\.state), Array(repeating: "downloading", count: 7))
        // Named as drop names a pin at the same point.
        let first = try XCTUnwrap(listed.first)
        let dropped = path("drop.sqlite")
        let drop = try cli(["drop", "--db", dropped, "--", "\(first.latitude)", "\(first.longitude)"])
        XCTAssertEqual(drop.status, 0, drop.stderr)
        let expectedName = try XCTUnwrap(try pins(db: dropped).first?.name)
        XCTAssertEqual(first.name, expectedName)
        XCTAssertTrue(listed.allSatisfy { $0.name != nil }, "\(listed)")

        let again = try cli(["import", fixture("route.gpx"), "--along", "1", "--db", db])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "added 0 pins (0 along tracks), skipped 7 duplicates, 0 not points or lines\n")
        XCTAssertEqual(try pins(db: db).count, 7)
        // Every 2 km now: the pins every km stand where these would, so none is added either.
        let coarser = try cli(["import", fixture("route.gpx"), "--along=2", "--db", db])
        XCTAssertEqual(coarser.status, 0, coarser.stderr)
        XCTAssertEqual(try pins(db: db).count, 7, coarser.stderr)
    }

    /// `import - --along KM` reads the tracks from standard input as from the file (and a pipe of
    /// tracks only gets the hint, naming standard input's way of saying it).
    func testAlongReadsStandardInput() throws {
        let bin = try vtouristBinary()
        let db = path("stdin.sqlite")
        let r = try runProcess("/bin/bash", ["-c", #""$0" import - --along 1 --db "$1" < "$2""#, bin, db, fixture("route.gpx")],
                               environment: environment())
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "added 7 pins (7 along tracks), skipped 0 duplicates, 0 not points or lines\n")
        let fromFile = path("file.sqlite")
        XCTAssertEqual(try cli(["import", fixture("route.gpx"), "--along", "1", "--db", fromFile]).status, 0)
        XCTAssertEqual(try pins(db: db).map(\.name), try pins(db: fromFile).map(\.name), "the same pins as from the file")
        let hint = try runProcess("/bin/bash", ["-c", #"cat "$2" | "$0" import - --db "$1""#, bin, path("hint.sqlite"), fixture("route.gpx")],
                                  environment: environment())
        XCTAssertEqual(hint.status, 0, hint.stderr)
        XCTAssertTrue(hint.stderr.contains("--along 10"), hint.stderr)
    }

    func testAlongWithWaitDownloadsTheirAlbums() throws {
        let db = path("wait.sqlite")
        let r = try cli(["import", fixture("route.gpx"), "--along", "2", "--wait", "--db", db], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("added 2 pins (2 along tracks), skipped 0 duplicates, 0 not points or lines\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("Albums 2/2 done"), r.stderr)
        XCTAssertEqual(try pins(db: db).map(\.state), ["ready", "ready"])
    }

    func testEveryFixtureImportsAlongTenKilometres() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".gpx") }.sorted()
        XCTAssertEqual(names.count, 28)
        for (i, name) in names.enumerated() {
            let db = path("fixture-\(i).sqlite")
            let r = try cli(["import", fixture(name), "--along", "10", "--db", db])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("added "), "\(name): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("vtourist:"), "\(name): \(r.stderr)")
            let text = try String(contentsOfFile: fixture(name), encoding: .utf8)
            let hasPoints = text.contains("<wpt") || text.contains("<trkpt") || text.contains("<rtept")
            let stored = try pins(db: db)
            XCTAssertEqual(r.stderr.split(separator: " ").dropFirst().first.flatMap { Int($0) }, stored.count, "\(name): \(r.stderr)")
            if hasPoints { XCTAssertGreaterThan(stored.count, 0, name) } else { XCTAssertEqual(stored.count, 0, name) }
        }
    }

    func testAKnownTrackGivesItsCount() throws {
        // 195.5 km in 10 points: start, every 10 km to 190, and the end 5.5 km on.
        let r = try cli(["import", fixture("first_and_last_elevation.gpx"), "--along", "10", "--db", path("t.sqlite")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "added 21 pins (21 along tracks), skipped 0 duplicates, 0 not points or lines\n")
        // Waypoints stay and take the place of the points beside them: 7 waypoints, the tracks within 5 km.
        // One of its 8 tracks has no point: neither a point nor a line. The counts along the tracks
        // (0 at 10 km, 2 at 1 km) are those scripts/gpx_along_counts.py reckons from the rule.
        let lake = try cli(["import", fixture("cerknicko-jezero.gpx"), "--along", "10", "--db", path("c.sqlite")])
        XCTAssertEqual(lake.status, 0, lake.stderr)
        XCTAssertEqual(lake.stderr, "added 7 pins (0 along tracks), skipped 0 duplicates, 1 not a point or line\n")
        let everyKm = try cli(["import", fixture("cerknicko-jezero.gpx"), "--along", "1", "--db", path("c1.sqlite")])
        XCTAssertEqual(everyKm.stderr, "added 9 pins (2 along tracks), skipped 0 duplicates, 1 not a point or line\n")
    }

    func testWaypointsAndLinesOfAGeoJSONFile() throws {
        let file = try write("trip.geojson", """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [\(degrees(11)), 0]}, "properties": {"name": "Camp"}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [\(degrees(25)), 0]]}, "properties": {}},
              {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}, "properties": {}}
            ]}
            """)
        let db = path("trip.sqlite")
        let r = try cli(["import", file, "--along", "10", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Camp, then 0, 20 and 25 km (10 km is within 5 km of Camp).
        XCTAssertEqual(r.stderr, "added 4 pins (3 along tracks), skipped 0 duplicates, 1 not a point or line\n")
        let listed = try pins(db: db)
        XCTAssertEqual(listed.first?.name, "Camp")
        XCTAssertEqual(listed.map { ($0.longitude / degrees(1)).rounded() }, [11, 0, 20, 25])
        // In the Gulf of Guinea, more than 100 km from any place: no names.
        XCTAssertEqual(listed.dropFirst().map(\.name), [nil, nil, nil])
    }

    func testAFileOfTracksOnlySuggestsAlong() throws {
        let r = try cli(["import", fixture("Mojstrovka.gpx"), "--db", path("m.sqlite")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "added 0 pins, skipped 0 duplicates, 1 not a point\n"
            + "the file has no points, only 1 track or route: add --along 10 to drop a pin every 10 km along it\n")
        let lines = try write("lines.geojson", """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
              {"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": [[[2, 2], [3, 3]]]}}
            ]}
            """)
        let g = try cli(["import", lines, "--db", path("g.sqlite")])
        XCTAssertEqual(g.status, 0, g.stderr)
        XCTAssertEqual(g.stderr, "added 0 pins, skipped 0 duplicates, 2 not points\n"
            + "the file has no points, only 2 lines: add --along 10 to drop a pin every 10 km along them\n")
        // A track without a point (gpxpy's unicode2.gpx) is not worth the hint.
        let empty = try cli(["import", fixture("unicode2.gpx"), "--db", path("u.sqlite")])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stderr, "added 0 pins, skipped 0 duplicates, 1 not a point\n")
        // A file with waypoints too says nothing more.
        let w = try cli(["import", fixture("korita-zbevnica.gpx"), "--db", path("k.sqlite")])
        XCTAssertEqual(w.stderr, "added 2 pins, skipped 0 duplicates, 4 not points\n")
    }

    func testBadDistancesAreRefusedBeforeAnythingIsStored() throws {
        let allowed = "a distance in kilometres from 0.1 to 20000"
        let cases: [([String], String)] = [
            (["--along", "0"], "--along 0 is out of range: it takes \(allowed)"),
            (["--along", "-5"], "--along -5 is out of range: it takes \(allowed)"),
            (["--along=-5"], "--along -5 is out of range: it takes \(allowed)"),
            (["--along", "20001"], "--along 20001 is out of range: it takes \(allowed)"),
            (["--along", "nan"], "--along takes \(allowed), not nan"),
            (["--along", "inf"], "--along takes \(allowed), not inf"),
            (["--along", "ten"], "--along takes \(allowed) (e.g. --along 10), not \u{201C}ten\u{201D}"),
            (["--along", ""], "--along takes \(allowed) (e.g. --along 10), not \u{201C}\u{201D}"),
        ]
        let db = path("refused.sqlite")
        for (options, message) in cases {
            let r = try cli(["import", fixture("route.gpx")] + options + ["--db", db])
            XCTAssertEqual(r.status, 64, "\(options)")
            XCTAssertEqual(r.stdout, "", "\(options)")
            XCTAssertEqual(r.stderr, "vtourist: \(message)\n", "\(options)")
        }
        // Before the file too: a missing file with a bad KM is told about the KM.
        let missing = try cli(["import", path("missing.gpx"), "--along", "0", "--db", db])
        XCTAssertEqual(missing.stderr, "vtourist: --along 0 is out of range: it takes \(allowed)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "a refused KM left a database")
        let none = try cli(["import", fixture("route.gpx"), "--along", "--db", db])
        XCTAssertEqual(none.status, 64, none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
    }

    func testTooManyPointsAreRefusedWithAKMThatWouldDo() throws {
        let file = try write("long.geojson", #"{"type":"LineString","coordinates":[[0,0],["# + "\(degrees(1000))" + #",0]]}"#)
        let db = path("long.sqlite")
        let r = try cli(["import", file, "--along", "0.1", "--db", db])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertEqual(r.stderr, "vtourist: cannot import \(file): --along 0.1 would put up to 10001 points along the lines, "
            + "more than 10000: try --along 0.2 or more\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        let fine = try cli(["import", file, "--along", "0.2", "--db", db])
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertEqual(fine.stderr, "added 5001 pins (5001 along tracks), skipped 0 duplicates, 0 not points or lines\n")
    }

    func testABadTrackPointRefusesTheFileOnlyWithAlong() throws {
        let file = try write("bad.gpx", "<gpx>\n<wpt lat=\"46\" lon=\"14\"><name>Here</name></wpt>\n<trk><trkseg>\n<trkpt lat=\"95\" lon=\"14\"/>\n</trkseg></trk>\n</gpx>\n")
        let db = path("bad.sqlite")
        let r = try cli(["import", file, "--along", "10", "--db", db])
        XCTAssertEqual(r.status, 64)
        XCTAssertEqual(r.stderr, "vtourist: cannot import \(file): line 4: track point latitude 95 is outside −90…90; nothing was imported\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        let plain = try cli(["import", file, "--db", db])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stderr, "added 1 pin, skipped 0 duplicates, 1 not a point\n")
    }

    /// 100,000 points against the release binary; against a sanitized one (`make check-address-app`)
    /// 20,000, the same paths in a fifth of the time (36 s for 100,000 under AddressSanitizer); the
    /// scale is the release run's to prove.
    func testAHundredThousandPointTrack() throws {
        // `count` points 10 m apart northwards from the equator: count / 100 km less 10 m.
        let count = sanitizerEnvironment.isEmpty ? 100_000 : 20_000
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\"><trk><name>long</name><trkseg>\n"
        let step = degrees(0.01)
        for i in 0..<count { text += "<trkpt lat=\"\(Double(i) * step)\" lon=\"20\"><ele>10</ele></trkpt>\n" }
        text += "</trkseg></trk></gpx>\n"
        let file = try write("long.gpx", text)
        // How long it takes is never asserted here (the manual gives it, measured on a release build).
        let r = try cli(["import", file, "--along", "10", "--db", path("long.sqlite")])
        XCTAssertEqual(r.status, 0, r.stderr)
        // A pin at the start and every 10 km, and one at the end (100,000 points: 999.99 km, pins at 0 to
        // 990 km and at 999.99, 101 in all; 20,000: 0 to 190 and 199.99, 21).
        let pins = count / 1_000 + 1
        XCTAssertEqual(r.stderr, "added \(pins) pins (\(pins) along tracks), skipped 0 duplicates, 0 not points or lines\n")
    }
}
