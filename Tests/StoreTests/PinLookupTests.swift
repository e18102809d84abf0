import Foundation
import XCTest
import Model
import Geo
@testable import Store

/// What the command line asks of the store before it reads or adds a pin: a database that must
/// already be there, pins by name, and pins already at a place.
final class PinLookupTests: XCTestCase {
    func testOpeningAnExistingDatabaseCreatesNothingWhenItIsMissing() throws {
        let folder = try makeTempFolder(self)
        for path in [folder + "/none.sqlite", folder + "/a/b/none.sqlite"] {
            XCTAssertThrowsError(try AppDatabase.openExisting(path: path)) { error in
                XCTAssertEqual(error as? StoreError, .missing(path: path))
            }
        }
        // A link to nowhere is missing too: opening it would create its target.
        XCTAssertEqual(symlink(folder + "/target.sqlite", folder + "/link.sqlite"), 0)
        XCTAssertThrowsError(try AppDatabase.openExisting(path: folder + "/link.sqlite"))
        // A file where a folder should be says so.
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/notes", contents: Data("x".utf8)))
        XCTAssertThrowsError(try AppDatabase.openExisting(path: folder + "/notes/a/v.sqlite")) { error in
            XCTAssertEqual(error as? StoreError, .parentNotDirectory(path: folder + "/notes/a/v.sqlite", parent: folder + "/notes"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["link.sqlite", "notes"])
        XCTAssertEqual(StoreError.missing(path: "/x/v.sqlite").description,
                       "no database at /x/v.sqlite: nothing has been stored there yet")
    }

    func testOpeningAnExistingDatabaseReadsIt() throws {
        let path = try makeTempFolder(self) + "/v.sqlite"
        let made = try AppDatabase.open(path: path)
        try made.insertPin(at: GeoPoint(latitude: 1, longitude: 2), name: "A")
        try made.close()
        let db = try AppDatabase.openExisting(path: path)
        defer { try? db.close() }
        XCTAssertEqual(try db.pins().map(\.name), ["A"])
        XCTAssertThrowsError(try AppDatabase.openExisting(path: ""))
    }

    func testPinsByNameIgnoreCaseInEveryScript() throws {
        let db = try AppDatabase.openInMemory()
        let naples = try db.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples, Campania, IT")
        let zurich = try db.insertPin(at: GeoPoint(latitude: 47.37, longitude: 8.54), name: "Zürich")
        try db.insertPin(at: GeoPoint(latitude: 0, longitude: 0), name: nil)
        let home1 = try db.insertPin(at: GeoPoint(latitude: 1, longitude: 1), name: "Home")
        let home2 = try db.insertPin(at: GeoPoint(latitude: 2, longitude: 2), name: "HOME")
        XCTAssertEqual(try db.pins(named: "naples, campania, it").map(\.id), [naples.id])
        XCTAssertEqual(try db.pins(named: "ZÜRICH").map(\.id), [zurich.id])
        XCTAssertEqual(try db.pins(named: "home").map(\.id), [home1.id, home2.id])
        XCTAssertEqual(try db.pins(named: "Naples"), [], "exact names only")
        XCTAssertEqual(try db.pins(named: ""), [])
    }

    func testPinsNearAPlace() throws {
        let db = try AppDatabase.openInMemory()
        let naples = try db.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: nil)
        let dateLine = try db.insertPin(at: GeoPoint(latitude: -16.5, longitude: 180), name: nil)
        let north = try db.insertPin(at: GeoPoint(latitude: 40.8502, longitude: 14.27), name: nil)
        func near(_ latitude: Double, _ longitude: Double) throws -> [Pin.ID] {
            try db.pins(near: GeoPoint(latitude: latitude, longitude: longitude), within: 1e-4).map(\.id)
        }
        XCTAssertEqual(try near(40.85, 14.27), [naples.id])
        XCTAssertEqual(try near(40.8501, 14.2701), [naples.id, north.id], "1e-4 apart is within 1e-4")
        XCTAssertEqual(try near(40.85, 14.27011), [])
        XCTAssertEqual(try near(40.84989, 14.27), [])
        XCTAssertEqual(try near(-16.5, -180), [dateLine.id], "the antimeridian is one line")
        XCTAssertEqual(try near(-16.50005, -179.99995), [dateLine.id])
        XCTAssertEqual(try near(0, 0), [])
    }

    func testADropAtAPlaceThatHasAPinSavesNothing() throws {
        let db = try AppDatabase.openInMemory()
        let place = GeoPoint(latitude: -30, longitude: -150)
        guard case let .added(first) = try db.insertPin(at: place, name: "Sea", unlessWithin: 1e-4) else {
            return XCTFail("the first drop was refused")
        }
        XCTAssertEqual(first.albumState, .downloading)
        XCTAssertEqual(try db.insertPin(at: GeoPoint(latitude: -30.00005, longitude: -150), name: "Sea", unlessWithin: 1e-4),
                       .alreadyThere([first]))
        guard case .added = try db.insertPin(at: GeoPoint(latitude: -30.001, longitude: -150), name: nil, unlessWithin: 1e-4) else {
            return XCTFail("a drop 0.001° away was refused")
        }
        XCTAssertEqual(try db.pins().count, 2)
        XCTAssertThrowsError(try db.insertPin(at: GeoPoint(latitude: 91, longitude: 0), name: nil, unlessWithin: 1e-4))
    }
}
