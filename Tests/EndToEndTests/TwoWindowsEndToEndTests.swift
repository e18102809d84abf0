import Foundation
import TestSupport
import XCTest

/// Two real app processes on one database in tmux: one window's Add more, the other's pin dragged
/// while that search is under way. The store referees: the album ends with the new place's photos only.
final class TwoWindowsEndToEndTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try PhotoServer(delayMs: 30)
    }

    private func album(_ db: String) throws -> AlbumTests.AlbumJSON? {
        let r = try cli(["album", "1", "--json", "--db", db])
        guard r.status == 0 else { return nil }
        return try JSONDecoder().decode(AlbumTests.AlbumJSON.self, from: Data(r.stdout.utf8))
    }

    /// The stand-in's photo number in a title ("Photo 7 near …").
    private func number(_ title: String?) -> Int? {
        guard let rest = title?.split(separator: " ").dropFirst().first else { return nil }
        return Int(rest)
    }

    func testAddMoreInOneWindowWhileTheOtherDragsThePinKeepsOnlyTheNewPlacesPhotos() throws {
        let db = try temporaryDirectory().appendingPathComponent("two.sqlite").path
        let key: [String: String?] = ["FLICKR_API_KEY": "good-key"]
        let first = try app(db, environment: key)
        first.wait(forText: "? help")
        try first.keys("p")
        first.wait(forText: "1 pin ")
        let before = try waitFor("the first album") { () -> AlbumTests.AlbumJSON? in
            try album(db).flatMap { $0.state == "ready" ? $0 : nil }
        }
        let second = try app(db, environment: key)
        second.wait(forText: "1 pin ")
        try second.keys("Tab", "Enter")
        second.wait(forText: "21 photos")

        // The second window asks for more; the search is held.
        server.set(.holdSearch, true)
        try second.keys("a")
        _ = try waitFor("the Add more under way") { try album(db).flatMap { $0.state == "downloading" ? true : nil } }
        // The first window drags the pin elsewhere; its new search is held too.
        try first.keys("m", "l", "l", "l", "l", "l", "l", "Enter")
        first.wait(forText: "Move?")
        try first.keys("y")
        first.wait(for: "the drop") { !$0.contains("MOVING PIN") }
        _ = try waitFor("the move to be stored") {
            try pins(db: db).first.flatMap { $0.longitude != before.pin.longitude && $0.photos == 0 ? true : nil }
        }
        server.set(.holdSearch, false)

        let after = try waitFor("the album of the new place") { () -> AlbumTests.AlbumJSON? in
            try album(db).flatMap { $0.state == "ready" && !$0.photos.isEmpty ? $0 : nil }
        }
        XCTAssertEqual(after.photos.count, 21, "nothing of the Add more mixed in")
        XCTAssertTrue(after.photos.allSatisfy(\.downloaded))
        XCTAssertEqual(after.photos.compactMap { number($0.title) }.sorted(), Array(0..<21), "the first page of the new place")
        XCTAssertTrue(Set(after.photos.map(\.id)).isDisjoint(with: before.photos.map(\.id)), "old photos survived the move")
        let places = Set(after.photos.compactMap { $0.title?.components(separatedBy: " near ").last })
        XCTAssertEqual(places.count, 1, "\(places)")
        XCTAssertFalse(places.contains { title in before.photos.contains { $0.title?.hasSuffix(title) ?? false } },
                       "photos of the old place")

        // Searches: the drop, the Add more, the move; pictures: the old place's and the new place's only
        // (the refused Add more downloaded nothing).
        let stats = server.stats()
        XCTAssertEqual((stats["requests"] ?? 0) - (stats["image_requests"] ?? 0), 3, "\(stats)")
        XCTAssertEqual(stats["image_requests"], 42, "\(stats)")

        try second.keys("Escape", "q")
        XCTAssertEqual(second.waitForExit(), 0)
        try first.keys("q")
        XCTAssertEqual(first.waitForExit(), 0)
        XCTAssertEqual(try album(db)?.photos.count, 21, "nothing changed on the way out")
    }
}
