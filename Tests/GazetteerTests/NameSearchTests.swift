import Foundation
import Geo
import TestSupport
import XCTest

@testable import Gazetteer

/// The one ranking of places and destinations (`Gazetteer.search`), with the
/// real places file and the sample destinations.
final class NameSearchTests: XCTestCase {
    static let shared = Result {
        try Gazetteer.load(from: SampleDestinations.placesURL, destinations: SampleDestinations.url)
    }

    func gazetteer() throws -> Gazetteer { try Self.shared.get() }

    func first(_ query: String) throws -> String? {
        try gazetteer().search(query, limit: 6).first?.feature.displayName
    }

    /// Query → first suggestion.
    func testRankingTable() throws {
        let table: [(String, String)] = [
            // An exact name: weight decides between a destination and places.
            ("Bali", "Bali \u{2014} island, ID"),
            ("Venice", "Venice, Veneto, IT"),
            ("Venice Beach", "Venice Beach \u{2014} landmark, US"),
            ("Acropolis", "Acropolis \u{2014} landmark, GR"),
            ("Alhambra", "Alhambra \u{2014} landmark, ES"),
            ("Niagara Falls", "Niagara Falls \u{2014} waterfall, CA"),
            ("Naples", "Naples, Campania, IT"),
            // An alternate name that is the own name cut short counts as the name: the city, then the state.
            ("New York", "New York City, New York, US"),
            ("New York, region", "New York \u{2014} region, US"),
            // A city listed twice stays behind its namesakes, as without destinations.
            ("Victoria", "Victoria, British Columbia, CA"),
            ("Santorini", "Santorini \u{2014} island, GR"),
            ("Mount Fuji", "Mount Fuji \u{2014} mountain, JP"),
            // Case, accents, punctuation.
            ("BALI", "Bali \u{2014} island, ID"),
            ("bálí", "Bali \u{2014} island, ID"),
            ("Mount-Fuji.", "Mount Fuji \u{2014} mountain, JP"),
            ("mount  fuji", "Mount Fuji \u{2014} mountain, JP"),
            ("ha long bay", "Ha Long Bay \u{2014} bay, VN"),
            // Spaces.
            ("Machupicchu", "Machu Picchu \u{2014} landmark, PE"),
            ("machu picchu", "Machu Picchu \u{2014} landmark, PE"),
            ("Machu-Picchu", "Machu Picchu \u{2014} landmark, PE"),
            ("Grandcanyon", "Grand Canyon \u{2014} canyon, US"),
            ("Newyork", "New York City, New York, US"),
            ("Halong Bay", "Ha Long Bay \u{2014} bay, VN"),
            // Leading articles.
            ("the Eiffel Tower", "Eiffel Tower \u{2014} landmark, FR"),
            ("The Hague", "The Hague, South Holland, NL"),
            ("the hague", "The Hague, South Holland, NL"),
            ("The Sahara", "Sahara \u{2014} desert"),
            // Alternate names, other scripts.
            ("Tour Eiffel", "Eiffel Tower \u{2014} landmark, FR"),
            ("富士山", "Mount Fuji \u{2014} mountain, JP"),
            ("Σαντορίνη", "Santorini \u{2014} island, GR"),
            ("Ακρόπολη", "Acropolis \u{2014} landmark, GR"),
            ("Vịnh Hạ Long", "Ha Long Bay \u{2014} bay, VN"),
            // Prefixes: the heaviest name that starts so.
            ("Eiff", "Eiffel Tower \u{2014} landmark, FR"),
            ("Machu Pi", "Machu Picchu \u{2014} landmark, PE"),
            ("Yellowst", "Yellowstone National Park \u{2014} park, US"),
            // Qualifiers: a country, a kind.
            ("Bali, india", "B\u{101}li, West Bengal, IN"),
            ("Bali, isl", "Bali \u{2014} island, ID"),
            ("Bali, island", "Bali \u{2014} island, ID"),
            ("Venice, landmark", "Venice Beach \u{2014} landmark, US"),
            ("Etna, it", "Mount Etna \u{2014} volcano, IT"),
        ]
        var wrong: [String] = []
        for (query, expected) in table {
            let got = try first(query)
            if got != expected { wrong.append("\(query) → \(got ?? "nothing"), expected \(expected)") }
        }
        XCTAssertEqual(wrong, [])
    }

    func testAnExactNameBeatsAnAlternateNameWhichBeatsAPrefix() throws {
        let g = try gazetteer()
        // Case, accents, punctuation and spaces aside, these are the name itself, not a typo of it.
        for query in ["MOUNT-FUJI.", "Mount_Fuji", "mountfuji", "Machupicchu", "the Eiffel Tower", "Bálí"] {
            XCTAssertEqual(g.search(query, limit: 1).first?.match, .name, query)
        }
        let bali = g.search("Bali", limit: 20)
        XCTAssertEqual(bali.first?.match, .name)
        XCTAssertEqual(bali.map(\.match.tier), bali.map(\.match.tier).sorted())
        // Among exact names, the heavier first: the island, then the towns by population.
        let exact = bali.filter { $0.match == .name }
        XCTAssertEqual(exact.map(\.feature.weight), exact.map(\.feature.weight).sorted(by: >))
        XCTAssertTrue(exact.contains { if case .place(let p) = $0.feature { p.countryCode == "IN" } else { false } })
        // An alternate name ("Fuji") comes before names that merely start with it.
        let fuji = g.search("Fuji", limit: 20)
        let mountFuji = try XCTUnwrap(fuji.firstIndex { $0.feature.name == "Mount Fuji" })
        XCTAssertEqual(fuji[mountFuji].match, .alternateName)
        XCTAssertFalse(fuji[..<mountFuji].contains { $0.match > .alternateName })
    }

    func testEnterAndDropTakeTheFirstSuggestion() throws {
        let g = try gazetteer()
        for query in ["Bali", "Venice", "the Eiffel Tower", "Machupicchu", "Santorni", "Paris, Texas"] {
            XCTAssertEqual(g.feature(named: query), g.search(query, limit: 6).first?.feature, query)
        }
        XCTAssertEqual(g.feature(named: "Paris, Texas")?.displayName, "Paris, Texas, US")
    }

    // MARK: Typos

    func testOneTypoFindsADestinationOrABigPlace() throws {
        let table: [(String, String)] = [
            ("Santorni", "Santorini \u{2014} island, GR"),       // left out
            ("Santorinni", "Santorini \u{2014} island, GR"),     // inserted
            ("Santarini", "Santorini \u{2014} island, GR"),      // replaced
            ("Sanotrini", "Santorini \u{2014} island, GR"),      // swapped
            ("Machu Pichu", "Machu Picchu \u{2014} landmark, PE"),
            ("Eifel Tow", "Eiffel Tower \u{2014} landmark, FR"),  // the start of a name
            ("Barcelnoa", "Barcelona, Catalonia, ES"),
            ("the Eifel Tower", "Eiffel Tower \u{2014} landmark, FR"),
        ]
        var wrong: [String] = []
        for (query, expected) in table {
            let got = try first(query)
            if got != expected { wrong.append("\(query) → \(got ?? "nothing"), expected \(expected)") }
        }
        XCTAssertEqual(wrong, [])
        let g = try gazetteer()
        XCTAssertEqual(g.search("Santorni", limit: 3).first?.match, .typo)
        XCTAssertEqual(g.search("Eifel Tow", limit: 3).first?.match, .typoPrefix)
    }

    func testTyposOnlyWhenNothingElseMatches() throws {
        let g = try gazetteer()
        // "Bari" is a city: a typo of "Bali" would not be offered before it, nor at all.
        XCTAssertTrue(g.search("Bari", limit: 10).allSatisfy { $0.match < .typo })
        // Too short to guess at; two typos away is nothing.
        XCTAssertEqual(g.search("Bqx", limit: 5), [])
        XCTAssertEqual(g.search("Sntorni", limit: 5), [])
    }

    func testOneEditApart() {
        func apart(_ a: String, _ b: String) -> Bool {
            Array(a.utf8).withUnsafeBufferPointer { a in Array(b.utf8).withUnsafeBufferPointer { b in oneEditApart(a, b) } }
        }
        XCTAssertTrue(apart("abc", "abd"))
        XCTAssertTrue(apart("abc", "acb"))
        XCTAssertTrue(apart("abc", "abcd"))
        XCTAssertTrue(apart("abcd", "abc"))
        XCTAssertTrue(apart("bc", "abc"))
        XCTAssertTrue(apart("", "a"))
        XCTAssertFalse(apart("abc", "abc"))
        XCTAssertFalse(apart("abc", "cba"))
        XCTAssertFalse(apart("abc", "abcde"))
        XCTAssertFalse(apart("abcd", "abdce"))
    }

    // MARK: Articles

    func testALeadingArticleIsIgnoredButANameWithItMatchesFirst() throws {
        let g = try gazetteer()
        XCTAssertEqual(g.feature(named: "The Eiffel Tower")?.name, "Eiffel Tower")
        XCTAssertEqual(g.feature(named: "the Hague")?.name, "The Hague")
        // "The Valley" (Anguilla, ~1,000 people) is still The Valley, not a bigger "Valley".
        XCTAssertEqual(g.feature(named: "The Valley")?.displayName, "The Valley, AI")
        XCTAssertEqual(g.feature(named: "Los Angeles")?.name, "Los Angeles")
        // An article alone is a name's start like any other.
        XCTAssertEqual(g.feature(named: "the")?.name, "The Bronx")
        XCTAssertEqual(withoutArticle(Array("the".utf8)), nil)
        XCTAssertEqual(withoutArticle(Array("the hague".utf8)), Array("hague".utf8))
        XCTAssertEqual(withoutArticle(Array("thessaloniki".utf8)), nil)
    }

    // MARK: The shipped file

    /// Resources/destinations.tsv reads whole, and ranks as its format promises against the places.
    func testTheShippedDestinationsReadAndRankAsPromised() throws {
        let g = try Gazetteer.bundled()
        XCTAssertNil(g.destinationsProblem)
        XCTAssertGreaterThan(g.destinations.count, 150)
        let table: [(String, String, DestinationKind?)] = [
            ("Bali", "ID", .island), ("Venice", "IT", nil), ("Acropolis", "GR", .landmark), ("Alhambra", "ES", .landmark),
            ("The Hague", "NL", nil), ("Machupicchu", "PE", .landmark), ("the Eiffel Tower", "FR", .landmark),
            ("Santorini", "GR", .island), ("Naples", "IT", nil), ("Bath", "GB", nil), ("Porto", "PT", nil),
        ]
        for (query, country, kind) in table {
            let found = try XCTUnwrap(g.feature(named: query), query)
            XCTAssertEqual(found.kind, kind, "\(query): \(found.displayName)")
            switch found {
            case .place(let p): XCTAssertEqual(p.countryCode, country, "\(query): \(found.displayName)")
            case .destination(let d): XCTAssertEqual(d.countryCode, country, "\(query): \(found.displayName)")
            }
        }
    }

    // MARK: Without destinations

    /// Among places, `search` keeps the places' own order (`rankedMatches`) wherever spaces,
    /// articles and typos play no part: Victoria, Canada before the Victoria listed twice.
    func testSearchKeepsThePlacesOrder() throws {
        let g = try Gazetteer.load(from: SampleDestinations.placesURL)
        for query in ["Bath", "Porto", "Venice", "Victoria", "bat", "por", "sao p", "paris, tex", "napol", "Cologne",
                      "Bogota", "St Petersburg", "zuri", "new york", "Springfield", "San Jose"] {
            let places = g.search(query, limit: 6).compactMap { m -> PlaceMatch? in
                if case .place(let p) = m.feature { return PlaceMatch(place: p, match: m.match) }
                return nil
            }
            XCTAssertEqual(places, g.rankedMatches(query, limit: 6), query)
        }
    }

    func testPlacesAloneWhenThereAreNoDestinations() throws {
        let g = try Gazetteer.load(from: SampleDestinations.placesURL)
        XCTAssertEqual(g.feature(named: "Bali")?.displayName, "B\u{101}li, West Bengal, IN")
        XCTAssertEqual(g.feature(named: "Naples")?.displayName, "Naples, Campania, IT")
        XCTAssertEqual(g.search("", limit: 5), [])
        XCTAssertEqual(g.search("Naples", limit: 0), [])
    }

    /// The quick fold of ASCII text is the Unicode fold, character for character.
    func testTheASCIIFoldIsTheUnicodeFold() {
        let every = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        var samples = [every, "  Machu-Picchu  ", "St. John's", "a__b//c", "Ra's al Khaymah", "-", "", "O'Hare--Field"]
        for c in every { samples.append("x\(c)y \(c)") }
        for text in samples {
            XCTAssertEqual(asciiSearchFold(text), unicodeSearchFold(text), text.debugDescription)
        }
        XCTAssertNil(asciiSearchFold("São Paulo"))
    }

    /// A folder makes its table of letters only at the first letter beyond ASCII: making and freeing
    /// it for each of 10,000 pins took `pins --json` 5 s.
    func testAFolderMakesItsTableOnlyForLettersBeyondASCII() {
        var folder = SearchFolder()
        XCTAssertEqual(folder.fold("Place 12, Campania"), "place 12, campania")
        XCTAssertFalse(folder.madeTable)
        XCTAssertEqual(folder.fold("Café de Flore"), "cafe de flore")
        XCTAssertTrue(folder.madeTable)
        XCTAssertEqual(folder.fold("Café"), "cafe")
    }

    /// `destination(named:near:)` keeps one folder for every lookup (the table made once, not per pin).
    func testLookingUpADestinationByNameKeepsItsFolder() throws {
        let gazetteer = try Self.shared.get()
        XCTAssertNil(gazetteer.destination(named: "Café du Monde", near: GeoPoint(latitude: 0, longitude: 0)))
        XCTAssertTrue(gazetteer.lookupFolder.withLock { $0.madeTable })
    }

    /// Folding many names scalar by scalar gives what folding each whole name gives.
    func testTheBulkFoldIsTheFold() throws {
        var folder = SearchFolder()
        var names = ["São Paulo", "Zürich", "Ra's al Khaymah", "Saint-Étienne", "Łódź", "Straße", "Ærø", "  Ha\u{A0}Long  ",
                     "Vịnh Hạ Long", "富士山", "Σαντορίνη", "Ακρόπολη", "Москва", "서울", "제주도 한라산", "㐀𠀀丽", "ﬁnland", "Ⅻ", "e\u{301}\u{323}", "Ḝ"]
        for d in try DestinationsFile.load(from: SampleDestinations.url) { names += [d.name] + d.alternates }
        // Every Hangul syllable, and the ideographs at the ends of their blocks.
        names.append(String(String.UnicodeScalarView((0xAC00...0xD7A3).compactMap(Unicode.Scalar.init))))
        names.append(String(String.UnicodeScalarView([0x4E00, 0x9FFF, 0x3400, 0x4DBF, 0x20000, 0x2A6DF, 0xF900, 0x2F800]
            .compactMap(Unicode.Scalar.init))))
        for name in names {
            XCTAssertEqual(folder.fold(name), unicodeSearchFold(name), name)
            XCTAssertEqual(folder.fold(name), searchFold(name), name)
        }
    }
}
