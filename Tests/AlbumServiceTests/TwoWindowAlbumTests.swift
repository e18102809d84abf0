import AlbumMachine
import AlbumService
import Foundation
@testable import Store
import TestSupport
import Model
import XCTest

/// Two windows on one album: two services over two connections to one real file, against the
/// local stand-in. The store referees by the album's generation: at the end the album holds
/// exactly one collection's photos, every one of the winner's, nothing of the other mixed in.
final class TwoWindowAlbumTests: AlbumServiceTestCase {
    /// New Collection goes from page 1 to page 6 and back to page 1, so each window's page is told apart.
    private let sixThenOne: @Sendable (Int, Int) -> Int = { current, _ in current == 1 ? 6 : 1 }

    /// The Flickr ids of the stand-in's result page `page` (21 a page).
    private func sourceIDs(page: Int) -> Set<String> {
        Set((0..<21).map { String(9_000_000 + (page - 1) * 21 + $0) })
    }

    /// A first window whose album is ready at page 6 (its second collection), and a second window
    /// on another connection that has the album open too.
    private func twoWindows(firstPicks pickPage: @escaping @Sendable (Int, Int) -> Int = { current, _ in current == 1 ? 6 : 1 })
        throws -> (first: AlbumService, second: AlbumService, pin: Pin.ID) {
        let first = service(pickPage: pickPage)
        let pin = try dropPin()
        first.start(pin)
        XCTAssertEqual(settle(first, pin.id)?.status, .ready)
        first.send(.newCollection, to: pin.id)
        XCTAssertEqual(settle(first, pin.id)?.page, 6)
        let path = folder.appendingPathComponent("albums.sqlite").path
        let otherStore = try AppDatabase.open(path: path)
        addCleanup { try? otherStore.close() }
        let second = service(store: otherStore, pickPage: sixThenOne)
        second.resume(pin.id)
        XCTAssertEqual(second.album(pin.id)?.status, .ready)
        XCTAssertEqual(second.album(pin.id)?.generation, 2, "the copy of the stored generation")
        return (first, second, pin.id)
    }

    /// The album holds page `page`'s photos exactly, every one stored, saved as the first window decided.
    private func assertExactlyTheCollection(of page: Int, pin: Pin.ID, file: StaticString = #filePath, line: UInt = #line) throws {
        let album = try XCTUnwrap(store.album(pinID: pin), file: file, line: line)
        XCTAssertEqual(Set(album.photos.map(\.sourceID)), sourceIDs(page: page), "nothing mixed in", file: file, line: line)
        XCTAssertEqual(album.photos.count, 21, file: file, line: line)
        XCTAssertEqual(album.photos.filter { $0.state == .stored }.count, 21, "none of the winner's lost", file: file, line: line)
        XCTAssertEqual(album.photos.map(\.position), Array(0..<21), file: file, line: line)
        XCTAssertEqual(album.status, .ready, file: file, line: line)
        XCTAssertEqual(album.page, page, "the summary is the winner's", file: file, line: line)
        XCTAssertEqual(album.generation, 3, file: file, line: line)
    }

    func testNewCollectionWhileTheOtherWindowsAddMoreIsSearchingKeepsOnlyTheNewCollection() throws {
        let (first, second, pin) = try twoWindows()
        defer { first.shutdown(); second.shutdown() }
        // The second window asks for more (page 7); its answer is held.
        server.set(.holdSearch, true)
        second.send(.addMore, to: pin)
        XCTAssertEqual(second.album(pin)?.isSearchPending, true)
        // The first window, which has not seen that, begins a new collection (page 1).
        first.send(.newCollection, to: pin)
        try events.wait { try store.albumGeneration(pinID: pin) == 3 }
        server.set(.holdSearch, false)
        XCTAssertEqual(settle(first, pin)?.status, .ready)
        // The Add more answer was refused: the second window let the album go, its work dropped.
        events.wait { second.album(pin) == nil }
        try assertExactlyTheCollection(of: 1, pin: pin)
        XCTAssertNil(try store.albumLease(pinID: pin), "no window is left holding the album")
        XCTAssertEqual(events.storeFailures, [])
    }

    func testNewCollectionWhileTheOtherWindowsAddMoreIsDownloadingKeepsOnlyTheNewCollection() throws {
        let (first, second, pin) = try twoWindows()
        defer { first.shutdown(); second.shutdown() }
        // The second window's Add more (page 7, pictures 126 on) is saved; its pictures are held.
        server.holdImages(from: 126)
        second.send(.addMore, to: pin)
        try events.wait { try store.photos(pinID: pin).count == 42 }
        // The first window, whose copy is settled, begins a new collection (page 1, not held).
        first.send(.newCollection, to: pin)
        XCTAssertEqual(settle(first, pin)?.status, .ready)
        // The second window's downloads now answer: for photos gone, of an older generation.
        server.set(.holdImages, false)
        events.wait { second.album(pin) == nil }
        try assertExactlyTheCollection(of: 1, pin: pin)
        XCTAssertEqual(events.storeFailures, [])
    }

    func testNewCollectionWhileTheOtherWindowResumesAnInterruptedAlbumKeepsOnlyTheNewCollection() throws {
        let (first, second, pin) = try twoWindows()
        defer { first.shutdown(); second.shutdown() }
        // A third window adds a page (7, pictures 126 on, held) and is killed before they come.
        let third = service(pickPage: sixThenOne)
        server.holdImages(from: 126)
        third.send(.addMore, to: pin)
        try events.wait { try store.photos(pinID: pin).count == 42 }
        third.shutdown()
        // The second window takes the interrupted album up and resumes its downloads.
        second.resumeInterrupted()
        events.wait { (second.album(pin)?.inFlight.count ?? 0) == 21 }
        // The first window, whose copy is settled, begins a new collection (page 1, not held).
        first.send(.newCollection, to: pin)
        XCTAssertEqual(settle(first, pin)?.status, .ready)
        server.set(.holdImages, false)
        events.wait { second.album(pin) == nil }
        try assertExactlyTheCollection(of: 1, pin: pin)
        XCTAssertEqual(events.storeFailures, [])
    }

    /// The second window's copy settles while the first window's new collection is still downloading:
    /// it lets the album go instead of taking the newer collection's downloads up as well.
    func testAWindowLeftBehindDoesNotDownloadTheNewCollectionAsWell() throws {
        let (first, second, pin) = try twoWindows(firstPicks: { current, _ in current == 1 ? 6 : 10 })
        defer { first.shutdown(); second.shutdown() }
        let before = server.stats()["image_requests"] ?? 0
        // The second window's Add more (page 7, pictures 126 on) waits for its pictures.
        server.holdImages(from: 126)
        second.send(.addMore, to: pin)
        try events.wait { try store.photos(pinID: pin).count == 42 }
        // The first window, whose copy is settled, begins a new collection: page 10 (pictures 189 on), held as well.
        first.send(.newCollection, to: pin)
        try events.wait {
            try store.photos(pinID: pin).count == 21 && (first.album(pin)?.inFlight.count ?? 0) == 21
        }
        // The second window's pictures come (for photos gone); the new collection's stay held.
        server.holdImages(from: 189)
        events.wait { second.album(pin) == nil }
        server.set(.holdImages, false)
        XCTAssertEqual(settle(first, pin)?.status, .ready)
        XCTAssertEqual(Set(try store.photos(pinID: pin).map(\.sourceID)), sourceIDs(page: 10))
        XCTAssertEqual((server.stats()["image_requests"] ?? 0) - before, 42, "page 7's pictures and page 10's, each once")
        XCTAssertEqual(events.storeFailures, [])
    }

    /// The first window's New Collection went ahead while the second held the album's lease: the first
    /// takes the lease over with it, so the second, refused, lets nothing go of it, and no window finds
    /// the new collection unheld and fetches its pictures as well: none is asked for twice.
    func testTheWinnerTakesTheLeaseWithItsNewCollectionAndEachPictureIsAskedForOnce() throws {
        let (first, second, pin) = try twoWindows()
        defer { first.shutdown(); second.shutdown() }
        let before = server.stats()["image_requests"] ?? 0
        server.set(.holdSearch, true)
        server.holdImages(from: 0)
        second.send(.addMore, to: pin)
        XCTAssertEqual(second.album(pin)?.isSearchPending, true)
        let secondHolder = try XCTUnwrap(try store.albumLease(pinID: pin)?.holder, "the second window fetches the album")
        first.send(.newCollection, to: pin)
        try events.wait { try store.albumGeneration(pinID: pin) == 3 }
        let firstHolder = try XCTUnwrap(try store.albumLease(pinID: pin)?.holder)
        XCTAssertNotEqual(firstHolder, secondHolder, "the first window holds the album from its New Collection on")
        server.set(.holdSearch, false)
        // The second window's answer is refused and it lets the album go; the first's pictures are held.
        events.wait { second.album(pin) == nil }
        try events.wait { try store.photos(pinID: pin).count == 21 && (first.album(pin)?.inFlight.count ?? 0) == 21 }
        XCTAssertEqual(try store.albumLease(pinID: pin)?.holder, firstHolder, "still the first window's")
        // The store changed: the second window looks for albums nobody fetches, and finds none.
        second.resumeInterrupted()
        XCTAssertNil(second.album(pin))
        XCTAssertEqual(try store.albumLease(pinID: pin)?.holder, firstHolder)
        server.set(.holdImages, false)
        XCTAssertEqual(settle(first, pin)?.status, .ready)
        try assertExactlyTheCollection(of: 1, pin: pin)
        XCTAssertEqual((server.stats()["image_requests"] ?? 0) - before, 21, "each picture asked for once")
        XCTAssertEqual(events.storeFailures, [])
    }

    func testTheOtherWindowTakesUpTheNewCollectionWhenItActsNext() throws {
        let (first, second, pin) = try twoWindows()
        defer { first.shutdown(); second.shutdown() }
        first.send(.newCollection, to: pin)
        XCTAssertEqual(settle(first, pin)?.page, 1)
        // The second window's copy was of generation 2: its Add more reads the album again first and
        // adds to the first window's collection, page 2 after page 1.
        second.send(.addMore, to: pin)
        XCTAssertEqual(second.album(pin)?.generation, 3)
        XCTAssertEqual(settle(second, pin)?.status, .ready)
        let album = try XCTUnwrap(store.album(pinID: pin))
        XCTAssertEqual(Set(album.photos.map(\.sourceID)), sourceIDs(page: 1).union(sourceIDs(page: 2)))
        XCTAssertEqual(album.photos.filter { $0.state == .stored }.count, 42)
        XCTAssertEqual(album.generation, 3, "Add more keeps the generation")
        XCTAssertEqual(events.storeFailures, [])
    }
}
