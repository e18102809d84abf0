import Foundation
import Model
import Geo
import TestSupport
import XCTest
@testable import PinFiles

final class PinFileReaderTests: XCTestCase {
    func read(_ text: String) throws -> PinFile { try PinFileReader.read(Data(text.utf8)) }

    func assertRefused(_ text: String, _ expected: PinFileError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(text), file: file, line: line) { error in
            XCTAssertEqual(error as? PinFileError, expected, file: file, line: line)
        }
    }

    // MARK: GeoJSON

    func testFeatureCollectionPointsBecomePinsAndOtherGeometriesAreCounted() throws {
        let file = try read("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.3522, 48.8566, 35]},
               "properties": {"name": " Paris ", "created": "2025-11-01T10:00:00.250Z"}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, "properties": null},
              {"type": "Feature", "geometry": null, "properties": {}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-0.12, 51.5]}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [151.2, -33.9]},
               "properties": {"name": "", "created": "yesterday"}}
            ]}
            """)
        XCTAssertEqual(file.format, .geojson)
        XCTAssertEqual(file.notPoints, 2)
        XCTAssertEqual(file.points, [
            NewPin(coordinate: GeoPoint(latitude: 48.8566, longitude: 2.3522), name: "Paris",
                   createdAt: Date(timeIntervalSince1970: 1_761_991_200.25)),
            NewPin(coordinate: GeoPoint(latitude: 51.5, longitude: -0.12), name: nil),
            NewPin(coordinate: GeoPoint(latitude: -33.9, longitude: 151.2), name: nil),
        ])
    }

    func testASingleFeatureAndABarePoint() throws {
        let feature = try read(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[14.27,40.85]},"properties":{"name":"Naples"}}"#)
        XCTAssertEqual(feature.points, [NewPin(coordinate: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")])
        let point = try read(#"{"type":"Point","coordinates":[1,2]}"#)
        XCTAssertEqual(point.points.map(\.coordinate), [GeoPoint(latitude: 2, longitude: 1)])
        let polygon = try read(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#)
        XCTAssertEqual(polygon.points, [])
        XCTAssertEqual(polygon.notPoints, 1)
    }

    func testOutOfRangeCoordinatesNameTheFeature() {
        assertRefused(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","geometry":{"type":"Point","coordinates":[10,91]}}]}"#,
                      .badPoint(place: "feature 2", detail: "latitude 91 is outside −90…90"))
        assertRefused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[-180.5,10]}}"#,
                      .badPoint(place: "feature 1", detail: "longitude -180.5 is outside −180…180"))
    }

    func testCoordinatesThatAreNotNumbers() {
        let bad = PinFileError.badPoint(place: "feature 1", detail: "a Point's coordinates must be [longitude, latitude] numbers")
        assertRefused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":["1","2"]}}"#, bad)
        assertRefused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[true,false]}}"#, bad)
        assertRefused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}"#, bad)
        assertRefused(#"{"type":"Feature","geometry":{"type":"Point"}}"#, bad)
    }

    func testMalformedAndTruncatedJSON() {
        for text in [#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Po"#, #"{"type": }"#] {
            XCTAssertThrowsError(try read(text)) { error in
                guard case .malformedJSON = error as? PinFileError else { return XCTFail("\(error)") }
            }
        }
    }

    func testJSONThatIsNotGeoJSON() {
        assertRefused(#"{"pins": []}"#, .jsonButNotGeoJSON(detail: "no \"type\" (expected FeatureCollection, Feature or Point)"))
        assertRefused(#"[1, 2]"#, .jsonButNotGeoJSON(detail: "a JSON array, not a FeatureCollection"))
        assertRefused(#"{"type":"Topology"}"#, .jsonButNotGeoJSON(detail: "unknown type \"Topology\""))
        assertRefused(#"{"type":"FeatureCollection"}"#, .jsonButNotGeoJSON(detail: "a FeatureCollection without a \"features\" array"))
    }

    func testEmptyAndNeitherFormat() {
        assertRefused("", .empty)
        assertRefused(" \n\t ", .empty)
        assertRefused("\u{FEFF}", .empty)
        assertRefused("lat,lon\n1,2\n", .neitherFormat)
        assertRefused("<html><body>hi</body></html>", .neitherFormat)
    }

    func testAHundredThousandPoints() throws {
        let n = SanitizerScale.scaled(100_000)
        var text = #"{"type":"FeatureCollection","features":["#
        for i in 0..<n {
            if i > 0 { text += "," }
            text += #"{"type":"Feature","geometry":{"type":"Point","coordinates":["# + "\(Double(i % 360) - 180),\(Double(i % 180) - 90)" + #"]},"properties":{"name":"p"# + "\(i)\"}}"
        }
        text += "]}"
        // How long it takes is measured by `make bench` (bench/pin_file_bench.py), never asserted here.
        let file = try read(text)
        XCTAssertEqual(file.points.count, n)
        XCTAssertEqual(file.points.last?.name, "p\(n - 1)")
    }

    // MARK: GPX

    func testAHundredThousandWaypoints() throws {
        let n = SanitizerScale.scaled(100_000)
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        for i in 0..<n {
            text += "  <wpt lat=\"\(Double(i % 180) - 90)\" lon=\"\(Double(i % 360) - 180)\">\n    <time>2026-11-23T12:29:05.069Z</time>\n    <name>p\(i)</name>\n  </wpt>\n"
        }
        text += "</gpx>\n"
        XCTAssertGreaterThan(text.utf8.count, n * 90)
        let file = try read(text)
        XCTAssertEqual(file.points.count, n)
        XCTAssertEqual(file.points.last?.name, "p\(n - 1)")
    }

    func testWaypointsBecomePinsRoutesAndTracksAreCounted() throws {
        let file = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="48.8566" lon="2.3522"><time>2025-11-01T10:00:00Z</time><name>Caf&#233; &amp; &lt;Bar&gt;</name></wpt>
              <wpt lat=" -33.9" lon="151.2"/>
              <rte><rtept lat="1" lon="1"/></rte>
              <trk><trkseg><trkpt lat="2" lon="2"><name>not a pin</name></trkpt></trkseg></trk>
              <wpt lat="0" lon="0"><name><![CDATA[Null <Island>]]></name></wpt>
            </gpx>
            """)
        XCTAssertEqual(file.format, .gpx)
        XCTAssertEqual(file.notPoints, 2)
        XCTAssertEqual(file.points, [
            NewPin(coordinate: GeoPoint(latitude: 48.8566, longitude: 2.3522), name: "Café & <Bar>",
                   createdAt: Date(timeIntervalSince1970: 1_761_991_200)),
            NewPin(coordinate: GeoPoint(latitude: -33.9, longitude: 151.2), name: nil),
            NewPin(coordinate: GeoPoint(latitude: 0, longitude: 0), name: "Null <Island>"),
        ])
    }

    func testOutOfRangeWaypointNamesItsLine() {
        assertRefused("<gpx>\n<wpt lat=\"1\" lon=\"2\"/>\n<wpt lat=\"1\" lon=\"200\"/>\n</gpx>",
                      .badPoint(place: "line 3", detail: "waypoint longitude 200 is outside −180…180"))
        assertRefused("<gpx>\n<wpt lat=\"-90.01\" lon=\"2\"/></gpx>",
                      .badPoint(place: "line 2", detail: "waypoint latitude -90.01 is outside −90…90"))
        assertRefused("<gpx><wpt lat=\"north\" lon=\"2\"/></gpx>",
                      .badPoint(place: "line 1", detail: "a <wpt> needs numeric lat and lon attributes"))
    }

    func testMalformedAndTruncatedXML() {
        for text in ["<gpx><wpt lat=\"1\" lon=\"2\"><name>x</name></wpt>", "<gpx><wpt lat=\"1\" lon=\"2\"></gpx>", "<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>a & b</name></wpt></gpx>"] {
            XCTAssertThrowsError(try read(text)) { error in
                guard case .malformedXML = error as? PinFileError else { return XCTFail("\(text): \(error)") }
            }
        }
    }

    func testTruncatedGPXSaysSo() {
        assertRefused("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>x</name></wpt>\n",
                      .malformedXML(line: 2, detail: "the document ends before </gpx> (truncated?)"))
        assertRefused("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>a & b</name></wpt>\n</gpx>",
                      .malformedXML(line: 2, detail: "an & that starts no entity (write &amp;)"))
    }

    func testEntityDeclarationsAreRefusedBeforeParsing() {
        var bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n <!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            bomb += " <!ENTITY lol\(level) \"" + String(repeating: level == 1 ? "&lol;" : "&lol\(level - 1);", count: 10) + "\">\n"
        }
        bomb += "]>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>&lol9;</name></wpt></gpx>\n"
        assertRefused(bomb, .entityDeclarations)
        let external = "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><gpx><wpt lat=\"1\" lon=\"2\"><name>&xxe;</name></wpt></gpx>"
        assertRefused(external, .entityDeclarations)
    }

    func testFilesOnDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinfiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertThrowsError(try PinFileReader.read(path: folder.path)) {
            XCTAssertEqual($0 as? PinFileError, .folder(path: folder.path))
        }
        let missing = folder.appendingPathComponent("nope.gpx").path
        XCTAssertThrowsError(try PinFileReader.read(path: missing)) {
            XCTAssertEqual($0 as? PinFileError, .missing(path: missing))
        }
        let good = folder.appendingPathComponent("one.gpx")
        try Data("<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>".utf8).write(to: good)
        XCTAssertEqual(try PinFileReader.read(path: good.path).points.count, 1)
    }
}

/// A refusal is one line on the terminal whatever the file quotes back.
final class PinFileErrorLineTests: XCTestCase {
    func testAValueQuotedFromTheFileCannotBreakTheLineOrReachTheTerminalRaw() {
        let files = [
            #"{"type":"FeatureCollecti\n","features":[]}"#,
            #"{"type":"Feature\u001b[2JCollection","features":[]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feat\r\nure","geometry":null}]}"#,
        ]
        for text in files {
            do {
                _ = try PinFileReader.read(Data(text.utf8))
                XCTFail("accepted \(text)")
            } catch {
                XCTAssertFalse(error.description.contains("\n"), error.description)
                XCTAssertFalse(error.description.contains("\r"), error.description)
                XCTAssertFalse(error.description.contains("\u{1B}"), error.description)
                XCTAssertTrue(error.isAboutContents, error.description)
            }
        }
    }
}
