import Foundation
import TestSupport
import XCTest
import GRDB
import GRDBSQLite
import Model
import Geo
@testable import Store

/// The album's life in the store: search results, downloads, failures, deletions, resuming.
///
/// The album state machine decides the album's status and the store saves exactly what it is told:
/// no photo operation here may change the status, the page, the page count or the source by itself.
final class AlbumStoreTests: XCTestCase {
    private func open() throws -> AppDatabase {
        let db = try AppDatabase.open(path: try makeTempFolder(self) + "/vtourist.sqlite")
        addCleanup { try? db.close() }
        return db
    }

    private func newPhotos(_ ids: [String], source: String = "flickr") -> [NewPhoto] {
        ids.map { NewPhoto(source: source, sourceID: $0, title: "Title \($0)", author: "Author", dateTaken: "2019-06-01 12:34:56",
                           url: "https://example.org/\($0)_q.jpg", largeURL: "https://example.org/\($0)_b.jpg",
                           pageURL: "https://example.org/p/\($0)", license: "CC BY 2.0", width: 640, height: 480) }
    }

    private func image(_ n: Int) -> Data { Data((0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7) }) }

    private func count(_ db: AppDatabase, _ sql: String) throws -> Int {
        try db.integersForTesting(sql).first ?? -1
    }

    private func status(_ db: AppDatabase, _ pin: Pin) throws -> AlbumStatus? { try db.pin(id: pin.id)?.albumStatus }

    /// Status, source, page and page count as `album(pinID:)` reads them.
    private func summary(_ db: AppDatabase, _ pin: Pin) throws -> Summary? {
        try db.album(pinID: pin.id).map { Summary(status: $0.status, page: $0.page, pageCount: $0.pageCount, source: $0.source) }
    }

    private struct Summary: Equatable {
        var status: AlbumStatus
        var page: Int?
        var pageCount: Int?
        var source: String?
    }

    private func makePin(_ db: AppDatabase, _ i: Double = 1) throws -> Pin {
        try db.insertPin(at: .init(latitude: i, longitude: i), name: "Pin \(i)")
    }

    func testSearchThenDownloadsKeepTheSavedStatus() throws {
        let db = try open()
        let pin = try makePin(db)
        // A new pin's first search is waiting: downloading, with nothing else known yet.
        XCTAssertEqual(try summary(db, pin), Summary(status: .downloading, page: nil, pageCount: nil, source: nil))
        XCTAssertTrue(try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .downloading, page: 1, pageCount: nil, source: "flickr"))
        XCTAssertFalse(try db.saveAlbumStatus(pinID: 999, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr"))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM pin"), 1, "saving a status never creates a pin")

        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b", "c"]))
        XCTAssertEqual(photos.map(\.sourceID), ["a", "b", "c"])
        XCTAssertEqual(photos.map(\.position), [0, 1, 2])
        XCTAssertEqual(photos.map(\.state), [.pending, .pending, .pending])
        XCTAssertEqual(photos.map(\.pinID), [pin.id, pin.id, pin.id])
        XCTAssertEqual(photos.first?.title, "Title a")
        XCTAssertEqual(photos.first?.author, "Author")
        XCTAssertEqual(photos.first?.url, "https://example.org/a_q.jpg")
        XCTAssertEqual(photos.first?.largeURL, "https://example.org/a_b.jpg")
        XCTAssertEqual(photos.first?.pageURL, "https://example.org/p/a")
        XCTAssertEqual(photos.first?.license, "CC BY 2.0")
        XCTAssertEqual(photos.first?.dateTaken, "2019-06-01 12:34:56")
        XCTAssertEqual(photos.first?.width, 640)
        XCTAssertEqual(photos.first?.height, 480)
        XCTAssertEqual(photos.first?.byteCount, 0)
        XCTAssertNil(photos.first?.error)
        XCTAssertEqual(try db.photos(pinID: pin.id), photos)
        // Photos are only rows: the summary is still the one saved last.
        XCTAssertEqual(try summary(db, pin), Summary(status: .downloading, page: 1, pageCount: nil, source: "flickr"))
        XCTAssertTrue(try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .downloading, page: 2, pageCount: 7, source: "flickr"))
        let album = try XCTUnwrap(db.album(pinID: pin.id))
        XCTAssertEqual(Summary(status: album.status, page: album.page, pageCount: album.pageCount, source: album.source),
                       Summary(status: .downloading, page: 2, pageCount: 7, source: "flickr"))
        XCTAssertEqual(album.photos, photos)
        XCTAssertEqual(album.pin, try db.pin(id: pin.id))

        XCTAssertTrue(try db.storeImage(photoID: photos[1].id, generation: 1, bytes: image(1000)))
        XCTAssertEqual(try db.pin(id: pin.id)?.downloadedCount, 1)
        XCTAssertEqual(try db.pendingPhotos(pinID: pin.id).map(\.sourceID), ["a", "c"])
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[0].id, generation: 1, reason: "HTTP 404"))
        XCTAssertEqual(try db.pendingPhotos(pinID: pin.id).map(\.sourceID), ["c"])
        XCTAssertTrue(try db.storeImage(photoID: photos[2].id, generation: 1, bytes: image(3000)))
        XCTAssertEqual(try db.pendingPhotos(pinID: pin.id), [])
        XCTAssertEqual(try summary(db, pin), Summary(status: .downloading, page: 2, pageCount: 7, source: "flickr"),
                       "the last pending photo stored: still what was saved, the machine decides ready")
        XCTAssertTrue(try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 2, pageCount: 7, source: "flickr"))
        XCTAssertEqual(try status(db, pin), .ready)
        XCTAssertEqual(try db.pin(id: pin.id)?.albumState, .ready)

        let read = try db.photos(pinID: pin.id)
        XCTAssertEqual(read.map(\.state), [.failed(reason: "HTTP 404"), .stored, .stored])
        XCTAssertEqual(read.map(\.byteCount), [0, 1000, 3000])
        XCTAssertEqual(read.map(\.error), ["HTTP 404", nil, nil])
        XCTAssertEqual(try db.imageBytes(photoID: photos[2].id), image(3000))
        XCTAssertNil(try db.imageBytes(photoID: photos[0].id))
        XCTAssertNil(try db.imageBytes(photoID: 12345))
        XCTAssertEqual(try db.photo(id: photos[1].id), read[1])
        XCTAssertNil(try db.photo(id: 12345))
        let listed = try XCTUnwrap(db.pins().first)
        XCTAssertEqual([listed.photoCount, listed.downloadedCount], [3, 2])
        XCTAssertEqual(listed.albumStatus, .ready)
    }

    func testSavedStatusRoundTripsExactly() throws {
        let db = try open()
        let pin = try makePin(db)
        let bystander = try makePin(db, 2)
        try db.saveAlbumStatus(pinID: bystander.id, generation: 1, status: .ready, page: 4, pageCount: 5, source: "commons")
        let saved: [Summary] = [
            Summary(status: .downloading, page: 1, pageCount: nil, source: "flickr"),
            Summary(status: .ready, page: 3, pageCount: 40, source: "flickr"),
            Summary(status: .empty, page: nil, pageCount: 0, source: "commons"),
            Summary(status: .failed(reason: "Flickr: Invalid API Key (100)"), page: 1, pageCount: nil, source: "flickr"),
            Summary(status: .failed(reason: "HTTP 500 — “Server Error” 東京"), page: 7, pageCount: 9, source: "commons"),
            Summary(status: .failed(reason: ""), page: nil, pageCount: nil, source: "flickr"),
            Summary(status: .downloading, page: nil, pageCount: nil, source: "commons"),
            Summary(status: .empty, page: 2, pageCount: 2, source: "flickr"),
        ]
        for expected in saved {
            XCTAssertTrue(try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: expected.status, page: expected.page,
                                                 pageCount: expected.pageCount, source: expected.source ?? ""))
            XCTAssertEqual(try summary(db, pin), expected)
            XCTAssertEqual(try status(db, pin), expected.status)
            XCTAssertEqual(try db.pins().first { $0.id == pin.id }?.albumStatus, expected.status)
            XCTAssertEqual(try db.pin(id: pin.id)?.albumState, expected.status.state)
            // Only a failed album keeps a reason in the row.
            XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM pin WHERE id = \(pin.id) AND albumError IS NULL"),
                           expected.status.reason == nil ? 1 : 0, "\(expected.status)")
        }
        XCTAssertEqual(try summary(db, bystander), Summary(status: .ready, page: 4, pageCount: 5, source: "commons"),
                       "another pin's album is untouched")

        // A failed search's reason survives a restart, on a new connection.
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .failed(reason: "DNS: no such host"), page: 2, pageCount: 3,
                               source: "flickr")
        let path = db.path
        try db.close()
        let again = try AppDatabase.open(path: path)
        defer { try? again.close() }
        XCTAssertEqual(try summary(again, pin),
                       Summary(status: .failed(reason: "DNS: no such host"), page: 2, pageCount: 3, source: "flickr"))
        XCTAssertEqual(try summary(again, bystander), Summary(status: .ready, page: 4, pageCount: 5, source: "commons"))
    }

    func testTheStoreSavesAStatusThePhotosDoNotSupport() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(10)))
        // Whatever the photos say, the status is what the machine saved: it is not derived.
        for status: AlbumStatus in [.empty, .ready, .failed(reason: "late"), .downloading] {
            try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: status, page: 1, pageCount: 1, source: "flickr")
            XCTAssertEqual(try self.status(db, pin), status)
            XCTAssertEqual(try db.photos(pinID: pin.id).map(\.state), [.stored, .pending], "photos are untouched")
        }
        XCTAssertEqual(try db.pin(id: pin.id)?.downloadedCount, 1)
    }

    func testFailedRowWithoutAReasonStillHasOne() throws {
        let db = try open()
        let pin = try makePin(db)
        // A failed row whose reason went missing (another program wrote it) reads as failed, with a reason to show.
        try db.executeForTesting("UPDATE pin SET albumState = 'failed', albumError = NULL WHERE id = \(pin.id)")
        let status = try XCTUnwrap(self.status(db, pin))
        XCTAssertEqual(status.state, .failed)
        XCTAssertFalse(status.reason?.isEmpty ?? true, "\(status)")
    }

    func testLastPhotoFailingLeavesTheStatusAlone() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b", "c"]))
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .downloading, page: 1, pageCount: 1, source: "flickr")
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(10)))
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[1].id, generation: 1, reason: "timed out"))
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[2].id, generation: 1, reason: "HTTP 404"))
        XCTAssertEqual(try db.pendingPhotos(pinID: pin.id), [])
        XCTAssertEqual(try status(db, pin), .downloading, "nothing pending, yet the store does not decide ready")

        // A stored photo keeps its image; a gone one stays gone.
        XCTAssertFalse(try db.markPhotoFailed(photoID: photos[0].id, generation: 1, reason: "late"), "a stored photo keeps its image")
        XCTAssertEqual(try db.photo(id: photos[0].id)?.state, .stored)
        XCTAssertEqual(try db.imageBytes(photoID: photos[0].id), image(10))
        XCTAssertFalse(try db.markPhotoFailed(photoID: 999, generation: 1, reason: "gone"))
        XCTAssertNil(try db.photo(id: 999))
        // A failed photo failing again takes the newer reason.
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[2].id, generation: 1, reason: "HTTP 410"))
        XCTAssertEqual(try db.photo(id: photos[2].id)?.state, .failed(reason: "HTTP 410"))
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr")

        // Retry: only the failed photos are pending again, each once; the status waits for the machine.
        XCTAssertEqual(try db.markPhotosPending(ids: [photos[0].id, photos[1].id, photos[1].id, 999]), 1)
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.state), [.stored, .pending, .failed(reason: "HTTP 410")])
        XCTAssertNil(try db.photo(id: photos[1].id)?.error)
        XCTAssertEqual(try db.imageBytes(photoID: photos[0].id), image(10), "a stored photo is not retried")
        XCTAssertEqual(try status(db, pin), .ready)
        XCTAssertEqual(try db.markPhotosPending(ids: [photos[1].id]), 0, "already pending")
        XCTAssertEqual(try db.markPhotosPending(ids: []), 0)
        XCTAssertEqual(try db.markPhotosPending(ids: [999]), 0)
        XCTAssertEqual(try db.pendingPhotos(pinID: pin.id).map(\.id), [photos[1].id])

        // A pending photo can fail, and its download then land after all.
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[1].id, generation: 1, reason: "timed out again"))
        XCTAssertEqual(try db.markPhotosPending(ids: [photos[1].id, photos[2].id]), 2)
        XCTAssertEqual(try db.pendingPhotos(pinID: pin.id).map(\.id), [photos[1].id, photos[2].id])
        XCTAssertTrue(try db.storeImage(photoID: photos[1].id, generation: 1, bytes: image(20)))
        XCTAssertTrue(try db.storeImage(photoID: photos[2].id, generation: 1, bytes: image(30)))
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.state), [.stored, .stored, .stored])
        XCTAssertEqual(try status(db, pin), .ready)
    }

    func testFailedSearchKeepsItsReasonUntilTheNextSave() throws {
        let db = try open()
        let pin = try makePin(db)
        XCTAssertEqual(try db.replaceAlbum(pinID: pin.id, generation: 1, photos: []), [])
        XCTAssertEqual(try status(db, pin), .downloading, "no photos found, yet the store does not decide empty")
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .empty, page: nil, pageCount: 0, source: "commons")
        XCTAssertEqual(try status(db, pin), .empty)

        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .failed(reason: "Flickr: Invalid API Key (100)"), page: 1,
                               pageCount: nil, source: "flickr")
        XCTAssertEqual(try db.album(pinID: pin.id)?.status, .failed(reason: "Flickr: Invalid API Key (100)"))
        XCTAssertEqual(try db.album(pinID: pin.id)?.status.reason, "Flickr: Invalid API Key (100)")
        XCTAssertFalse(try db.saveAlbumStatus(pinID: 999, generation: 1, status: .failed(reason: "x"), page: nil, pageCount: nil,
                                              source: "flickr"))
        // Photos arriving or leaving do not clear the reason.
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["x", "y"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(5)))
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[1].id, generation: 1, reason: "HTTP 404"))
        try db.deletePhotos(ids: [photos[0].id])
        XCTAssertEqual(try db.album(pinID: pin.id)?.status, .failed(reason: "Flickr: Invalid API Key (100)"))

        // Retrying the search: the machine saves downloading, and the reason is gone.
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .downloading, page: 1, pageCount: nil, source: "flickr")
        XCTAssertEqual(try db.album(pinID: pin.id)?.status, .downloading)
        XCTAssertNil(try db.album(pinID: pin.id)?.status.reason)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM pin WHERE albumError IS NOT NULL"), 0)
    }

    func testEmptyImageIsRefused() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a"]))
        XCTAssertThrowsError(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: Data())) { error in
            XCTAssertEqual(error as? StoreError, .emptyImage(photoID: photos[0].id))
        }
        XCTAssertEqual(try db.photo(id: photos[0].id)?.state, .pending)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)
    }

    func testNewCollectionReplacesPhotosAndImages() throws {
        let db = try open()
        let pin = try makePin(db)
        let other = try makePin(db, 2)
        let first = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        let kept = try db.replaceAlbum(pinID: other.id, generation: 1, photos: newPhotos(["a"]))
        for photo in first + kept { XCTAssertTrue(try db.storeImage(photoID: photo.id, generation: 1, bytes: image(100))) }
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 5, source: "flickr")

        let second = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["c", "d", "e"], source: "commons"))
        XCTAssertEqual(second.map(\.sourceID), ["c", "d", "e"])
        XCTAssertEqual(second.map(\.source), ["commons", "commons", "commons"])
        XCTAssertEqual(second.map(\.position), [0, 1, 2])
        XCTAssertEqual(second.map(\.state), [.pending, .pending, .pending])
        XCTAssertTrue(Set(second.map(\.id)).isDisjoint(with: first.map(\.id)))
        XCTAssertEqual(try db.photos(pinID: pin.id), second)
        XCTAssertEqual(try summary(db, pin), Summary(status: .ready, page: 1, pageCount: 5, source: "flickr"),
                       "replacing photos leaves the summary to the machine")
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 1, "only the other pin's image is left")
        XCTAssertEqual(try db.photos(pinID: other.id).map(\.byteCount), [100])
        XCTAssertEqual(try db.pin(id: pin.id)?.downloadedCount, 0)
        // A late download for the old collection never comes back.
        XCTAssertFalse(try db.storeImage(photoID: first[0].id, generation: 1, bytes: image(100)))
        XCTAssertFalse(try db.markPhotoFailed(photoID: first[1].id, generation: 1, reason: "late"))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo WHERE pinId = \(pin.id)"), 3)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 1)
        // Replacing with a photo already there keeps its row (and its image, were one stored); the others go.
        let third = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["c"], source: "commons"))
        XCTAssertEqual(third.map(\.position), [0])
        XCTAssertEqual(third.map(\.id), [second[0].id])
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo WHERE pinId = \(pin.id)"), 1)
        XCTAssertEqual(try db.replaceAlbum(pinID: 999, generation: 1, photos: newPhotos(["q"])), [])
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo WHERE sourceId = 'q'"), 0)
    }

    func testDuplicatesInOneAnswerAreDropped() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b", "a", "c", "c"]))
        XCTAssertEqual(photos.map(\.sourceID), ["a", "b", "c"])
        XCTAssertEqual(photos.map(\.position), [0, 1, 2], "positions stay contiguous")
        XCTAssertEqual(try db.photos(pinID: pin.id), photos)
    }

    func testAddMoreAppendsAndSkipsDuplicates() throws {
        let db = try open()
        let pin = try makePin(db)
        let first = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        for photo in first { XCTAssertTrue(try db.storeImage(photoID: photo.id, generation: 1, bytes: image(50))) }
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 3, source: "flickr")

        let added = try db.appendPhotos(pinID: pin.id, generation: 1, photos: newPhotos(["b", "c", "a", "d", "d"]))
        XCTAssertEqual(added.map(\.sourceID), ["c", "d"])
        XCTAssertEqual(added.map(\.position), [2, 3], "duplicates skipped, positions contiguous")
        XCTAssertEqual(added.map(\.state), [.pending, .pending])
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.sourceID), ["a", "b", "c", "d"])
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.byteCount), [50, 50, 0, 0], "existing photos keep their images")
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.id).prefix(2), first.map(\.id).prefix(2))
        XCTAssertEqual(try summary(db, pin), Summary(status: .ready, page: 1, pageCount: 3, source: "flickr"),
                       "appending leaves the summary to the machine")

        // The same source id from another source is another photo.
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, generation: 1, photos: newPhotos(["a"], source: "commons")).map(\.position), [4])
        // Nothing new: nothing added, nothing changed.
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"])), [])
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, generation: 1, photos: []), [])
        XCTAssertEqual(try db.photos(pinID: pin.id).count, 5)
        XCTAssertEqual(try status(db, pin), .ready)

        // Positions continue after the last, also after deletions left a gap.
        let all = try db.photos(pinID: pin.id)
        try db.deletePhotos(ids: [all[1].id])
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, generation: 1, photos: newPhotos(["z", "b"])).map(\.position), [5, 6],
                       "a deleted photo may come back, at the end")
        XCTAssertEqual(try db.appendPhotos(pinID: 999, generation: 1, photos: newPhotos(["q"])), [])
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo WHERE sourceId = 'q'"), 0)
        // Appending to an album without photos starts at 0.
        let other = try makePin(db, 2)
        XCTAssertEqual(try db.appendPhotos(pinID: other.id, generation: 1, photos: newPhotos(["a", "a", "b"])).map(\.position), [0, 1])
    }

    func testDeletingPhotosLeavesTheStatusAlone() throws {
        let db = try open()
        let pin = try makePin(db)
        let other = try makePin(db, 2)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b", "c"]))
        let others = try db.replaceAlbum(pinID: other.id, generation: 1, photos: newPhotos(["a", "b"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(10)))
        XCTAssertTrue(try db.storeImage(photoID: photos[1].id, generation: 1, bytes: image(10)))
        XCTAssertTrue(try db.storeImage(photoID: others[0].id, generation: 1, bytes: image(10)))
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .downloading, page: 1, pageCount: 1, source: "flickr")
        try db.saveAlbumStatus(pinID: other.id, generation: 1, status: .downloading, page: 2, pageCount: 2, source: "commons")

        // Deleting the one still pending leaves nothing pending; images go with their photos.
        XCTAssertEqual(try db.deletePhotos(ids: [photos[2].id, photos[0].id, photos[0].id, 999]), 2)
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.sourceID), ["b"])
        XCTAssertEqual(try db.pendingPhotos(pinID: pin.id), [])
        XCTAssertEqual(try status(db, pin), .downloading, "the machine, not the store, decides ready")
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 2)
        XCTAssertNil(try db.imageBytes(photoID: photos[0].id))
        XCTAssertEqual(try db.imageBytes(photoID: photos[1].id), image(10))
        XCTAssertEqual(try db.photos(pinID: other.id).map(\.id), others.map(\.id), "another album is untouched")
        XCTAssertFalse(try db.storeImage(photoID: photos[2].id, generation: 1, bytes: image(10)), "a late download of a deleted photo")
        XCTAssertNil(try db.photo(id: photos[2].id))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 2)

        // Photos of two pins at once; the last one gone, and still the saved status.
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr")
        XCTAssertEqual(try db.deletePhotos(ids: [photos[1].id, others[1].id]), 2)
        XCTAssertEqual(try db.photos(pinID: pin.id), [])
        XCTAssertEqual(try summary(db, pin), Summary(status: .ready, page: 1, pageCount: 1, source: "flickr"),
                       "no photos left, yet the store does not decide empty")
        XCTAssertEqual(try summary(db, other), Summary(status: .downloading, page: 2, pageCount: 2, source: "commons"))
        XCTAssertEqual(try db.deletePhotos(ids: []), 0)
        XCTAssertEqual(try db.deletePhotos(ids: [photos[1].id]), 0, "already deleted")

        // A failed search keeps its reason when photos are deleted.
        try db.saveAlbumStatus(pinID: other.id, generation: 1, status: .failed(reason: "HTTP 500"), page: 2, pageCount: 2, source: "commons")
        XCTAssertEqual(try db.deletePhotos(ids: [others[0].id]), 1)
        XCTAssertEqual(try status(db, other), .failed(reason: "HTTP 500"))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)
    }

    func testClearingAnAlbumDeletesOnlyItsPhotos() throws {
        let db = try open()
        let pin = try makePin(db)
        let other = try makePin(db, 2)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b", "c"]))
        let others = try db.replaceAlbum(pinID: other.id, generation: 1, photos: newPhotos(["a"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(10)))
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[1].id, generation: 1, reason: "HTTP 404"))
        XCTAssertTrue(try db.storeImage(photoID: others[0].id, generation: 1, bytes: image(10)))
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 2, pageCount: 4, source: "flickr")

        XCTAssertEqual(try db.clearAlbum(pinID: pin.id, generation: 2, filter: .none), 3)
        XCTAssertEqual(try db.photos(pinID: pin.id), [])
        XCTAssertEqual(try db.pin(id: pin.id)?.photoCount, 0)
        XCTAssertEqual(try db.pin(id: pin.id)?.downloadedCount, 0)
        // A kill before the machine saves its search still leaves the album to resume, from page 1.
        XCTAssertEqual(try summary(db, pin), Summary(status: .downloading, page: nil, pageCount: nil, source: "flickr"),
                       "clearing starts the album over as a new pin's")
        XCTAssertEqual(try db.interruptedAlbums(), [pin.id, other.id])
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 1, "images follow their photos")
        XCTAssertEqual(try db.photos(pinID: other.id).map(\.byteCount), [10], "another album is untouched")
        XCTAssertFalse(try db.storeImage(photoID: photos[2].id, generation: 2, bytes: image(10)), "a late download after clearing")
        XCTAssertEqual(try db.markPhotosPending(ids: [photos[1].id]), 0)

        XCTAssertEqual(try db.clearAlbum(pinID: pin.id, generation: 3, filter: .none), 0, "already empty")
        XCTAssertEqual(try db.clearAlbum(pinID: 999, generation: 2, filter: .none), 0)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo"), 1)
        // The album fills again from 0.
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, generation: 3, photos: newPhotos(["a", "b"])).map(\.position), [0, 1])
    }

    func testDeletedPinNeverGetsPhotosBack() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b", "c"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(10)))
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[2].id, generation: 1, reason: "HTTP 404"))
        XCTAssertTrue(try db.deletePin(id: pin.id))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo"), 0)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)

        // Late answers: a download, a failure, a retry, a search, more photos, a status.
        XCTAssertFalse(try db.storeImage(photoID: photos[1].id, generation: 1, bytes: image(10)))
        XCTAssertFalse(try db.markPhotoFailed(photoID: photos[1].id, generation: 1, reason: "late"))
        XCTAssertEqual(try db.markPhotosPending(ids: [photos[2].id]), 0)
        XCTAssertEqual(try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["c"])), [])
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, generation: 1, photos: newPhotos(["d"])), [])
        XCTAssertEqual(try db.clearAlbum(pinID: pin.id, generation: 2, filter: .none), 0)
        XCTAssertFalse(try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr"))
        XCTAssertFalse(try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .failed(reason: "late"), page: 1, pageCount: 1,
                                              source: "flickr"))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM pin"), 0)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo"), 0)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)
        XCTAssertEqual(try db.photos(pinID: pin.id), [])
        XCTAssertNil(try db.album(pinID: pin.id))
        XCTAssertEqual(try db.interruptedAlbums(), [])
        XCTAssertEqual(try db.pins(), [])
    }

    /// Found by the crash soak: `vtourist drop --wait` and the app resumed the same new album; the later
    /// answer of the same search deleted the photos the first had already stored, images and all.
    func testTheSameAnswerSavedAgainKeepsTheRowsAndImagesAlreadyStored() throws {
        let db = try open()
        let pin = try makePin(db)
        let first = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b", "c"]))
        XCTAssertTrue(try db.storeImage(photoID: first[0].id, generation: 1, bytes: image(10)))
        XCTAssertTrue(try db.storeImage(photoID: first[2].id, generation: 1, bytes: image(12)))
        // Another process's answer: `b` no longer found, `d` new, the order changed, `a` named twice.
        let second = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["c", "d", "a", "a"]))
        XCTAssertEqual(second.map(\.found.sourceID), ["c", "d", "a"])
        XCTAssertEqual(second.map(\.position), [0, 1, 2])
        XCTAssertEqual(second[0].id, first[2].id)
        XCTAssertEqual(second[2].id, first[0].id)
        XCTAssertEqual(second.map(\.state), [.stored, .pending, .stored])
        XCTAssertEqual(try db.imageBytes(photoID: first[0].id), image(10))
        XCTAssertEqual(try db.imageBytes(photoID: first[2].id), image(12))
        XCTAssertNil(try db.photo(id: first[1].id), "a photo the new answer lacks goes")
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 2)
        XCTAssertEqual(try db.photos(pinID: pin.id), second)
    }

    func testMovedPinLosesItsPhotosAndStartsOver() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(10)))
        try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 3, pageCount: 8, source: "flickr")
        let moved = try XCTUnwrap(db.movePin(id: pin.id, to: .init(latitude: 5, longitude: 5), name: nil))
        XCTAssertEqual(moved.coordinate, GeoPoint(latitude: 5, longitude: 5))
        XCTAssertEqual([moved.photoCount, moved.downloadedCount], [0, 0])
        XCTAssertEqual(try db.album(pinID: pin.id)?.generation, 2, "a move begins the album's next generation")
        XCTAssertFalse(try db.storeImage(photoID: photos[1].id, generation: 1, bytes: image(10)), "a late download of the old place")
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)
        XCTAssertEqual(try db.photos(pinID: pin.id), [])
        // Like a new pin's: its search at the new place is waiting, so a crash now still resumes it.
        XCTAssertEqual(moved.albumStatus, .downloading)
        XCTAssertEqual(try summary(db, pin), Summary(status: .downloading, page: nil, pageCount: nil, source: nil))
        XCTAssertEqual(try db.interruptedAlbums(), [pin.id])
    }

    func testStoringAgainReplacesTheImage() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(10)))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(20)))
        XCTAssertEqual(try db.imageBytes(photoID: photos[0].id), image(20))
        XCTAssertEqual(try db.photo(id: photos[0].id)?.byteCount, 20)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 1)
    }

    func testStoringAFailedPhotosImageMakesItStored() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a"]))
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[0].id, generation: 1, reason: "timed out"))
        // A download that was reported failed but landed after all.
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(7)))
        XCTAssertEqual(try db.photo(id: photos[0].id)?.state, .stored)
        XCTAssertNil(try db.photo(id: photos[0].id)?.error)
        XCTAssertEqual(try db.imageBytes(photoID: photos[0].id), image(7))
    }

    func testStoredAlwaysMeansTheImageIsThere() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: image(10)))
        // Even raw SQL cannot have a stored photo without its image.
        XCTAssertThrowsError(try db.executeForTesting("UPDATE photo SET state = 'stored' WHERE id = \(photos[1].id)"))
        XCTAssertEqual(try db.photo(id: photos[1].id)?.state, .pending)
        try db.executeForTesting("DELETE FROM photoImage WHERE photoId = \(photos[0].id)")
        XCTAssertEqual(try db.photo(id: photos[0].id)?.state, .pending)
        XCTAssertEqual(try db.pins().first?.downloadedCount, 0)
    }

    func testResumingInterruptedWork() throws {
        let db = try open()
        let searching = try makePin(db, 1)
        let downloading = try makePin(db, 2)
        let ready = try makePin(db, 3)
        let failed = try makePin(db, 4)
        let empty = try makePin(db, 5)
        let retried = try makePin(db, 6)
        let deleted = try makePin(db, 7)
        try db.insertPins([(.init(latitude: 8, longitude: 8), "bulk")])
        let bulk = try XCTUnwrap(db.pins().last)
        XCTAssertEqual(bulk.albumStatus, .empty, "bulk pins start with empty albums")

        // `searching` keeps the status its insertion saved: its first search never answered.
        // Saved out of id order, to show the order is the pins', not the saves'.
        try db.saveAlbumStatus(pinID: retried.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr")
        try db.saveAlbumStatus(pinID: retried.id, generation: 1, status: .downloading, page: 2, pageCount: 2, source: "flickr")
        let photos = try db.replaceAlbum(pinID: downloading.id, generation: 1, photos: newPhotos(["a", "b", "c"]))
        XCTAssertTrue(try db.storeImage(photoID: photos[1].id, generation: 1, bytes: image(10)))
        try db.saveAlbumStatus(pinID: downloading.id, generation: 1, status: .downloading, page: 4, pageCount: 9, source: "flickr")
        // Pending photos do not make an album interrupted: only its saved status does.
        let readyPhotos = try db.replaceAlbum(pinID: ready.id, generation: 1, photos: newPhotos(["a"]))
        XCTAssertEqual(readyPhotos.map(\.state), [.pending])
        try db.saveAlbumStatus(pinID: ready.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr")
        try db.saveAlbumStatus(pinID: failed.id, generation: 1, status: .failed(reason: "DNS"), page: 1, pageCount: nil, source: "flickr")
        try db.saveAlbumStatus(pinID: empty.id, generation: 1, status: .empty, page: 1, pageCount: 0, source: "commons")
        XCTAssertTrue(try db.deletePin(id: deleted.id))
        XCTAssertEqual(try db.interruptedAlbums(), [searching.id, downloading.id, retried.id])

        // What a restart sees, on a new connection.
        let path = db.path
        try db.close()
        let again = try AppDatabase.open(path: path)
        defer { try? again.close() }
        XCTAssertEqual(try again.interruptedAlbums(), [searching.id, downloading.id, retried.id])
        XCTAssertEqual(try summary(again, searching), Summary(status: .downloading, page: nil, pageCount: nil, source: nil))
        XCTAssertEqual(try summary(again, downloading), Summary(status: .downloading, page: 4, pageCount: 9, source: "flickr"))
        XCTAssertEqual(try again.pendingPhotos(pinID: downloading.id).map(\.id), [photos[0].id, photos[2].id])
        XCTAssertEqual(try again.pendingPhotos(pinID: searching.id), [])

        // Once the machine saves what it settled on, the album is no longer interrupted.
        try again.saveAlbumStatus(pinID: searching.id, generation: 1, status: .empty, page: 1, pageCount: 0, source: "commons")
        XCTAssertEqual(try again.interruptedAlbums(), [downloading.id, retried.id])
    }

    func testResumeQueryUsesTheDownloadingIndex() throws {
        let db = try open()
        // The query `interruptedAlbums` runs.
        let query = "SELECT id FROM pin WHERE albumState = 'downloading' ORDER BY id"
        let plan = try db.textsForTesting("EXPLAIN QUERY PLAN " + query)
        XCTAssertTrue(plan.contains { $0.contains("pin_downloading") }, "\(plan)")
        XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "the index is already in id order: \(plan)")
        // And it is the query that answers: the same pins, in the same order.
        try db.insertPins((0..<5).map { (GeoPoint(latitude: Double($0), longitude: 0), nil) as (GeoPoint, String?) })
        let pins = try db.pins()
        for pin in pins where pin.id % 2 == 1 {
            try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .downloading, page: nil, pageCount: nil, source: "commons")
        }
        let expected = pins.map(\.id).filter { $0 % 2 == 1 }
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(try db.integersForTesting(query).map(Int64.init), expected)
        XCTAssertEqual(try db.interruptedAlbums(), expected)
    }

    /// Pages of the database the connection reads while `body` runs (from its page cache or not).
    private func pagesRead(_ db: AppDatabase, _ body: () throws -> Void) throws -> Int32 {
        func counters(reset: Bool) throws -> Int32 {
            try db.read { connection in
                var total: Int32 = 0
                for counter in [SQLITE_DBSTATUS_CACHE_HIT, SQLITE_DBSTATUS_CACHE_MISS] {
                    var current: Int32 = 0
                    var highest: Int32 = 0
                    XCTAssertEqual(sqlite3_db_status(connection.sqliteConnection, counter, &current, &highest,
                                                     reset ? 1 : 0), SQLITE_OK)
                    total += current
                }
                return total
            }
        }
        _ = try counters(reset: true)
        try body()
        return try counters(reset: false)
    }

    func testPhotoListingDoesNotReadImages() throws {
        // One connection (in memory, so every page goes through the page cache and is counted).
        let db = try AppDatabase.openInMemory()
        addCleanup { try? db.close() }
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        let big = Data(repeating: 0xA5, count: 8_000_000)
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, generation: 1, bytes: big))

        // Reading the image itself reads its ~2,000 pages: the count would show a listing that did.
        let imagePages = try pagesRead(db) { XCTAssertEqual(try db.imageBytes(photoID: photos[0].id), big) }
        XCTAssertGreaterThan(imagePages, 1_000)
        let listingPages = try pagesRead(db) {
            XCTAssertEqual(try db.photos(pinID: pin.id).map(\.byteCount), [8_000_000, 0])
            XCTAssertEqual(try db.album(pinID: pin.id)?.photos.first?.byteCount, 8_000_000)
            XCTAssertEqual(try db.photo(id: photos[0].id)?.byteCount, 8_000_000)
            XCTAssertEqual(try db.pendingPhotos(pinID: pin.id).map(\.id), [photos[1].id])
            XCTAssertEqual(try db.pins().first?.downloadedCount, 1)
        }
        XCTAssertLessThan(listingPages, 100, "listing photos read the image's pages")
    }

    func testTextsComeBackAsGiven() throws {
        let db = try open()
        let pin = try makePin(db)
        // A year alone looks like a number to SQLite; it must still come back as text.
        let odd = NewPhoto(source: "commons", sourceID: "File:X.jpg", title: "\u{1B}[31mred\u{7}", author: nil,
                           dateTaken: "2019", url: "https://u", largeURL: nil, pageURL: nil, license: nil,
                           width: nil, height: nil)
        let stored = try XCTUnwrap(db.replaceAlbum(pinID: pin.id, generation: 1, photos: [odd]).first)
        XCTAssertEqual(stored.dateTaken, "2019")
        XCTAssertEqual(stored.title, "\u{1B}[31mred\u{7}")
        XCTAssertEqual(stored.sourceID, "File:X.jpg")
        XCTAssertNil(stored.author)
        XCTAssertNil(stored.largeURL)
        XCTAssertNil(stored.width)
        XCTAssertEqual(try db.photo(id: stored.id), stored)
        // Every write to the photo's row keeps its texts too.
        XCTAssertTrue(try db.markPhotoFailed(photoID: stored.id, generation: 1, reason: "HTTP 404 \u{1B}[2J “x”"))
        XCTAssertEqual(try db.photo(id: stored.id)?.state, .failed(reason: "HTTP 404 \u{1B}[2J “x”"))
        XCTAssertEqual(try db.markPhotosPending(ids: [stored.id]), 1)
        XCTAssertTrue(try db.storeImage(photoID: stored.id, generation: 1, bytes: image(3)))
        var expected = stored
        expected.state = .stored
        expected.byteCount = 3
        XCTAssertEqual(try db.photo(id: stored.id), expected)
        XCTAssertEqual(try db.photo(id: stored.id)?.dateTaken, "2019")
    }
}
