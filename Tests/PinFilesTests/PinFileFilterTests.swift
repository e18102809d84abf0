import Foundation
import Model
import Geo
import XCTest
@testable import PinFiles

/// The album filter in pin files: written by both writers only when there is one, read back by both
/// readers into `NewPin.filter`, and checked as every filter from outside is; a bad one refuses the
/// file, naming the point and the field.
final class PinFileFilterTests: XCTestCase {
    let today = CalendarDay(year: 2026, month: 11, day: 26)
    let created = Date(timeIntervalSince1970: 1_761_991_200.25)

    var filtered: AlbumFilter {
        AlbumFilter(text: "street food", tags: ["market", "night"],
                    taken: TakenRange(from: FilterDate(year: 2019), to: FilterDate(year: 2023, month: 2, day: 28)), sort: .recent)
    }

    var pins: [Pin] {
        [
            Pin(id: 1, coordinate: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples", createdAt: created, filter: filtered),
            Pin(id: 2, coordinate: GeoPoint(latitude: 1, longitude: 2), name: nil, createdAt: created),
            Pin(id: 3, coordinate: GeoPoint(latitude: 3, longitude: 4), name: "Kyoto", createdAt: created,
                filter: AlbumFilter(taken: TakenRange(from: FilterDate(year: 2020, month: 10)))),
            Pin(id: 4, coordinate: GeoPoint(latitude: 5, longitude: 6), name: "A & <B>", createdAt: created,
                filter: AlbumFilter(text: "<tea> & \"cake\"", sort: .relevant)),
        ]
    }

    func read(_ text: String) throws -> PinFile { try PinFileReader.read(Data(text.utf8), today: today) }

    func assertRefused(_ text: String, _ place: String, _ detail: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(text), file: file, line: line) { error in
            XCTAssertEqual(error as? PinFileError, .badFilter(place: place, detail: detail), file: file, line: line)
        }
    }

    // MARK: Writing

    func testGeoJSONWritesTheFilterOnlyWhenThereIsOne() {
        let text = PinFileWriter.geoJSON(Array(pins.prefix(2)))
        XCTAssertEqual(text, """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[14.27,40.85]},"properties":{"name":"Naples","photos":0,"created":"2025-11-01T10:00:00.250Z","filter":{"sort":"recent","tags":["market","night"],"taken":{"from":"2019","to":"2023-02-28"},"text":"street food"}}},
            {"type":"Feature","id":2,"geometry":{"type":"Point","coordinates":[2,1]},"properties":{"name":null,"photos":0,"created":"2025-11-01T10:00:00.250Z"}}
            ]}

            """)
    }

    func testGPXWritesTheFilterInTheExtensions() {
        XCTAssertEqual(PinFileWriter.gpx(Array(pins.dropFirst()), creator: "vtourist 1"), """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="vtourist 1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:vtourist="urn:vtourist:gpx:1">
              <wpt lat="1" lon="2">
                <time>2025-11-01T10:00:00.250Z</time>
                <extensions><vtourist:photos>0</vtourist:photos></extensions>
              </wpt>
              <wpt lat="3" lon="4">
                <time>2025-11-01T10:00:00.250Z</time>
                <name>Kyoto</name>
                <extensions><vtourist:photos>0</vtourist:photos><vtourist:filter><vtourist:from>2020-10</vtourist:from><vtourist:sort>interesting</vtourist:sort></vtourist:filter></extensions>
              </wpt>
              <wpt lat="5" lon="6">
                <time>2025-11-01T10:00:00.250Z</time>
                <name>A &amp; &lt;B&gt;</name>
                <extensions><vtourist:photos>0</vtourist:photos><vtourist:filter><vtourist:text>&lt;tea&gt; &amp; &quot;cake&quot;</vtourist:text><vtourist:sort>relevant</vtourist:sort></vtourist:filter></extensions>
              </wpt>
            </gpx>

            """)
    }

    // MARK: Reading

    func testBothFormatsCarryTheFilterThere() throws {
        for format in PinFileFormat.allCases {
            let file = try read(PinFileWriter.write(pins, as: format))
            XCTAssertEqual(file.points.map(\.filter), pins.map(\.filter), "\(format)")
            XCTAssertEqual(file.points.map(\.name), pins.map(\.name), "\(format)")
        }
    }

    func testAbsentNullAndEmptyFiltersAreNone() throws {
        let geojson = try read("""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"filter":null}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"filter":{}}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"filter":{"text":null,"tags":[],"taken":null}}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}
            ]}
            """)
        XCTAssertEqual(geojson.points.map(\.filter), [.none, .none, .none, .none])
        let gpx = try read("""
            <gpx xmlns:v="urn:vtourist:gpx:1"><wpt lat="1" lon="2"><extensions><v:filter/></extensions></wpt>
            <wpt lat="1" lon="2"><extensions><v:filter><v:text>  </v:text><v:sort></v:sort></v:filter></extensions></wpt></gpx>
            """)
        XCTAssertEqual(gpx.points.map(\.filter), [.none, .none])
    }

    /// Text is trimmed and a "to" past today is taken as today, as for a typed filter.
    func testAFilterFromAFileIsCheckedAsATypedOne() throws {
        let file = try read(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"filter":{"text":" food ","taken":{"from":"2025","to":"2030"}}}}"#)
        XCTAssertEqual(file.points.first?.filter,
                       AlbumFilter(text: "food", taken: TakenRange(from: FilterDate(year: 2025), to: FilterDate(today))))
        let gpx = try read("""
            <gpx><wpt lat="1" lon="2"><extensions><vtourist:filter>
              <vtourist:text>
                food
              </vtourist:text>
              <vtourist:tag>a</vtourist:tag><vtourist:tag> b </vtourist:tag>
              <vtourist:to>2030-01</vtourist:to>
            </vtourist:filter></extensions></wpt></gpx>
            """)
        XCTAssertEqual(gpx.points.first?.filter, AlbumFilter(text: "food", tags: ["a", "b"], taken: TakenRange(to: FilterDate(today))))
    }

    /// Every bad input of a filter refuses the whole file, naming the feature and the field.
    func testBadFiltersInGeoJSONNameTheFeatureAndTheField() {
        func feature(_ filter: String) -> String {
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},"#
                + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"filter":"# + filter + "}}]}"
        }
        let long = String(repeating: "a", count: 101)
        let cases: [(filter: String, detail: String)] = [
            (#"{"text":"\#(long)"}"#, "text: 101 characters, at most 100"),
            (#"{"text":"a\u001b[2Jb"}"#, "text: control characters are not allowed"),
            (#"{"text":"   "}"#, "text: only spaces: type some words, or leave it empty"),
            (#"{"tags":["a",""]}"#, "tags: an empty tag (two commas in a row?)"),
            (#"{"tags":[\#((1...21).map { "\"t\($0)\"" }.joined(separator: ","))]}"#, "tags: 21 tags, at most 20"),
            (#"{"taken":{"from":"2023","to":"2019"}}"#, "taken: from 2023 comes after to 2019: swap them"),
            (#"{"taken":{"from":"2023-02-30"}}"#, "taken: from 2023-02-30 is not a day of the calendar"),
            (#"{"taken":{"from":"2027"}}"#, "taken: from 2027 is in the future (today is 2026-11-26)"),
            (#"{"taken":{"to":"1800"}}"#, "taken: to 1800 is before 1826, the first photograph"),
            (#"{"taken":{"from":"last year"}}"#, "taken: from \u{201C}last year\u{201D} is not a date: write YYYY, YYYY-MM or YYYY-MM-DD"),
            (#"{"sort":"newest"}"#, "sort: unknown order \u{201C}newest\u{201D}"),
            (#"{"sort":"relevant"}"#, "sort: relevant orders by the text: give some text, or choose interesting or recent"),
            (#"{"text":5}"#, "text: must be a string (or null)"),
            (#"{"tags":"a,b"}"#, "tags: must be a list of strings"),
            (#"{"tags":[null]}"#, "tags: must be a list of strings"),
            (#"{"taken":"2019..2023"}"#, "taken: must be {\"from\": …, \"to\": …}, each a date as a string or null"),
            (#"{"sort":1}"#, "sort: must be one of interesting, recent, relevant"),
            (#""food""#, FilterReading.notAnObject),
            (#"[]"#, FilterReading.notAnObject),
        ]
        for c in cases {
            assertRefused(feature(c.filter), "feature 2", c.detail)
        }
    }

    func testBadFiltersInGPXNameTheWaypointsLineAndTheField() {
        func gpx(_ children: String) -> String {
            "<gpx xmlns:vtourist=\"urn:vtourist:gpx:1\">\n<wpt lat=\"0\" lon=\"0\"/>\n<wpt lat=\"1\" lon=\"2\">\n"
                + "<extensions><vtourist:filter>\(children)</vtourist:filter></extensions></wpt>\n</gpx>"
        }
        let cases: [(children: String, detail: String)] = [
            ("<vtourist:text>\(String(repeating: "é", count: 101))</vtourist:text>", "text: 101 characters, at most 100"),
            ("<vtourist:text>a&#9;b</vtourist:text>", "text: control characters are not allowed"),
            ("<vtourist:tag>a</vtourist:tag><vtourist:tag/>", "tags: an empty tag (two commas in a row?)"),
            ("<vtourist:tag>a,b</vtourist:tag>", "tags: a tag cannot hold a comma"),
            ((1...21).map { "<vtourist:tag>t\($0)</vtourist:tag>" }.joined(), "tags: 21 tags, at most 20"),
            ("<vtourist:from>2023</vtourist:from><vtourist:to>2019</vtourist:to>", "taken: from 2023 comes after to 2019: swap them"),
            ("<vtourist:to>2023-02-30</vtourist:to>", "taken: to 2023-02-30 is not a day of the calendar"),
            ("<vtourist:from>2026-11-27</vtourist:from>", "taken: from 2026-11-27 is in the future (today is 2026-11-26)"),
            ("<vtourist:from>1825-12</vtourist:from>", "taken: from 1825-12 is before 1826, the first photograph"),
            ("<vtourist:sort>best</vtourist:sort>", "sort: unknown order \u{201C}best\u{201D}"),
            ("<vtourist:sort>relevant</vtourist:sort>", "sort: relevant orders by the text: give some text, or choose interesting or recent"),
        ]
        for c in cases {
            assertRefused(gpx(c.children), "line 3", c.detail)
        }
    }

    /// The refusal's line: the point, then the field, with nothing a terminal would obey.
    func testTheRefusalReadsAsOneLine() {
        XCTAssertEqual(PinFileError.badFilter(place: "feature 2", detail: "taken: from 2023 comes after to 2019: swap them").description,
                       "feature 2: bad filter: taken: from 2023 comes after to 2019: swap them")
        XCTAssertThrowsError(try read(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"filter":{"sort":"x\u001b[2J\ny"}}}"#)) { error in
            let text = (error as? PinFileError)?.description ?? ""
            XCTAssertTrue(text.hasPrefix("feature 1: bad filter: sort: unknown order"), text)
            XCTAssertFalse(text.contains("\u{1B}") || text.contains("\n"), text)
        }
    }
}
