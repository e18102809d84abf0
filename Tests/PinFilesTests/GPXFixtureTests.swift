import Foundation
import Geo
import Model
import XCTest
@testable import PinFiles

/// The real GPX files of gpxpy's test corpus (Tests/Fixtures/gpx, Apache-2.0, see its README):
/// every one reads, with and without its lines, keeps every waypoint, and gives the points along
/// its tracks and routes that an independent reckoning of the same rule gives:
/// `scripts/gpx_along_counts.py` derives `expected` from the manual's rule in Python, with none of
/// the app's code (`python3 scripts/gpx_along_counts.py --check` this file fails on any difference).
final class GPXFixtureTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpx")

    /// Waypoints, lines (non-empty segments and routes), and the points along them at --along 10 and 1
    /// (after merging with the waypoints and one another).
    struct Expected {
        var waypoints: Int
        var lines: Int
        var along10: Int
        var along1: Int
    }

    static let expected: [String: Expected] = [
        "Mojstrovka.gpx": Expected(waypoints: 0, lines: 1, along10: 1, along1: 2),
        "around-visnjan-with-car.gpx": Expected(waypoints: 0, lines: 1, along10: 1, along1: 2),
        "cerknicko-jezero-no-creator.gpx": Expected(waypoints: 7, lines: 7, along10: 0, along1: 2),
        "cerknicko-jezero-with-elevations-zero.gpx": Expected(waypoints: 7, lines: 7, along10: 0, along1: 2),
        "cerknicko-jezero-without-elevations.gpx": Expected(waypoints: 7, lines: 7, along10: 0, along1: 2),
        "cerknicko-jezero.gpx": Expected(waypoints: 7, lines: 7, along10: 0, along1: 2),
        "cerknicko-without-times.gpx": Expected(waypoints: 7, lines: 7, along10: 0, along1: 2),
        "custom_schema_locations.gpx": Expected(waypoints: 0, lines: 0, along10: 0, along1: 0),
        "default_schema_locations.gpx": Expected(waypoints: 0, lines: 0, along10: 0, along1: 0),
        "first_and_last_elevation.gpx": Expected(waypoints: 0, lines: 1, along10: 21, along1: 196),
        "gpx-with-node-with-comments.gpx": Expected(waypoints: 0, lines: 1, along10: 1, along1: 1),
        "gpx1.0_with_all_fields.gpx": Expected(waypoints: 2, lines: 3, along10: 50, along1: 470),
        "gpx1.1_with_all_fields.gpx": Expected(waypoints: 2, lines: 3, along10: 50, along1: 470),
        "gpx1.1_with_extensions.gpx": Expected(waypoints: 1, lines: 0, along10: 0, along1: 0),
        "gpx1.1_with_extensions_without_namespaces.gpx": Expected(waypoints: 1, lines: 0, along10: 0, along1: 0),
        "gpx_with_garmin_extension.gpx": Expected(waypoints: 1, lines: 0, along10: 0, along1: 0),
        "korita-zbevnica.gpx": Expected(waypoints: 2, lines: 3, along10: 0, along1: 9),
        "route.gpx": Expected(waypoints: 0, lines: 1, along10: 1, along1: 7),
        "track-with-empty-segment.gpx": Expected(waypoints: 0, lines: 1, along10: 1, along1: 1),
        "track-with-extremes.gpx": Expected(waypoints: 0, lines: 1, along10: 1, along1: 3),
        "track-with-less-sec-time.gpx": Expected(waypoints: 0, lines: 1, along10: 1, along1: 1),
        "track-with-small-floats.gpx": Expected(waypoints: 0, lines: 1, along10: 2, along1: 10),
        "track_with_dilution_errors.gpx": Expected(waypoints: 1, lines: 2, along10: 0, along1: 0),
        "track_with_speed.gpx": Expected(waypoints: 0, lines: 1, along10: 1, along1: 1),
        "unicode.gpx": Expected(waypoints: 6, lines: 0, along10: 0, along1: 0),
        "unicode2.gpx": Expected(waypoints: 0, lines: 0, along10: 0, along1: 0),
        "unicode_with_bom.gpx": Expected(waypoints: 1, lines: 0, along10: 0, along1: 0),
        "unicode_with_bom_noencoding.gpx": Expected(waypoints: 1, lines: 0, along10: 0, along1: 0),
    ]

    func fixtures() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".gpx") }.sorted()
    }

    func testEveryFixtureIsListed() throws {
        let names = try fixtures()
        XCTAssertEqual(names.count, 28)
        XCTAssertEqual(Set(names), Set(Self.expected.keys))
    }

    func testEveryFixtureReadsAndGivesItsPointsAlongItsLines() throws {
        for name in try fixtures() {
            let path = Self.folder.appendingPathComponent(name).path
            let expected = try XCTUnwrap(Self.expected[name], name)
            let file: PinFile
            do { file = try PinFileReader.read(path: path, readingLines: true) } catch {
                XCTFail("\(name): \(error)")
                continue
            }
            // Reading the lines loses no waypoint and changes none.
            let plain = try PinFileReader.read(path: path)
            XCTAssertEqual(file.points, plain.points, name)
            XCTAssertEqual(file.notPoints, plain.notPoints, name)
            XCTAssertEqual(file.lineFeatures, plain.lineFeatures, name)
            XCTAssertEqual(file.points.count, expected.waypoints, name)
            XCTAssertEqual(file.lines.count, expected.lines, name)
            XCTAssertTrue(file.lines.allSatisfy { $0.allSatisfy(\.isValid) }, name)

            let waypoints = file.points.map(\.coordinate)
            let at10 = try AlongSampler.points(along: file.lines, every: AlongSpacing(km: 10), waypoints: waypoints)
            let at1 = try AlongSampler.points(along: file.lines, every: AlongSpacing(km: 1), waypoints: waypoints)
            XCTAssertEqual(at10.points.count, expected.along10, "\(name) --along 10")
            XCTAssertEqual(at1.points.count, expected.along1, "\(name) --along 1")
            // Pins come from every file with a track or route, along it or from its waypoints.
            if !file.lines.isEmpty { XCTAssertGreaterThan(at10.points.count + file.points.count, 0, name) }
            // No two pins closer than KM/2.
            let all = waypoints + at1.points
            for (i, p) in at1.points.enumerated() {
                for q in all[..<(waypoints.count + i)] { XCTAssertGreaterThanOrEqual(distanceKm(p, q), 0.5 * (1 - 1e-9), name) }
            }
        }
    }

    func testTheExpectedCountsAreTheOnesTheScriptReckonsFromTheRule() throws {
        let root = Self.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        script.arguments = [root.appendingPathComponent("scripts/gpx_along_counts.py").path, "--check", #filePath]
        let said = Pipe()
        script.standardOutput = FileHandle.nullDevice
        script.standardError = said
        try script.run()
        let text = String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        XCTAssertEqual(script.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("all 28 files as the test expects"), text)
    }

    func testARealRouteEveryKilometre() throws {
        // route.gpx: a loop of 55 route points over 6.68 km, ending a few metres from where it starts.
        let file = try PinFileReader.read(path: Self.folder.appendingPathComponent("route.gpx").path, readingLines: true)
        let line = try XCTUnwrap(file.lines.first)
        let points = try AlongSampler.points(along: file.lines, every: AlongSpacing(km: 1)).points
        XCTAssertEqual(points.first, line.first)
        XCTAssertLessThan(distanceKm(try XCTUnwrap(line.first), try XCTUnwrap(line.last)), 0.005)
        XCTAssertFalse(points.contains(try XCTUnwrap(line.last)), "the end is merged into the start")
        XCTAssertEqual(AlongSampler.length(line), 6.683, accuracy: 0.001)
        XCTAssertEqual(points.count, 7)  // the start and every km to 6
        // A kilometre apart along the route is at most a kilometre apart on the ground.
        for (a, b) in zip(points, points.dropFirst()) { XCTAssertLessThanOrEqual(distanceKm(a, b), 1 + 1e-9) }
    }
}
