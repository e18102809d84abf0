import Foundation
import Geo
import Model
import TestSupport
import XCTest
@testable import PinFiles

/// Tracks, routes and lines: read into lines only when asked, checked as points are, and counted
/// whether read or not.
final class PinFileLineTests: XCTestCase {
    func read(_ text: String, lines: Bool = true) throws -> PinFile { try PinFileReader.read(Data(text.utf8), readingLines: lines) }

    func assertRefused(_ text: String, _ expected: PinFileError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(text), file: file, line: line) { error in
            XCTAssertEqual(error as? PinFileError, expected, file: file, line: line)
        }
    }

    func p(_ latitude: Double, _ longitude: Double) -> GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }

    // MARK: GPX

    let gpx = """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="46.1" lon="14.1"><name>Start</name></wpt>
          <rte><name>Plan</name>
            <rtept lat="46.0" lon="14.0"><name>a</name></rtept>
            <rtept lat="46.2" lon="14.2"/>
          </rte>
          <trk><name>Day 1</name>
            <trkseg>
              <trkpt lat="45.0" lon="13.0"><ele>100</ele><time>2024-01-01T10:00:00Z</time></trkpt>
              <trkpt lat="45.1" lon="13.1"/>
            </trkseg>
            <trkseg></trkseg>
            <trkseg><trkpt lat="45.2" lon="13.2"/></trkseg>
          </trk>
          <trk><name>empty</name></trk>
        </gpx>
        """

    func testGPXTrackSegmentsAndRoutesBecomeLines() throws {
        let file = try read(gpx)
        XCTAssertEqual(file.points.map(\.name), ["Start"])
        XCTAssertEqual(file.notPoints, 3)
        XCTAssertEqual(file.lineFeatures, 2, "a track without points is no line")
        XCTAssertEqual(file.lines, [[p(46.0, 14.0), p(46.2, 14.2)], [p(45.0, 13.0), p(45.1, 13.1)], [p(45.2, 13.2)]])
    }

    func testGPXLinesAreCountedButNotReadUnlessAsked() throws {
        let file = try read(gpx, lines: false)
        XCTAssertEqual(file.points.count, 1)
        XCTAssertEqual(file.notPoints, 3)
        XCTAssertEqual(file.lineFeatures, 2)
        XCTAssertEqual(file.lines, [])
        // A bad track point does not matter to a reading that skips tracks, as before.
        let bad = "<gpx><wpt lat=\"1\" lon=\"2\"/><trk><trkseg><trkpt lat=\"95\" lon=\"2\"/></trkseg></trk></gpx>"
        XCTAssertEqual(try read(bad, lines: false).points.count, 1)
    }

    func testGPXBadLinePointsRefuseTheFileNamingTheLine() {
        assertRefused("<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"/>\n<trkpt lat=\"95\" lon=\"2\"/>\n</trkseg></trk>\n</gpx>",
                      .badPoint(place: "line 4", detail: "track point latitude 95 is outside −90…90"))
        assertRefused("<gpx>\n<rte>\n<rtept lat=\"1\" lon=\"-181\"/>\n</rte>\n</gpx>",
                      .badPoint(place: "line 3", detail: "route point longitude -181 is outside −180…180"))
        assertRefused("<gpx>\n<trk><trkseg>\n<trkpt lat=\"north\" lon=\"2\"/>\n</trkseg></trk>\n</gpx>",
                      .badPoint(place: "line 3", detail: "a <trkpt> needs numeric lat and lon attributes"))
        assertRefused("<gpx>\n<rte>\n<rtept lon=\"2\"/>\n</rte>\n</gpx>",
                      .badPoint(place: "line 3", detail: "a <rtept> needs numeric lat and lon attributes"))
        assertRefused("<gpx>\n<trk><trkseg>\n<trkpt lat=\"nan\" lon=\"2\"/>\n</trkseg></trk>\n</gpx>",
                      .badPoint(place: "line 3", detail: "track point latitude nan is outside −90…90"))
    }

    func testGPXPointsOutsideTheirPlaceAreNotLinePoints() throws {
        // A <trkpt> straight in a <trk> (no segment) or a stray <rtept> is not GPX; it is passed over.
        let file = try read("<gpx><trk><trkpt lat=\"1\" lon=\"2\"/></trk><rtept lat=\"1\" lon=\"2\"/><wpt lat=\"3\" lon=\"4\"/></gpx>")
        XCTAssertEqual(file.lines, [])
        XCTAssertEqual(file.points.count, 1)
    }

    func testAHundredThousandPointGPXTrack() throws {
        let n = SanitizerScale.scaled(100_000)
        var text = "<gpx><trk><trkseg>\n"
        for i in 0..<n { text += "<trkpt lat=\"\(Double(i) / 10_000)\" lon=\"7\"><ele>1</ele></trkpt>\n" }
        text += "</trkseg></trk></gpx>\n"
        let file = try read(text)
        XCTAssertEqual(file.lines.count, 1)
        XCTAssertEqual(file.lines[0].count, n)
        XCTAssertEqual(file.lines[0].last, p(Double(n - 1) / 10_000, 7))
    }

    // MARK: GeoJSON

    func testGeoJSONLineStringsInEveryPlace() throws {
        let file = try read("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [14.27, 40.85]}, "properties": {"name": "Naples"}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1, 250]]}, "properties": null},
              {"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": [[[2, 2], [3, 3]], [], [[4, 4]]]}},
              {"type": "Feature", "geometry": {"type": "GeometryCollection", "geometries": [
                {"type": "Point", "coordinates": [9, 9]},
                {"type": "LineString", "coordinates": [[5, 5], [6, 6]]},
                {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]},
                {"type": "GeometryCollection", "geometries": [{"type": "LineString", "coordinates": [[7, 7], [8, 8]]}]}
              ]}},
              {"type": "Feature", "geometry": {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [9, 9]}]}},
              {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}}
            ]}
            """)
        XCTAssertEqual(file.points.map(\.name), ["Naples"])
        XCTAssertEqual(file.notPoints, 5)
        XCTAssertEqual(file.lineFeatures, 3)
        XCTAssertEqual(file.lines, [[p(0, 0), p(1, 1)], [p(2, 2), p(3, 3)], [p(4, 4)], [p(5, 5), p(6, 6)], [p(7, 7), p(8, 8)]])
    }

    func testGeoJSONBareLineStringAndMultiLineString() throws {
        let line = try read(#"{"type":"LineString","coordinates":[[10,50],[11,51]]}"#)
        XCTAssertEqual(line.lines, [[p(50, 10), p(51, 11)]])
        XCTAssertEqual(line.lineFeatures, 1)
        let multi = try read(#"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[10,50],[11,51]],[[12,52]]]},"properties":{}}"#)
        XCTAssertEqual(multi.lines, [[p(50, 10), p(51, 11)], [p(52, 12)]])
        let collection = try read(#"{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[1,2],[3,4]]}]}"#)
        XCTAssertEqual(collection.lines, [[p(2, 1), p(4, 3)]])
        XCTAssertEqual(collection.lineFeatures, 1)
    }

    func testGeoJSONLinesAreCountedButNotReadUnlessAsked() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,95],["a",1]]}},{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[{"type":"MultiLineString","coordinates":"no"}]}}]}"#
        let file = try read(text, lines: false)
        XCTAssertEqual(file.lineFeatures, 2)
        XCTAssertEqual(file.notPoints, 2)
        XCTAssertEqual(file.lines, [])
    }

    func testAGeoJSONLineWithoutAPositionIsNoLineReadOrNot() throws {
        // As a GPX track without points: not a point, but no line either (so no --along hint for it).
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[]}},{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[],[]]}},{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[]}]}},{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[],[[1,2]]]}}]}"#
        for lines in [true, false] {
            let file = try read(text, lines: lines)
            XCTAssertEqual(file.notPoints, 4, "read: \(lines)")
            XCTAssertEqual(file.lineFeatures, 1, "only the MultiLineString with a position; read: \(lines)")
            XCTAssertEqual(file.lines, lines ? [[p(2, 1)]] : [])
        }
    }

    func testGeoJSONBadLinePositionsRefuseTheFileNamingTheFeature() {
        assertRefused(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[10,91]]}}]}"#,
                      .badPoint(place: "feature 2", detail: "LineString position 2: latitude 91 is outside −90…90"))
        assertRefused(#"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],["1","2"]]}}"#,
                      .badPoint(place: "feature 1", detail: "a LineString's coordinates must be [longitude, latitude] numbers"))
        assertRefused(#"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1]]}}"#,
                      .badPoint(place: "feature 1", detail: "a LineString's coordinates must be [longitude, latitude] numbers"))
        assertRefused(#"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[0,0],[1,1]]}}"#,
                      .badPoint(place: "feature 1", detail: "a MultiLineString's coordinates must be [longitude, latitude] numbers"))
        assertRefused(#"{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[181,0]]}]}"#,
                      .badPoint(place: "the geometry", detail: "LineString position 1: longitude 181 is outside −180…180"))
    }

    func testAPointInACollectionIsStillNotAPin() throws {
        // As before lines were read: a collection's bad point does not refuse a file whose points are
        // Point features only.
        let file = try read(#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[0,95]},{"type":"LineString","coordinates":[[1,2],[3,4]]}]}"#)
        XCTAssertEqual(file.points, [])
        XCTAssertEqual(file.lines.count, 1)
    }
}
