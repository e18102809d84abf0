import Foundation
import GRDB
import Model
import Geo
import TestSupport
import XCTest
@testable import Store

/// A pin's own name (migration "v8"): stored, read by every pin read, kept by a move, matched by
/// `pins(named:)`, refused by the schema when the rule would refuse it.
final class RenamePinTests: XCTestCase {
    private func open() throws -> (AppDatabase, String) {
        let path = try makeTempFolder(self) + "/vtourist.sqlite"
        let db = try AppDatabase.open(path: path)
        addCleanup { try? db.close() }
        return (db, path)
    }

    func testRenameStoresReadsBackAndEmptyGoesBackToThePlace() throws {
        let (db, _) = try open()
        let pin = try db.insertPin(at: .init(latitude: 59.91, longitude: 10.75), name: "Oslo")
        let renamed = try XCTUnwrap(try db.renamePin(id: pin.id, to: "Our flat"))
        XCTAssertEqual(renamed.ownName, "Our flat")
        XCTAssertEqual(renamed.name, "Oslo")
        XCTAssertEqual(renamed.displayName, "Our flat")
        XCTAssertEqual(try db.pins().first, renamed)
        XCTAssertEqual(try db.pin(id: pin.id), renamed)
        let back = try XCTUnwrap(try db.renamePin(id: pin.id, to: nil))
        XCTAssertNil(back.ownName)
        XCTAssertEqual(back.displayName, "Oslo")
        XCTAssertNil(try db.renamePin(id: 9999, to: "nobody"))
    }

    func testRenamingWritesOnlyTheNameSoAnotherWritersAlbumIsKept() throws {
        let (db, path) = try open()
        let pin = try db.insertPin(at: .init(latitude: 59.91, longitude: 10.75), name: "Oslo")
        // Another process saves the album meanwhile.
        let other = try AppDatabase.open(path: path)
        defer { try? other.close() }
        _ = try other.appendPhotos(pinID: pin.id, generation: 1, photos: [
            NewPhoto(source: "commons", sourceID: "a", url: "http://127.0.0.1/a.jpg"),
        ])
        try db.renamePin(id: pin.id, to: "Fjord")
        let read = try XCTUnwrap(try other.pin(id: pin.id))
        XCTAssertEqual(read.ownName, "Fjord")
        XCTAssertEqual(read.photoCount, 1)
    }

    func testAMovedPinKeepsItsOwnNameAndTakesTheNewPlace() throws {
        let (db, _) = try open()
        let pin = try db.insertPin(at: .init(latitude: 59.91, longitude: 10.75), name: "Oslo")
        try db.renamePin(id: pin.id, to: "Base camp")
        let moved = try XCTUnwrap(try db.movePin(id: pin.id, to: .init(latitude: 60.39, longitude: 5.32), name: "Bergen"))
        XCTAssertEqual(moved.ownName, "Base camp")
        XCTAssertEqual(moved.name, "Bergen")
    }

    func testAPinIsFoundByItsShownName() throws {
        let (db, _) = try open()
        let oslo = try db.insertPin(at: .init(latitude: 59.91, longitude: 10.75), name: "Oslo")
        let bergen = try db.insertPin(at: .init(latitude: 60.39, longitude: 5.32), name: "Bergen")
        try db.renamePin(id: bergen.id, to: "Oslo")
        XCTAssertEqual(try db.pins(named: "oslo").map(\.id), [oslo.id, bergen.id])
        try db.renamePin(id: oslo.id, to: "Home")
        XCTAssertEqual(try db.pins(named: "OSLO").map(\.id), [bergen.id])
        XCTAssertEqual(try db.pins(named: "home").map(\.id), [oslo.id])
        // The place name of a renamed pin no longer names it.
        XCTAssertEqual(try db.pins(named: "Bergen"), [])
    }

    func testTheSchemaRefusesWhatTheRuleRefuses() throws {
        let (db, path) = try open()
        let pin = try db.insertPin(at: .init(latitude: 59.91, longitude: 10.75), name: "Oslo")
        // (A NUL ends SQLite's text before the check sees it: `PinName.checked` refuses it first.)
        for bad in ["", "a\u{1B}[31m", "tab\t", "del\u{7F}", String(repeating: "x", count: 1001)] {
            XCTAssertThrowsError(try db.renamePin(id: pin.id, to: bad), bad.debugDescription)
        }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        XCTAssertThrowsError(try queue.write { try $0.execute(sql: "UPDATE pin SET ownName = '' WHERE id = ?", arguments: [pin.id]) })
        XCTAssertNil(try db.pin(id: pin.id)?.ownName)
    }

    func testImportedPinsAreTheSameWhenTheirShownNamesAre() throws {
        let (db, _) = try open()
        let place = GeoPoint(latitude: 59.91, longitude: 10.75)
        let pin = try db.insertPin(at: place, name: "Oslo")
        try db.renamePin(id: pin.id, to: "Our flat")
        let outcome = try db.importPins([
            NewPin(coordinate: place, name: "Oslo", ownName: "Our flat"),  // the same pin, exported and read back
            NewPin(coordinate: place, name: "Oslo"),  // another: shown as Oslo
        ])
        XCTAssertEqual(outcome.duplicates, 1)
        XCTAssertEqual(outcome.added.count, 1)
        XCTAssertEqual(try db.pins().map(\.shownName), ["Our flat", "Oslo"])
    }

    func testAVersion7FileMigratesWithNoOwnNames() throws {
        let path = try makeTempFolder(self) + "/old.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v7")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO pin (latitude, longitude, name, createdAt, albumState)
                    VALUES (59.91, 10.75, 'Oslo', '2024-01-01 10:00:00.000', 'ready')
                    """)
            }
            try queue.close()
        }
        let db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        let pins = try db.pins()
        XCTAssertEqual(pins.map(\.name), ["Oslo"])
        XCTAssertEqual(pins.map(\.ownName), [nil])
        XCTAssertEqual(try db.renamePin(id: pins[0].id, to: "Home")?.displayName, "Home")
    }
}
