import Foundation
import Geo
import XCTest

@testable import Gazetteer

/// English and historic names of big cities against the bundled gazetteer: each must find the city,
/// not a smaller place whose own name it is ("Cologne" is Köln, not Cologne, Lombardy).
///
/// The rows do not come from the shipped data. The names are English exonyms and former names as
/// Wikipedia's "List of English exonyms" (en.wikipedia.org/wiki/List_of_English_exonyms, and its
/// per-language pages for German, Italian, Polish…) and "List of renamed places" / "List of city name
/// changes" give them; each city's country and coordinates (rounded to about 0.05°) are those of its
/// Wikipedia article, checked by hand. 52 rows, compared within `toleranceKm`.
final class ExonymTests: XCTestCase {
    static let shared = Result { try Gazetteer.bundled() }

    /// How far the place found may lie from the city's coordinates (the city's centre point differs between sources).
    static let toleranceKm = 30.0

    /// English name or former name, the city's country, and its coordinates.
    static let table: [(name: String, country: String, latitude: Double, longitude: Double)] = [
        // English exonyms.
        ("Cologne", "DE", 50.94, 6.96),          // Köln
        ("Munich", "DE", 48.14, 11.58),          // München
        ("Nuremberg", "DE", 49.45, 11.08),       // Nürnberg
        ("Florence", "IT", 43.77, 11.25),        // Firenze
        ("Turin", "IT", 45.07, 7.69),            // Torino
        ("Naples", "IT", 40.85, 14.27),          // Napoli
        ("Leghorn", "IT", 43.55, 10.31),         // Livorno
        ("Rome", "IT", 41.90, 12.50),            // Roma
        ("Milan", "IT", 45.46, 9.19),            // Milano
        ("Genoa", "IT", 44.41, 8.93),            // Genova
        ("Venice", "IT", 45.44, 12.33),          // Venezia
        ("Seville", "ES", 37.39, -5.99),         // Sevilla
        ("Lisbon", "PT", 38.72, -9.14),          // Lisboa
        ("Copenhagen", "DK", 55.68, 12.57),      // København
        ("Gothenburg", "SE", 57.71, 11.97),      // Göteborg
        ("Prague", "CZ", 50.08, 14.44),          // Praha
        ("Warsaw", "PL", 52.23, 21.01),          // Warszawa
        ("Cracow", "PL", 50.06, 19.94),          // Kraków
        ("Vienna", "AT", 48.21, 16.37),          // Wien
        ("Moscow", "RU", 55.76, 37.62),          // Moskva
        ("Athens", "GR", 37.98, 23.73),          // Athína
        ("Brussels", "BE", 50.85, 4.35),         // Bruxelles / Brussel
        ("Antwerp", "BE", 51.22, 4.40),          // Antwerpen
        ("The Hague", "NL", 52.08, 4.30),        // Den Haag
        ("Geneva", "CH", 46.20, 6.14),           // Genève
        ("Belgrade", "RS", 44.82, 20.46),        // Beograd
        ("Bucharest", "RO", 44.43, 26.10),       // București
        ("Kiev", "UA", 50.45, 30.52),            // Kyiv
        ("Lemberg", "UA", 49.84, 24.03),         // Lviv (German)
        ("Pressburg", "SK", 48.15, 17.11),       // Bratislava (German)
        ("Agram", "HR", 45.81, 15.98),           // Zagreb (German)
        ("Laibach", "SI", 46.05, 14.51),         // Ljubljana (German)
        ("Danzig", "PL", 54.35, 18.65),          // Gdańsk
        ("Breslau", "PL", 51.11, 17.03),         // Wrocław
        // Former names.
        ("Calcutta", "IN", 22.57, 88.36),        // Kolkata (2001)
        ("Bombay", "IN", 19.08, 72.88),          // Mumbai (1995)
        ("Madras", "IN", 13.08, 80.27),          // Chennai (1996)
        ("Poona", "IN", 18.52, 73.86),           // Pune
        ("Benares", "IN", 25.32, 82.99),         // Varanasi
        ("Bangalore", "IN", 12.97, 77.59),       // Bengaluru (2014)
        ("Peking", "CN", 39.90, 116.41),         // Beijing
        ("Canton", "CN", 23.13, 113.26),         // Guangzhou
        ("Mukden", "CN", 41.80, 123.43),         // Shenyang
        ("Saigon", "VN", 10.78, 106.70),         // Ho Chi Minh City (1976)
        ("Rangoon", "MM", 16.87, 96.20),         // Yangon
        ("Batavia", "ID", -6.20, 106.85),        // Jakarta
        ("Constantinople", "TR", 41.01, 28.98),  // Istanbul
        ("Leningrad", "RU", 59.94, 30.31),       // Saint Petersburg (1991)
        ("Stalingrad", "RU", 48.71, 44.51),      // Volgograd (1961)
        ("Königsberg", "RU", 54.71, 20.51),      // Kaliningrad (1946)
        ("Christiania", "NO", 59.91, 10.75),     // Oslo (1925)
        ("Léopoldville", "CD", -4.32, 15.31),    // Kinshasa (1966)
    ]

    func testEnglishAndFormerNamesFindTheCity() throws {
        let g = try Self.shared.get()
        XCTAssertEqual(Self.table.count, 52)
        var wrong: [String] = []
        for row in Self.table {
            let expected = GeoPoint(latitude: row.latitude, longitude: row.longitude)
            guard let found = g.search(row.name, limit: 3).first else {
                wrong.append("\(row.name): nothing")
                continue
            }
            guard case .place(let place) = found.feature else {
                wrong.append("\(row.name): \(found.feature.displayName), not a city")
                continue
            }
            let km = distanceKm(place.coordinate, expected)
            if place.countryCode != row.country || km > Self.toleranceKm {
                wrong.append("\(row.name): \(place.displayName), \(Int(km)) km away")
            }
            // The command line takes the same place, without a guess.
            if g.lookUp(row.name) != .found(found.feature) { wrong.append("\(row.name): lookUp differs") }
        }
        XCTAssertEqual(wrong, [])
    }

    /// "St Petersburg" is the Russian city (Saint Petersburg, 5 million) before St. Petersburg,
    /// Florida (257,083): "St" for "Saint" is the city's own name written short.
    func testSaintWrittenShortIsTheBiggerCity() throws {
        let g = try Self.shared.get()
        for query in ["St Petersburg", "St. Petersburg", "Saint Petersburg", "st-petersburg"] {
            let first = g.search(query, limit: 3).first
            XCTAssertEqual(first.map { if case .place(let p) = $0.feature { p.countryCode } else { "" } }, "RU", query)
            XCTAssertEqual(first?.match, .name, query)
        }
        XCTAssertEqual(g.search("St Petersburg, Florida", limit: 1).first?.feature.displayName, "St. Petersburg, Florida, US")
    }

    /// 東京 is Tokyo the city, not the start of 東京スカイツリー (Tokyo Skytree).
    func testTokyoInJapaneseIsTheCity() throws {
        let g = try Self.shared.get()
        let first = try XCTUnwrap(g.search("東京", limit: 3).first)
        XCTAssertEqual(first.feature.displayName, "Tokyo, Tokyo, JP")
        XCTAssertTrue(first.match.isWholeName)
        XCTAssertEqual(g.lookUp("東京"), .found(first.feature))
    }

    /// A country or region after the name without a comma qualifies it as with one.
    func testAQualifierWithoutACommaIsOneWithIt() throws {
        let g = try Self.shared.get()
        for (spaced, comma, expected) in [("Oslo Norway", "Oslo, Norway", "Oslo, Oslo, NO"),
                                          ("Paris Texas", "Paris, Texas", "Paris, Texas, US"),
                                          ("Naples Florida", "Naples, Florida", "Naples, Florida, US"),
                                          ("Cologne Italy", "Cologne, Italy", "Cologne, Lombardy, IT"),
                                          ("London Ontario", "London, Ontario", "London, Ontario, CA")] {
            let withComma = g.search(comma, limit: 1).first?.feature
            XCTAssertEqual(withComma?.displayName, expected, comma)
            XCTAssertEqual(g.search(spaced, limit: 1).first?.feature, withComma, spaced)
            XCTAssertEqual(g.lookUp(spaced), withComma.map { .found($0) }, spaced)
        }
        // A whole name with a space in it stays itself: "New York" is not "New" in New York.
        XCTAssertEqual(g.search("New York", limit: 1).first?.feature.displayName, "New York City, New York, US")
    }

    /// The command line takes whole names only: a start of a name, a typo or nonsense is refused,
    /// with up to three suggestions from the go-to prompt's list.
    func testTheCommandLineTakesWholeNamesOnly() throws {
        let g = try Self.shared.get()
        for query in ["asdf", "a", "abc 1", "Lodnon", "Barcelnoa", "Lond", "Santorni"] {
            guard case let .unknown(suggestions) = g.lookUp(query) else {
                XCTFail("\(query) was taken")
                continue
            }
            XCTAssertLessThanOrEqual(suggestions.count, 3, query)
            XCTAssertEqual(suggestions.first, g.search(query, limit: 6).first?.feature, query)
        }
        guard case let .unknown(suggestions) = g.lookUp("Lodnon") else { return XCTFail("Lodnon was taken") }
        XCTAssertEqual(suggestions.first?.displayName, "London, England, GB")
        for query in ["London", "london", "LONDON", "the Hague", "Zürich", "zurich", "Napoli", "Paris, Texas", "Sao Paulo"] {
            guard case .found = g.lookUp(query) else { return XCTFail("\(query) was refused") }
        }
    }
}
