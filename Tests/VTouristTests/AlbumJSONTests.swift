import Foundation
import Model
import Store
import XCTest
@testable import vtourist

/// `album PIN --json` read from a real database file: every photo has the same keys, `large` the size of
/// its stored large image or null.
final class AlbumJSONTests: XCTestCase {
    /// Closed and let go in tearDown: a teardown block would keep its database for the life of the
    /// test case, which XCTest never frees (Tests/Support/Cleanups.swift).
    private var opened: [AppDatabase] = []

    override func tearDown() {
        for db in opened { try? db.close() }
        opened = []
    }

    private func open() throws -> AppDatabase {
        let db = try AppDatabase.openTemporary()
        opened.append(db)
        return db
    }

    private func photos(_ text: String?) throws -> [[String: Any]] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(XCTUnwrap(text).utf8)) as? [String: Any])
        return try XCTUnwrap(object["photos"] as? [[String: Any]])
    }

    func testEachPhotoSaysWhetherALargeImageIsStoredAndItsSize() throws {
        let db = try open()
        let pin = try db.insertPin(at: .init(latitude: 40.85, longitude: 14.27), name: "Naples")
        let stored = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: (0..<3).map {
            NewPhoto(source: "flickr", sourceID: "\($0)", url: "http://127.0.0.1/\($0)_q.jpg", largeURL: "http://127.0.0.1/\($0)_b.jpg")
        })
        let thumbnail = Data([0xFF, 0xD8, 0xFF, 0xD9])
        XCTAssertTrue(try db.storeImage(photoID: stored[0].id, generation: 1, bytes: thumbnail))
        let bytes = Data(repeating: 7, count: 123_456)
        XCTAssertTrue(try db.storeLargeImage(photoID: stored[0].id, LargeImage(bytes: bytes, width: 1024, height: 683),
                                             budgetBytes: 1_048_576, now: 1))
        // Another pin's large image is not this album's.
        let other = try db.insertPin(at: .init(latitude: 1, longitude: 1), name: nil)
        let otherPhoto = try XCTUnwrap(db.replaceAlbum(pinID: other.id, generation: 1, photos: [
            NewPhoto(source: "flickr", sourceID: "x", url: "http://127.0.0.1/x_q.jpg"),
        ]).first)
        XCTAssertTrue(try db.storeLargeImage(photoID: otherPhoto.id, LargeImage(bytes: bytes, width: 9, height: 9),
                                             budgetBytes: 1_048_576, now: 2))

        let listed = try photos(AlbumJSON.read(db, pinID: pin.id))
        XCTAssertEqual(listed.count, 3)
        XCTAssertEqual(Set(listed.map { Set($0.keys) }), [AlbumJSON.photoKeys], "every photo has every key")
        XCTAssertTrue(AlbumJSON.photoKeys.isSuperset(of: ["id", "title", "url", "downloaded", "bytes", "large"]), "SPEC 4's")
        let large = try XCTUnwrap(listed[0]["large"] as? [String: Any])
        XCTAssertEqual(large as NSDictionary, ["width": 1024, "height": 683, "bytes": 123_456] as NSDictionary)
        XCTAssertEqual(listed[0]["bytes"] as? Int, thumbnail.count, "bytes stays the thumbnail's")
        XCTAssertTrue(listed[1]["large"] is NSNull, "null when none is stored, not absent")
        XCTAssertTrue(listed[2]["large"] is NSNull)

        // Evicted (the budget lowered to none): null again.
        try db.saveSetting(.largeCacheMB, "0")
        XCTAssertTrue(try photos(AlbumJSON.read(db, pinID: pin.id)).allSatisfy { $0["large"] is NSNull })
        XCTAssertNil(try AlbumJSON.read(db, pinID: 9_999), "no such pin")
    }
}
