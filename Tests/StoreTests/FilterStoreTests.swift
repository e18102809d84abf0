import Foundation
import GRDB
import Geo
import Model
import XCTest
@testable import Store

/// The album's filter on the pin row (migration "v6"): stored, read by every pin read, refused by the
/// schema when it is no filter, and written only with a new pin or a new collection.
final class FilterStoreTests: XCTestCase {
    var food: AlbumFilter { AlbumFilter(text: "street food", tags: ["market", "pizza"],
                           taken: TakenRange(from: FilterDate(year: 2019), to: FilterDate(year: 2023, month: 2, day: 28)),
                           sort: .relevant) }
    var autumn: AlbumFilter { AlbumFilter(taken: TakenRange(from: FilterDate(year: 2020, month: 10), to: nil), sort: .recent) }
    let naples = GeoPoint(latitude: 40.85, longitude: 14.27)

    func testEveryPinReadCarriesTheFilter() throws {
        let db = try AppDatabase.openTemporary()
        let pin = try db.insertPin(at: naples, name: "Naples", filter: food)
        XCTAssertEqual(pin.filter, food, "the inserted pin as read back")
        let plain = try db.insertPin(at: GeoPoint(latitude: 1, longitude: 1), name: nil)
        XCTAssertEqual(plain.filter, .none)
        guard case let .added(near) = try db.insertPin(at: GeoPoint(latitude: 2, longitude: 2), name: "Two",
                                                        unlessWithin: 1e-4, filter: autumn) else {
            return XCTFail("not added")
        }
        XCTAssertEqual(near.filter, autumn)

        XCTAssertEqual(try db.pins().map(\.filter), [food, .none, autumn])
        XCTAssertEqual(try db.pin(id: pin.id)?.filter, food)
        XCTAssertEqual(try db.album(pinID: pin.id)?.pin.filter, food)
        XCTAssertEqual(try db.pins(named: "naples").map(\.filter), [food])
        XCTAssertEqual(try db.pins(near: naples, within: 0.01).map(\.filter), [food])

        // A second connection (another window) reads the same.
        let other = try AppDatabase.open(path: db.path)
        XCTAssertEqual(try other.pin(id: near.id)?.filter, autumn)
        try other.close()
    }

    func testImportStoresEachPinsFilter() throws {
        let db = try AppDatabase.openTemporary()
        let result = try db.importPins([
            NewPin(coordinate: naples, name: "Naples", filter: food),
            NewPin(coordinate: GeoPoint(latitude: 35, longitude: 135), name: "Kyoto", filter: autumn),
            NewPin(coordinate: GeoPoint(latitude: 52.5, longitude: 13.4), name: "Berlin"),
        ])
        XCTAssertEqual(try result.added.map { try db.pin(id: $0)?.filter }, [food, autumn, AlbumFilter.none])

        // One bad filter (no text to be relevant to) stores none of the file's pins.
        let relevantAlone = AlbumFilter(sort: .relevant)
        XCTAssertThrowsError(try db.importPins([
            NewPin(coordinate: GeoPoint(latitude: 3, longitude: 3), name: "Fine"),
            NewPin(coordinate: GeoPoint(latitude: 4, longitude: 4), name: "Bad", filter: relevantAlone),
        ]))
        XCTAssertEqual(try db.pins().count, 3)
    }

    func testANewCollectionWritesItsFilterWithTheGenerationOrNothing() throws {
        let db = try AppDatabase.openTemporary()
        let other = try AppDatabase.open(path: db.path)
        defer { try? other.close() }
        let pin = try db.insertPin(at: naples, name: "Naples", filter: food)
        try db.replaceAlbum(pinID: pin.id, generation: 1, photos: [photo("a")])
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 3, pageCount: 9, source: "flickr")

        // Saving the status, moving the pin: the filter stays.
        try db.movePin(id: pin.id, to: GeoPoint(latitude: 40.86, longitude: 14.28), name: "Naples")
        XCTAssertEqual(try db.pin(id: pin.id)?.filter, food)
        XCTAssertEqual(try db.albumGeneration(pinID: pin.id), 2)

        XCTAssertEqual(try other.clearAlbum(pinID: pin.id, generation: 3, filter: autumn), 0)
        XCTAssertEqual(try db.pin(id: pin.id)?.filter, autumn)
        XCTAssertEqual(try db.album(pinID: pin.id)?.status, .downloading)

        // A window that had not seen it asks for the same generation with its old filter: refused, nothing written.
        try other.replaceAlbum(pinID: pin.id, generation: 3, photos: [photo("b")])
        XCTAssertThrowsError(try db.clearAlbum(pinID: pin.id, generation: 3, filter: food)) { error in
            XCTAssertEqual(error as? StoreError, .staleAlbum(pinID: pin.id, generation: 3))
        }
        XCTAssertEqual(try other.pin(id: pin.id)?.filter, autumn)
        XCTAssertEqual(try other.photos(pinID: pin.id).map(\.sourceID), ["b"])

        // A filter the schema refuses leaves the generation, the filter and the photos as they were.
        XCTAssertThrowsError(try db.clearAlbum(pinID: pin.id, generation: 4, filter: AlbumFilter(sort: .relevant)))
        XCTAssertEqual(try db.albumGeneration(pinID: pin.id), 3)
        XCTAssertEqual(try db.pin(id: pin.id)?.filter, autumn)
        XCTAssertEqual(try db.photos(pinID: pin.id).count, 1)

        // Clearing the filter is a new collection with the empty one.
        XCTAssertEqual(try db.clearAlbum(pinID: pin.id, generation: 4, filter: .none), 1)
        XCTAssertEqual(try db.pin(id: pin.id)?.filter, AlbumFilter.none)
        XCTAssertEqual(try db.integersForTesting("""
            SELECT COUNT(*) FROM pin WHERE filterText IS NULL AND filterTags IS NULL AND filterFrom IS NULL
                AND filterTo IS NULL AND filterSort = 'interesting'
            """), [1])
    }

    /// Rows no filter can be are refused by the schema itself, whoever writes them.
    func testTheSchemaRefusesWhatNoFilterCanBe() throws {
        let db = try AppDatabase.openTemporary()
        let pin = try db.insertPin(at: naples, name: "Naples", filter: food)
        let longest = String(repeating: "x", count: AlbumFilter.maxTextLength)
        let bad = [
            "filterText = ''", "filterText = '   '", "filterText = ' food'", "filterText = 'food '",
            "filterText = '\(longest)y'",
            "filterTags = ''", "filterTags = ',market'", "filterTags = 'market,'", "filterTags = 'market,,pizza'",
            "filterFrom = '19'", "filterFrom = '2019-5'", "filterFrom = '2019/05'", "filterFrom = 'abcd'",
            "filterFrom = '2019-05-01 00:00'", "filterTo = '2019-13'", "filterTo = '2019-00'", "filterTo = '2019-01-32'", "filterTo = '2019-01-00'",
            "filterTo = '20190501'", "filterTo = ''",
            "filterSort = 'newest'", "filterSort = NULL", "filterSort = 'Recent'",
            "filterText = NULL", // the pin's order is relevant: it needs its text
        ]
        for assignment in bad {
            XCTAssertThrowsError(try db.executeForTesting("UPDATE pin SET \(assignment) WHERE id = \(pin.id)"),
                                 assignment)
        }
        XCTAssertEqual(try db.pins().map(\.filter), [food], "nothing written")
        // The edges that are filters pass.
        for good in ["filterText = '\(longest)'", "filterTags = 'a'", "filterFrom = '1826'", "filterTo = '2023-12'",
                     "filterTo = '2023-01-31'", "filterTo = '2023-02'",
                     "filterTo = '2023-02-28'", "filterSort = 'recent', filterText = NULL"] {
            XCTAssertNoThrow(try db.executeForTesting("UPDATE pin SET \(good) WHERE id = \(pin.id)"), good)
        }
    }

    /// A length the model accepts is one the schema stores: both count code points, so combining marks
    /// cannot make a text the model let through one the store refuses.
    func testATextTheModelAcceptsTheStoreStores() throws {
        let db = try AppDatabase.openTemporary()
        let accented = String(repeating: "e\u{301}", count: 50)  // 50 characters on screen, 100 code points
        let fits = try AlbumFilter(text: accented).validated(today: CalendarDay(year: 2024, month: 5, day: 1))
        XCTAssertEqual(try db.insertPin(at: naples, name: nil, filter: fits).filter.text, accented)
        let over = accented + "e\u{301}"
        XCTAssertThrowsError(try AlbumFilter(text: over).validated(today: CalendarDay(year: 2024, month: 5, day: 1))) { error in
            XCTAssertEqual((error as? FilterProblem)?.field, .text)
        }
        XCTAssertThrowsError(try db.insertPin(at: GeoPoint(latitude: 1, longitude: 1), name: nil, filter: AlbumFilter(text: over)))
        XCTAssertEqual(try db.pins().count, 1, "the refused pin is not stored")
    }

    /// A row the calendar has no day for (only raw SQL can write one) reads as an open side, not a crash.
    func testAnImpossibleStoredDayReadsAsOpen() throws {
        let db = try AppDatabase.openTemporary()
        let pin = try db.insertPin(at: naples, name: nil, filter: AlbumFilter(text: "food"))
        try db.executeForTesting("UPDATE pin SET filterFrom = '2023-02-30', filterTo = '2024' WHERE id = \(pin.id)")
        XCTAssertEqual(try db.pin(id: pin.id)?.filter,
                       AlbumFilter(text: "food", taken: TakenRange(from: nil, to: FilterDate(year: 2024))))
    }

    /// A file of the schema before filters (v5) keeps its pins, albums and photos, each with no filter.
    func testMigratingAVersion5FileKeepsItsPinsWithNoFilter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-v5-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v5")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO pin (latitude, longitude, name, createdAt, albumState, albumPage, albumPageCount, albumSource)
                    VALUES (40.85, 14.27, 'Naples', '2024-01-01 10:00:00.000', 'ready', 2, 9, 'flickr'),
                           (35.0, 135.0, NULL, '2024-01-02 10:00:00.000', 'downloading', NULL, NULL, NULL)
                    """)
                try db.execute(sql: """
                    INSERT INTO photo (pinId, position, source, sourceId, url, state) VALUES (1, 0, 'flickr', 'a', 'https://example.org/a.jpg', 'pending')
                    """)
            }
            try queue.close()
        }
        let db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        let pins = try db.pins()
        XCTAssertEqual(pins.map(\.name), ["Naples", nil])
        XCTAssertEqual(pins.map(\.filter), [.none, .none])
        XCTAssertEqual(pins.map(\.albumStatus), [.ready, .downloading])
        let album = try XCTUnwrap(try db.album(pinID: pins[0].id))
        XCTAssertEqual(album.photos.map(\.sourceID), ["a"])
        XCTAssertEqual([album.page, album.pageCount], [2, 9])
        XCTAssertEqual(album.generation, 1)
        // And the migrated file takes a filter like a new one.
        XCTAssertEqual(try db.clearAlbum(pinID: pins[0].id, generation: 2, filter: autumn), 1)
        XCTAssertEqual(try db.pin(id: pins[0].id)?.filter, autumn)
    }

    private func photo(_ id: String) -> NewPhoto {
        NewPhoto(source: "flickr", sourceID: id, title: nil, author: nil, dateTaken: nil, url: "https://example.org/\(id).jpg",
                 largeURL: nil, pageURL: nil, license: nil, width: nil, height: nil)
    }
}
