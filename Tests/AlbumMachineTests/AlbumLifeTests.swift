import Model
import XCTest
@testable import AlbumMachine

/// Start, search, downloads, failures and resume: every transition and effect, asserted exactly.
final class AlbumLifeTests: XCTestCase {
    func testFreshAlbumIsEmptyAndIdle() {
        let album = Album(pin: pin, place: rome)
        XCTAssertEqual(album.status, .empty)
        XCTAssertEqual(album.search, .idle)
        XCTAssertFalse(album.isSearchPending)
        XCTAssertEqual(album.progress, AlbumProgress(stored: 0, total: 0))
        XCTAssertEqual(album.generation, 0)
    }

    func testStartSearchesTheFirstPage() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        tester.send(.start, [
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 1),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0),
        ]) {
            $0.generation = 1
            $0.perPage = 3
            $0.page = 1
            $0.firstPage = 1
            $0.search = .inFlight(page: 1)
        }
        XCTAssertEqual(tester.album.status, .downloading)
        XCTAssertTrue(tester.album.isSearchPending)
        XCTAssertFalse(tester.album.isNewCollectionEnabled)
    }

    func testStartTwiceIsIgnored() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        tester.send(.start, [])
        _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 1, pageCount: 1, photos: []), tester.environment)
        tester.send(.start, [])
    }

    func testSearchAnsweredDownloadsEveryPhotoAtOnce() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        tester.send(.searchAnswered(generation: 1, pageCount: 10, photos: saved(1, 2, 3)), [
            download(1), download(2), download(3),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10),
        ]) {
            $0.search = .idle
            $0.pageCount = 10
            $0.photos = [photo(1), photo(2), photo(3)]
            $0.inFlight = [1, 2, 3]
        }
        XCTAssertEqual(tester.album.status, .downloading)
        XCTAssertEqual(tester.album.progress, AlbumProgress(stored: 0, total: 3))
        XCTAssertFalse(tester.album.isSearchPending)
    }

    func testRepeatedIdsInOneAnswerBecomeOnePhoto() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        tester.send(.searchAnswered(generation: 1, pageCount: 1, photos: saved(5, 5, 6)), [
            download(5), download(6),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 1),
        ]) {
            $0.search = .idle
            $0.pageCount = 1
            $0.photos = [photo(5), photo(6)]
            $0.inFlight = [5, 6]
        }
    }

    func testReadyOnlyWhenEveryPhotoIsStoredOrFailed() {
        let tester = downloadingAlbum()
        tester.send(.photoDownloaded(generation: 1, id: 2), []) {
            $0.photos[1].state = .stored
            $0.inFlight = [1, 3]
        }
        XCTAssertEqual(tester.album.progress, AlbumProgress(stored: 1, total: 3))
        tester.send(.photoFailed(generation: 1, id: 1, failure: .permanent("HTTP 404")), [
            .markPhotoFailed(photo: 1, reason: "HTTP 404", generation: 1),
        ]) {
            $0.photos[0].state = .failed(reason: "HTTP 404")
            $0.inFlight = [3]
        }
        XCTAssertEqual(tester.album.status, .downloading)
        tester.send(.photoDownloaded(generation: 1, id: 3), [
            .saveStatus(pin: pin, status: .ready, page: 1, pageCount: 10),
        ]) {
            $0.photos[2].state = .stored
            $0.inFlight = []
        }
        XCTAssertEqual(tester.album.status, .ready)
        XCTAssertEqual(tester.album.status, .ready)
        XCTAssertEqual(tester.album.progress, AlbumProgress(stored: 2, total: 3))
        XCTAssertTrue(tester.album.isNewCollectionEnabled)
    }

    func testEveryPhotoFailingStillMakesTheAlbumReady() {
        let tester = downloadingAlbum()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: .permanent("x")), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 2, failure: .permanent("x")), tester.environment)
        tester.send(.photoFailed(generation: 1, id: 3, failure: .permanent("not an image")), [
            .markPhotoFailed(photo: 3, reason: "not an image", generation: 1),
            .saveStatus(pin: pin, status: .ready, page: 1, pageCount: 10),
        ]) {
            $0.photos[2].state = .failed(reason: "not an image")
            $0.inFlight = []
        }
        XCTAssertEqual(tester.album.progress, AlbumProgress(stored: 0, total: 3))
    }

    func testAnAnswerOfNoPhotosIsEmpty() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        tester.send(.searchAnswered(generation: 1, pageCount: 0, photos: []), [
            .saveStatus(pin: pin, status: .empty, page: 1, pageCount: 0),
        ]) {
            $0.search = .idle
        }
        XCTAssertEqual(tester.album.status, .empty)
        XCTAssertEqual(tester.album.status, .empty)
        XCTAssertTrue(tester.album.isNewCollectionEnabled)
    }

    func testSearchFailedThenRetrySearchesAgain() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        tester.send(.searchFailed(generation: 1, failure: .permanent("Connection refused")), [
            .saveStatus(pin: pin, status: .failed(reason: "Connection refused"), page: 1, pageCount: 0),
        ]) {
            $0.search = .failed(page: 1, reason: "Connection refused")
        }
        XCTAssertEqual(tester.album.status, .failed(reason: "Connection refused"))
        XCTAssertEqual(tester.album.status.reason, "Connection refused")
        XCTAssertEqual(tester.album.status.state, .failed)
        tester.send(.retry(photo: nil), [
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 1),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0),
        ]) {
            $0.search = .inFlight(page: 1)
        }
        tester.send(.searchAnswered(generation: 1, pageCount: 1, photos: saved(9)), [
            download(9),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 1),
        ]) {
            $0.search = .idle
            $0.pageCount = 1
            $0.photos = [photo(9)]
            $0.inFlight = [9]
        }
    }

    func testRetryOfAFailedSearchIgnoresTheSelectedPhoto() {
        let tester = AlbumTester(Album(pin: pin, place: rome))
        _ = reduce(&tester.albumForSetUp, .start, tester.environment)
        _ = reduce(&tester.albumForSetUp, .searchFailed(generation: 1, failure: .permanent("timeout")), tester.environment)
        tester.send(.retry(photo: 77), [
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 1),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 0),
        ]) {
            $0.search = .inFlight(page: 1)
        }
    }

    func testRetryOfAFailedPhotoDownloadsItAgain() {
        let tester = downloadingAlbum()
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 1), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 2, failure: .permanent("truncated JPEG")), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 3), tester.environment)
        XCTAssertEqual(tester.album.status, .ready)
        tester.send(.retry(photo: 2), [
            .markPending([2]), download(2),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10),
        ]) {
            $0.photos[1].state = .pending
            $0.inFlight = [2]
        }
        tester.send(.photoDownloaded(generation: 1, id: 2), [
            .saveStatus(pin: pin, status: .ready, page: 1, pageCount: 10),
        ]) {
            $0.photos[1].state = .stored
            $0.inFlight = []
        }
    }

    /// Issue 6, bug 1: the retried photo is saved as pending, and failing again settles the album.
    func testARetriedPhotoThatFailsAgainSettlesTheAlbum() {
        let tester = downloadingAlbum()
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 1), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 2, failure: .permanent("HTTP 500")), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 3), tester.environment)
        tester.send(.retry(photo: 2), [
            .markPending([2]), download(2),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10),
        ]) {
            $0.photos[1].state = .pending
            $0.inFlight = [2]
        }
        XCTAssertFalse(tester.album.isNewCollectionEnabled)
        tester.send(.photoFailed(generation: 1, id: 2, failure: .permanent("HTTP 500")), [
            .markPhotoFailed(photo: 2, reason: "HTTP 500", generation: 1),
            .saveStatus(pin: pin, status: .ready, page: 1, pageCount: 10),
        ]) {
            $0.photos[1].state = .failed(reason: "HTTP 500")
            $0.inFlight = []
        }
        XCTAssertTrue(tester.album.isNewCollectionEnabled)
    }

    func testRetryWithoutAPhotoRetriesEveryFailedOne() {
        let tester = downloadingAlbum()
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 1, failure: .permanent("a")), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: 2), tester.environment)
        _ = reduce(&tester.albumForSetUp, .photoFailed(generation: 1, id: 3, failure: .permanent("b")), tester.environment)
        tester.send(.retry(photo: nil), [
            .markPending([1, 3]), download(1), download(3),
            .saveStatus(pin: pin, status: .downloading, page: 1, pageCount: 10),
        ]) {
            $0.photos[0].state = .pending
            $0.photos[2].state = .pending
            $0.inFlight = [1, 3]
        }
    }

    func testNothingToRetry() {
        let ready = readyAlbum()
        ready.send(.retry(photo: 1), [.notify("Nothing to retry")])
        ready.send(.retry(photo: nil), [.notify("Nothing to retry")])
        ready.send(.retry(photo: 999), [.notify("Nothing to retry")])
        // A photo whose download is under way is not retried twice.
        let downloading = downloadingAlbum()
        downloading.send(.retry(photo: 2), [.notify("Nothing to retry")])
    }

    func testResumeDownloadsPendingPhotosOnly() {
        let album = Album(pin: pin, place: rome, status: .downloading, page: 4, pageCount: 12,
                          photos: [photo(1, .stored), photo(2), photo(3, .failed(reason: "HTTP 500")), photo(4)])
        XCTAssertEqual(album.status, .downloading)
        XCTAssertEqual(album.search, .idle)
        let tester = AlbumTester(album)
        tester.send(.resume, [
            download(2, generation: 0), download(4, generation: 0),
            .saveStatus(pin: pin, status: .downloading, page: 4, pageCount: 12),
        ]) {
            $0.inFlight = [2, 4]
        }
        // Opening the album again while they download sends nothing twice.
        tester.send(.resume, [.saveStatus(pin: pin, status: .downloading, page: 4, pageCount: 12)])
        tester.send(.photoDownloaded(generation: 0, id: 2), []) {
            $0.photos[1].state = .stored
            $0.inFlight = [4]
        }
        tester.send(.photoDownloaded(generation: 0, id: 4), [
            .saveStatus(pin: pin, status: .ready, page: 4, pageCount: 12),
        ]) {
            $0.photos[3].state = .stored
            $0.inFlight = []
        }
    }

    func testResumeSendsAnInterruptedSearch() {
        let album = Album(pin: pin, place: rome, status: .downloading, page: 6, pageCount: 9,
                          photos: [])
        XCTAssertEqual(album.search, .waiting(page: 6))
        XCTAssertEqual(album.status, .downloading)
        XCTAssertTrue(album.isSearchPending)
        let tester = AlbumTester(album)
        tester.send(.resume, [
            .search(pin: pin, place: rome, page: 6, perPage: 3, filter: .none, generation: 0),
            .saveStatus(pin: pin, status: .downloading, page: 6, pageCount: 9),
        ]) {
            $0.search = .inFlight(page: 6)
        }
        tester.send(.resume, [.saveStatus(pin: pin, status: .downloading, page: 6, pageCount: 9)])
    }

    func testRetrySendsAnInterruptedSearchToo() {
        let tester = AlbumTester(Album(pin: pin, place: rome, status: .downloading, page: nil,
                                       pageCount: nil, photos: []))
        tester.send(.retry(photo: nil), [
            .search(pin: pin, place: rome, page: 1, perPage: 3, filter: .none, generation: 0),
        ]) {
            $0.search = .inFlight(page: 1)
        }
    }

    func testResumeRepairsAStaleStoredStatus() {
        // Killed after the last image was stored but before the status was written.
        let tester = AlbumTester(Album(pin: pin, place: rome, status: .downloading, page: 1,
                                       pageCount: 2, photos: [photo(1, .stored)]))
        XCTAssertEqual(tester.album.status, .ready)
        tester.send(.resume, [.saveStatus(pin: pin, status: .ready, page: 1, pageCount: 2)])
    }

    func testRestoredFailedAlbumRetriesItsSearch() {
        let tester = AlbumTester(Album(pin: pin, place: rome, status: .failed(reason: "Invalid API Key (100)"),
                                       page: 3, pageCount: 5, photos: []))
        XCTAssertEqual(tester.album.status, .failed(reason: "Invalid API Key (100)"))
        tester.send(.resume, [.saveStatus(pin: pin, status: .failed(reason: "Invalid API Key (100)"), page: 3,
                                          pageCount: 5)])
        tester.send(.retry(photo: nil), [
            .search(pin: pin, place: rome, page: 3, perPage: 3, filter: .none, generation: 0),
            .saveStatus(pin: pin, status: .downloading, page: 3, pageCount: 5),
        ]) {
            $0.search = .inFlight(page: 3)
        }
    }

    func testRestoredStatusFollowsThePhotos() {
        let stored = [photo(1, .stored), photo(2, .failed(reason: "x"))]
        XCTAssertEqual(Album(pin: pin, place: rome, status: .ready, page: 1, pageCount: 1,
                             photos: stored).status, .ready)
        // A failed search with photos on screen is not the album's state.
        XCTAssertEqual(Album(pin: pin, place: rome, status: .failed(reason: "x"), page: 1, pageCount: 1,
                             photos: stored).status, .ready)
        XCTAssertEqual(Album(pin: pin, place: rome, status: .empty, page: 1, pageCount: 1,
                             photos: []).status, .empty)
        XCTAssertEqual(Album(pin: pin, place: rome, status: .empty, page: -4, pageCount: -1,
                             photos: []).status, .empty)
        XCTAssertEqual(Album(pin: pin, place: rome, status: .failed(reason: "The search failed"), page: nil, pageCount: nil,
                             photos: []).status, .failed(reason: "The search failed"))
        XCTAssertEqual(Album(pin: pin, place: rome, status: .ready, page: 1, pageCount: 1,
                             photos: [photo(1)]).status, .downloading)
    }

    func testStatusNamesAndReasons() {
        XCTAssertEqual(AlbumStatus.downloading.state, .downloading)
        XCTAssertEqual(AlbumStatus.failed(reason: "x").state, .failed)
        XCTAssertEqual(AlbumStatus.failed(reason: "x").reason, "x")
        XCTAssertNil(AlbumStatus.ready.reason)
        XCTAssertFalse(AlbumStatus.downloading.allowsNewCollection)
        XCTAssertTrue(AlbumStatus.empty.allowsNewCollection)
        XCTAssertEqual(PhotoState.failed(reason: "HTTP 404").reason, "HTTP 404")
        XCTAssertTrue(PhotoState.failed(reason: "x").isFailed)
        XCTAssertFalse(PhotoState.stored.isFailed)
    }
}
