import Foundation
import XCTest
import GRDB
import Model
@testable import Store

/// A photo's fields are named once, by `NewPhoto`'s coding keys: the store's columns, the listing's
/// query and `album --json` all follow them.
final class PhotoFieldsTests: XCTestCase {
    private let everything = NewPhoto(source: "flickr", sourceID: "42", title: "Vesuvius", author: "Ann",
                                      dateTaken: "2019-06-01 12:34:56", url: "http://127.0.0.1/42_q.jpg",
                                      largeURL: "http://127.0.0.1/42_b.jpg", pageURL: "http://127.0.0.1/p/42",
                                      license: "CC BY 2.0", width: 640, height: 480)

    func testThePhotoTableHasAColumnForEveryField() throws {
        let db = try AppDatabase.openInMemory()
        let columns = try db.read { db in try db.columns(in: "photo").map(\.name) }
        for key in NewPhoto.CodingKeys.allCases {
            XCTAssertTrue(columns.contains(key.stringValue), "no column \(key.stringValue)")
        }
    }

    func testEveryFieldSurvivesTheStoreAndAClearedOneIsCleared() throws {
        let db = try AppDatabase.openInMemory()
        let pin = try db.insertPin(at: .init(latitude: 40.8, longitude: 14.3), name: "Naples")
        let stored = try XCTUnwrap(db.replaceAlbum(pinID: pin.id, generation: 1, photos: [everything]).first)
        XCTAssertEqual(stored.found, everything)
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.found), [everything])
        // A failure's reason goes when the photo is made pending again: null is written, not skipped.
        XCTAssertTrue(try db.markPhotoFailed(photoID: stored.id, generation: 1, reason: "HTTP 404"))
        XCTAssertEqual(try db.photo(id: stored.id)?.error, "HTTP 404")
        XCTAssertEqual(try db.markPhotosPending(ids: [stored.id]), 1)
        XCTAssertEqual(try db.photo(id: stored.id)?.state, .pending)
        XCTAssertNil(try db.photo(id: stored.id)?.error)
    }

    func testTheJSONOfAPhotoHasExactlyTheRecordsKeys() throws {
        let record = PhotoRecord(id: 7, pinID: 1, position: 0, found: NewPhoto(source: "commons", sourceID: "a",
                                 url: "http://127.0.0.1/a.jpg"), state: .stored, byteCount: 1234)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), PhotoRecord.jsonKeys, "a field is missing or written twice")
        // SPEC 4's documented fields are among them.
        XCTAssertTrue(PhotoRecord.jsonKeys.isSuperset(of: ["id", "title", "url", "downloaded", "bytes", "source"]))
        XCTAssertEqual(object["id"] as? Int, 7)
        XCTAssertEqual(object["downloaded"] as? Bool, true)
        XCTAssertEqual(object["bytes"] as? Int, 1234)
        XCTAssertEqual(object["state"] as? String, "stored")
        XCTAssertTrue(object["title"] is NSNull, "a missing title is null, not absent")
    }
}
