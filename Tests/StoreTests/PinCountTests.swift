import XCTest
import Model
@testable import Store

/// The map (`pins()`) and one pin's lookup (`pin(id:)`, which `pins --json`, `album` and the album
/// screen read) count photos with one query; these hold them to the same answer.
final class PinCountTests: XCTestCase {
    private func photos(_ ids: [String]) -> [NewPhoto] {
        ids.map { NewPhoto(source: "commons", sourceID: $0, url: "http://127.0.0.1/\($0).jpg") }
    }

    func testEveryPinCountsTheSameInTheListAndAlone() throws {
        let db = try AppDatabase.openInMemory()
        let none = try db.insertPin(at: .init(latitude: 1, longitude: 1), name: "None")
        let some = try db.insertPin(at: .init(latitude: 2, longitude: 2), name: "Some")
        let all = try db.insertPin(at: .init(latitude: 3, longitude: 3), name: "All")
        let mixed = try db.replaceAlbum(pinID: some.id, generation: 1, photos: photos(["a", "b", "c", "d"]))
        XCTAssertTrue(try db.storeImage(photoID: mixed[0].id, generation: 1, bytes: Data([0xFF, 0xD8, 0xFF, 0xD9])))
        XCTAssertTrue(try db.markPhotoFailed(photoID: mixed[1].id, generation: 1, reason: "HTTP 404"))
        for photo in try db.replaceAlbum(pinID: all.id, generation: 1, photos: photos(["e", "f"])) {
            XCTAssertTrue(try db.storeImage(photoID: photo.id, generation: 1, bytes: Data([0xFF, 0xD8, 0xFF, 0xD9])))
        }

        let listed = try db.pins()
        XCTAssertEqual(listed.map(\.id), [none.id, some.id, all.id])
        XCTAssertEqual(listed.map(\.photoCount), [0, 4, 2])
        XCTAssertEqual(listed.map(\.downloadedCount), [0, 1, 2])
        for pin in listed {
            XCTAssertEqual(try db.pin(id: pin.id), pin, "pin \(pin.id) counts differently alone")
        }
        XCTAssertNil(try db.pin(id: 999))
    }
}
