import Foundation
import Geo
import TestSupport
import XCTest

@testable import Gazetteer

final class DestinationsTests: XCTestCase {
    static let shared = Result {
        try Gazetteer.load(from: SampleDestinations.placesURL, destinations: SampleDestinations.url)
    }

    func gazetteer() throws -> Gazetteer { try Self.shared.get() }

    // MARK: Reading the file

    func testTheSampleFileReadsEveryRowHeaviestFirst() throws {
        let all = try DestinationsFile.load(from: SampleDestinations.url)
        XCTAssertEqual(all.count, 21)
        XCTAssertEqual(all.map(\.weight), all.map(\.weight).sorted(by: >))
        let fuji = try XCTUnwrap(all.first { $0.name == "Mount Fuji" })
        XCTAssertEqual(fuji.kind, .mountain)
        XCTAssertEqual(fuji.countryCode, "JP")
        XCTAssertNil(fuji.extent)
        XCTAssertEqual(fuji.alternates, ["Fujisan", "Fuji-san", "富士山", "Fuji"])
        XCTAssertEqual(fuji.displayName, "Mount Fuji \u{2014} mountain, JP")
        let sahara = try XCTUnwrap(all.first { $0.name == "Sahara" })
        XCTAssertNil(sahara.countryCode)
        XCTAssertEqual(sahara.displayName, "Sahara \u{2014} desert")
        XCTAssertEqual(sahara.extent, GeoBox(south: 15, west: -17, north: 33, east: 35))
        let fiji = try XCTUnwrap(all.first { $0.name == "Fiji Islands" })
        XCTAssertEqual(fiji.extent?.crossesAntimeridian, true)
    }

    func testEveryKindHasAWord() {
        XCTAssertEqual(DestinationKind.allCases.count, 14)
        XCTAssertEqual(DestinationKind.island.word, "island")
        XCTAssertEqual(DestinationKind.range.word, "mountain range")
        for kind in DestinationKind.allCases { XCTAssertFalse(kind.word.isEmpty) }
    }

    /// Each damaged line is refused with its line number and what is wrong.
    func testADamagedFileIsRefusedWithItsLineNumber() {
        let good = "Bali\tisland\tID\t-8.4\t115.1\t-8.85,114.43,-8.06,115.71\t4300000\tPulau Bali"
        let cases: [(String, String)] = [
            ("Bali\tisland\tID\t-8.4\t115.1", "5 tab-separated columns, expected 8"),
            ("Bali\tisle\tID\t-8.4\t115.1\t\t1\t", "unknown kind \u{201C}isle\u{201D}"),
            ("Bali\tisland\tIDN\t-8.4\t115.1\t\t1\t", "country \u{201C}IDN\u{201D} is not an ISO 3166-1 alpha-2 code"),
            ("Bali\tisland\tID\t-98.4\t115.1\t\t1\t", "latitude -98.4 is outside -90…90"),
            ("Bali\tisland\tID\t-8.4\teast\t\t1\t", "longitude \u{201C}east\u{201D} is not a number"),
            ("Bali\tisland\tID\t-8.4\t115.1\t-8,114\t1\t", "extent \u{201C}-8,114\u{201D} is not south,west,north,east"),
            ("Bali\tisland\tID\t-8.4\t115.1\t-8,114,-9,115\t1\t", "extent's south -8.0 is north of its north -9.0"),
            ("Bali\tisland\tID\t-8.4\t115.1\t\t-3\t", "weight \u{201C}-3\u{201D} is not a whole number of at least 0"),
            ("Bali\tisland\tID\t-8.4\t115.1\t\tmany\t", "weight \u{201C}many\u{201D}"),
            ("\tisland\tID\t-8.4\t115.1\t\t1\t", "empty name"),
            ("Bali\tisland\tID\t-8.4\t115.1\t\t1\t\r", "carriage return"),
        ]
        for (bad, reason) in cases {
            let text = "# comment\n\(good)\n\n\(bad)\n\(good)\n"
            XCTAssertThrowsError(try DestinationsFile.parse(Data(text.utf8), path: "/data/destinations.tsv"), bad) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("Destinations file /data/destinations.tsv is damaged at line 4: "), message)
                XCTAssertTrue(message.contains(reason), "\(message) lacks \(reason)")
            }
        }
        XCTAssertThrowsError(try DestinationsFile.parse(Data("\(good)\nBad\u{FF}".utf8) + Data([0xFF, 0x0A]), path: "d")) { error in
            XCTAssertEqual(error as? GazetteerError, .invalidDestinations(path: "d", line: 2, reason: "not UTF-8"))
        }
    }

    func testAnOversizedFileIsRefusedBeforeItIsRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("destinations.tsv")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(DestinationsFile.maxBytes + 1))
        try handle.close()
        XCTAssertThrowsError(try DestinationsFile.load(from: url)) { error in
            XCTAssertTrue("\(error)".contains("more than the \(DestinationsFile.maxBytes) allowed"), "\(error)")
        }
    }

    // MARK: Loading with the places

    func testAMissingDestinationsFileMeansNoDestinationsAndPlacesStillWork() throws {
        let g = try Gazetteer.load(from: SampleDestinations.placesURL,
                                   destinations: URL(fileURLWithPath: "/nonexistent/destinations.tsv"))
        XCTAssertNil(g.destinationsProblem)
        XCTAssertEqual(g.destinations, [])
        XCTAssertEqual(g.place(named: "Naples")?.displayName, "Naples, Campania, IT")
    }

    func testADamagedDestinationsFileIsReportedAndPlacesStillWork() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("destinations.tsv")
        try Data("# x\nBali\tisland\tID\n".utf8).write(to: url)
        let g = try Gazetteer.load(from: SampleDestinations.placesURL, destinations: url)
        XCTAssertEqual(g.destinationsProblem,
                       .invalidDestinations(path: url.path, line: 2, reason: "3 tab-separated columns, expected 8"))
        XCTAssertEqual(g.destinations(in: .band(south: -90, north: 90), minWeight: 0, limit: 10), [])
        XCTAssertEqual(g.place(named: "Naples")?.displayName, "Naples, Campania, IT")
    }

    /// Nothing reads the destinations file until a destination is asked for.
    func testTheFileIsReadAtFirstUseNotAtLoad() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("destinations.tsv")
        try FileManager.default.copyItem(at: SampleDestinations.url, to: url)
        let g = try Gazetteer.load(from: SampleDestinations.placesURL, destinations: url)
        // Damaged after loading: the first use reads it, so the damage shows.
        try Data("Bali\n".utf8).write(to: url)
        XCTAssertEqual(g.destinationsProblem?.description,
                       "Destinations file \(url.path) is damaged at line 1: 1 tab-separated columns, expected 8")
    }

    func testPreparingInTheBackgroundGivesTheSameDestinations() throws {
        let g = try Gazetteer.load(from: SampleDestinations.placesURL, destinations: SampleDestinations.url)
        g.prepareInBackground()
        g.prepareInBackground()  // once only
        // The first use waits for the reading under way, or reads.
        XCTAssertEqual(g.destinations.count, 21)
        XCTAssertEqual(g.destinations, try DestinationsFile.load(from: SampleDestinations.url))
        XCTAssertEqual(g.feature(named: "Santorini")?.displayName, "Santorini \u{2014} island, GR")
    }

    /// A frame asks without waiting: nil until the file is read (the asking starts the reading), then the answer.
    func testDestinationsIfReadyDoesNotWait() throws {
        let g = try Gazetteer.load(from: SampleDestinations.placesURL, destinations: SampleDestinations.url)
        let box = GeoBox(south: -25, west: 175, north: -10, east: -175)
        let first = g.destinationsIfReady(in: box, minWeight: 0, limit: 10)
        // Whatever the first answer, once read the answer is the box's destinations.
        XCTAssertTrue(first == nil || first?.map(\.name) == ["Fiji Islands", "Taveuni"])
        _ = g.destinations  // waits for the reading
        XCTAssertEqual(g.destinationsIfReady(in: box, minWeight: 0, limit: 10)?.map(\.name), ["Fiji Islands", "Taveuni"])
        let missing = try Gazetteer.load(from: SampleDestinations.placesURL)
        XCTAssertEqual(missing.destinationsIfReady(in: box, minWeight: 0, limit: 10), [])
    }

    func testBundledFindsTheDestinationsBesideThePlaces() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: SampleDestinations.placesURL, to: dir.appendingPathComponent("places.vtgaz"))
        try FileManager.default.copyItem(at: SampleDestinations.url, to: dir.appendingPathComponent("destinations.tsv"))
        let g = try Gazetteer.bundled(environment: ["VTOURIST_DATA_DIR": dir.path])
        XCTAssertEqual(g.destinations.first?.name, "Eiffel Tower")
    }

    // MARK: Destinations in a box

    func testDestinationsInABoxHeaviestFirst() throws {
        let g = try gazetteer()
        let europe = GeoBox(south: 34, west: -10, north: 60, east: 30)
        XCTAssertEqual(g.destinations(in: europe, minWeight: 0, limit: 10).map(\.name),
                       ["Eiffel Tower", "Santorini", "Acropolis", "Alhambra", "Tuscany", "Mount Etna",
                        "Arles, Roman and Romanesque Monuments"])
        XCTAssertEqual(g.destinations(in: europe, minWeight: 2_000_000, limit: 10).map(\.name),
                       ["Eiffel Tower", "Santorini", "Acropolis"])
        XCTAssertEqual(g.destinations(in: europe, minWeight: 0, limit: 2).map(\.name), ["Eiffel Tower", "Santorini"])
        XCTAssertEqual(g.destinations(in: europe, minWeight: 0, limit: 0), [])
        XCTAssertEqual(g.destinations(in: GeoBox(south: 10, west: 0, north: 0, east: 1), minWeight: 0, limit: 5), [])
        XCTAssertEqual(g.destinations(in: GeoBox(south: .nan, west: 0, north: 0, east: 1), minWeight: 0, limit: 5), [])
    }

    func testDestinationsInABoxAcrossTheAntimeridian() throws {
        let g = try gazetteer()
        // 175° E to 175° W: Fiji's islands lie on both sides of ±180.
        let box = GeoBox(south: -25, west: 175, north: -10, east: -175)
        XCTAssertEqual(g.destinations(in: box, minWeight: 0, limit: 10).map(\.name), ["Fiji Islands", "Taveuni"])
        let east = GeoBox(south: -25, west: -179.99, north: -10, east: -175)
        XCTAssertEqual(g.destinations(in: east, minWeight: 0, limit: 10).map(\.name), ["Taveuni"])
    }
}

extension DestinationsTests {
    func testFinishingThePreparationLeavesEverythingRead() throws {
        let gazetteer = try Gazetteer.load(from: SampleDestinations.placesURL, destinations: SampleDestinations.url)
        gazetteer.finishPreparing()  // nothing begun: returns at once, reads nothing
        let box = GeoBox.band(south: -90, north: 90)
        XCTAssertNil(gazetteer.destinationsIfReady(in: box, minWeight: 0, limit: 1), "not read, and now begun")
        gazetteer.finishPreparing()
        XCTAssertEqual(gazetteer.destinationsIfReady(in: box, minWeight: 0, limit: 1)?.count, 1, "read when it returns")
    }
}
