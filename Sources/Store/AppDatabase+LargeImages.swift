import Foundation
import GRDB
import Model

/// A photo's large image as fetched for the photo view: its bytes exactly as the source sent them
/// (EXIF and all) and its size in pixels.
public struct LargeImage: Sendable, Equatable {
    public var bytes: Data
    public var width: Int
    public var height: Int

    public init(bytes: Data, width: Int, height: Int) {
        self.bytes = bytes
        self.width = width
        self.height = height
    }
}

/// The size of a stored large image, without its bytes (`album --json`'s `large`).
public struct LargeImageInfo: Sendable, Equatable, Codable {
    public var width: Int
    public var height: Int
    /// Bytes the image takes in the store.
    public var bytes: Int

    public init(width: Int, height: Int, bytes: Int) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

// Large images live in `photoLarge`, beside (never instead of) the album thumbnail in `photoImage`.
// Their total stays within the budget the caller gives (`Settings.largeCacheBytes`): each write evicts
// the least recently viewed others in its own transaction, so no moment, a kill included, sees the
// total over the budget or a half-written image. See docs/store.md.
extension AppDatabase {
    /// Stores a photo's large image within the budget (bytes; 0: nothing is stored), evicting the least recently
    /// viewed others in the same transaction. False when not stored (budget 0, larger than the budget, the photo gone).
    /// A full disk throws `StoreError.diskFull`, and nothing is written (the caller shows the image from memory).
    @discardableResult
    public func storeLargeImage(photoID: PhotoRecord.ID, _ image: LargeImage, budgetBytes: Int,
                                now: Double) throws(StoreError) -> Bool {
        guard !image.bytes.isEmpty, image.width > 0, image.height > 0 else { throw .emptyImage(photoID: photoID) }
        guard budgetBytes > 0, image.bytes.count <= budgetBytes else { return false }
        return try write { db in
            guard try PhotoRow.exists(db, key: photoID) else { return false }
            // The image it replaces does not count against it.
            try Self.evictLargeImages(db, toFit: image.bytes.count, within: budgetBytes, except: photoID)
            try db.execute(sql: """
                INSERT INTO photoLarge (photoId, width, height, byteCount, viewedAt, bytes) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (photoId) DO UPDATE SET width = excluded.width, height = excluded.height,
                    byteCount = excluded.byteCount, viewedAt = excluded.viewedAt, bytes = excluded.bytes
                """, arguments: [photoID, image.width, image.height, image.bytes.count, now, image.bytes])
            return true
        }
    }

    /// The stored large image, nil when none.
    public func largeImage(photoID: PhotoRecord.ID) throws(StoreError) -> LargeImage? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT bytes, width, height FROM photoLarge WHERE photoId = ?",
                             arguments: [photoID]).map { row in
                LargeImage(bytes: row["bytes"], width: row["width"], height: row["height"])
            }
        }
    }

    /// Marks it viewed now (least recently viewed go first).
    public func markLargeImageViewed(photoID: PhotoRecord.ID, now: Double) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE photoLarge SET viewedAt = ? WHERE photoId = ?", arguments: [now, photoID])
        }
    }

    /// Sizes of the stored large images of a pin's photos, for `album --json`.
    public func largeImageInfos(pinID: Pin.ID) throws(StoreError) -> [PhotoRecord.ID: LargeImageInfo] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT photoLarge.photoId, photoLarge.width, photoLarge.height, photoLarge.byteCount
                FROM photoLarge JOIN photo ON photo.id = photoLarge.photoId WHERE photo.pinId = ?
                """, arguments: [pinID])
            var infos: [PhotoRecord.ID: LargeImageInfo] = [:]
            for row in rows {
                infos[row["photoId"]] = LargeImageInfo(width: row["width"], height: row["height"], bytes: row["byteCount"])
            }
            return infos
        }
    }

    /// Evicts least recently viewed until the total is within the budget (a lowered `large_cache_mb`).
    public func trimLargeImages(budgetBytes: Int) throws(StoreError) {
        try write { db in try Self.evictLargeImages(db, toFit: 0, within: budgetBytes, except: nil) }
    }

    /// The total bytes of the stored large images.
    public func largeImagesTotalBytes() throws(StoreError) -> Int {
        try read { db in try Self.largeImagesTotal(db, except: nil) }
    }

    // MARK: Internals

    /// Deletes the least recently viewed large images (not `except`'s) until `incoming` more bytes fit
    /// within `budget`, inside the caller's transaction.
    static func evictLargeImages(_ db: Database, toFit incoming: Int, within budget: Int, except: PhotoRecord.ID?) throws {
        var excess = try largeImagesTotal(db, except: except) + incoming - max(0, budget)
        guard excess > 0 else { return }
        var evicted: [Int64] = []
        // The index photoLarge_on_viewedAt gives the order and the sizes without touching the blobs.
        let oldest = try Row.fetchCursor(db, sql: """
            SELECT photoId, byteCount FROM photoLarge WHERE photoId IS NOT ? ORDER BY viewedAt, photoId
            """, arguments: [except])
        while excess > 0, let row = try oldest.next() {
            evicted.append(row["photoId"])
            excess -= row["byteCount"] as Int
        }
        for id in evicted {
            try db.execute(sql: "DELETE FROM photoLarge WHERE photoId = ?", arguments: [id])
        }
    }

    static func largeImagesTotal(_ db: Database, except: PhotoRecord.ID?) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(byteCount), 0) FROM photoLarge WHERE photoId IS NOT ?",
                         arguments: [except]) ?? 0
    }
}
