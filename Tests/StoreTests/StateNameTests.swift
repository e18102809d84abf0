import XCTest
import GRDB
import Model
@testable import Store

/// The state names live in Model's enums; the shipped schema's CHECK constraints spell them too and
/// are never edited, so these tests hold the two together: every name is admitted, nothing else is.
final class StateNameTests: XCTestCase {
    func testAlbumStateCheckAdmitsExactlyTheEnumsCases() throws {
        let db = try AppDatabase.openInMemory()
        let pin = try db.insertPin(at: .init(latitude: 1, longitude: 2), name: "Check")
        try db.write { db in
            for state in AlbumState.allCases {
                try db.execute(sql: "UPDATE pin SET albumState = ? WHERE id = ?", arguments: [state.rawValue, pin.id])
                XCTAssertEqual(try String.fetchOne(db, sql: "SELECT albumState FROM pin WHERE id = ?", arguments: [pin.id]),
                               state.rawValue)
            }
            XCTAssertThrowsError(try db.execute(sql: "UPDATE pin SET albumState = 'bogus' WHERE id = ?", arguments: [pin.id]),
                                 "the CHECK admits a state the enum does not have")
        }
    }

    func testPhotoStateCheckAdmitsExactlyTheEnumsCases() throws {
        let db = try AppDatabase.openInMemory()
        let pin = try db.insertPin(at: .init(latitude: 1, longitude: 2), name: "Check")
        try db.write { db in
            try db.execute(sql: """
                INSERT INTO photo (pinId, position, source, sourceId, url) VALUES (?, 0, 'commons', 'a', 'http://127.0.0.1/a.jpg')
                """, arguments: [pin.id])
            let photoID = db.lastInsertedRowID
            // 'stored' needs its image (a trigger), so the image goes in first.
            try db.execute(sql: "INSERT INTO photoImage (photoId, bytes) VALUES (?, x'FFD8FFD9')", arguments: [photoID])
            for name in PhotoStateName.allCases {
                try db.execute(sql: "UPDATE photo SET state = ? WHERE id = ?", arguments: [name.rawValue, photoID])
                XCTAssertEqual(try String.fetchOne(db, sql: "SELECT state FROM photo WHERE id = ?", arguments: [photoID]),
                               name.rawValue)
            }
            XCTAssertThrowsError(try db.execute(sql: "UPDATE photo SET state = 'bogus' WHERE id = ?", arguments: [photoID]),
                                 "the CHECK admits a state the enum does not have")
        }
    }

    func testColumnsRoundTripEveryState() {
        let statuses: [AlbumStatus] = [.downloading, .ready, .empty, .failed(reason: "HTTP 500")]
        XCTAssertEqual(Set(statuses.map(\.state)), Set(AlbumState.allCases), "a case is missing from this test")
        for status in statuses {
            let (state, error) = AlbumStatusColumns.columns(status)
            XCTAssertEqual(state, status.state.rawValue)
            XCTAssertEqual(AlbumStatusColumns.status(state: state, error: error), status)
        }
        let photoStates: [PhotoState] = [.pending, .stored, .failed(reason: "HTTP 404")]
        XCTAssertEqual(Set(photoStates.map(\.stateName)), Set(PhotoStateName.allCases), "a case is missing from this test")
        for photoState in photoStates {
            let (state, error) = PhotoStateColumns.columns(photoState)
            XCTAssertEqual(state, photoState.name)
            XCTAssertEqual(PhotoStateColumns.state(state, error: error), photoState)
        }
    }
}
