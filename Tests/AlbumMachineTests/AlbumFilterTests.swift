import Geo
import Model
import XCTest
@testable import AlbumMachine

/// The album's filter: every search asks with it, and a new one begins a new collection.
final class AlbumFilterTests: XCTestCase {
    var food: AlbumFilter { AlbumFilter(text: "food", tags: ["market"], taken: TakenRange(from: FilterDate(year: 2019)),
                           sort: .recent) }

    /// A stored album with `filter`, its three photos in, ten pages found.
    func readyAlbum(filter: AlbumFilter) -> AlbumTester {
        AlbumTester(Album(pin: pin, place: rome, status: .ready, page: 1, pageCount: 10,
                          photos: [photo(1, .stored), photo(2, .stored), photo(3, .stored)], generation: 1, filter: filter))
    }

    /// What a new collection of `filter` at `generation` asks: clear with the filter, search page 1, save.
    func begins(_ generation: Int, _ filter: AlbumFilter) -> [AlbumEffect] {
        [.clearAlbum(pin: pin, generation: generation, filter: filter),
         .search(pin: pin, place: rome, page: 1, perPage: 3, filter: filter, generation: generation),
         .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0)]
    }

    /// The album once that collection began: emptied, searching page 1 of the new filter.
    func begun(_ generation: Int, _ filter: AlbumFilter) -> (inout Album) -> Void {
        { album in
            album.filter = filter
            album.photos = []
            album.generation = generation
            album.perPage = 3
            album.page = 1
            album.firstPage = 1
            album.pageCount = 0
            album.search = .inFlight(page: 1)
        }
    }

    func testADroppedPinsFirstSearchAsksWithItsFilter() {
        // The rest of the start is AlbumLifeTests'; only the filter is new here.
        var album = Album(pin: pin, place: rome, filter: food)
        XCTAssertEqual(reduce(&album, .start, .fixed()).first,
                       .search(pin: pin, place: rome, page: 1, perPage: 3, filter: food, generation: 1))
        XCTAssertEqual(album.filter, food)
    }

    func testSettingAFilterClearsWithItAndSearchesItsFirstPage() {
        let tester = readyAlbum(filter: .none)
        tester.send(.setFilter(food), begins(2, food), begun(2, food))
        // The new filter's own page count is what Add more goes by.
        tester.send(.searchAnswered(generation: 2, pageCount: 2, photos: saved(7)), [
            download(7, generation: 2), .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 2),
        ]) {
            $0.search = .idle
            $0.pageCount = 2
            $0.photos = [photo(7)]
            $0.inFlight = [7]
        }
    }

    func testClearingTheFilterWritesTheEmptyOne() {
        readyAlbum(filter: food).send(.setFilter(.none), begins(2, .none), begun(2, .none))
    }

    func testAFilterIsRefusedWhileTheAlbumDownloads() {
        let refusal = AlbumEffect.notify(Album.filterRefusal)
        let searching = AlbumTester(Album(pin: pin, place: rome, filter: food))
        _ = reduce(&searching.albumForSetUp, .start, searching.environment)
        searching.send(.setFilter(.none), [refusal])
        downloadingAlbum().send(.setFilter(food), [refusal])
        let interrupted = AlbumTester(Album(pin: pin, place: rome, status: .downloading, page: nil, pageCount: nil,
                                            photos: [], generation: 1, filter: food))
        interrupted.send(.setFilter(.none), [refusal])
        XCTAssertTrue(Album.filterRefusal.hasPrefix("Still downloading"), Album.filterRefusal)
    }

    func testAFailedOrEmptyAlbumTakesANewFilter() {
        let failed = AlbumTester(Album(pin: pin, place: rome, status: .failed(reason: "HTTP 500"), page: 1, pageCount: 0,
                                       photos: [], generation: 3, filter: food))
        failed.send(.setFilter(.none), begins(4, .none), begun(4, .none))
        let empty = AlbumTester(Album(pin: pin, place: rome, status: .empty, page: 1, pageCount: 0, photos: [],
                                      generation: 2))
        XCTAssertEqual(reduce(&empty.albumForSetUp, .setFilter(food), empty.environment).first,
                       .clearAlbum(pin: pin, generation: 3, filter: food))
    }

    func testAFilterThatFindsNothingEndsEmptyNotFailed() {
        let tester = readyAlbum(filter: .none)
        _ = reduce(&tester.albumForSetUp, .setFilter(food), tester.environment)
        tester.send(.searchAnswered(generation: 2, pageCount: 0, photos: []), [
            .saveStatus(pin: pin, status: .empty, page: 1, pageCount: 0),
        ]) {
            $0.search = .idle
        }
        XCTAssertEqual(tester.album.status, .empty)
    }

    func testAddMoreNewCollectionResumeAndMovingKeepTheFilter() {
        let tester = readyAlbum(filter: food)
        tester.send(.addMore, [
            .search(pin: pin, place: rome, page: 2, perPage: 3, filter: food, generation: 1),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10),
        ]) {
            $0.search = .inFlight(page: 2)
        }
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 1, pageCount: 10, photos: []), tester.environment)
        let collection = reduce(&tester.albumForSetUp, .newCollection, tester.environment)
        XCTAssertEqual(Array(collection.prefix(2)), [
            .clearAlbum(pin: pin, generation: 2, filter: food),
            .search(pin: pin, place: rome, page: 7, perPage: 3, filter: food, generation: 2),
        ])
        XCTAssertEqual(tester.album.filter, food)

        let moved = readyAlbum(filter: food)
        let effects = reduce(&moved.albumForSetUp, .pinMoved(oslo), moved.environment)
        XCTAssertEqual(Array(effects.prefix(2)), [
            .clearAlbum(pin: pin, generation: 2, filter: food),
            .search(pin: pin, place: oslo, page: 1, perPage: 3, filter: food, generation: 2),
        ])

        let interrupted = AlbumTester(Album(pin: pin, place: rome, status: .downloading, page: 1, pageCount: nil,
                                            photos: [], generation: 5, filter: food))
        interrupted.send(.resume, [
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: food, generation: 5),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0),
        ]) {
            $0.search = .inFlight(page: 1)
        }
    }

    func testAnEndedAlbumIgnoresAFilter() {
        let tester = readyAlbum(filter: .none)
        _ = reduce(&tester.albumForSetUp, .pinDeleted, tester.environment)
        tester.send(.setFilter(food), [])
    }
}
