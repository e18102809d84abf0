import Foundation
import Model
import Geo
import XCTest
@testable import PinFiles

final class PinFileWriterTests: XCTestCase {
    let created = Date(timeIntervalSince1970: 1_761_991_200.25)

    var pins: [Pin] {
        [
            Pin(id: 1, coordinate: GeoPoint(latitude: 48.8566, longitude: 2.3522), name: "Paris \"Ville\" & <Co>",
                createdAt: created, albumStatus: .ready, photoCount: 21, downloadedCount: 20),
            Pin(id: 7, coordinate: GeoPoint(latitude: -0.00001, longitude: -180), name: nil, createdAt: created),
        ]
    }

    func testGeoJSON() {
        XCTAssertEqual(PinFileWriter.geoJSON(pins), """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[2.3522,48.8566]},"properties":{"name":"Paris \\"Ville\\" & <Co>","photos":21,"created":"2025-11-01T10:00:00.250Z"}},
            {"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[-180,-0.00001]},"properties":{"name":null,"photos":0,"created":"2025-11-01T10:00:00.250Z"}}
            ]}

            """)
        XCTAssertEqual(PinFileWriter.geoJSON([]), "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
    }

    func testGPX() {
        XCTAssertEqual(PinFileWriter.gpx(pins, creator: "vtourist 1"), """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="vtourist 1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:vtourist="urn:vtourist:gpx:1">
              <wpt lat="48.8566" lon="2.3522">
                <time>2025-11-01T10:00:00.250Z</time>
                <name>Paris &quot;Ville&quot; &amp; &lt;Co&gt;</name>
                <extensions><vtourist:photos>21</vtourist:photos></extensions>
              </wpt>
              <wpt lat="-0.00001" lon="-180">
                <time>2025-11-01T10:00:00.250Z</time>
                <extensions><vtourist:photos>0</vtourist:photos></extensions>
              </wpt>
            </gpx>

            """)
    }

    func testEscapes() {
        XCTAssertEqual(PinFileWriter.jsonString("a\"b\\c\nd\u{1}é"), #""a\"b\\c\nd\u0001é""#)
        XCTAssertEqual(PinFileWriter.xmlEscaped("a'b\u{1}\u{FFFE}c\té"), "a&apos;bc\té")
        XCTAssertEqual(PinFileText.echoed(1e-7), "0.0000001")
        XCTAssertEqual(PinFileText.echoed(-0.0), "0")
        XCTAssertEqual(PinFileText.echoed(90.000000001), "90.000000001")
    }

    /// A coordinate carrying float noise from arithmetic is written with at most 7 decimals in both formats.
    func testFloatNoiseIsNotWritten() {
        let noisy = [Pin(id: 3, coordinate: GeoPoint(latitude: 40.852199999999996, longitude: 14.268110000000007),
                         name: nil, createdAt: created)]
        XCTAssertTrue(PinFileWriter.geoJSON(noisy).contains("\"coordinates\":[14.26811,40.8522]"), PinFileWriter.geoJSON(noisy))
        XCTAssertTrue(PinFileWriter.gpx(noisy).contains("<wpt lat=\"40.8522\" lon=\"14.26811\">"), PinFileWriter.gpx(noisy))
    }

    /// What either writer writes, the reader reads back as the same pins.
    func testRoundTrip() throws {
        var pins = self.pins
        pins.append(Pin(id: 9, coordinate: GeoPoint(latitude: 12.3456789, longitude: -98.7654321),
                        name: "Ünïcödé \u{1F30D} line\nbreak", createdAt: created))
        for format in PinFileFormat.allCases {
            let file = try PinFileReader.read(Data(PinFileWriter.write(pins, as: format).utf8))
            XCTAssertEqual(file.format, format)
            XCTAssertEqual(file.notPoints, 0)
            XCTAssertEqual(file.points.map(\.coordinate), pins.map(\.coordinate), "\(format)")
            XCTAssertEqual(file.points.map(\.createdAt), pins.map { $0.createdAt }, "\(format)")
            XCTAssertEqual(file.points.map(\.name), pins.map(\.name), "\(format)")
        }
    }
}
