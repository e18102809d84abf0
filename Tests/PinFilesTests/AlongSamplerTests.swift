import Foundation
import Geo
import XCTest
@testable import PinFiles

/// Points every KM along lines: exact cases on the equator, the merge rules, the awkward lines
/// (one point, repeated points, the antimeridian, the pole, antipodes), the cap, and KM itself.
final class AlongSamplerTests: XCTestCase {
    /// Degrees of longitude on the equator for this many kilometres.
    func degrees(_ km: Double) -> Double { km / (earthRadiusKm * .pi / 180) }

    func equator(_ km: Double) -> GeoPoint { GeoPoint(latitude: 0, longitude: degrees(km)) }

    func spacing(_ km: Double) throws -> AlongSpacing { try AlongSpacing(km: km) }

    func points(_ lines: [[GeoPoint]], every km: Double, waypoints: [GeoPoint] = [], stored: [GeoPoint] = []) throws -> AlongSampler.Points {
        try AlongSampler.points(along: lines, every: spacing(km), waypoints: waypoints, stored: stored)
    }

    /// Kilometres from (0, 0) along the equator of each point (all of them on it).
    func kmAlongEquator(_ points: [GeoPoint], file: StaticString = #filePath, line: UInt = #line) -> [Double] {
        points.map { p in
            XCTAssertEqual(p.latitude, 0, accuracy: 1e-9, file: file, line: line)
            return (distanceKm(GeoPoint(latitude: 0, longitude: 0), p) * 1e6).rounded() / 1e6
        }
    }

    // MARK: Exact cases

    func testA25KmLineEvery10KmGivesStartTenTwentyAndEnd() throws {
        let result = try points([[equator(0), equator(25)]], every: 10)
        // 20 and 25 are exactly KM/2 apart: not closer, both stay.
        XCTAssertEqual(kmAlongEquator(result.points), [0, 10, 20, 25])
        XCTAssertEqual(result.nearStored, 0)
    }

    func testAShortLastStretchDropsThePointBeforeTheEndNotTheEnd() throws {
        XCTAssertEqual(kmAlongEquator(try points([[equator(0), equator(24)]], every: 10).points), [0, 10, 24])
        XCTAssertEqual(kmAlongEquator(try points([[equator(0), equator(20)]], every: 10).points), [0, 10, 20])
        XCTAssertEqual(kmAlongEquator(try points([[equator(0), equator(30.0001)]], every: 10).points), [0, 10, 20, 30.0001])
    }

    func testDistanceIsMeasuredAlongTheLineAcrossItsVertices() throws {
        // Five vertices 3 km apart: the points every 10 km fall inside segments, interpolated.
        let line = [0.0, 3, 6, 9, 12, 15, 18, 21].map(equator)
        XCTAssertEqual(kmAlongEquator(try points([line], every: 10).points), [0, 10, 21])
        XCTAssertEqual(kmAlongEquator(try points([line], every: 4).points), [0, 4, 8, 12, 16, 21])
    }

    func testALineShorterThanHalfKMGivesOnlyItsStart() throws {
        XCTAssertEqual(kmAlongEquator(try points([[equator(0), equator(4.9)]], every: 10).points), [0])
        XCTAssertEqual(kmAlongEquator(try points([[equator(0), equator(5)]], every: 10).points), [0, 5])
    }

    func testALineOfOnePointAndOfRepeatedPoints() throws {
        let p = GeoPoint(latitude: 46.5, longitude: 13.8)
        XCTAssertEqual(try points([[p]], every: 10).points, [p])
        XCTAssertEqual(try points([[p, p, p, p]], every: 10).points, [p])
        XCTAssertEqual(try points([[]], every: 10).points, [])
        XCTAssertEqual(try points([], every: 10).points, [])
        // Repeated vertices inside a line change nothing.
        let plain = try points([[equator(0), equator(12), equator(25)]], every: 10).points
        let repeated = try points([[equator(0), equator(0), equator(12), equator(12), equator(12), equator(25), equator(25)]], every: 10).points
        XCTAssertEqual(repeated, plain)
        XCTAssertEqual(kmAlongEquator(plain), [0, 10, 20, 25])
    }

    // MARK: Merging

    func testAWaypointTakesThePlaceOfAPointBesideIt() throws {
        let result = try points([[equator(0), equator(25)]], every: 10, waypoints: [equator(11)])
        XCTAssertEqual(kmAlongEquator(result.points), [0, 20, 25])
        XCTAssertEqual(result.nearStored, 0)
        // Farther than KM/2: no effect.
        XCTAssertEqual(kmAlongEquator(try points([[equator(0), equator(25)]], every: 10, waypoints: [equator(15)]).points), [0, 10, 20, 25])
    }

    func testAStoredPinTakesThePlaceOfAPointBesideItAndIsCounted() throws {
        let result = try points([[equator(0), equator(25)]], every: 10, stored: [equator(19), GeoPoint(latitude: 40, longitude: 40)])
        XCTAssertEqual(kmAlongEquator(result.points), [0, 10, 25])
        XCTAssertEqual(result.nearStored, 1)
    }

    func testTheSameTripImportedTwiceAddsNothingTheSecondTime() throws {
        let line = [GeoPoint(latitude: 46.0, longitude: 14.0), GeoPoint(latitude: 46.3, longitude: 14.4), GeoPoint(latitude: 46.1, longitude: 14.9)]
        let first = try points([line], every: 5)
        XCTAssertGreaterThan(first.points.count, 10)
        let second = try points([line], every: 5, stored: first.points)
        XCTAssertEqual(second.points, [])
        XCTAssertEqual(second.nearStored, first.points.count)
    }

    func testAnOutAndBackRouteGetsItsPinsOnce() throws {
        let result = try points([[equator(0), equator(30), equator(0)]], every: 10)
        // Start, the turn at 30 (the points at 40 and 50 lie on 20 and 10), and the end on the start.
        XCTAssertEqual(kmAlongEquator(result.points), [0, 10, 20, 30])
    }

    func testALoopKeepsItsStartAndDropsItsEndOnIt() throws {
        let a = GeoPoint(latitude: 0, longitude: 0)
        let square = [a, equator(10), GeoPoint(latitude: degrees(10), longitude: degrees(10)),
                      GeoPoint(latitude: degrees(10), longitude: 0), a]
        let result = try points([square], every: 10)
        XCTAssertEqual(result.points.count, 4)
        XCTAssertEqual(result.points.first, a)
    }

    func testTheSameTrackTwiceInAFile() throws {
        let line = [equator(0), equator(25)]
        XCTAssertEqual(kmAlongEquator(try points([line, line], every: 10).points), [0, 10, 20, 25])
        // Reversed (a route saved beside its track), its points fall within KM/2 of the first's.
        let shorter = [equator(0), equator(24)]
        XCTAssertEqual(kmAlongEquator(try points([shorter, shorter.reversed()], every: 10).points), [0, 10, 24])
    }

    // MARK: Odd lines

    func testALineAcrossTheAntimeridianTakesTheShortWay() throws {
        let line = [GeoPoint(latitude: 10, longitude: 179.95), GeoPoint(latitude: 10, longitude: -179.95)]
        let length = distanceKm(line[0], line[1])
        XCTAssertLessThan(length, 12)
        let result = try points([line], every: 2)
        XCTAssertEqual(result.points.count, 6)
        // 0, 2 … 8, and the end at 10.95 (10 is within KM/2 of it).
        for (i, p) in result.points.enumerated() {
            XCTAssertTrue(p.isValid, "\(p)")
            XCTAssertGreaterThan(abs(p.longitude), 179.9, "\(p): went the long way")
            XCTAssertEqual(distanceKm(line[0], p), i == 5 ? length : Double(i) * 2, accuracy: 1e-6)
        }
    }

    func testALineOverThePole() throws {
        let line = [GeoPoint(latitude: 89.99, longitude: 0), GeoPoint(latitude: 89.99, longitude: 180)]
        let result = try points([line], every: 0.5)
        XCTAssertEqual(result.points.count, 5)  // 0, 0.5, 1, 1.5, and the end at 2.22 (2 is within KM/2 of it)
        for (i, p) in result.points.dropLast().enumerated() {
            XCTAssertTrue(p.isValid, "\(p)")
            XCTAssertEqual(distanceKm(line[0], p), Double(i) * 0.5, accuracy: 1e-6)
        }
        XCTAssertTrue(result.points.contains { $0.latitude > 89.998 }, "the line passes over the pole")
    }

    func testAntipodesGiveNoNaN() {
        let a = GeoPoint(latitude: 0, longitude: 0), b = GeoPoint(latitude: 0, longitude: 180)
        for f in [0.0, 0.3, 0.5, 0.7, 1] {
            let p = AlongSampler.interpolate(a, b, fraction: f)
            XCTAssertTrue(p.isValid, "\(f): \(p)")
        }
        XCTAssertEqual(AlongSampler.interpolate(a, a, fraction: 0.5), a)
    }

    func testInterpolationFollowsTheGreatCircle() {
        // London to New York: the midpoint of the great circle lies far north of the rhumb line's 46°.
        let london = GeoPoint(latitude: 51.5, longitude: -0.12), newYork = GeoPoint(latitude: 40.7, longitude: -74)
        let middle = AlongSampler.interpolate(london, newYork, fraction: 0.5)
        XCTAssertEqual(distanceKm(london, middle), distanceKm(middle, newYork), accuracy: 1e-6)
        XCTAssertEqual(distanceKm(london, middle) * 2, distanceKm(london, newYork), accuracy: 1e-6)
        XCTAssertGreaterThan(middle.latitude, 52)
    }

    func testAHundredThousandPointTrack() throws {
        // 100,000 points 10 m apart northwards from the equator: 999.99 km.
        let step = 0.01 / (earthRadiusKm * .pi / 180)
        let line = (0..<100_000).map { GeoPoint(latitude: Double($0) * step, longitude: 20) }
        let result = try points([line], every: 10)
        XCTAssertEqual(result.points.count, 101)  // 0, 10 … 990, and the end at 999.99 (over KM/2 from 990)
        XCTAssertEqual(distanceKm(line[0], result.points[50]), 500, accuracy: 1e-6)
        XCTAssertEqual(result.points.last, line.last)
    }

    // MARK: The cap

    func testTooManyPointsAreRefusedWithASpacingThatWouldDo() throws {
        let line = [equator(0), equator(1000)]
        XCTAssertThrowsError(try points([line], every: 0.1)) { error in
            let refusal = error as? AlongSampler.TooMany
            XCTAssertEqual(refusal?.count, 10_001)
            XCTAssertEqual(refusal?.suggestedKm, 0.2)
            XCTAssertEqual(refusal?.description,
                           "--along 0.1 would put up to 10001 points along the lines, more than 10000: try --along 0.2 or more")
        }
        XCTAssertEqual(try points([line], every: 0.2).points.count, 5001)
        // 9,999 km every kilometre: 10,000 points, just allowed.
        XCTAssertEqual(try AlongSampler.plan([[equator(0), equator(9999)]], every: spacing(1)).lines[0].count, 10_000)
        // Too many lines for any KM: each gives at least its start.
        let many = (0..<10_001).map { [GeoPoint(latitude: 0, longitude: Double($0) / 100)] }
        XCTAssertThrowsError(try points(many, every: 10)) { error in
            XCTAssertNil((error as? AlongSampler.TooMany)?.suggestedKm)
            XCTAssertTrue("\(error)".hasSuffix(": the file has too many tracks, routes or lines for pins along them"), "\(error)")
        }
    }

    // MARK: KM

    func testSpacingAcceptsDistancesInRange() throws {
        for (text, km) in [("10", 10.0), ("0.1", 0.1), ("20000", 20_000), ("2.5", 2.5), ("1e3", 1000), (" 7 ", 7), ("+3", 3)] {
            XCTAssertEqual(try AlongSpacing(parsing: text).km, km, text)
        }
    }

    func testSpacingRefusesBadValuesWithTheReason() {
        let allowed = "a distance in kilometres from 0.1 to 20000"
        let cases: [(String, String)] = [
            ("0", "--along 0 is out of range: it takes \(allowed)"),
            ("-5", "--along -5 is out of range: it takes \(allowed)"),
            ("0.05", "--along 0.05 is out of range: it takes \(allowed)"),
            ("20001", "--along 20001 is out of range: it takes \(allowed)"),
            ("nan", "--along takes \(allowed), not nan"),
            ("inf", "--along takes \(allowed), not inf"),
            ("-Infinity", "--along takes \(allowed), not -Infinity"),
            ("1e400", "--along takes \(allowed), not infinity"),
            ("ten", "--along takes \(allowed) (e.g. --along 10), not \u{201C}ten\u{201D}"),
            ("10km", "--along takes \(allowed) (e.g. --along 10), not \u{201C}10km\u{201D}"),
            ("0x10", "--along takes \(allowed) (e.g. --along 10), not \u{201C}0x10\u{201D}"),
            ("", "--along takes \(allowed) (e.g. --along 10), not \u{201C}\u{201D}"),
            ("1\u{1B}[31m", "--along takes \(allowed) (e.g. --along 10), not \u{201C}1\u{201D}"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try AlongSpacing(parsing: text), text) { error in
                XCTAssertEqual((error as? AlongSpacing.Problem)?.description, message, text)
            }
        }
    }
}
