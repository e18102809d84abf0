import Model
import XCTest
@testable import AlbumMachine

/// New Collection, Add more, deleting photos, moving and deleting the pin, and late answers.
final class AlbumCommandTests: XCTestCase {
    // MARK: Late answers

    func testLateSearchAnswerForAMovedPinIsIgnored() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .pinMoved(oslo), tester.environment)
        // The store saved the old place's photos anyway: only their rows go.
        tester.send(.searchAnswered(generation: 1, pageCount: 4, photos: saved(1, 2)), [.deletePhotos([1, 2])])
        tester.send(.searchAnswered(generation: 1, pageCount: 4, photos: []), [])
        tester.send(.searchFailed(generation: 1, failure: .permanent("timeout")), [])
        XCTAssertEqual(tester.album.search, .inFlight(page: 1))
        XCTAssertEqual(tester.album.generation, 2)
    }

    func testLateAnswerNeverDeletesTheAlbumsOwnPhotos() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .pinMoved(oslo), tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 2, pageCount: 1, photos: saved(5)),
                   tester.environment)
        // The store kept one row for a photo both places found.
        tester.send(.searchAnswered(generation: 1, pageCount: 1, photos: saved(5, 6)), [.deletePhotos([6])])
    }

    func testAnswerWhenNoSearchIsUnderWayIsIgnored() {
        let tester = readyAlbum()
        tester.send(.searchAnswered(generation: 1, pageCount: 10, photos: saved(1, 2, 3)), [])
        tester.send(.searchFailed(generation: 1, failure: .permanent("x")), [])
    }

    func testLateDownloadsAreIgnored() {
        let tester = downloadingAlbum()
        // Another generation.
        tester.send(.photoDownloaded(generation: 0, id: 1), [])
        tester.send(.photoFailed(generation: 2, id: 1, failure: .permanent("x")), [])
        // A photo the album never had.
        tester.send(.photoDownloaded(generation: 1, id: 99), [])
        // A photo already answered.
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 1), tester.environment)
        tester.send(.photoDownloaded(generation: 1, id: 1), [])
        tester.send(.photoFailed(generation: 1, id: 1, failure: .permanent("x")), [])
        // A deleted photo.
        _ = reduce(&tester.albumForSetUp, .deletePhotos([2]), tester.environment)
        tester.send(.photoDownloaded(generation: 1, id: 2), [])
        tester.send(.photoFailed(generation: 1, id: 2, failure: .permanent("x")), [])
    }

    func testDownloadsOfAReplacedCollectionAreIgnored() {
        let tester = readyAlbum()
        _ = reduce(&tester.albumForSetUp, .newCollection, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 2, pageCount: 10, photos: saved(4)),
                   tester.environment)
        tester.send(.photoDownloaded(generation: 1, id: 4), [])
        tester.send(.photoDownloaded(generation: 1, id: 1), [])
    }

    // MARK: New Collection

    func testNewCollectionIsRefusedWhileDownloading() {
        let searching = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&searching.albumForSetUp, .start, searching.environment)
        let refusal = AlbumEffect.notify(Album.newCollectionRefusal)
        searching.send(.newCollection, [refusal])
        downloadingAlbum().send(.newCollection, [refusal])
    }

    func testNewCollectionWhenReadyClearsAndAsksAnotherPage() {
        let log = PickLog()
        let tester = AlbumTester(Album(pin: pin, place: rome), .fixed(page: 7, log: log))
        _ = downloadingAlbum(tester)
        for id: Int64 in [1, 2, 3] {
            _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: id), tester.environment)
        }
        tester.send(.newCollection, [
            .clearAlbum(pin: pin, generation: 2, filter: .none),
            .search(pin: pin, place: rome, page: 7, perPage: 3, filter: .none, generation: 2),
            .saveStatus(pin: pin, status: .downloading, page: 7, pageCount: 10),
        ]) {
            $0.photos = []
            $0.generation = 2
            $0.page = 7
            $0.firstPage = 7
            $0.search = .inFlight(page: 7)
        }
        XCTAssertEqual(log.all, [[1, 10]])
        tester.send(.searchAnswered(generation: 2, pageCount: 10, photos: saved(4, 5)), [
            download(4, generation: 2), download(5, generation: 2),
        ]) {
            $0.search = .idle
            $0.photos = [photo(4), photo(5)]
            $0.inFlight = [4, 5]
        }
    }

    func testNewCollectionFromAnotherSourceStartsAtTheFirstPageWithoutPicking() {
        let log = PickLog()
        let tester = AlbumTester(Album(pin: pin, place: rome), .fixed(page: 7, log: log))
        _ = downloadingAlbum(tester)
        for id: Int64 in [1, 2, 3] {
            _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: id), tester.environment)
        }
        // Ten pages of the other source say nothing of this one's: page 1, which every source has.
        tester.send(.newCollectionFromAnotherSource, [
            .clearAlbum(pin: pin, generation: 2, filter: .none),
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 2),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10),
        ]) {
            $0.photos = []
            $0.generation = 2
            $0.page = 1
            $0.firstPage = 1
            $0.search = .inFlight(page: 1)
        }
        XCTAssertEqual(log.all, [])
        let refusal = AlbumEffect.notify(Album.newCollectionRefusal)
        downloadingAlbum().send(.newCollectionFromAnotherSource, [refusal])
    }

    func testNewCollectionNeverKeepsTheCurrentPage() {
        for bad in [1, 0, -3, 11, 500] {
            let tester = AlbumTester(Album(pin: pin, place: rome), .fixed(page: bad))
            _ = downloadingAlbum(tester)
            for id: Int64 in [1, 2, 3] {
                _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: id), tester.environment)
            }
            let effects = reduce(&tester.albumForSetUp, .newCollection, tester.environment)
            XCTAssertEqual(effects[1], .search(pin: pin, place: rome, page: 2, perPage: 3, filter: .none, generation: 2), "pick \(bad)")
        }
    }

    func testNewCollectionWithOnePageAsksPageOneWithoutPicking() {
        let log = PickLog()
        let tester = AlbumTester(Album(pin: pin, place: rome), .fixed(log: log))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 1, pageCount: 1, photos: []), tester.environment)
        tester.send(.newCollection, [
            .clearAlbum(pin: pin, generation: 2, filter: .none),
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 2),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 1),
        ]) {
            $0.generation = 2
            $0.search = .inFlight(page: 1)
        }
        XCTAssertEqual(log.all, [])
    }

    func testNewCollectionAfterAFailedSearchIsAllowed() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchFailed(generation: 1, failure: .permanent("DNS")), tester.environment)
        tester.send(.newCollection, [
            .clearAlbum(pin: pin, generation: 2, filter: .none),
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 2),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0),
        ]) {
            $0.generation = 2
            $0.search = .inFlight(page: 1)
        }
    }

    func testNewCollectionTakesTheCurrentPhotosPerPageSetting() {
        let tester = readyAlbum()
        let wider = AlbumTester(tester.album, .fixed(perPage: 21, page: 4))
        wider.send(.newCollection, [
            .clearAlbum(pin: pin, generation: 2, filter: .none),
            .search(pin: pin, place: rome, page: 4, perPage: 21, filter: .none, generation: 2),
            .saveStatus(pin: pin, status: .downloading, page: 4, pageCount: 10),
        ]) {
            $0.photos = []
            $0.generation = 2
            $0.perPage = 21
            $0.page = 4
            $0.firstPage = 4
            $0.search = .inFlight(page: 4)
        }
    }

    // MARK: Page count

    func testUsablePagesAreCappedAtFourThousandResults() {
        for (perPage, reported, usable) in [(3, 5000, 1333), (21, 10_000, 190), (21, 12, 12), (60, 67, 66),
                                            (21, -1, 0), (0, 9000, 4000), (9000, 3, 1)] {
            let tester = AlbumTester(Album(pin: pin, place: rome), .fixed(perPage: perPage))
            _ = reduce(&tester.albumForSetUp, .start, tester.environment)
            _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 1, pageCount: reported, photos: saved(1)),
                       tester.environment)
            XCTAssertEqual(tester.album.pageCount, usable, "\(perPage) per page, \(reported) reported")
        }
    }

    // MARK: Add more

    func testAddMoreAppendsTheNextPageAndLeavesThePhotosAlone() {
        let tester = readyAlbum()
        tester.send(.addMore, [
            .search(pin: pin, place: rome, page: 2, perPage: 3, filter: .none, generation: 1),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10),
        ]) {
            $0.search = .inFlight(page: 2)
        }
        tester.send(.addMore, [.notify("Still searching for photos")])
        tester.send(.newCollection, [.notify(Album.newCollectionRefusal)])
        // Photo 3 came again on the next page; it is not added twice.
        tester.send(.searchAnswered(generation: 1, pageCount: 10, photos: saved(3, 4, 5)), [
            download(4), download(5),
            .saveStatus(pin: pin, status: .downloading, page: 2, pageCount: 10),
        ]) {
            $0.search = .idle
            $0.page = 2
            $0.photos += [photo(4), photo(5)]
            $0.inFlight = [4, 5]
        }
        XCTAssertEqual(tester.album.photos.prefix(3).map(\.state), [.stored, .stored, .stored])
        XCTAssertEqual(tester.album.progress, AlbumProgress(stored: 3, total: 5))
    }

    func testAddMoreWhilePhotosDownloadIsAllowed() {
        downloadingAlbum().send(.addMore, [
            .search(pin: pin, place: rome, page: 2, perPage: 3, filter: .none, generation: 1),
        ]) {
            $0.search = .inFlight(page: 2)
        }
    }

    func testAddMoreWrapsRoundAndStopsBeforeTheFirstPage() {
        let tester = AlbumTester(Album(pin: pin, place: rome, status: .ready, page: 3,
                                       pageCount: 3, photos: [photo(1, .stored)]))
        XCTAssertEqual(tester.album.firstPage, 3)
        tester.send(.addMore, [
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 0),
            .saveStatus(pin: pin, status: .downloading, page: 3, pageCount: 3),
        ]) {
            $0.search = .inFlight(page: 1)
        }
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 0, pageCount: 3, photos: []), tester.environment)
        XCTAssertEqual(tester.album.page, 1)
        _ = reduce(&tester.albumForSetUp, .addMore, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 0, pageCount: 3, photos: []), tester.environment)
        XCTAssertEqual(tester.album.page, 2)
        tester.send(.addMore, [.notify("No more photos around this place")])
    }

    func testAddMoreWithOnePageOrNoneHasNothingMore() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 1, pageCount: 1, photos: []), tester.environment)
        tester.send(.addMore, [.notify("No more photos around this place")])
        let unknown = AlbumTester(Album(pin: pin, place: rome, status: .ready, page: nil,
                                        pageCount: nil, photos: [photo(1, .stored)]))
        unknown.send(.addMore, [.notify("No more photos around this place")])
    }

    func testAddMoreAfterAFailedSearchAsksForARetry() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchFailed(generation: 1, failure: .permanent("x")), tester.environment)
        tester.send(.addMore, [.notify("The search failed: retry it first")])
    }

    func testAddMoreThatFailsIsANoticeAndKeepsThePhotos() {
        let tester = readyAlbum()
        _ = reduce(&tester.albumForSetUp, .addMore, tester.environment)
        tester.send(.searchFailed(generation: 1, failure: .permanent("HTTP 503")), [
            .notify("Could not add photos: HTTP 503"),
            .saveStatus(pin: pin, status: .ready, page: 1, pageCount: 10),
        ]) {
            $0.search = .idle
        }
        // The page that failed is asked again.
        tester.send(.addMore, [
            .search(pin: pin, place: rome, page: 2, perPage: 3, filter: .none, generation: 1),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10),
        ]) {
            $0.search = .inFlight(page: 2)
        }
    }

    func testAddMoreThatFindsNothingSaysSo() {
        let tester = readyAlbum()
        _ = reduce(&tester.albumForSetUp, .addMore, tester.environment)
        tester.send(.searchAnswered(generation: 1, pageCount: 10, photos: saved(1)), [
            .notify("No more photos around this place"),
            .saveStatus(pin: pin, status: .ready, page: 2, pageCount: 10),
        ]) {
            $0.search = .idle
            $0.page = 2
        }
    }

    // MARK: Deleting photos

    func testDeletingPhotosCancelsTheirDownloads() {
        let tester = downloadingAlbum()
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 1), tester.environment)
        tester.send(.deletePhotos([3, 1, 404]), [.cancelDownloads([3]), .deletePhotos([1, 3])]) {
            $0.photos = [photo(2)]
            $0.inFlight = [2]
        }
        XCTAssertEqual(tester.album.progress, AlbumProgress(stored: 0, total: 1))
    }

    func testDeletingTheLastPendingPhotoMakesTheAlbumReady() {
        let tester = downloadingAlbum()
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 1), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 2), tester.environment)
        tester.send(.deletePhotos([3]), [
            .cancelDownloads([3]), .deletePhotos([3]),
            .saveStatus(pin: pin, status: .ready, page: 1, pageCount: 10),
        ]) {
            $0.photos = [photo(1, .stored), photo(2, .stored)]
            $0.inFlight = []
        }
    }

    func testDeletingEveryPhotoLeavesAnEmptyAlbum() {
        let tester = readyAlbum()
        tester.send(.deletePhotos([1, 2, 3]), [
            .deletePhotos([1, 2, 3]),
            .saveStatus(pin: pin, status: .empty, page: 1, pageCount: 10),
        ]) {
            $0.photos = []
        }
        XCTAssertTrue(tester.album.isNewCollectionEnabled)
    }

    func testDeletingNothingKnownDoesNothing() {
        let tester = readyAlbum()
        tester.send(.deletePhotos([]), [])
        tester.send(.deletePhotos([7, 8]), [])
    }

    // MARK: Moving and deleting the pin

    func testMovingThePinCancelsEverythingAndSearchesTheNewPlace() {
        let tester = downloadingAlbum()
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 2), tester.environment)
        _ = reduce(&tester.albumForSetUp, .addMore, tester.environment)
        tester.send(.pinMoved(oslo), [
            .cancelSearch(pin: pin),
            .cancelDownloads([1, 3]),
            .clearAlbum(pin: pin, generation: 2, filter: .none),
            .search(pin: pin, place: oslo, page: 1, perPage: 3, filter: .none, generation: 2),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0),
        ]) {
            $0.place = oslo
            $0.photos = []
            $0.inFlight = []
            $0.generation = 2
            $0.page = 1
            $0.firstPage = 1
            $0.pageCount = 0
            $0.search = .inFlight(page: 1)
        }
        // Everything of the old place is late now.
        tester.send(.photoDownloaded(generation: 1, id: 1), [])
        tester.send(.searchAnswered(generation: 1, pageCount: 10, photos: []), [])
    }

    func testMovingAReadyPinHasNothingToCancel() {
        let tester = readyAlbum()
        tester.send(.pinMoved(oslo), [
            .clearAlbum(pin: pin, generation: 2, filter: .none),
            .search(pin: pin, place: oslo, page: 1, perPage: 3, filter: .none, generation: 2),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0),
        ]) {
            $0.place = oslo
            $0.photos = []
            $0.generation = 2
            $0.pageCount = 0
            $0.search = .inFlight(page: 1)
        }
    }

    func testDeletingThePinEndsTheAlbum() {
        let tester = downloadingAlbum()
        _ = reduce(&tester.albumForSetUp, .addMore, tester.environment)
        tester.send(.pinDeleted, [.cancelSearch(pin: pin), .cancelDownloads([1, 2, 3])]) {
            $0.photos = []
            $0.inFlight = []
            $0.search = .idle
            $0.isEnded = true
        }
        XCTAssertFalse(tester.album.isNewCollectionEnabled)
        let every: [AlbumAction] = [
            .start, .resume, .newCollection, .addMore, .pinDeleted, .pinMoved(oslo),
            .searchAnswered(generation: 1, pageCount: 3, photos: saved(8)),
            .searchFailed(generation: 1, failure: .permanent("x")),
            .photoDownloaded(generation: 1, id: 1), .photoFailed(generation: 1, id: 2, failure: .permanent("x")),
            .deletePhotos([1]), .retry(photo: nil), .retry(photo: 1),
        ]
        for action in every { tester.send(action, []) }
    }

    func testDeletingAnIdlePinHasNothingToCancel() {
        readyAlbum().send(.pinDeleted, []) {
            $0.photos = []
            $0.isEnded = true
        }
    }

    // MARK: The live page picker

    func testLivePickerNeverAnswersTheCurrentPage() {
        let live = AlbumEnvironment.live(perPage: 21, now: { 0 })
        XCTAssertEqual(live.perPage, 21)
        XCTAssertEqual(live.pickPage(1, 1), 1)
        XCTAssertEqual(live.pickPage(1, 0), 1)
        var seen = Set<Int>()
        for _ in 0..<2000 {
            let page = live.pickPage(3, 5)
            XCTAssertTrue((1...5).contains(page))
            XCTAssertNotEqual(page, 3)
            seen.insert(page)
        }
        XCTAssertEqual(seen, [1, 2, 4, 5])
        for _ in 0..<200 { XCTAssertTrue((1...4).contains(live.pickPage(0, 4))) }
    }
}

/// The machine's generation is a copy of the store's: a restored album goes on from the stored number.
final class AlbumGenerationCopyTests: XCTestCase {
    func testARestoredAlbumWorksUnderTheStoredGenerationAndBeginsTheNextOne() {
        let restored = Album(pin: pin, place: rome, status: .downloading, page: 2, pageCount: 5,
                             photos: [photo(1, .stored), photo(2)], generation: 7)
        let tester = AlbumTester(restored)
        tester.send(.resume, [
            download(2, generation: 7),
            .saveStatus(pin: pin, status: .downloading, page: 2, pageCount: 5),
        ]) {
            $0.inFlight = [2]
        }
        // An answer of the generation before is late, whatever it names.
        tester.send(.photoDownloaded(generation: 6, id: 2), [])
        tester.send(.photoDownloaded(generation: 7, id: 2), [.saveStatus(pin: pin, status: .ready, page: 2, pageCount: 5)]) {
            $0.inFlight = []
            $0.photos = [photo(1, .stored), photo(2, .stored)]
        }
        // New Collection asks the store to advance from 7 to 8 before its search (the picked page 7 is
        // out of range, so the next one).
        tester.send(.newCollection, [
            .clearAlbum(pin: pin, generation: 8, filter: .none),
            .search(pin: pin, place: rome, page: 3, perPage: 3, filter: .none, generation: 8),
            .saveStatus(pin: pin, status: .downloading, page: 3, pageCount: 5),
        ]) {
            $0.generation = 8
            $0.photos = []
            $0.perPage = 3
            $0.page = 3
            $0.firstPage = 3
            $0.search = .inFlight(page: 3)
        }
    }
}
