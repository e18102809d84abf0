import Foundation
import Gazetteer
import Geo
import XCTest

/// The bundled gazetteer against Tests/Fixtures/destinations: every destination of the cited list
/// (top150.tsv) lands where a traveller means, within its radius and in its country, and every
/// spelling of variants.tsv (accents, spaces, articles, other scripts, one typo) lands where its
/// name does. The README there cites the list and the coordinates' sources.
final class DestinationTableTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/destinations")
    static let gazetteer = Result { try Gazetteer.bundled() }

    struct Row {
        var query: String
        /// The countries it lies in (a border's falls: "ZW,ZM").
        var countries: [String]
        var point: GeoPoint
        var radiusKm: Double
    }

    /// The rows of a table file: `#` lines and the header line left out.
    static func lines(_ name: String) throws -> [[String]] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }.dropFirst()
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    static func table() throws -> [Row] {
        try lines("top150.tsv").map { cols in
            guard cols.count >= 5, let lat = Double(cols[2]), let lon = Double(cols[3]), let radius = Double(cols[4]) else {
                throw NSError(domain: "top150.tsv", code: 1, userInfo: [NSLocalizedDescriptionKey: "bad row \(cols)"])
            }
            return Row(query: cols[0], countries: cols[1].split(separator: ",").map(String.init), point: GeoPoint(latitude: lat, longitude: lon), radiusKm: radius)
        }
    }

    static func km(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let r = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * r, dLon = (b.longitude - a.longitude) * r
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * r) * cos(b.latitude * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0088 * asin(min(1, h.squareRoot()))
    }

    static func country(_ feature: Feature) -> String? {
        switch feature {
        case .place(let p): p.countryCode
        case .destination(let d): d.countryCode
        }
    }

    /// Why `query` does not land on `row`, or nil when it does (within the radius, or inside the
    /// feature's extent where it has one, and in the row's country where the feature names one).
    func miss(_ query: String, _ row: Row, _ gazetteer: Gazetteer) -> String? {
        guard let found = gazetteer.feature(named: query) else { return "\(query): nothing found" }
        let distance = Self.km(found.coordinate, row.point)
        let inside = found.extent?.contains(row.point) ?? false
        if distance > row.radiusKm && !inside {
            return "\(query): \(found.displayName) is \(Int(distance)) km away (radius \(Int(row.radiusKm)) km)"
        }
        if let country = Self.country(found), !country.isEmpty, !row.countries.contains(country) {
            return "\(query): \(found.displayName) is in \(country), not \(row.countries.joined(separator: " or "))"
        }
        return nil
    }

    func testEveryDestinationOfTheTableLandsWhereATravellerMeans() throws {
        let gazetteer = try Self.gazetteer.get()
        XCTAssertNil(gazetteer.destinationsProblem)
        let rows = try Self.table()
        XCTAssertGreaterThanOrEqual(rows.count, 150)
        let misses = rows.compactMap { miss($0.query, $0, gazetteer) }
        XCTAssertEqual(misses, [], "\(misses.count) of \(rows.count) miss")
    }

    func testTheDestinationsANewUserTriedLandWhereTheyMean() throws {
        let gazetteer = try Self.gazetteer.get()
        let rows = Dictionary(try Self.table().map { ($0.query, $0) }, uniquingKeysWith: { a, _ in a })
        let tried = ["Machu Picchu", "Stonehenge", "Angkor Wat", "Eiffel Tower", "Mount Everest", "Taj Mahal", "Uluru",
                     "Serengeti", "Santorini", "Mount Fuji", "Colosseum", "Great Wall of China", "Kilimanjaro", "Acropolis",
                     "Bali", "Alhambra", "Venice", "Tuscany", "Bavaria", "Grand Canyon"]
        for query in tried {
            let row = try XCTUnwrap(rows[query], "\(query) is in the table")
            XCTAssertNil(miss(query, row, gazetteer))
        }
    }

    func testEverySpellingOfTheVariantsLandsWhereItsNameDoes() throws {
        let gazetteer = try Self.gazetteer.get()
        let rows = Dictionary(try Self.table().map { ($0.query, $0) }, uniquingKeysWith: { a, _ in a })
        let variants = try Self.lines("variants.tsv")
        XCTAssertGreaterThanOrEqual(variants.count, 40)
        var misses: [String] = []
        for cols in variants {
            let row = try XCTUnwrap(rows[cols[1]], "\(cols[1]) is a query of top150.tsv")
            if let why = miss(cols[0], row, gazetteer) { misses.append(why) }
        }
        XCTAssertEqual(misses, [], "\(misses.count) of \(variants.count) miss")
    }

    /// A country's name lands in that country, inside its extent, not on a town named after it
    /// (Italy, Texas; Jordan, Utah) nor on an island of its name.
    func testEveryCountryOfTheTableLandsInsideTheCountry() throws {
        let gazetteer = try Self.gazetteer.get()
        let table: [(String, String)] = [
            ("Italy", "IT"), ("Japan", "JP"), ("France", "FR"), ("Brazil", "BR"), ("Australia", "AU"),
            ("Jordan", "JO"), ("Chile", "CL"), ("Peru", "PE"), ("Iceland", "IS"), ("Egypt", "EG"),
            ("Kenya", "KE"), ("Canada", "CA"), ("India", "IN"), ("China", "CN"), ("Mexico", "MX"),
            ("Norway", "NO"), ("Greece", "GR"), ("Portugal", "PT"), ("Thailand", "TH"), ("New Zealand", "NZ"),
        ]
        var misses: [String] = []
        for (query, code) in table {
            guard let found = gazetteer.feature(named: query) else { misses.append("\(query): nothing found"); continue }
            guard case .destination(let d) = found, d.kind == .country else {
                misses.append("\(query): \(found.displayName) is not a country"); continue
            }
            if d.countryCode != code { misses.append("\(query): \(found.displayName) is not in \(code)") }
            guard let extent = d.extent else { misses.append("\(query): no extent"); continue }
            if !extent.contains(d.coordinate) { misses.append("\(query): its point is outside its extent") }
        }
        XCTAssertEqual(misses, [], "\(misses.count) of \(table.count) miss")
        XCTAssertEqual(gazetteer.feature(named: "Italy")?.displayName, "Italy \u{2014} country, IT")
    }
}
