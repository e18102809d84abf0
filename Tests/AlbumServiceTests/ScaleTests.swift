import AlbumMachine
@testable import AlbumService
import Foundation
import Geo
import Model
@testable import Store
import TestSupport
import XCTest

/// Thousands of albums at once: the work a finished download costs does not grow with the number of
/// albums, and the album on screen goes ahead of every background album. Under a sanitizer (where
/// `make test` runs these) the first test compares 100 albums with 10, not 1,000 (`SanitizerScale`);
/// 10,000 albums downloading in release are `bench/scale_bench.py`'s, in `make bench`.
final class ScaleTests: AlbumServiceTestCase {
    /// A heartbeat that never beats: no lease renewal walks the albums meanwhile.
    let still = LeaseHeartbeat { _, _ in {} }

    /// `count` imported albums the service took up and settled empty (their filter finds nothing),
    /// then one album of 21 photos fetched: how many albums the service's bookkeeping looked at for it.
    func visitsForOneAlbum(besides count: Int) throws -> Int {
        // Commons: no request budget to wait for, however many albums search.
        let s = service(commons: true, heartbeat: still)
        defer { s.shutdown() }
        let imported = try store.importPins((0..<count).map { i in
            NewPin(coordinate: GeoPoint(latitude: Double(i % 170) - 85, longitude: Double(i / 170) - 170), name: "Empty \(i)",
                   filter: AlbumFilter(text: "nomatch"))
        }).added
        XCTAssertEqual(imported.count, count)
        s.resumeInterrupted()
        // Each album is looked at until it is empty, then never again. Every album writes to the disk
        // a few times (taken up, searched, let go): a thousand take a while.
        var settled = 0
        events.wait(limit: 300) {
            while settled < imported.count, s.album(imported[settled])?.status == .empty { settled += 1 }
            return settled == imported.count
        }
        XCTAssertEqual(settled, imported.count, "every album settled empty")
        let before = s.bookkeepingVisits()
        let pin = try dropPin()
        s.start(pin)
        let album = settle(s, pin.id)
        XCTAssertEqual(album?.status, .ready)
        XCTAssertEqual(album?.photos.count, 21)
        return s.bookkeepingVisits() - before
    }

    func testTheWorkOfAFinishedDownloadDoesNotGrowWithTheAlbums() throws {
        let few = try visitsForOneAlbum(besides: 10)
        try tearDownWithError()
        try setUpWithError()
        // 1,000 albums; under a sanitizer, where each album's writes cost ten times as much, 100 (ten times 10 still).
        let count = SanitizerScale.scaled(1_000)
        let many = try visitsForOneAlbum(besides: count)
        XCTAssertEqual(many, few, "the same album costs the same with \(count) albums as with 10")
        // One look at the album itself per action: its start, its search's answer, its 21 photos.
        XCTAssertLessThanOrEqual(few, 2 * 23, "about one album looked at per action")
    }

    /// The latitude of the place each search so far asked about (the middle of its box), in order.
    func searchedLatitudes() -> [Int] {
        server.searchRequests().map(PhotoServer.parameters).compactMap { asked in
            let box = (asked["bbox"] ?? "").split(separator: ",").compactMap { Double($0) }
            return box.count == 4 ? Int(((box[1] + box[3]) / 2).rounded()) : nil
        }
    }

    func testTheAlbumOnScreenIsSearchedAndFetchedBeforeEveryOtherAlbum() throws {
        // One transfer at a time, so the order they start in is the order the queue chose.
        let s = service(heartbeat: still, transfersAtOnce: 1)
        defer { s.shutdown() }
        var pins: [Pin] = []
        for i in 1...6 {
            pins.append(try store.insertPin(at: GeoPoint(latitude: Double(10 + i), longitude: 14), name: "Place \(i)"))
        }
        // The first search is held until the album is opened: its answer may not come first, however
        // slowly this thread runs beside the service's.
        server.set(.holdSearch, true)
        for pin in pins { s.start(pin) }
        // The last pin's album opened while the first one's search is out and four others wait their turn.
        s.focus(pins[5].id)
        _ = s.bookkeepingVisits()  // the service has taken the opening up
        server.set(.holdSearch, false)
        let opened = settle(s, pins[5].id)
        XCTAssertEqual(opened?.status, .ready)
        XCTAssertEqual(opened?.photos.count, 21)
        let searched = searchedLatitudes()
        XCTAssertEqual(Array(searched.prefix(2)), [11, 16], "its search went ahead of the four waiting: \(searched)")
        // Its 21 photos went ahead of the first album's too, which were asked for before them.
        let first = try XCTUnwrap(store.album(pinID: pins[0].id))
        XCTAssertEqual(first.photos.count, 21)
        XCTAssertEqual(first.photos.filter { $0.state == .stored }.count, 0, "none of the first album's photos yet")
        // Back on the map: the rest go in the order asked, and every album completes.
        s.focus(nil)
        for pin in pins { XCTAssertEqual(settle(s, pin.id)?.status, .ready) }
        XCTAssertEqual(searchedLatitudes(), [11, 16, 12, 13, 14, 15])
    }
}
