import AlbumMachine
import AlbumService
import Foundation
@testable import Store
import TestSupport
import Model
import Geo
import XCTest

/// The album's filter through the real service, the real SQLite file and the local stand-in: saved
/// with the collection it begins, kept by Add more, New Collection and a resume, the same in two
/// windows, and never written back old by a window left behind.
final class AlbumFilterServiceTests: AlbumServiceTestCase {
    var food: AlbumFilter { AlbumFilter(text: "street food", tags: ["market"], taken: TakenRange(from: FilterDate(year: 2019)),
                           sort: .relevant) }

    /// A second connection to the album's file: another window.
    private func otherWindow() throws -> AppDatabase {
        let other = try AppDatabase.open(path: folder.appendingPathComponent("albums.sqlite").path)
        addCleanup { try? other.close() }
        return other
    }

    /// A freshly dropped pin whose plain album `albums` fetched: ready, page 1, 21 photos, generation 1.
    private func readyPin(_ albums: AlbumService, file: StaticString = #filePath, line: UInt = #line) throws -> Pin {
        let pin = try dropPin()
        albums.start(pin)
        XCTAssertEqual(settle(albums, pin.id, file: file, line: line)?.status, .ready, file: file, line: line)
        return pin
    }

    /// The parameters of every search the stand-in was asked, in order.
    private func asked() -> [[String: String]] { server.searchRequests().map(PhotoServer.parameters) }

    func testANewFilterIsSavedWithItsCollectionAndOneThatFindsNothingEndsEmpty() throws {
        let albums = service()
        defer { albums.shutdown() }
        let pin = try readyPin(albums)

        // The stand-in finds nothing for the word nomatch.
        let nothing = AlbumFilter(text: "nomatch", sort: .recent)
        albums.send(.setFilter(nothing), to: pin.id)
        let narrowed = try XCTUnwrap(settle(albums, pin.id))
        XCTAssertEqual(narrowed.status, .empty, "nothing found is empty, never failed")
        XCTAssertEqual(narrowed.pin.filter, nothing)
        XCTAssertEqual(narrowed.photos, [])
        XCTAssertEqual(narrowed.generation, 2)
        XCTAssertEqual(albums.album(pin.id)?.filter, nothing)
        XCTAssertEqual(asked().last?["text"], "nomatch")
        XCTAssertEqual(asked().last?["sort"], "date-taken-desc")
        XCTAssertEqual(asked().last?["page"], "1")

        // F: the empty filter is a new collection of the plain album.
        albums.send(.setFilter(.none), to: pin.id)
        let plain = try XCTUnwrap(settle(albums, pin.id))
        XCTAssertEqual(plain.status, .ready)
        XCTAssertEqual(plain.pin.filter, AlbumFilter.none)
        XCTAssertEqual(plain.photos.count, 21)
        XCTAssertEqual(plain.page, 1, "a new filter's collection starts at its first page")
        XCTAssertEqual(plain.generation, 3)
        XCTAssertNil(asked().last?["text"], "the plain album asks no text")
        XCTAssertEqual(asked().count, 3)
        XCTAssertEqual(events.storeFailures, [])
    }

    func testAFilterIsRefusedWhileTheAlbumDownloads() throws {
        let albums = service()
        defer { albums.shutdown() }
        server.set(.holdImages, true)
        let pin = try dropPin()
        albums.start(pin)
        try events.wait { try store.photos(pinID: pin.id).count == 21 }
        albums.send(.setFilter(food), to: pin.id)
        events.wait { events.notices.contains(Album.filterRefusal) }
        XCTAssertEqual(try store.pin(id: pin.id)?.filter, AlbumFilter.none, "nothing stored")
        XCTAssertEqual(try store.albumGeneration(pinID: pin.id), 1)
        server.set(.holdImages, false)
        XCTAssertEqual(settle(albums, pin.id)?.photos.count, 21, "the collection under way goes on")
    }

    func testADroppedPinsFilterIsKeptByNewCollectionAndAddMore() throws {
        let albums = service()
        defer { albums.shutdown() }
        let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples", filter: food)
        albums.start(pin)
        XCTAssertEqual(albums.album(pin.id)?.filter, food)
        XCTAssertEqual(settle(albums, pin.id)?.status, .ready)
        albums.send(.newCollection, to: pin.id)
        XCTAssertEqual(settle(albums, pin.id)?.generation, 2)
        albums.send(.addMore, to: pin.id)
        XCTAssertEqual(settle(albums, pin.id)?.photos.count, 42)
        XCTAssertEqual(try store.pin(id: pin.id)?.filter, food)
        XCTAssertEqual(albums.album(pin.id)?.filter, food)
        // The first search, New Collection's and Add more's, each with the whole filter.
        XCTAssertEqual(asked().count, 3)
        for search in asked() {
            XCTAssertEqual(search["text"], "street food")
            XCTAssertEqual(search["tags"], "market")
            XCTAssertEqual(search["tag_mode"], "all")
            XCTAssertEqual(search["min_taken_date"], "2019-01-01 00:00:00")
            XCTAssertEqual(search["sort"], "relevance")
        }
    }

    /// Killed just after a new filter's collection began (its `clearAlbum` committed, nothing else):
    /// the next start resumes that collection, from page 1, with the new filter.
    func testAKillDuringANewFiltersCollectionResumesItWithTheFilter() throws {
        let killed = service()
        let pin = try readyPin(killed)
        killed.shutdown()
        try store.clearAlbum(pinID: pin.id, generation: 2, filter: food)

        let next = service()
        defer { next.shutdown() }
        next.resumeInterrupted()
        let resumed = try XCTUnwrap(settle(next, pin.id))
        XCTAssertEqual(next.album(pin.id)?.filter, food)
        XCTAssertEqual(resumed.status, .ready)
        XCTAssertEqual(resumed.pin.filter, food)
        XCTAssertEqual(resumed.page, 1)
        XCTAssertEqual(resumed.photos.count, 21)
        XCTAssertEqual(resumed.generation, 2)
        XCTAssertEqual(asked().last?["text"], "street food")
        XCTAssertEqual(asked().last?["page"], "1")
        XCTAssertEqual(events.storeFailures, [])
    }

    /// One window sets the filter; the other, which had the album open, adds more and begins a new
    /// collection with that filter, not its old copy's.
    func testAFilterSetInOneWindowIsTheOneTheOtherUses() throws {
        let first = service()
        let pin = try readyPin(first)
        let second = service(store: try otherWindow())
        defer { first.shutdown(); second.shutdown() }
        second.resume(pin.id)
        XCTAssertEqual(second.album(pin.id)?.filter, AlbumFilter.none)

        first.send(.setFilter(food), to: pin.id)
        XCTAssertEqual(settle(first, pin.id)?.pin.filter, food)
        second.send(.addMore, to: pin.id)
        XCTAssertEqual(second.album(pin.id)?.filter, food, "read again before acting")
        XCTAssertEqual(settle(second, pin.id)?.photos.count, 42)
        XCTAssertEqual(asked().last?["text"], "street food", "the other window's Add more")
        XCTAssertEqual(asked().last?["page"], "2")

        second.send(.newCollection, to: pin.id)
        let again = try XCTUnwrap(settle(second, pin.id))
        XCTAssertEqual(again.generation, 3)
        XCTAssertEqual(again.pin.filter, food, "New Collection keeps the filter the other window set")
        XCTAssertEqual(asked().last?["text"], "street food")
        XCTAssertEqual(events.storeFailures, [])
    }

    /// A process whose copy of the album is behind (it read it before another set a filter) runs its
    /// New Collection's effects: the store refuses its generation, and the old filter is not written back.
    func testAStaleNewCollectionCannotWriteTheOldFilterBack() throws {
        let first = service()
        defer { first.shutdown() }
        let pin = try readyPin(first)
        let staleStore = try otherWindow()
        let stored = try XCTUnwrap(try staleStore.album(pinID: pin.id))
        var stale = Album(pin: pin.id, place: stored.pin.coordinate, status: stored.status, page: stored.page,
                          pageCount: stored.pageCount,
                          photos: stored.photos.map { AlbumPhoto(id: $0.id, url: $0.url, state: $0.state) },
                          generation: stored.generation, filter: stored.pin.filter)

        first.send(.setFilter(food), to: pin.id)
        XCTAssertEqual(settle(first, pin.id)?.pin.filter, food)

        let effects = reduce(&stale, .newCollection, AlbumEnvironment(perPage: 21) { _, _ in 1 })
        guard case let .clearAlbum(_, generation, filter) = effects.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(filter, AlbumFilter.none, "the stale copy's filter")
        XCTAssertThrowsError(try staleStore.clearAlbum(pinID: pin.id, generation: generation, filter: filter)) { error in
            XCTAssertEqual(error as? StoreError, .staleAlbum(pinID: pin.id, generation: 2))
        }
        XCTAssertEqual(try store.pin(id: pin.id)?.filter, food)
        XCTAssertEqual(try store.albumGeneration(pinID: pin.id), 2)
        XCTAssertEqual(try store.photos(pinID: pin.id).count, 21, "the new filter's photos stay")
    }
}
