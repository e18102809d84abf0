import Foundation
import Model
import Store
import XCTest
@testable import vtourist

/// `pins --json` and `album PIN --json` name the album's filter in its one JSON shape, null when there is none.
final class FilterJSONTests: XCTestCase {
    var filter: AlbumFilter { AlbumFilter(text: "food", tags: ["market"], taken: TakenRange(from: FilterDate(year: 2019)), sort: .recent) }

    func pin(_ id: Int64, _ filter: AlbumFilter) -> Pin {
        Pin(id: id, coordinate: .init(latitude: 40.85, longitude: 14.27), name: "Naples", filter: filter)
    }

    func object(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    var expected: NSDictionary { ["text": "food", "tags": ["market"], "taken": ["from": "2019", "to": NSNull()], "sort": "recent"] }

    func testPinsListTheFilterOrNull() throws {
        let listed = try XCTUnwrap(try object(PinJSON.encode([pin(1, filter), pin(2, .none)])) as? [[String: Any]])
        XCTAssertEqual(listed[0]["filter"] as? NSDictionary, expected)
        XCTAssertTrue(listed[1]["filter"] is NSNull, "null rather than absent")
    }

    func testTheAlbumNamesItsFilter() throws {
        let album = try XCTUnwrap(try object(AlbumJSON.encode(StoredAlbum(pin: pin(1, filter), photos: []), large: [:])) as? [String: Any])
        XCTAssertEqual(album["filter"] as? NSDictionary, expected)
        XCTAssertEqual((album["pin"] as? [String: Any])?["filter"] as? NSDictionary, expected)
        let plain = try XCTUnwrap(try object(AlbumJSON.encode(StoredAlbum(pin: pin(2, .none), photos: []), large: [:])) as? [String: Any])
        XCTAssertTrue(plain["filter"] is NSNull)
        // Ordered only (the default order is a filter too): the object, with empty fields.
        let ordered = try XCTUnwrap(try object(AlbumJSON.encode(StoredAlbum(pin: pin(3, AlbumFilter(sort: .recent)), photos: []), large: [:])) as? [String: Any])
        XCTAssertEqual(ordered["filter"] as? NSDictionary,
                       ["text": NSNull(), "tags": [String](), "taken": ["from": NSNull(), "to": NSNull()], "sort": "recent"] as NSDictionary)
    }

    func testTheTableSaysTheFilter() {
        XCTAssertTrue(AlbumTable.render(StoredAlbum(pin: pin(1, filter), photos: []))
            .contains("\nFilter: food \u{00B7} #market \u{00B7} since 2019 \u{00B7} recent\n"))
        XCTAssertFalse(AlbumTable.render(StoredAlbum(pin: pin(2, .none), photos: [])).contains("Filter"))
    }
}
