import Foundation
import TestSupport
import XCTest
import Model
@testable import Store

/// The photo view's large images in the store: within the budget, least recently viewed evicted first in
/// the same transaction, gone with their photo, trimmed at once when the budget is lowered, a full disk told
/// apart. Real SQLite files, real JPEG bytes.
final class LargeImageStoreTests: XCTestCase {
    private func open() throws -> AppDatabase {
        let db = try AppDatabase.open(path: try makeTempFolder(self) + "/vtourist.sqlite")
        addCleanup { try? db.close() }
        return db
    }

    /// A pin with `count` photos (thumbnails not stored: a large image does not need one).
    private func album(_ db: AppDatabase, _ count: Int, at place: Double = 1) throws -> (Pin, [PhotoRecord]) {
        let pin = try db.insertPin(at: .init(latitude: place, longitude: place), name: nil)
        let photos = try db.replaceAlbum(pinID: pin.id, generation: 1, photos: (0..<count).map {
            NewPhoto(source: "flickr", sourceID: "\(place)-\($0)", url: "https://127.0.0.1/\($0)_q.jpg",
                     largeURL: "https://127.0.0.1/\($0)_b.jpg")
        })
        XCTAssertEqual(photos.count, count)
        return (pin, photos)
    }

    private func large(_ number: Int) -> LargeImage {
        LargeImage(bytes: LargeJPEG.copy(number), width: LargeJPEG.width, height: LargeJPEG.height)
    }

    private func storedIDs(_ db: AppDatabase) throws -> [Int] {
        try db.integersForTesting("SELECT photoId FROM photoLarge ORDER BY photoId")
    }

    func testStoredWithinTheBudgetTheLeastRecentlyViewedOthersEvicted() throws {
        let db = try open()
        let (_, photos) = try album(db, 5)
        let size = large(0).bytes.count
        XCTAssertGreaterThan(size, 250_000, "the fixture is a large image's size")
        let budget = 3 * size + 100  // room for three
        for (i, photo) in photos.prefix(3).enumerated() {
            XCTAssertTrue(try db.storeLargeImage(photoID: photo.id, large(i), budgetBytes: budget, now: Double(i)))
        }
        try db.markLargeImageViewed(photoID: photos[0].id, now: 10)  // the first viewed again: the second is now the oldest
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[3].id, large(3), budgetBytes: budget, now: 11))
        XCTAssertEqual(try storedIDs(db), [photos[0], photos[2], photos[3]].map { Int($0.id) })
        XCTAssertNil(try db.largeImage(photoID: photos[1].id))
        XCTAssertEqual(try db.largeImage(photoID: photos[0].id), large(0), "the bytes come back as they were given")
        XCTAssertLessThanOrEqual(try db.largeImagesTotalBytes(), budget)

        // Replacing a photo's own image does not count its old bytes against the new: nothing else goes.
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[2].id, large(22), budgetBytes: budget, now: 12))
        XCTAssertEqual(try storedIDs(db), [photos[0], photos[2], photos[3]].map { Int($0.id) })
        XCTAssertEqual(try db.largeImage(photoID: photos[2].id), large(22))

        // One that needs two evicted: the two least recently viewed go (photos[0] at 10, photos[3] at 11).
        let big = LargeImage(bytes: LargeJPEG.copy(4) + LargeJPEG.copy(5), width: 2048, height: 1536)
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[4].id, big, budgetBytes: budget, now: 13))
        XCTAssertEqual(try storedIDs(db), [photos[2], photos[4]].map { Int($0.id) })
        XCTAssertLessThanOrEqual(try db.largeImagesTotalBytes(), budget)
        XCTAssertTrue(try db.integrityCheck())
    }

    func testABudgetOfZeroStoresNothingAndAnImageOverTheBudgetIsNotStored() throws {
        let db = try open()
        let (_, photos) = try album(db, 3)
        let size = large(0).bytes.count
        XCTAssertFalse(try db.storeLargeImage(photoID: photos[0].id, large(0), budgetBytes: 0, now: 1))
        XCTAssertFalse(try db.storeLargeImage(photoID: photos[0].id, large(0), budgetBytes: -5, now: 1))
        XCTAssertEqual(try storedIDs(db), [])

        XCTAssertTrue(try db.storeLargeImage(photoID: photos[0].id, large(0), budgetBytes: 2 * size, now: 1))
        // Larger than the whole budget: not stored, and nothing evicted for it.
        XCTAssertFalse(try db.storeLargeImage(photoID: photos[1].id, large(1), budgetBytes: size - 1, now: 2))
        XCTAssertEqual(try storedIDs(db), [Int(photos[0].id)])
        // Exactly the budget fits, evicting the rest.
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[1].id, large(1), budgetBytes: large(1).bytes.count, now: 3))
        XCTAssertEqual(try storedIDs(db), [Int(photos[1].id)])

        XCTAssertThrowsError(try db.storeLargeImage(photoID: photos[2].id, LargeImage(bytes: Data(), width: 1, height: 1),
                                                    budgetBytes: size, now: 4)) { error in
            XCTAssertEqual(error as? StoreError, .emptyImage(photoID: photos[2].id))
        }
        XCTAssertThrowsError(try db.storeLargeImage(photoID: photos[2].id, LargeImage(bytes: large(2).bytes, width: 0, height: 768),
                                                    budgetBytes: 2 * size, now: 4))
        XCTAssertEqual(try storedIDs(db), [Int(photos[1].id)], "a refused image changes nothing")
    }

    func testAPhotoGoneLeavesNoLargeImage() throws {
        let db = try open()
        let budget = 50 * Settings.bytesPerMB
        let (pin, photos) = try album(db, 6)
        for (i, photo) in photos.enumerated() {
            XCTAssertTrue(try db.storeLargeImage(photoID: photo.id, large(i), budgetBytes: budget, now: Double(i)))
        }
        // Deleted before its large image arrives: nothing is stored.
        try db.deletePhotos(ids: [photos[0].id])
        XCTAssertFalse(try db.storeLargeImage(photoID: photos[0].id, large(0), budgetBytes: budget, now: 9))
        XCTAssertFalse(try db.storeLargeImage(photoID: 9_999, large(0), budgetBytes: budget, now: 9))
        XCTAssertEqual(try storedIDs(db), photos.dropFirst().map { Int($0.id) })
        // Deleted after: its large image goes with it.
        try db.deletePhotos(ids: [photos[1].id])
        XCTAssertNil(try db.largeImage(photoID: photos[1].id))
        // A new collection keeps the photos it finds again (with their large images) and drops the rest.
        try db.replaceAlbum(pinID: pin.id, generation: 1, photos: [
            NewPhoto(source: "flickr", sourceID: photos[2].sourceID, url: "https://127.0.0.1/2_q.jpg"),
        ])
        XCTAssertEqual(try storedIDs(db), [Int(photos[2].id)])
        // New Collection clears the album.
        try db.clearAlbum(pinID: pin.id, generation: 2, filter: .none)
        XCTAssertEqual(try storedIDs(db), [])

        // Moving the pin, and deleting it, take theirs too.
        let (moved, movedPhotos) = try album(db, 2, at: 5)
        let (deleted, deletedPhotos) = try album(db, 2, at: 9)
        for (i, photo) in (movedPhotos + deletedPhotos).enumerated() {
            XCTAssertTrue(try db.storeLargeImage(photoID: photo.id, large(i), budgetBytes: budget, now: Double(20 + i)))
        }
        try db.movePin(id: moved.id, to: .init(latitude: 6, longitude: 6), name: nil)
        XCTAssertEqual(try storedIDs(db), deletedPhotos.map { Int($0.id) })
        try db.deletePin(id: deleted.id)
        XCTAssertEqual(try storedIDs(db), [])
        XCTAssertEqual(try db.largeImagesTotalBytes(), 0)
    }

    func testLoweringTheBudgetSettingTrimsAtOnceInItsTransaction() throws {
        let db = try open()
        let (_, photos) = try album(db, 5)
        let budget = try db.settings().largeCacheBytes
        XCTAssertEqual(budget, 256 * 1_048_576, "the default")
        for (i, photo) in photos.enumerated() {
            XCTAssertTrue(try db.storeLargeImage(photoID: photo.id, large(i), budgetBytes: budget, now: Double(i)))
        }
        try db.markLargeImageViewed(photoID: photos[0].id, now: 10)
        // 1 MB holds three of about 300 KB: the three most recently viewed stay.
        try db.saveSetting(.largeCacheMB, "1")
        XCTAssertEqual(try storedIDs(db), [photos[0], photos[3], photos[4]].map { Int($0.id) })
        XCTAssertLessThanOrEqual(try db.largeImagesTotalBytes(), 1_048_576)
        // Raised again (here back to the default by removing it): nothing comes back, nothing more goes.
        try db.saveSetting(.largeCacheMB, nil)
        XCTAssertEqual(try storedIDs(db).count, 3)

        // The trim is part of the setting's transaction: when it cannot be done, the setting is not saved either.
        try db.executeForTesting("""
            CREATE TEMP TRIGGER refuse_eviction BEFORE DELETE ON photoLarge BEGIN SELECT RAISE(ABORT, 'eviction refused'); END
            """)
        XCTAssertThrowsError(try db.saveSetting(.largeCacheMB, "0"))
        XCTAssertNil(try db.storedSettingTexts()[.largeCacheMB], "not saved without its trim")
        XCTAssertEqual(try storedIDs(db).count, 3)
        try db.executeForTesting("DROP TRIGGER refuse_eviction")

        // `config set` (setSetting by text) and `config unset` trim as the settings screen does.
        try db.setSetting(.largeCacheMB, to: "0")
        XCTAssertEqual(try storedIDs(db), [])
        XCTAssertEqual(try db.settings().largeCacheBytes, 0)
    }

    func testAnInvalidStoredBudgetReadsAsTheDefaultForTheTrimToo() throws {
        let db = try open()
        let (_, photos) = try album(db, 2)
        for (i, photo) in photos.enumerated() {
            XCTAssertTrue(try db.storeLargeImage(photoID: photo.id, large(i), budgetBytes: 1_048_576, now: Double(i)))
        }
        try db.setSetting(.largeCacheMB, to: "0")
        XCTAssertEqual(try storedIDs(db), [])
        for (i, photo) in photos.enumerated() {
            XCTAssertTrue(try db.storeLargeImage(photoID: photo.id, large(i), budgetBytes: 1_048_576, now: Double(i)))
        }
        // Another writer stores a text that is no budget: it reads as 256 MB, so nothing is evicted.
        try db.setSetting(SettingKey.largeCacheMB.rawValue, "lots")
        XCTAssertEqual(try db.settings().largeCacheMB, Settings.defaultLargeCacheMB)
        XCTAssertEqual(try storedIDs(db).count, 2)
        try db.removeSetting(SettingKey.largeCacheMB.rawValue)
        XCTAssertEqual(try storedIDs(db).count, 2)
    }

    func testTheSizesOfAPinsLargeImages() throws {
        let db = try open()
        let (pin, photos) = try album(db, 3)
        let (other, otherPhotos) = try album(db, 1, at: 4)
        let budget = 10 * Settings.bytesPerMB
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[1].id, large(1), budgetBytes: budget, now: 1))
        let small = LargeImage(bytes: LargeJPEG.copy(7), width: 800, height: 600)
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[2].id, small, budgetBytes: budget, now: 2))
        XCTAssertTrue(try db.storeLargeImage(photoID: otherPhotos[0].id, large(3), budgetBytes: budget, now: 3))
        XCTAssertEqual(try db.largeImageInfos(pinID: pin.id), [
            photos[1].id: LargeImageInfo(width: 1024, height: 768, bytes: large(1).bytes.count),
            photos[2].id: LargeImageInfo(width: 800, height: 600, bytes: small.bytes.count),
        ])
        XCTAssertEqual(try db.largeImageInfos(pinID: other.id).keys.sorted(), [otherPhotos[0].id])
        XCTAssertEqual(try db.largeImageInfos(pinID: 9_999), [:])
        // Reading the sizes never reads a blob: the columns come before it, and the join walks indexes.
        let plan = try db.textsForTesting("""
            EXPLAIN QUERY PLAN SELECT photoLarge.photoId, photoLarge.width, photoLarge.height, photoLarge.byteCount
            FROM photoLarge JOIN photo ON photo.id = photoLarge.photoId WHERE photo.pinId = 1
            """).joined(separator: "\n")
        XCTAssertFalse(plan.contains("SCAN photo "), plan)
    }

    func testTheTableRefusesWhatWouldBreakTheBudgetEvenFromRawSQL() throws {
        let db = try open()
        let (_, photos) = try album(db, 1)
        let id = photos[0].id
        for bad in [
            "INSERT INTO photoLarge VALUES (\(id), 10, 10, 5, 0, x'0102')",        // byteCount not the blob's length
            "INSERT INTO photoLarge VALUES (\(id), 0, 10, 2, 0, x'0102')",         // no pixels
            "INSERT INTO photoLarge VALUES (\(id), 10, 10, 0, 0, x'')",            // empty
            "INSERT INTO photoLarge VALUES (9999, 10, 10, 2, 0, x'0102')",           // no such photo
        ] {
            XCTAssertThrowsError(try db.executeForTesting(bad), bad)
        }
        XCTAssertEqual(try storedIDs(db), [])
        try db.executeForTesting("INSERT INTO photoLarge VALUES (\(id), 10, 10, 2, 0, x'0102')")
        XCTAssertEqual(try db.largeImageInfos(pinID: photos[0].pinID), [id: LargeImageInfo(width: 10, height: 10, bytes: 2)])
    }

    func testAFullDiskIsToldApartAndWritesNothing() throws {
        let db = try open()
        let (_, photos) = try album(db, 4)
        let size = large(0).bytes.count
        let budget = 3 * size
        // The oldest is small, so evicting it frees a page or two, far from room for the next.
        let pixel = try Data(contentsOf: LargeJPEG.url.deletingLastPathComponent().appendingPathComponent("pixel_1x1.jpg"))
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[0].id, LargeImage(bytes: pixel, width: 1, height: 1),
                                             budgetBytes: budget, now: 1))
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[1].id, large(1), budgetBytes: budget, now: 2))
        XCTAssertTrue(try db.storeLargeImage(photoID: photos[2].id, large(2), budgetBytes: budget, now: 3))
        // The file may grow by a few pages only, as on a full disk (SQLite answers SQLITE_FULL).
        let pages = try XCTUnwrap(db.integersForTesting("PRAGMA page_count").first)
        try db.executeForTesting("PRAGMA max_page_count = \(pages + 4)")
        XCTAssertThrowsError(try db.storeLargeImage(photoID: photos[3].id, large(3), budgetBytes: budget, now: 4)) { error in
            XCTAssertEqual(error as? StoreError, .diskFull(path: db.path))
            XCTAssertTrue((error as? StoreError)?.isTransient == true)
        }
        // Rolled back whole: the eviction it began is undone too.
        XCTAssertEqual(try storedIDs(db), photos.prefix(3).map { Int($0.id) })
        XCTAssertEqual(try db.largeImage(photoID: photos[0].id)?.bytes, pixel)
        XCTAssertTrue(try db.integrityCheck())
    }

    /// The budget holds over a long run: 300 large images of about 300 KB in a 50 MB budget, viewed now and
    /// then again, keep the total within the budget after every write, and the most recently viewed are kept.
    func testThreeHundredLargeImagesInAFiftyMegabyteBudget() throws {
        let db = try open()
        let (_, photos) = try album(db, 300)
        let budget = Settings.largeCacheBytes(megabytes: 50)
        var lastViewed: [PhotoRecord.ID: Double] = [:]
        var now = 0.0
        for (i, photo) in photos.enumerated() {
            now += 1
            XCTAssertTrue(try db.storeLargeImage(photoID: photo.id, large(i), budgetBytes: budget, now: now))
            lastViewed[photo.id] = now
            // Every seventh step the user goes back to a photo seen earlier (kept or not).
            if i % 7 == 6 {
                now += 1
                let back = photos[i / 2].id
                try db.markLargeImageViewed(photoID: back, now: now)
                if try db.largeImage(photoID: back) != nil { lastViewed[back] = now }
            }
            XCTAssertLessThanOrEqual(try db.largeImagesTotalBytes(), budget, "after image \(i)")
        }
        let kept = Set(try storedIDs(db).map { Int64($0) })
        let gone = photos.map(\.id).filter { !kept.contains($0) }
        let oldestKept = kept.compactMap { lastViewed[$0] }.min() ?? 0
        let newestGone = gone.compactMap { lastViewed[$0] }.max() ?? 0
        XCTAssertGreaterThan(oldestKept, newestGone, "the most recently viewed are the ones kept")
        let total = try db.largeImagesTotalBytes()
        XCTAssertGreaterThan(total, budget - 2 * large(0).bytes.count, "the budget is used, not left half empty")
        XCTAssertTrue(try db.integrityCheck())
        let file = try FileManager.default.attributesOfItem(atPath: db.path)[.size] as? Int ?? 0
        let wal = (try? FileManager.default.attributesOfItem(atPath: db.path + "-wal")[.size] as? Int) ?? 0
        print("large images: 300 stored in a 50 MB budget (\(budget) bytes); \(kept.count) kept, \(total) bytes; "
              + "database file \(file) bytes, WAL \(wal) bytes")
    }
}
