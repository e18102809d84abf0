import Foundation
import Gazetteer
import Geo
import XCTest

/// The bundled gazetteer against Tests/Fixtures/destinations: every destination of the cited list
/// (top150.tsv) lands where a traveller means, within its radius and in its country, and every
/// spelling of variants.tsv (accents, spaces, articles, other scripts, one typo) lands where its
/// name does. The README there cites the list and the coordinates' sources. top150.tsv's points come
/// from the sources the shipped destinations were built from (UNESCO's export, Wikidata, the same web
/// pages), so they check radii, countries and names, not positions: independent.tsv holds points from
/// sources the shipped data never read (the tz database's zone.tab, hand-checked web pages), each row
/// naming its source (scripts/destination_oracle.py writes it).
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

    /// A row of independent.tsv: a point from a source the shipped data was not built from.
    struct IndependentRow {
        var query: String
        var point: GeoPoint
        var toleranceKm: Double
        var source: String
    }

    static func independent() throws -> [IndependentRow] {
        try lines("independent.tsv").map { cols in
            guard cols.count == 5, let lat = Double(cols[1]), let lon = Double(cols[2]), let tolerance = Double(cols[3]) else {
                throw NSError(domain: "independent.tsv", code: 1, userInfo: [NSLocalizedDescriptionKey: "bad row \(cols)"])
            }
            return IndependentRow(query: cols[0], point: GeoPoint(latitude: lat, longitude: lon), toleranceKm: tolerance, source: cols[4])
        }
    }

    /// zone.tab's ISO 6709 text (`+4852+00220`, `-332748-0703956`) in degrees.
    static func iso6709(_ text: Substring) -> GeoPoint? {
        guard let cut = text.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        func degrees(_ part: Substring) -> Double? {
            let sign: Double = part.first == "-" ? -1 : 1
            let digits = Array(part.dropFirst())
            guard digits.allSatisfy(\.isNumber), [4, 5, 6, 7].contains(digits.count) else { return nil }
            func number(_ slice: ArraySlice<Character>) -> Double { Double(String(slice)) ?? .nan }
            let seconds = digits.count >= 6
            let degreeDigits = digits.count - (seconds ? 4 : 2)
            var value = number(digits[..<degreeDigits]) + number(digits[degreeDigits..<(degreeDigits + 2)]) / 60
            if seconds { value += number(digits[(degreeDigits + 2)...]) / 3600 }
            return sign * value
        }
        guard let lat = degrees(text[..<cut]), let lon = degrees(text[cut...]) else { return nil }
        return GeoPoint(latitude: lat, longitude: lon)
    }

    func testEveryDestinationLandsNearThePointOfASourceTheShippedDataNeverRead() throws {
        let gazetteer = try Self.gazetteer.get()
        let table = Dictionary(try Self.table().map { ($0.query, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = try Self.independent()
        XCTAssertEqual(rows.filter { $0.source.hasPrefix("tz ") }.count, 34)
        XCTAssertEqual(rows.filter { $0.source.hasPrefix("page ") }.count, 12)
        XCTAssertEqual(Set(rows.map(\.query)).count, rows.count, "one row a destination")
        var misses: [String] = []
        for row in rows {
            let listed = try XCTUnwrap(table[row.query], "\(row.query) is a query of top150.tsv")
            if row.source.hasPrefix("tz ") {
                // tz rows: "tz VERSION zone.tab ZONE ISO6709 (CC): …", the point as zone.tab writes it.
                let words = row.source.split(separator: " ")
                let tz = try XCTUnwrap(Self.iso6709(words[4]), row.source)
                XCTAssertEqual(tz.latitude, row.point.latitude, accuracy: 1e-5, row.source)
                XCTAssertEqual(tz.longitude, row.point.longitude, accuracy: 1e-5, row.source)
                let country = String(words[5].dropFirst().prefix(2))
                XCTAssertTrue(listed.countries.contains(country), "\(row.query): tz says \(country), the table \(listed.countries)")
            }
            guard let found = gazetteer.feature(named: row.query) else { misses.append("\(row.query): nothing found"); continue }
            let distance = Self.km(found.coordinate, row.point)
            if distance > row.toleranceKm {
                misses.append("\(row.query): \(found.displayName) is \(Int(distance)) km from the point of \(row.source)")
            }
            if let country = Self.country(found), !country.isEmpty, !listed.countries.contains(country) {
                misses.append("\(row.query): \(found.displayName) is in \(country), not \(listed.countries.joined(separator: " or "))")
            }
        }
        XCTAssertEqual(misses, [], "\(misses.count) of \(rows.count) miss")
    }

    func testTheISO6709TextOfZoneTabReadsAsDegrees() {
        XCTAssertEqual(Self.iso6709("+4852+00220"), GeoPoint(latitude: 48 + 52.0 / 60, longitude: 2 + 20.0 / 60))
        let santiago = Self.iso6709("-332748-0703956")
        XCTAssertEqual(santiago?.latitude ?? 0, -(33 + 27.0 / 60 + 48.0 / 3600), accuracy: 1e-12)
        XCTAssertEqual(santiago?.longitude ?? 0, -(70 + 39.0 / 60 + 56.0 / 3600), accuracy: 1e-12)
        XCTAssertNil(Self.iso6709("+48x2+00220"))
        XCTAssertNil(Self.iso6709("+4852"))
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
