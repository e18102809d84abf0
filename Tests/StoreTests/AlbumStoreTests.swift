import Foundation
import XCTest
import TouristCore
import WorldMap
@testable import Store

/// The album's life in the store: search, downloads, failures, deletions, resuming.
final class AlbumStoreTests: XCTestCase {
    private func open() throws -> AppDatabase {
        let db = try AppDatabase.open(path: try makeTempFolder(self) + "/vtourist.sqlite")
        addTeardownBlock { try? db.close() }
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

    private func state(_ db: AppDatabase, _ pin: Pin) throws -> AlbumState? { try db.pin(id: pin.id)?.albumState }

    private func makePin(_ db: AppDatabase, _ i: Double = 1) throws -> Pin {
        try db.insertPin(at: .init(latitude: i, longitude: i), name: "Pin \(i)")
    }

    func testSearchThenDownloadsToReady() throws {
        let db = try open()
        let pin = try makePin(db)
        XCTAssertTrue(try db.beginAlbum(pinID: pin.id, source: "flickr", page: 1))
        XCTAssertEqual(try state(db, pin), .downloading)
        XCTAssertFalse(try db.beginAlbum(pinID: 999, source: "flickr", page: 1))

        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a", "b", "c"]), page: 2, pageCount: 7,
                                         source: "flickr")
        XCTAssertEqual(photos.map(\.sourceID), ["a", "b", "c"])
        XCTAssertEqual(photos.map(\.position), [0, 1, 2])
        XCTAssertEqual(Set(photos.map(\.state)), [.pending])
        XCTAssertEqual(photos.first?.largeURL, "https://example.org/a_b.jpg")
        XCTAssertEqual(photos.first?.dateTaken, "2019-06-01 12:34:56")
        XCTAssertEqual(photos.first?.width, 640)
        XCTAssertEqual(photos.first?.byteCount, 0)
        XCTAssertEqual(try db.photos(pinID: pin.id), photos)
        XCTAssertEqual(try state(db, pin), .downloading)
        let album = try XCTUnwrap(db.album(pinID: pin.id))
        XCTAssertEqual([album.source, album.page.map(String.init), album.pageCount.map(String.init)], ["flickr", "2", "7"])
        XCTAssertEqual(album.photos, photos)

        XCTAssertTrue(try db.storeImage(photoID: photos[1].id, bytes: image(1000)))
        XCTAssertEqual(try db.pin(id: pin.id)?.downloadedCount, 1)
        XCTAssertEqual(try db.pendingPhotos(pinID: pin.id).map(\.sourceID), ["a", "c"])
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[0].id, reason: "HTTP 404"))
        XCTAssertEqual(try state(db, pin), .downloading)
        XCTAssertTrue(try db.storeImage(photoID: photos[2].id, bytes: image(3000)))
        XCTAssertEqual(try state(db, pin), .ready, "the last pending photo stored: ready")

        let read = try db.photos(pinID: pin.id)
        XCTAssertEqual(read.map(\.state), [.failed, .stored, .stored])
        XCTAssertEqual(read.map(\.byteCount), [0, 1000, 3000])
        XCTAssertEqual(read[0].error, "HTTP 404")
        XCTAssertEqual(try db.imageBytes(photoID: photos[2].id), image(3000))
        XCTAssertNil(try db.imageBytes(photoID: photos[0].id))
        XCTAssertNil(try db.imageBytes(photoID: 12345))
        XCTAssertEqual(try db.photo(id: photos[1].id), read[1])
        XCTAssertNil(try db.photo(id: 12345))
        let listed = try XCTUnwrap(db.pins().first)
        XCTAssertEqual([listed.photoCount, listed.downloadedCount], [3, 2])
    }

    func testLastPhotoFailingMakesTheAlbumReady() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a", "b"]), page: 1, pageCount: 1, source: "flickr")
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, bytes: image(10)))
        XCTAssertTrue(try db.markPhotoFailed(photoID: photos[1].id, reason: "timed out"))
        XCTAssertEqual(try state(db, pin), .ready)
        XCTAssertFalse(try db.markPhotoFailed(photoID: photos[0].id, reason: "late"), "a stored photo keeps its image")
        XCTAssertEqual(try db.photo(id: photos[0].id)?.state, .stored)
        XCTAssertFalse(try db.markPhotoFailed(photoID: 999, reason: "gone"))

        // Retry: pending again, the album downloading again, then ready when it arrives.
        XCTAssertFalse(try db.markPhotoPending(photoID: photos[0].id), "only a failed photo is retried")
        XCTAssertTrue(try db.markPhotoPending(photoID: photos[1].id))
        XCTAssertEqual(try db.photo(id: photos[1].id)?.state, .pending)
        XCTAssertNil(try db.photo(id: photos[1].id)?.error)
        XCTAssertEqual(try state(db, pin), .downloading)
        XCTAssertTrue(try db.storeImage(photoID: photos[1].id, bytes: image(20)))
        XCTAssertEqual(try state(db, pin), .ready)
        XCTAssertFalse(try db.markPhotoPending(photoID: 999))
    }

    func testEmptyAndFailedAlbums() throws {
        let db = try open()
        let pin = try makePin(db)
        try db.beginAlbum(pinID: pin.id, source: "commons", page: nil)
        XCTAssertEqual(try db.replaceAlbum(pinID: pin.id, photos: [], page: nil, pageCount: 0, source: "commons"), [])
        XCTAssertEqual(try state(db, pin), .empty)

        try db.beginAlbum(pinID: pin.id, source: "flickr", page: 1)
        XCTAssertTrue(try db.failAlbum(pinID: pin.id, reason: "Flickr: Invalid API Key (100)"))
        XCTAssertEqual(try state(db, pin), .failed)
        XCTAssertEqual(try db.album(pinID: pin.id)?.error, "Flickr: Invalid API Key (100)")
        XCTAssertFalse(try db.failAlbum(pinID: 999, reason: "x"))

        // Retrying the search clears the error.
        try db.beginAlbum(pinID: pin.id, source: "flickr", page: 1)
        XCTAssertNil(try db.album(pinID: pin.id)?.error)
        XCTAssertEqual(try state(db, pin), .downloading)
        try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["x"]), page: 1, pageCount: 1, source: "flickr")
        XCTAssertEqual(try state(db, pin), .downloading)
    }

    func testEmptyImageIsRefused() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a"]), page: 1, pageCount: 1, source: "flickr")
        XCTAssertThrowsError(try db.storeImage(photoID: photos[0].id, bytes: Data())) { error in
            XCTAssertEqual(error as? StoreError, .emptyImage(photoID: photos[0].id))
        }
        XCTAssertEqual(try db.photo(id: photos[0].id)?.state, .pending)
    }

    func testNewCollectionReplacesPhotosAndImages() throws {
        let db = try open()
        let pin = try makePin(db)
        let other = try makePin(db, 2)
        let first = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a", "b"]), page: 1, pageCount: 5, source: "flickr")
        let kept = try db.replaceAlbum(pinID: other.id, photos: newPhotos(["a"]), page: 1, pageCount: 1, source: "flickr")
        for photo in first + kept { XCTAssertTrue(try db.storeImage(photoID: photo.id, bytes: image(100))) }
        XCTAssertEqual(try state(db, pin), .ready)

        let second = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["c", "d", "e"], source: "commons"),
                                         page: 3, pageCount: 5, source: "commons")
        XCTAssertEqual(second.map(\.sourceID), ["c", "d", "e"])
        XCTAssertEqual(second.map(\.position), [0, 1, 2])
        XCTAssertTrue(Set(second.map(\.id)).isDisjoint(with: first.map(\.id)))
        XCTAssertEqual(try db.photos(pinID: pin.id), second)
        XCTAssertEqual(try state(db, pin), .downloading)
        XCTAssertEqual(try db.album(pinID: pin.id)?.source, "commons")
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 1, "only the other pin's image is left")
        XCTAssertEqual(try db.photos(pinID: other.id).map(\.byteCount), [100])
        // A late download for the old collection never comes back.
        XCTAssertFalse(try db.storeImage(photoID: first[0].id, bytes: image(100)))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo WHERE pinId = \(pin.id)"), 3)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 1)
    }

    func testDuplicatesInOneAnswerAreDropped() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a", "b", "a", "c"]), page: 1, pageCount: 1,
                                         source: "flickr")
        XCTAssertEqual(photos.map(\.sourceID), ["a", "b", "c"])
        XCTAssertEqual(photos.map(\.position), [0, 1, 2])
    }

    func testAddMoreAppendsAndSkipsDuplicates() throws {
        let db = try open()
        let pin = try makePin(db)
        let first = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a", "b"]), page: 1, pageCount: 3, source: "flickr")
        for photo in first { XCTAssertTrue(try db.storeImage(photoID: photo.id, bytes: image(50))) }
        XCTAssertEqual(try state(db, pin), .ready)

        let added = try db.appendPhotos(pinID: pin.id, photos: newPhotos(["b", "c", "a", "d", "d"]), page: 2, pageCount: 3)
        XCTAssertEqual(added.map(\.sourceID), ["c", "d"])
        XCTAssertEqual(added.map(\.position), [2, 3])
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.sourceID), ["a", "b", "c", "d"])
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.byteCount), [50, 50, 0, 0], "existing photos keep their images")
        XCTAssertEqual(try state(db, pin), .downloading)
        XCTAssertEqual(try db.album(pinID: pin.id)?.page, 2)

        // The same source id from another source is another photo.
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, photos: newPhotos(["a"], source: "commons"), page: 1,
                                           pageCount: 1).map(\.position), [4])
        // Nothing new: the album settles by its photos.
        for photo in try db.pendingPhotos(pinID: pin.id) { XCTAssertTrue(try db.storeImage(photoID: photo.id, bytes: image(5))) }
        XCTAssertEqual(try state(db, pin), .ready)
        try db.beginAlbum(pinID: pin.id, source: "flickr", page: 3)
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, photos: newPhotos(["a", "b"]), page: 3, pageCount: 3), [])
        XCTAssertEqual(try state(db, pin), .ready)

        // Positions continue after the last, also after deletions left a gap.
        let all = try db.photos(pinID: pin.id)
        try db.deletePhotos(ids: [all[1].id])
        XCTAssertEqual(try db.appendPhotos(pinID: pin.id, photos: newPhotos(["z"]), page: 3, pageCount: 3).map(\.position), [5])
        XCTAssertEqual(try db.appendPhotos(pinID: 999, photos: newPhotos(["q"]), page: 1, pageCount: 1), [])
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo WHERE sourceId = 'q'"), 0)
    }

    func testDeletingPhotosRecomputesTheAlbum() throws {
        let db = try open()
        let pin = try makePin(db)
        let other = try makePin(db, 2)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a", "b", "c"]), page: 1, pageCount: 1,
                                         source: "flickr")
        let others = try db.replaceAlbum(pinID: other.id, photos: newPhotos(["a", "b"]), page: 1, pageCount: 1,
                                         source: "flickr")
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, bytes: image(10)))
        XCTAssertTrue(try db.storeImage(photoID: photos[1].id, bytes: image(10)))
        XCTAssertTrue(try db.storeImage(photoID: others[0].id, bytes: image(10)))
        XCTAssertEqual(try state(db, pin), .downloading)

        // Deleting the one still pending makes the album ready; images go with their photos.
        XCTAssertEqual(try db.deletePhotos(ids: [photos[2].id, photos[0].id, photos[0].id, 999]), 2)
        XCTAssertEqual(try db.photos(pinID: pin.id).map(\.sourceID), ["b"])
        XCTAssertEqual(try state(db, pin), .ready)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 2)
        XCTAssertEqual(try state(db, other), .downloading, "another album is untouched")
        XCTAssertFalse(try db.storeImage(photoID: photos[2].id, bytes: image(10)), "a late download of a deleted photo")
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 2)

        // Photos of two pins at once; the last one gone: empty.
        XCTAssertEqual(try db.deletePhotos(ids: [photos[1].id, others[1].id]), 2)
        XCTAssertEqual(try state(db, pin), .empty)
        XCTAssertEqual(try state(db, other), .ready)
        XCTAssertEqual(try db.deletePhotos(ids: []), 0)

        // A failed search keeps its error when photos are deleted.
        try db.failAlbum(pinID: other.id, reason: "HTTP 500")
        try db.deletePhotos(ids: [others[0].id])
        XCTAssertEqual(try state(db, other), .failed)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)
    }

    func testDeletedPinNeverGetsPhotosBack() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a", "b"]), page: 1, pageCount: 1, source: "flickr")
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, bytes: image(10)))
        XCTAssertTrue(try db.deletePin(id: pin.id))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo"), 0)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)

        // Late answers: a download, a failure, a retry, a search.
        XCTAssertFalse(try db.storeImage(photoID: photos[1].id, bytes: image(10)))
        XCTAssertFalse(try db.markPhotoFailed(photoID: photos[1].id, reason: "late"))
        XCTAssertFalse(try db.markPhotoPending(photoID: photos[1].id))
        XCTAssertEqual(try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["c"]), page: 1, pageCount: 1, source: "flickr"), [])
        XCTAssertFalse(try db.beginAlbum(pinID: pin.id, source: "flickr", page: 1))
        XCTAssertFalse(try db.failAlbum(pinID: pin.id, reason: "late"))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photo"), 0)
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)
        XCTAssertEqual(try db.photos(pinID: pin.id), [])
        XCTAssertNil(try db.album(pinID: pin.id))
        XCTAssertEqual(try db.pins(), [])
    }

    func testMovedPinLosesItsAlbum() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a"]), page: 1, pageCount: 1, source: "flickr")
        try db.movePin(id: pin.id, to: .init(latitude: 5, longitude: 5), name: nil)
        XCTAssertFalse(try db.storeImage(photoID: photos[0].id, bytes: image(10)))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 0)
        XCTAssertEqual(try state(db, pin), .empty)
    }

    func testStoringAgainReplacesTheImage() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a"]), page: 1, pageCount: 1, source: "flickr")
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, bytes: image(10)))
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, bytes: image(20)))
        XCTAssertEqual(try db.imageBytes(photoID: photos[0].id), image(20))
        XCTAssertEqual(try count(db, "SELECT COUNT(*) FROM photoImage"), 1)
    }

    func testStoredAlwaysMeansTheImageIsThere() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a", "b"]), page: 1, pageCount: 1, source: "flickr")
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, bytes: image(10)))
        // Even raw SQL cannot have a stored photo without its image.
        XCTAssertThrowsError(try db.executeForTesting("UPDATE photo SET state = 'stored' WHERE id = \(photos[1].id)"))
        try db.executeForTesting("DELETE FROM photoImage WHERE photoId = \(photos[0].id)")
        XCTAssertEqual(try db.photo(id: photos[0].id)?.state, .pending)
        XCTAssertEqual(try db.pins().first?.downloadedCount, 0)
    }

    func testResumingInterruptedWork() throws {
        let db = try open()
        let searching = try makePin(db, 1)
        let downloading = try makePin(db, 2)
        let done = try makePin(db, 3)
        let failed = try makePin(db, 4)
        _ = try makePin(db, 5)
        try db.beginAlbum(pinID: searching.id, source: "commons", page: nil)
        let photos = try db.replaceAlbum(pinID: downloading.id, photos: newPhotos(["a", "b", "c"]), page: 4, pageCount: 9,
                                         source: "flickr")
        XCTAssertTrue(try db.storeImage(photoID: photos[1].id, bytes: image(10)))
        let doneID = try XCTUnwrap(db.replaceAlbum(pinID: done.id, photos: newPhotos(["a"]), page: 1, pageCount: 1,
                                                   source: "flickr").first?.id)
        XCTAssertTrue(try db.storeImage(photoID: doneID, bytes: image(10)))
        try db.failAlbum(pinID: failed.id, reason: "DNS")

        // What a restart sees, on a new connection.
        let path = db.path
        try db.close()
        let again = try AppDatabase.open(path: path)
        defer { try? again.close() }
        let work = try again.pinsWithPendingWork()
        XCTAssertEqual(work, [
            InterruptedAlbum(pinID: searching.id, source: "commons", page: nil, pageCount: nil, photoCount: 0, pendingCount: 0),
            InterruptedAlbum(pinID: downloading.id, source: "flickr", page: 4, pageCount: 9, photoCount: 3, pendingCount: 2),
        ])
        XCTAssertEqual(work.map(\.needsSearch), [true, false])
        XCTAssertEqual(try again.pendingPhotos(pinID: downloading.id).map(\.id), [photos[0].id, photos[2].id])
    }

    func testResumeQueryUsesTheDownloadingIndex() throws {
        let db = try open()
        let plan = try db.textsForTesting("EXPLAIN QUERY PLAN SELECT id FROM pin WHERE albumState = 'downloading'")
        XCTAssertTrue(plan.contains { $0.contains("pin_downloading") }, "\(plan)")
    }

    func testPhotoListingDoesNotReadImages() throws {
        let db = try open()
        let pin = try makePin(db)
        let photos = try db.replaceAlbum(pinID: pin.id, photos: newPhotos(["a"]), page: 1, pageCount: 1, source: "flickr")
        XCTAssertTrue(try db.storeImage(photoID: photos[0].id, bytes: image(8_000_000)))
        let start = Date()
        for _ in 0..<50 { XCTAssertEqual(try db.photos(pinID: pin.id).first?.byteCount, 8_000_000) }
        // Reading 8 MB 50 times would take far longer than listing a row 50 times.
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5)
    }

    func testTextsComeBackAsGiven() throws {
        let db = try open()
        let pin = try makePin(db)
        // A year alone looks like a number to SQLite; it must still come back as text.
        let odd = NewPhoto(source: "commons", sourceID: "File:X.jpg", title: "\u{1B}[31mred\u{7}", author: nil,
                           dateTaken: "2019", url: "https://u", largeURL: nil, pageURL: nil, license: nil,
                           width: nil, height: nil)
        let stored = try XCTUnwrap(db.replaceAlbum(pinID: pin.id, photos: [odd], page: nil, pageCount: nil,
                                                   source: "commons").first)
        XCTAssertEqual(stored.dateTaken, "2019")
        XCTAssertEqual(stored.title, "\u{1B}[31mred\u{7}")
        XCTAssertNil(stored.largeURL)
        XCTAssertNil(stored.width)
    }
}
