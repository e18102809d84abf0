import Foundation
import Geo
import WorldMap
import TestSupport
import XCTest

@testable import Gazetteer

final class GazetteerTests: XCTestCase {
    // Loaded once: the file is mapped, so sharing it between tests is free.
    static let shared = Result { try Gazetteer.bundled() }

    func gazetteer() throws -> Gazetteer { try Self.shared.get() }

    // MARK: Nearest

    func testNearestToNaplesIsNaples() throws {
        let found = try XCTUnwrap(gazetteer().nearest(to: GeoPoint(latitude: 40.85, longitude: 14.27)))
        XCTAssertEqual(found.place.name, "Naples")
        XCTAssertEqual(found.place.countryCode, "IT")
        XCTAssertEqual(found.place.admin1, "Campania")
        XCTAssertEqual(found.place.displayName, "Naples, Campania, IT")
        XCTAssertLessThan(found.distanceKm, 1)
    }

    /// The bounded search finds what the unbounded one finds within the limit, and nothing beyond:
    /// 2,000 points of a fixed sequence, land and sea, each at limits of 1, 30, 100 and 700 km.
    func testTheNearestWithinALimitIsTheNearestIfItIsThatClose() throws {
        let g = try gazetteer()
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var found = 0, none = 0
        for _ in 0..<2000 {
            let p = GeoPoint(latitude: next() * 180 - 90, longitude: next() * 360 - 180)
            let whole = g.nearest(to: p)
            for limit in [1.0, 30, 100, 700] {
                let bounded = g.nearest(to: p, withinKm: limit)
                if let whole, whole.distanceKm <= limit {
                    XCTAssertEqual(bounded?.place.displayName, whole.place.displayName, "\(p) within \(limit)")
                    XCTAssertEqual(bounded?.distanceKm, whole.distanceKm)
                    found += 1
                } else {
                    XCTAssertNil(bounded, "\(p) within \(limit)")
                    none += 1
                }
            }
        }
        XCTAssertGreaterThan(found, 500)
        XCTAssertGreaterThan(none, 500)
    }

    func testNearestAcrossTheAntimeridian() throws {
        let g = try gazetteer()
        // Egvekinot lies at 179.1° W; from 179.99° E it is 40 km east, across ±180.
        let chukotka = try XCTUnwrap(g.nearest(to: GeoPoint(latitude: 66.3, longitude: 179.99)))
        XCTAssertEqual(chukotka.place.name, "Egvekinot")
        XCTAssertLessThan(chukotka.distanceKm, 60)
        // And the other way round: from 179.9° W, Savusavu on Vanua Levu (179.3° E).
        let fiji = try XCTUnwrap(g.nearest(to: GeoPoint(latitude: -16.8, longitude: -179.9)))
        XCTAssertEqual(fiji.place.name, "Savusavu")
        XCTAssertEqual(fiji.place.countryCode, "FJ")
    }

    func testNearestNearThePolesAndOutOfRangeInput() throws {
        let g = try gazetteer()
        let north = try XCTUnwrap(g.nearest(to: GeoPoint(latitude: 90, longitude: 0)))
        XCTAssertEqual(north.place.name, "Longyearbyen")
        let south = try XCTUnwrap(g.nearest(to: GeoPoint(latitude: -90, longitude: 123)))
        XCTAssertGreaterThan(south.distanceKm, 2000)
        XCTAssertNotNil(g.nearest(to: GeoPoint(latitude: 89.999, longitude: 180)))
        XCTAssertNotNil(g.nearest(to: GeoPoint(latitude: -89.5, longitude: -180)))
        // Longitudes past ±180 wrap; NaN has no nearest place.
        XCTAssertEqual(g.nearest(to: GeoPoint(latitude: 40.85, longitude: 374.27))?.place.name, "Naples")
        XCTAssertNil(g.nearest(to: GeoPoint(latitude: .nan, longitude: 0)))
    }

    func testNearestAgreesWithExhaustiveSearch() throws {
        let g = try gazetteer()
        let all = (0..<g.count).compactMap { g.place(rank: $0)?.coordinate }
        XCTAssertEqual(all.count, g.count)
        var rng = SeededRandom(testNamed: "GazetteerTests.testNearestAgreesWithExhaustiveSearch", fallback: 42)
        var points = [GeoPoint(latitude: 0, longitude: 180), GeoPoint(latitude: -48.9, longitude: -123.4),
                      GeoPoint(latitude: 85, longitude: -179.9), GeoPoint(latitude: -60, longitude: 179.999)]
        for _ in 0..<20 {
            points.append(GeoPoint(latitude: rng.next(in: -90...90), longitude: rng.next(in: -180...180)))
        }
        for p in points {
            let expected = all.map { distanceKm(p, $0) }.min() ?? .infinity
            let found = try XCTUnwrap(g.nearest(to: p))
            XCTAssertEqual(found.distanceKm, expected, accuracy: 1e-6, "at \(p)")
            XCTAssertEqual(distanceKm(p, found.place.coordinate), found.distanceKm, accuracy: 1e-6)
        }
    }

    // MARK: Completion

    func testCompletionIgnoresCaseAndRanksByPopulation() throws {
        let results = try gazetteer().complete("PARIS", limit: 20)
        XCTAssertEqual(results.first?.displayName, "Paris, Ile-de-France, FR")
        XCTAssertTrue(results.contains { $0.displayName == "Paris, Texas, US" })
        // Every place called Paris by population, Parys (alternate name "Paris") among them as a place a
        // hundred times smaller, then the places whose name starts with Paris, by population.
        let whole = results.prefix { $0.name == "Paris" || $0.name == "Parys" }
        let named = whole.filter { $0.name == "Paris" }
        XCTAssertGreaterThan(named.count, 5)
        XCTAssertEqual(named.map(\.population), named.map(\.population).sorted(by: >))
        XCTAssertTrue(whole.contains { $0.name == "Parys" })
        let scores = whole.map { Double($0.population) / ($0.name == "Parys" ? 100 : 1) }
        XCTAssertEqual(scores, scores.sorted(by: >))
        let starting = results.dropFirst(whole.count).prefix { searchFold($0.name).hasPrefix("paris") }
        XCTAssertGreaterThan(starting.count, 2)
        XCTAssertEqual(starting.map(\.population), starting.map(\.population).sorted(by: >))
        // Districts such as "Paris 15 Vaugirard" are left out of the data.
        XCTAssertFalse(results.contains { $0.name.contains(where: \.isNumber) })
    }

    func testCompletionIgnoresAccents() throws {
        let g = try gazetteer()
        for query in ["zurich", "Zürich", "ZUR", "zür"] {
            XCTAssertEqual(g.complete(query, limit: 3).first?.name, "Zürich", query)
        }
        XCTAssertEqual(g.complete("sao p", limit: 3).first?.displayName, "São Paulo, São Paulo, BR")
        XCTAssertEqual(g.complete("São Pau", limit: 3).first?.name, "São Paulo")
        XCTAssertEqual(g.complete("naples", limit: 5).first?.displayName, "Naples, Campania, IT")
    }

    func testCompletionFindsAlternateNames() throws {
        let g = try gazetteer()
        XCTAssertEqual(g.complete("napoli", limit: 1).first?.displayName, "Naples, Campania, IT")
        XCTAssertEqual(g.place(named: "Koeln")?.name, "Köln")
        // An alternate name of a city more than a hundred times bigger beats a place's own name:
        // "Cologne" is Köln (1,024,621) before the town in Lombardy (7,032).
        XCTAssertEqual(g.complete("Cologne", limit: 3).map(\.displayName),
                       ["Köln, North Rhine-Westphalia, DE", "Cologne, Lombardy, IT", "Cologne, Minnesota, US"])
        XCTAssertEqual(g.place(named: "Lisboa")?.displayName, "Lisbon, Lisbon, PT")
        // A place found only by the start of an alternate name comes after
        // places whose own name matches: "sao p" is São Paulo and São Pedro…,
        // not Saint Petersburg ("Sao Petersburgo").
        let saoP = g.complete("sao p", limit: 10)
        XCTAssertEqual(saoP.count, 10)
        XCTAssertTrue(saoP.allSatisfy { searchFold($0.name).hasPrefix("sao p") })
    }

    func testCompletionNarrowsByRegionOrCountry() throws {
        let g = try gazetteer()
        XCTAssertEqual(g.complete("paris, tex", limit: 5).map(\.displayName), ["Paris, Texas, US"])
        XCTAssertEqual(g.complete("Paris, Tennessee, US", limit: 5).map(\.displayName), ["Paris, Tennessee, US"])
        let inCanada = g.complete("paris, ca", limit: 5)
        XCTAssertFalse(inCanada.isEmpty)
        XCTAssertTrue(inCanada.allSatisfy { $0.countryCode == "CA" })
        XCTAssertEqual(g.complete("naples, united st", limit: 1).first?.displayName, "Naples, Florida, US")
    }

    func testEmptyAndUnknownQueries() throws {
        let g = try gazetteer()
        XCTAssertEqual(g.complete("", limit: 10), [])
        XCTAssertEqual(g.complete("  , ", limit: 10), [])
        XCTAssertEqual(g.complete("paris", limit: 0), [])
        XCTAssertEqual(g.complete("xqzxqzxqz", limit: 10), [])
        XCTAssertNil(g.place(named: ""))
        XCTAssertNil(g.place(named: "xqzxqzxqz"))
        XCTAssertEqual(g.complete("a", limit: 10).count, 10)
        XCTAssertEqual(g.complete("paris, texas", limit: .max).map(\.displayName), ["Paris, Texas, US"])
    }

    func testPlaceNamedPrefersExactNames() throws {
        let g = try gazetteer()
        XCTAssertEqual(g.place(named: "paris")?.displayName, "Paris, Ile-de-France, FR")
        XCTAssertEqual(g.place(named: "Paris, Texas")?.displayName, "Paris, Texas, US")
        XCTAssertEqual(g.place(named: "Naples, Campania, IT")?.displayName, "Naples, Campania, IT")
        // A whole name beats bigger places it only starts.
        XCTAssertEqual(g.place(named: "york")?.displayName, "York, England, GB")
        XCTAssertEqual(g.place(named: "napol")?.name, "Napoleon")
        // No exact name: the best completion.
        XCTAssertEqual(g.place(named: "zuri")?.name, "Zürich")
    }

    // MARK: Ranking

    /// Well-known cities, by their English names, their own spellings and alternate names, and the
    /// country each must find. Names that two famous places share (Toledo, Valencia, Córdoba,
    /// Newcastle, San José) are left out: the manual says how those are ranked.
    static let wellKnownCities: [(name: String, country: String)] = [
        ("Tokyo", "JP"), ("Delhi", "IN"), ("New Delhi", "IN"), ("Shanghai", "CN"), ("São Paulo", "BR"),
        ("Sao Paulo", "BR"), ("Mexico City", "MX"), ("Cairo", "EG"), ("Mumbai", "IN"), ("Beijing", "CN"),
        ("Dhaka", "BD"), ("Osaka", "JP"), ("New York City", "US"), ("Karachi", "PK"), ("Buenos Aires", "AR"),
        ("Istanbul", "TR"), ("Kolkata", "IN"), ("Manila", "PH"), ("Lagos", "NG"), ("Rio de Janeiro", "BR"),
        ("Kinshasa", "CD"), ("Moscow", "RU"), ("Moskva", "RU"), ("Paris", "FR"), ("London", "GB"),
        ("Lima", "PE"), ("Bangkok", "TH"), ("Seoul", "KR"), ("Jakarta", "ID"), ("Tehran", "IR"),
        ("Berlin", "DE"), ("Madrid", "ES"), ("Rome", "IT"), ("Naples", "IT"), ("Napoli", "IT"),
        ("Venice", "IT"), ("Venezia", "IT"), ("Milan", "IT"), ("Florence", "IT"), ("Firenze", "IT"),
        ("Lisbon", "PT"), ("Lisboa", "PT"), ("Porto", "PT"), ("Bath", "GB"), ("Oxford", "GB"),
        ("Cambridge", "GB"), ("Manchester", "GB"), ("Birmingham", "GB"), ("Edinburgh", "GB"), ("York", "GB"),
        ("Dublin", "IE"), ("Cork", "IE"), ("Amsterdam", "NL"), ("Brussels", "BE"), ("Vienna", "AT"),
        ("Wien", "AT"), ("Salzburg", "AT"), ("Prague", "CZ"), ("Praha", "CZ"), ("Warsaw", "PL"),
        ("Kraków", "PL"), ("Krakow", "PL"), ("Budapest", "HU"), ("Athens", "GR"), ("Stockholm", "SE"),
        ("Oslo", "NO"), ("Bergen", "NO"), ("Copenhagen", "DK"), ("Helsinki", "FI"), ("Reykjavik", "IS"),
        ("Zürich", "CH"), ("Zurich", "CH"), ("Geneva", "CH"), ("Munich", "DE"), ("München", "DE"),
        ("Hamburg", "DE"), ("Köln", "DE"), ("Barcelona", "ES"), ("Málaga", "ES"), ("Malaga", "ES"),
        ("Granada", "ES"), ("Marseille", "FR"),
        ("Lyon", "FR"), ("Nice", "FR"), ("Split", "HR"), ("Dubrovnik", "HR"), ("Kyiv", "UA"), ("Kiev", "UA"),
        ("Odesa", "UA"), ("Saint Petersburg", "RU"), ("Sydney", "AU"), ("Melbourne", "AU"), ("Perth", "AU"),
        ("Brisbane", "AU"), ("Auckland", "NZ"), ("Wellington", "NZ"), ("Toronto", "CA"), ("Vancouver", "CA"),
        ("Montreal", "CA"), ("Montréal", "CA"), ("Victoria", "CA"), ("Halifax", "CA"), ("Chicago", "US"),
        ("Los Angeles", "US"), ("San Francisco", "US"), ("San Jose", "US"),
        ("Boston", "US"), ("Washington", "US"), ("Houston", "US"), ("Miami", "US"), ("Seattle", "US"),
        ("Denver", "US"), ("Havana", "CU"), ("Bogotá", "CO"), ("Bogota", "CO"), ("Quito", "EC"), ("La Paz", "BO"),
        ("Santiago", "CL"), ("Montevideo", "UY"), ("Cape Town", "ZA"), ("Johannesburg", "ZA"),
        ("Nairobi", "KE"), ("Casablanca", "MA"), ("Marrakesh", "MA"), ("Tunis", "TN"), ("Alexandria", "EG"),
        ("Jerusalem", "IL"), ("Damascus", "SY"), ("Dubai", "AE"), ("Singapore", "SG"), ("Hong Kong", "HK"),
        ("Kyoto", "JP"), ("Hanoi", "VN"), ("Kathmandu", "NP"), ("Tripoli", "LY"), ("Kingston", "JM"),
    ]

    func testWellKnownCitiesFindTheirCountry() throws {
        let g = try gazetteer()
        XCTAssertGreaterThanOrEqual(Self.wellKnownCities.count, 60)
        for (name, country) in Self.wellKnownCities {
            let place = try XCTUnwrap(g.place(named: name), name)
            XCTAssertEqual(place.countryCode, country, "\(name): \(place.displayName)")
            XCTAssertGreaterThan(place.population, 25_000, "\(name): \(place.displayName)")
        }
    }

    /// The list the prompt shows, its first entry (where Enter goes) and `drop PLACE` are one ranking.
    func testPlaceNamedIsTheFirstCompletion() throws {
        let g = try gazetteer()
        for query in ["Bath", "Porto", "Venice", "Victoria", "bat", "por", "sao p", "paris, tex", "napol", "Cologne",
                      "Bogota", "St Petersburg", "zuri", "new york"] {
            XCTAssertEqual(g.place(named: query), g.complete(query, limit: 6).first, query)
            XCTAssertEqual(g.complete(query, limit: 6), g.rankedMatches(query, limit: 6).map(\.place), query)
        }
    }

    func testAPlacesOwnNameBeatsAnAlternateNameAndAPrefix() throws {
        let g = try gazetteer()
        // Dayton, Ohio, is bigger and has "Venice" among its alternate names.
        let venice = g.rankedMatches("Venice", limit: 6)
        XCTAssertEqual(venice.first?.place.displayName, "Venice, Veneto, IT")
        XCTAssertEqual(venice.first?.match, .name)
        XCTAssertEqual(venice.first { $0.place.name == "Dayton" }?.match, .alternateName)
        XCTAssertEqual(g.place(named: "venice")?.countryCode, "IT")
        // Every place called Bath before Bathinda, which is bigger but only starts with it.
        let bath = g.rankedMatches("Bath", limit: 20)
        XCTAssertEqual(bath.first?.place.displayName, "Bath, England, GB")
        let bathinda = try XCTUnwrap(bath.firstIndex { $0.place.name == "Bathinda" })
        XCTAssertTrue(bath[..<bathinda].allSatisfy { $0.place.name == "Bath" })
        XCTAssertEqual(bath[bathinda].match, .namePrefix)
        XCTAssertGreaterThan(bath[bathinda].place.population, bath[0].place.population)
        // Porto before Porto Alegre.
        let porto = g.rankedMatches("Porto", limit: 10)
        XCTAssertEqual(porto.first?.place.displayName, "Porto, Porto, PT")
        let alegre = try XCTUnwrap(porto.firstIndex { $0.place.name == "Porto Alegre" })
        XCTAssertTrue(porto[..<alegre].allSatisfy { $0.match < .namePrefix }, "\(porto)")
        XCTAssertEqual(porto[alegre].match, .namePrefix)
        // Victoria: the city in Canada (289,625). Hong Kong (7,396,076, alternate name "Victoria") ranks
        // as a place a hundred times smaller, and Hong Kong's own Victoria, Hong Kong listed twice, as
        // well: both after it.
        let victoria = g.rankedMatches("Victoria", limit: 30)
        XCTAssertEqual(victoria.first?.place.displayName, "Victoria, British Columbia, CA")
        XCTAssertNotEqual(g.place(named: "Victoria")?.countryCode, "HK")
        let hkVictoria = try XCTUnwrap(victoria.firstIndex { $0.place.countryCode == "HK" && $0.place.name == "Victoria" })
        XCTAssertEqual(victoria[hkVictoria].match, .nameOfABiggerPlace)
        let hongKong = try XCTUnwrap(victoria.firstIndex { $0.place.name == "Hong Kong" })
        XCTAssertLessThan(hongKong, hkVictoria)
        XCTAssertEqual(victoria[hongKong].match, .alternateName)
        // The matches come in order of tier (whole names, starts of own names, starts of alternate
        // names), then by population as the kind of match counts it.
        for query in ["Victoria", "Bath", "Paris", "san jose", "sao p"] {
            let found = g.rankedMatches(query, limit: 40)
            XCTAssertEqual(found.map(\.match.tier), found.map(\.match.tier).sorted(), query)
            let length = searchFold(query).filter { $0 != " " }.count
            for tier in Set(found.map(\.match.tier)) {
                let weights = found.filter { $0.match.tier == tier }.map { $0.match.rankingWeight($0.place.population, nameLength: length) }
                XCTAssertEqual(weights, weights.sorted(by: >), "\(query) \(tier)")
            }
        }
    }

    func testAccentsAndCaseDoNotChangeTheRanking() throws {
        let g = try gazetteer()
        // Bogotá, Colombia and Bogota, New Jersey both have the name, with or without its accent:
        // the bigger comes first, however it is typed.
        for query in ["Bogotá", "Bogota", "bogota", "BOGOTÁ"] {
            let bogota = g.rankedMatches(query, limit: 2)
            XCTAssertEqual(bogota.map(\.place.displayName), ["Bogotá, Bogota D.C., CO", "Bogota, New Jersey, US"], query)
            XCTAssertEqual(bogota.map(\.match), [.name, .name], query)
        }
        // Málaga, Spain before the smaller Málaga, Colombia and Malaga, Philippines.
        for query in ["Málaga", "Malaga", "malaga"] {
            let malaga = g.rankedMatches(query, limit: 10)
            XCTAssertEqual(malaga.first?.place.displayName, "Málaga, Andalusia, ES", query)
            let philippines = try XCTUnwrap(malaga.firstIndex { $0.place.countryCode == "PH" }, query)
            XCTAssertTrue(malaga[...philippines].allSatisfy { $0.match == .name }, query)
        }
        // San Jose, California is bigger than San José, Costa Rica, accent or not.
        XCTAssertEqual(g.place(named: "San José")?.displayName, "San Jose, California, US")
        XCTAssertEqual(g.place(named: "SAN JOSE")?.displayName, "San Jose, California, US")
        XCTAssertEqual(g.rankedMatches("San José", limit: 2).last?.place.countryCode, "CR")
        // Punctuation aside too: "St Louis" is St. Louis's own name.
        XCTAssertEqual(g.rankedMatches("St Louis", limit: 1).first?.place.name, "St. Louis")
        XCTAssertEqual(g.rankedMatches("St Louis", limit: 1).first?.match, .name)
        for query in ["zurich", "  zürich ", "ZURICH"] {
            let zurich = g.rankedMatches(query, limit: 1).first
            XCTAssertEqual(zurich?.place.name, "Zürich", query)
            XCTAssertEqual(zurich?.match, .name, query)
        }
        XCTAssertEqual(g.rankedMatches("Reykjavik", limit: 1).first?.place.countryCode, "IS")
    }

    /// Names that famous places share with others rank as docs/manual.md ("Go to") says.
    func testSharedNamesRankAsTheManualSays() throws {
        let g = try gazetteer()
        for (query, expected) in [("Toledo", "US"), ("Valencia", "VE"), ("Córdoba", "AR"), ("Newcastle", "AU"),
                                  ("Durham", "US"), ("San José", "US"), ("Bogota", "CO"), ("Malaga", "ES"),
                                  ("Cologne", "DE"), ("Seville", "ES"), ("Mecca", "SA"), ("Calcutta", "IN"),
                                  ("Canton", "CN"), ("Naples", "IT"), ("Sakata", "JP"), ("Sol", "ES"),
                                  ("Toledo, ES", "ES"), ("Cologne, IT", "IT"), ("Seville, Ohio", "US"), ("San José, CR", "CR"),
                                  ("Malaga, Spain", "ES")] {
            XCTAssertEqual(g.place(named: query)?.countryCode, expected, query)
        }
        XCTAssertEqual(g.complete("Bogota", limit: 2).last?.displayName, "Bogota, New Jersey, US")
        // Not in the gazetteer: fewer than 1,000 people, or not a populated place.
        for missing in ["Vatican City", "Pompeii", "Mallorca"] {
            XCTAssertNotEqual(g.place(named: missing)?.name, missing, missing)
        }
    }

    /// `vtourist drop New York`: the words that are not coordinates, joined, name the place.
    func testCommandLineWordsNameAPlace() throws {
        let g = try gazetteer()
        for (words, expected) in [(["New", "York"], "New York City, New York, US"), (["Naples"], "Naples, Campania, IT"),
                                  (["Paris,", "Texas"], "Paris, Texas, US")] {
            XCTAssertEqual(parseCoordinates(words: words), .notCoordinates, "\(words)")
            XCTAssertEqual(g.place(named: words.joined(separator: " "))?.displayName, expected, "\(words)")
        }
        let naples = try XCTUnwrap(g.place(named: "Naples")).coordinate
        XCTAssertEqual(naples.latitude, 40.8522, accuracy: 1e-4)
        XCTAssertEqual(naples.longitude, 14.2681, accuracy: 1e-4)
        XCTAssertNil(g.place(named: "abc123xyz"))
        XCTAssertNil(g.place(named: "abc 10"))
        XCTAssertNil(g.place(named: "40.85"))
    }

    // MARK: Folding

    func testFoldingMatchesTheBuildScript() {
        // Same cases as fold() in scripts/build_places.py.
        XCTAssertEqual(searchFold("São Paulo"), "sao paulo")
        XCTAssertEqual(searchFold("Zürich"), "zurich")
        XCTAssertEqual(searchFold("Île-de-France"), "ile de france")
        XCTAssertEqual(searchFold("Łódź"), "lodz")
        XCTAssertEqual(searchFold("Straße"), "strasse")
        XCTAssertEqual(searchFold("Ærøskøbing"), "aeroskobing")
        XCTAssertEqual(searchFold("Ra's al Khaymah"), "ras al khaymah")
        XCTAssertEqual(searchFold("  St. Louis  "), "st louis")
        XCTAssertEqual(searchFold("İSTANBUL"), "istanbul")
    }

    // MARK: Damaged files

    func testMissingGarbageAndTruncatedFilesThrow() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gazetteer-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let real = try Data(contentsOf: try XCTUnwrap(ResourceLocator.url(for: Gazetteer.resourceName)))

        func load(_ bytes: Data) throws -> Gazetteer {
            let url = dir.appendingPathComponent(UUID().uuidString)
            try bytes.write(to: url)
            return try Gazetteer.load(from: url)
        }
        func assertInvalid(_ bytes: Data, _ message: String, line: UInt = #line) {
            XCTAssertThrowsError(try load(bytes), message, line: line) { error in
                guard case GazetteerError.invalidFormat = error else {
                    return XCTFail("\(message): \(error)", line: line)
                }
            }
        }
        assertInvalid(Data(), "empty")
        assertInvalid(Data("hello, world".utf8), "text")
        var rng = SeededRandom(testNamed: "GazetteerTests.testMissingGarbageAndTruncatedFilesThrow", fallback: 7)
        assertInvalid(Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }), "noise")
        assertInvalid(real.prefix(real.count / 2), "truncated")
        assertInvalid(real.prefix(real.count - 1), "one byte short")
        assertInvalid(real + Data([0]), "one byte long")
        var otherVersion = real
        otherVersion[8] = 99
        assertInvalid(otherVersion, "version")
        XCTAssertThrowsError(try Gazetteer.load(from: dir.appendingPathComponent("missing"))) { error in
            guard case GazetteerError.unreadable = error else { return XCTFail("missing: \(error)") }
        }
    }

    func testScrambledBodyDoesNotCrash() throws {
        let real = try Data(contentsOf: try XCTUnwrap(ResourceLocator.url(for: Gazetteer.resourceName)))
        var scrambled = real
        var rng = SeededRandom(testNamed: "GazetteerTests.testScrambledBodyDoesNotCrash", fallback: 3)
        // Garble every section but the grid starts (section 4), which loading checks.
        func u32(_ at: Int) -> Int { Int(real[at]) | Int(real[at + 1]) << 8 | Int(real[at + 2]) << 16 | Int(real[at + 3]) << 24 }
        for section in [0, 1, 2, 3, 5, 6] {
            let offset = u32(32 + 8 * section), length = u32(36 + 8 * section)
            for _ in 0..<max(1, length / 20) {
                scrambled[offset + Int.random(in: 0..<length, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gazetteer-scrambled-\(UUID().uuidString)")
        try scrambled.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let g = try Gazetteer.load(from: url)
        // Answers may be nonsense, but each keeps its contract: nothing traps, every place is a real
        // record (its rank in range, found again by that rank), and limits and boxes hold.
        XCTAssertEqual(g.count, try Gazetteer.load(from: XCTUnwrap(ResourceLocator.url(for: Gazetteer.resourceName))).count)
        func assertRecord(_ place: Place, _ context: String, line: UInt = #line) {
            XCTAssertTrue((0..<g.count).contains(place.rank), "\(context): rank \(place.rank)", line: line)
            XCTAssertEqual(g.place(rank: place.rank), place, context, line: line)
        }
        for p in [GeoPoint(latitude: 40.85, longitude: 14.27), GeoPoint(latitude: -90, longitude: 0),
                  GeoPoint(latitude: 66.3, longitude: 179.99)] {
            let found = try XCTUnwrap(g.nearest(to: p), "a gazetteer with places always has a nearest one")
            XCTAssertTrue(found.distanceKm.isFinite && found.distanceKm >= 0, "\(p): \(found.distanceKm) km")
            assertRecord(found.place, "nearest to \(p)")
        }
        for q in ["a", "pa", "zurich", "paris, texas", "s, u"] {
            let completed = g.complete(q, limit: 10)
            XCTAssertLessThanOrEqual(completed.count, 10, q)
            completed.forEach { assertRecord($0, "completing \(q)") }
            if let named = g.place(named: q) { assertRecord(named, "named \(q)") }
        }
        XCTAssertFalse(g.complete("a", limit: 10).isEmpty, "the name index (left whole) still answers")
        var decoded = 0
        for rank in stride(from: 0, to: g.count, by: 97) {
            let place = try XCTUnwrap(g.place(rank: rank), "rank \(rank) is in range")
            XCTAssertEqual(place.rank, rank)
            decoded += place.displayName.isEmpty ? 0 : 1
        }
        XCTAssertEqual(decoded, (g.count + 96) / 97, "every record decodes to a name")
        XCTAssertNil(g.place(rank: g.count))
        XCTAssertFalse(g.countries().isEmpty)
        for box in [GeoBox(south: -90, west: -180, north: 90, east: 180), GeoBox(south: 40, west: 170, north: 60, east: -170)] {
            let inside = g.places(in: box, minPopulation: 1000, limit: 100)
            XCTAssertLessThanOrEqual(inside.count, 100, "\(box)")
            for place in inside {
                XCTAssertTrue(box.contains(place.coordinate), "\(place.displayName) at \(place.coordinate) is outside \(box)")
                assertRecord(place, "in \(box)")
            }
        }
        XCTAssertFalse(g.places(in: GeoBox(south: -90, west: -180, north: 90, east: 180), minPopulation: 0, limit: 100).isEmpty,
                       "the whole world holds places whatever their scrambled coordinates")
    }

    // MARK: Capitals, countries and boxes

    func testCapitalsAreFlagged() throws {
        let g = try gazetteer()
        for (name, country) in [("Rome", "IT"), ("Paris", "FR"), ("Canberra", "AU"), ("Bogotá", "CO"), ("Washington", "US")] {
            let place = try XCTUnwrap(g.place(named: "\(name), \(country)"), name)
            XCTAssertEqual(place.name, name)
            XCTAssertTrue(place.isCapital, name)
        }
        for name in ["Milan", "Sydney", "New York City", "Naples"] {
            XCTAssertEqual(try XCTUnwrap(g.place(named: name)).isCapital, false, name)
        }
        // One capital a country at most, and the table points at it.
        let countries = g.countries()
        XCTAssertGreaterThan(countries.count, 200)
        let italy = try XCTUnwrap(countries.first { $0.code == "IT" })
        XCTAssertEqual(g.place(rank: try XCTUnwrap(italy.capitalRank))?.name, "Rome")
        XCTAssertEqual(Set(countries.compactMap(\.capitalRank)).count, countries.compactMap(\.capitalRank).count)
    }

    func testCountriesHaveANameAndAPointInside() throws {
        let g = try gazetteer()
        let countries = g.countries()
        let italy = try XCTUnwrap(countries.first { $0.code == "IT" })
        XCTAssertEqual(italy.name, "Italy")
        // Inside the peninsula, not the sea: the nearest place to it is Italian and close.
        XCTAssert((36.6...47.1).contains(italy.labelPoint.latitude), "\(italy.labelPoint)")
        XCTAssert((6.6...18.5).contains(italy.labelPoint.longitude), "\(italy.labelPoint)")
        for country in countries {
            let near = try XCTUnwrap(g.nearest(to: country.labelPoint))
            XCTAssertEqual(near.place.countryCode, country.code, country.name)
            XCTAssertLessThan(near.distanceKm, 1, country.name)
        }
        let russia = try XCTUnwrap(countries.first { $0.code == "RU" })
        XCTAssertGreaterThan(russia.areaKm2, italy.areaKm2)
    }

    func testBoxQueryIsMostPopulousFirstWithinTheBox() throws {
        let g = try gazetteer()
        // Around Italy and its neighbours.
        let box = GeoBox(south: 36, west: 6, north: 47, east: 19)
        let found = g.places(in: box, minPopulation: 500_000, limit: 5)
        XCTAssertEqual(found.map(\.name).first, "Rome")
        XCTAssertEqual(found.count, 5)
        XCTAssertEqual(found.map(\.rank), found.map(\.rank).sorted())
        for place in found {
            XCTAssert(box.contains(place.coordinate))
            XCTAssertGreaterThanOrEqual(place.population, 500_000)
        }
        // The same as a scan of the whole table, small bound (table path) and large (grid path).
        var rng = SeededRandom(testNamed: "GazetteerTests.testBoxQueryIsMostPopulousFirstWithinTheBox", fallback: 11)
        let all = (0..<g.count).compactMap { g.place(rank: $0) }
        for minPopulation in [5_000_000, 200_000, 1000] {
            // A fifth of the boxes under a sanitizer (the same first ones).
            for _ in 0..<SanitizerScale.rounds(20, atLeast: 4) {
                let south = rng.next(in: -80...70), west = rng.next(in: -180...179)
                let b = GeoBox(south: south, west: west, north: south + rng.next(in: 0.1...20),
                               east: (west + rng.next(in: 0.1...40) + 180).truncatingRemainder(dividingBy: 360) - 180)
                let expected = all.lazy.filter { $0.population >= minPopulation && b.contains($0.coordinate) }.prefix(30)
                XCTAssertEqual(g.places(in: b, minPopulation: minPopulation, limit: 30).map(\.rank),
                               expected.map(\.rank), "\(b) \(minPopulation)")
            }
        }
        XCTAssertEqual(g.places(in: GeoBox.band(south: -90, north: 90), minPopulation: 0, limit: 3).map(\.rank), [0, 1, 2])
    }
}

extension SeededRandom {
    mutating func next(in range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
}
