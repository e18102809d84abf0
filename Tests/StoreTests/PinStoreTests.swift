import Foundation
import TestSupport
import XCTest
import Model
import Geo
@testable import Store

final class PinStoreTests: XCTestCase {
    private func open() throws -> AppDatabase {
        let db = try AppDatabase.open(path: try makeTempFolder(self) + "/vtourist.sqlite")
        addCleanup { try? db.close() }
        return db
    }

    /// Adds `count` photos to a pin, the first `stored` of them with an image.
    private func addPhotos(_ db: AppDatabase, pin: Pin.ID, count: Int, stored: Int) throws {
        let added = try db.appendPhotos(pinID: pin, generation: 1, photos: (0..<count).map {
            NewPhoto(source: "commons", sourceID: "p\(pin)-\($0)", url: "http://127.0.0.1/\($0).jpg")
        })
        XCTAssertEqual(added.count, count)
        for photo in added.prefix(stored) {
            XCTAssertTrue(try db.storeImage(photoID: photo.id, generation: 1, bytes: Data([0xFF, 0xD8, 0xFF, 0xE0])))
        }
    }

    func testInsertReadAndList() throws {
        let db = try open()
        XCTAssertEqual(try db.pins(), [])
        let paris = try db.insertPin(at: .init(latitude: 48.8566, longitude: 2.3522), name: "Paris")
        let nowhere = try db.insertPin(at: .init(latitude: -33.5, longitude: -179.9), name: nil)
        XCTAssertNotEqual(paris.id, nowhere.id)
        // The first search is waiting: downloading from the start, so a crash now still resumes it.
        XCTAssertEqual(paris.albumStatus, .downloading)
        XCTAssertEqual(paris.albumState, .downloading)
        XCTAssertEqual([paris.photoCount, paris.downloadedCount], [0, 0])
        XCTAssertEqual(paris.name, "Paris")
        XCTAssertEqual(try db.pin(id: paris.id), paris)
        XCTAssertEqual(try db.pin(id: nowhere.id)?.name, nil)
        XCTAssertNil(try db.pin(id: 9999))
        XCTAssertEqual(try db.pins().map(\.id), [paris.id, nowhere.id])
        XCTAssertEqual(try db.pins().first?.coordinate, GeoPoint(latitude: 48.8566, longitude: 2.3522))
        XCTAssertEqual(try db.pins(), [paris, nowhere])
        XCTAssertEqual(try db.interruptedAlbums(), [paris.id, nowhere.id])
    }

    func testBulkInsertedPinsHaveEmptyAlbums() throws {
        let db = try open()
        let first = try db.insertPin(at: .init(latitude: 1, longitude: 1), name: "first")
        try db.insertPins([(.init(latitude: 10, longitude: 20), "ten"), (.init(latitude: -10, longitude: -20), nil)])
        try db.insertPins([])
        let pins = try db.pins()
        XCTAssertEqual(pins.map(\.name), ["first", "ten", nil])
        XCTAssertEqual(pins.map(\.coordinate), [GeoPoint(latitude: 1, longitude: 1), GeoPoint(latitude: 10, longitude: 20),
                                                GeoPoint(latitude: -10, longitude: -20)])
        XCTAssertEqual(pins.map(\.albumStatus), [.downloading, .empty, .empty])
        XCTAssertEqual(Set(pins.map(\.id)).count, 3)
        XCTAssertEqual(try db.interruptedAlbums(), [first.id], "an empty album is not interrupted")
        for pin in pins {
            let album = try XCTUnwrap(db.album(pinID: pin.id))
            XCTAssertEqual(album.pin, pin)
            XCTAssertEqual(album.photos, [])
            XCTAssertNil(album.source)
            XCTAssertNil(album.page)
            XCTAssertNil(album.pageCount)
        }
    }

    func testCountsComeFromPhotoRows() throws {
        let db = try open()
        let a = try db.insertPin(at: .init(latitude: 1, longitude: 1), name: "A")
        let b = try db.insertPin(at: .init(latitude: 2, longitude: 2), name: "B")
        try addPhotos(db, pin: a.id, count: 5, stored: 2)
        let counts = try db.pins().map { [$0.photoCount, $0.downloadedCount] }
        XCTAssertEqual(counts, [[5, 2], [0, 0]])
        XCTAssertEqual(try db.pin(id: a.id)?.photoCount, 5)
        XCTAssertEqual(try db.pin(id: a.id)?.downloadedCount, 2)
        XCTAssertEqual(try db.pin(id: b.id)?.photoCount, 0)
    }

    func testDeletingAPinDeletesItsPhotosAndImages() throws {
        let db = try open()
        let a = try db.insertPin(at: .init(latitude: 1, longitude: 1), name: "A")
        let b = try db.insertPin(at: .init(latitude: 2, longitude: 2), name: "B")
        try addPhotos(db, pin: a.id, count: 4, stored: 3)
        try addPhotos(db, pin: b.id, count: 2, stored: 1)
        XCTAssertTrue(try db.deletePin(id: a.id))
        XCTAssertFalse(try db.deletePin(id: a.id))
        XCTAssertNil(try db.pin(id: a.id))
        XCTAssertEqual(try db.integersForTesting("SELECT COUNT(*) FROM photo"), [2])
        XCTAssertEqual(try db.integersForTesting("SELECT COUNT(*) FROM photoImage"), [1])
        XCTAssertEqual(try db.pin(id: b.id)?.photoCount, 2)
    }

    func testMovingAPinDeletesItsPhotosAndKeepsTheSavedStatus() throws {
        let db = try open()
        let a = try db.insertPin(at: .init(latitude: 1, longitude: 1), name: "A")
        let b = try db.insertPin(at: .init(latitude: 2, longitude: 2), name: "B")
        try addPhotos(db, pin: a.id, count: 3, stored: 3)
        try addPhotos(db, pin: b.id, count: 1, stored: 1)
        XCTAssertTrue(try db.saveAlbumStatus(pinID: a.id, generation: 1, status: .failed(reason: "HTTP 500"), page: 3, pageCount: 9,
                                             source: "flickr"))
        try db.saveAlbumStatus(pinID: b.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "commons")

        let moved = try db.movePin(id: a.id, to: .init(latitude: 50, longitude: -120), name: "Elsewhere")
        XCTAssertEqual(moved?.coordinate, GeoPoint(latitude: 50, longitude: -120))
        XCTAssertEqual(moved?.name, "Elsewhere")
        XCTAssertEqual(moved?.photoCount, 0)
        XCTAssertEqual(moved?.downloadedCount, 0)
        XCTAssertEqual(moved?.createdAt, a.createdAt)
        XCTAssertEqual(moved?.id, a.id)
        XCTAssertEqual(try db.pin(id: a.id), moved)
        // The album starts over like a new pin's: its search at the new place is waiting, so a crash
        // before the album state machine saves anything still gets it resumed.
        XCTAssertEqual(moved?.albumStatus, .downloading)
        let album = try XCTUnwrap(db.album(pinID: a.id))
        XCTAssertEqual(album.status, .downloading)
        XCTAssertEqual(album.page, nil)
        XCTAssertEqual(album.pageCount, nil)
        XCTAssertEqual(album.source, nil)
        XCTAssertEqual(album.photos, [])
        XCTAssertEqual(try db.interruptedAlbums(), [a.id])
        XCTAssertEqual(try db.pin(id: b.id)?.albumStatus, .ready)
        // A name can be cleared by a move.
        XCTAssertNil(try db.movePin(id: a.id, to: .init(latitude: 51, longitude: -120), name: nil)?.name)
        XCTAssertEqual(try db.integersForTesting("SELECT pinId FROM photo"), [Int(b.id)])
        XCTAssertEqual(try db.integersForTesting("SELECT COUNT(*) FROM photoImage"), [1])
        XCTAssertNil(try db.movePin(id: 9999, to: .init(latitude: 0, longitude: 0), name: nil))
    }

    func testCoordinatesOffTheEarthAreRejected() throws {
        let db = try open()
        for bad in [GeoPoint(latitude: 90.5, longitude: 0), GeoPoint(latitude: 0, longitude: -180.01),
                    GeoPoint(latitude: .nan, longitude: 0), GeoPoint(latitude: 0, longitude: .infinity)] {
            XCTAssertThrowsError(try db.insertPin(at: bad, name: nil)) { error in
                guard case .invalidCoordinate = error as? StoreError else { return XCTFail("\(error)") }
            }
        }
        let pin = try db.insertPin(at: .init(latitude: 90, longitude: -180), name: "edge")
        XCTAssertThrowsError(try db.movePin(id: pin.id, to: .init(latitude: -91, longitude: 0), name: nil))
        XCTAssertThrowsError(try db.insertPins([(.init(latitude: 0, longitude: 0), nil), (.init(latitude: 0, longitude: 181), nil)]))
        XCTAssertEqual(try db.pins().count, 1, "a batch with one bad point saves nothing")
    }

    func testSchemaConstraintsHoldAgainstRawSQL() throws {
        let db = try open()
        // Bypassing the named operations must still not store a bad row.
        let rejected = [
            "INSERT INTO pin (latitude, longitude, createdAt) VALUES (95, 0, '2024-01-01')",
            "INSERT INTO pin (latitude, longitude, createdAt) VALUES (0, 200, '2024-01-01')",
            "INSERT INTO pin (latitude, longitude, createdAt, albumState) VALUES (0, 0, '2024-01-01', 'lost')",
            "INSERT INTO photo (pinId, position, source, sourceId, url) VALUES (424242, 0, 'flickr', '1', 'u')",
            "INSERT INTO mapView (id, centerLatitude, centerLongitude, zoom, cursorLatitude, cursorLongitude) VALUES (2, 0, 0, 1, 0, 0)",
        ]
        for sql in rejected {
            XCTAssertThrowsError(try db.executeForTesting(sql), sql)
        }
        let pin = try db.insertPin(at: .init(latitude: 0, longitude: 0), name: nil)
        try db.executeForTesting("INSERT INTO photo (pinId, position, source, sourceId, url) VALUES (\(pin.id), 0, 'flickr', '1', 'u')")
        XCTAssertThrowsError(try db.executeForTesting(
            "INSERT INTO photo (pinId, position, source, sourceId, url) VALUES (\(pin.id), 1, 'flickr', '1', 'u')"),
            "the same source photo twice in one album")
        XCTAssertThrowsError(try db.executeForTesting("UPDATE photo SET state = 'gone'"))
        XCTAssertThrowsError(try db.executeForTesting("UPDATE photo SET state = 'stored'"), "stored without an image")
        XCTAssertThrowsError(try db.executeForTesting(
            "INSERT INTO photo (pinId, position, source, sourceId, url, state) VALUES (\(pin.id), 2, 'flickr', '2', 'u', 'stored')"),
            "inserted as stored, with no image")
        XCTAssertEqual(try db.pins().count, 1)
    }

    func testMapViewRoundTrip() throws {
        let db = try open()
        XCTAssertNil(try db.mapView())
        let first = MapViewState(center: .init(latitude: 10.5, longitude: -20.25), zoom: 3,
                                 cursor: .init(latitude: 11, longitude: -19))
        try db.saveMapView(first)
        XCTAssertEqual(try db.mapView(), first)
        let second = MapViewState(center: .init(latitude: -45, longitude: 179.5), zoom: 12,
                                  cursor: .init(latitude: -44.9, longitude: 179.6))
        try db.saveMapView(second)
        XCTAssertEqual(try db.mapView(), second)
        XCTAssertEqual(try db.integersForTesting("SELECT COUNT(*) FROM mapView"), [1])
        XCTAssertThrowsError(try db.saveMapView(.init(center: .init(latitude: 100, longitude: 0), zoom: 1,
                                                      cursor: .init(latitude: 0, longitude: 0))))
        XCTAssertThrowsError(try db.saveMapView(.init(center: .init(latitude: 0, longitude: 0), zoom: -1,
                                                      cursor: .init(latitude: 0, longitude: 0))))
        XCTAssertEqual(try db.mapView(), second)
    }

    func testSettings() throws {
        let db = try open()
        XCTAssertNil(try db.setting("photosPerCollection"))
        try db.setSetting("photosPerCollection", "21")
        try db.setSetting("source", "commons")
        try db.setSetting("photosPerCollection", "30")
        XCTAssertEqual(try db.setting("photosPerCollection"), "30")
        XCTAssertEqual(try db.setting("source"), "commons")
        try db.removeSetting("source")
        try db.removeSetting("never set")
        XCTAssertNil(try db.setting("source"))
        try db.setSetting("empty", "")
        XCTAssertEqual(try db.setting("empty"), "")
    }

    func testReopenAfterCloseKeepsEverything() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        let view = MapViewState(center: .init(latitude: 1, longitude: 2), zoom: 4, cursor: .init(latitude: 3, longitude: 4))
        var db = try AppDatabase.open(path: path)
        let a = try db.insertPin(at: .init(latitude: 48.85, longitude: 2.35), name: "Paris")
        let b = try db.insertPin(at: .init(latitude: 35.68, longitude: 139.69), name: "東京")
        try addPhotos(db, pin: b.id, count: 3, stored: 1)
        try db.saveAlbumStatus(pinID: a.id, generation: 1, status: .failed(reason: "Flickr: Invalid API Key (100)"), page: 1,
                               pageCount: nil, source: "flickr")
        try db.saveAlbumStatus(pinID: b.id, generation: 1, status: .downloading, page: 2, pageCount: 5, source: "commons")
        let albumBefore = try db.album(pinID: b.id)
        try db.saveMapView(view)
        try db.setSetting("confirmDelete", "off")
        let pinsBefore = try db.pins()
        try db.close()
        XCTAssertThrowsError(try db.pins(), "a closed database refuses work")
        // A clean close checkpoints the WAL and removes -wal/-shm.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["vtourist.sqlite"])

        db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        XCTAssertEqual(try db.pins(), pinsBefore)
        XCTAssertEqual(try db.pin(id: a.id)?.name, "Paris")
        XCTAssertEqual(try db.pin(id: b.id)?.downloadedCount, 1)
        XCTAssertEqual(try db.pin(id: a.id)?.albumStatus, .failed(reason: "Flickr: Invalid API Key (100)"))
        XCTAssertEqual(try db.album(pinID: b.id), albumBefore)
        XCTAssertEqual(try db.interruptedAlbums(), [b.id])
        XCTAssertEqual(try db.mapView(), view)
        XCTAssertEqual(try db.setting("confirmDelete"), "off")
        XCTAssertTrue(try db.integrityCheck())
        // Ids are never reused, so a script's `album 2` never names a different pin later.
        XCTAssertTrue(try db.deletePin(id: b.id))
        XCTAssertGreaterThan(try db.insertPin(at: .init(latitude: 0, longitude: 0), name: nil).id, b.id)
    }

    func testDatabaseIsInWALModeWithForeignKeys() throws {
        let db = try open()
        XCTAssertEqual(try db.integersForTesting("PRAGMA foreign_keys"), [1])
        XCTAssertEqual(try db.integersForTesting("SELECT COUNT(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'"), [1])
        XCTAssertEqual(try db.integersForTesting("PRAGMA application_id"), [Int(Schema.applicationID)])
    }

    func testInMemoryAndTemporaryDatabases() throws {
        let memory = try AppDatabase.openInMemory()
        let pin = try memory.insertPin(at: .init(latitude: 5, longitude: 5), name: "m")
        XCTAssertEqual(try memory.pins(), [pin])
        let version = try memory.dataVersion()
        XCTAssertEqual(try memory.dataVersion(), version)

        let temporary = try AppDatabase.openTemporary()
        addCleanup {
            try? temporary.close()
            try? FileManager.default.removeItem(atPath: OpenCheck.folder(of: temporary.path))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: temporary.path))
        XCTAssertEqual(try temporary.pins(), [])
    }

    func testABrandNewPathIsCreatedWithItsFolders() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/share/vtourist/deeper/vtourist.sqlite"
        let db = try AppDatabase.open(path: path)
        try db.insertPin(at: .init(latitude: 1, longitude: 1), name: nil)
        try db.close()
        XCTAssertEqual(try AppDatabase.open(path: path).pins().count, 1)
    }

    func testAnEmptyFileBecomesADatabase() throws {
        let path = try makeTempFolder(self) + "/vtourist.sqlite"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        let db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        XCTAssertEqual(try db.pins(), [])
    }

    func testErrorsAreOneLine() {
        let cases: [StoreError] = [
            .emptyPath, .isDirectory(path: "/p"), .missing(path: "/p"), .parentNotDirectory(path: "/p/q", parent: "/p"),
            .cannotCreateFolder(path: "/p/q", folder: "/p", reason: "Permission denied"),
            .unreadable(path: "/p"), .readOnlyFile(path: "/p"), .readOnlyFolder(path: "/p/q", folder: "/p"),
            .notADatabase(path: "/p"), .foreignDatabase(path: "/p"), .corrupt(path: "/p", detail: "x"),
            .newerVersion(path: "/p", migrations: ["v9"]), .locked(path: "/p"), .diskFull(path: "/p"),
            .invalidCoordinate(latitude: 91, longitude: 0), .failure(path: "/p", detail: "x"),
        ]
        for error in cases {
            XCTAssertFalse(error.description.contains("\n"))
            XCTAssertEqual(error.localizedDescription, error.description)
        }
        XCTAssertEqual(StoreError.locked(path: "/p").description,
                       "database /p is busy: another program is writing to it; try again when it has finished")
    }

    func testTheWaitingTextSaysHowOftenAFullDiskIsTriedAgain() {
        XCTAssertEqual(StoreError.every(1), "every second")
        XCTAssertEqual(StoreError.every(2), "every 2 seconds")
        XCTAssertEqual(StoreError.every(0.5), "every 0.5 seconds")
        XCTAssertEqual(StoreError.diskFull(path: "/p").waitingDescription,
                       "the disk is full; trying again \(StoreError.every(StoreError.fullDiskPause)) until there is room")
        XCTAssertNil(StoreError.corrupt(path: "/p", detail: "x").waitingDescription)
    }
}
