import Foundation
import GRDB
import Model
import WorldMap

/// A pin with its photos and its last search's details, read in one transaction.
public struct StoredAlbum: Hashable, Sendable {
    /// The pin, with the album's status as the album state machine last saved it.
    public var pin: Pin
    public var photos: [PhotoRecord]
    /// Source, result page and page count of the collection; nil before the first search.
    public var source: String?
    public var page: Int?
    public var pageCount: Int?

    public init(pin: Pin, photos: [PhotoRecord], source: String? = nil, page: Int? = nil, pageCount: Int? = nil) {
        self.pin = pin
        self.photos = photos
        self.source = source
        self.page = page
        self.pageCount = pageCount
    }

    public var status: AlbumStatus { pin.albumStatus }
}

extension AppDatabase {
    // MARK: Reading albums

    /// A pin's photos in grid order, with the size of each stored image but never its bytes.
    public func photos(pinID: Pin.ID) throws(StoreError) -> [PhotoRecord] {
        try read { db in try Self.fetchPhotos(db, filter: "photo.pinId = ?", arguments: [pinID]) }
    }

    /// The photos of a pin still waiting for their image, in grid order.
    public func pendingPhotos(pinID: Pin.ID) throws(StoreError) -> [PhotoRecord] {
        try read { db in
            try Self.fetchPhotos(db, filter: "photo.pinId = ? AND photo.state = '\(PhotoStateColumns.pending)'", arguments: [pinID])
        }
    }

    /// One photo, or nil.
    public func photo(id: PhotoRecord.ID) throws(StoreError) -> PhotoRecord? {
        try read { db in try Self.fetchPhotos(db, filter: "photo.id = ?", arguments: [id]).first }
    }

    /// A pin and its photos as of one moment, or nil when there is no such pin.
    public func album(pinID: Pin.ID) throws(StoreError) -> StoredAlbum? {
        try read { db -> StoredAlbum? in
            guard let pin = try Self.fetchPin(db, id: pinID), let row = try PinRow.fetchOne(db, key: pinID) else {
                return nil
            }
            return StoredAlbum(pin: pin, photos: try Self.fetchPhotos(db, filter: "photo.pinId = ?", arguments: [pinID]),
                               source: row.albumSource, page: row.albumPage, pageCount: row.albumPageCount)
        }
    }

    /// The stored image of a photo, or nil when none is stored (or there is no such photo).
    public func imageBytes(photoID: PhotoRecord.ID) throws(StoreError) -> Data? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM photoImage WHERE photoId = ?", arguments: [photoID])
        }
    }

    /// Pins whose album was left `downloading` (the app stopped or was killed), oldest first.
    public func interruptedAlbums() throws(StoreError) -> [Pin.ID] {
        try read { db in
            // The partial index pin_downloading keeps this off a scan of every pin.
            // The state is written into the SQL, not bound: only then can SQLite use the partial index.
            try Int64.fetchAll(db, sql: "SELECT id FROM pin WHERE albumState = '\(AlbumStatusColumns.downloading)' ORDER BY id")
        }
    }

    // MARK: The album's life
    //
    // The album state machine decides the album's status; `saveAlbumStatus` writes what it decided.
    // No other operation here changes the status: photos and images are only rows.

    /// Saves the album's summary as the album state machine decided it. False when there is no such pin.
    @discardableResult
    public func saveAlbumStatus(pinID: Pin.ID, status: AlbumStatus, page: Int?, pageCount: Int?,
                                source: String) throws(StoreError) -> Bool {
        try write { db in
            guard var row = try PinRow.fetchOne(db, key: pinID) else { return false }
            (row.albumState, row.albumError) = AlbumStatusColumns.columns(status)
            row.albumPage = page
            row.albumPageCount = pageCount
            row.albumSource = source
            try row.update(db)
            return true
        }
    }

    /// A search answered: the pin's photos become `photos`, in this order (duplicates dropped), new
    /// ones pending. A photo already in the album (same source and id: another process, a second
    /// window or `drop`, saved the same answer first) keeps its row and stored image; the others are
    /// deleted with their images. Returns the album's rows; [] and nothing written when the pin is gone.
    @discardableResult
    public func replaceAlbum(pinID: Pin.ID, photos: [NewPhoto]) throws(StoreError) -> [PhotoRecord] {
        try write { db in
            guard try PinRow.exists(db, key: pinID) else { return [] }
            var kept: [PhotoKey: Int64] = [:]
            let wanted = Set(photos.map { PhotoKey(source: $0.source, sourceID: $0.sourceID) })
            for row in try PhotoRow.filter(Column("pinId") == pinID).fetchAll(db) {
                let key = PhotoKey(source: row.found.source, sourceID: row.found.sourceID)
                // Images follow by cascade.
                if let id = row.id, wanted.contains(key) { kept[key] = id } else { _ = try row.delete(db) }
            }
            var position = 0
            for photo in photos {
                let key = PhotoKey(source: photo.source, sourceID: photo.sourceID)
                if let id = kept.removeValue(forKey: key) {
                    try db.execute(sql: "UPDATE photo SET position = ? WHERE id = ?", arguments: [position, id])
                    position += 1
                } else {
                    var row = PhotoRow(photo, pinID: pinID, position: position)
                    // A photo already placed (the answer named it twice) is skipped; positions stay contiguous.
                    try row.insert(db, onConflict: .ignore)
                    position += db.changesCount
                }
            }
            return try Self.fetchPhotos(db, filter: "photo.pinId = ?", arguments: [pinID])
        }
    }

    /// A photo as its source names it: unique within an album.
    private struct PhotoKey: Hashable {
        var source: String
        var sourceID: String
    }

    /// "Add more" answered: photos not already in the album are appended after the last one, pending.
    /// Returns only the rows added.
    @discardableResult
    public func appendPhotos(pinID: Pin.ID, photos: [NewPhoto]) throws(StoreError) -> [PhotoRecord] {
        try write { db in
            guard try PinRow.exists(db, key: pinID) else { return [] }
            let next = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM photo WHERE pinId = ?",
                                        arguments: [pinID]) ?? 0
            try Self.insert(db, photos, pinID: pinID, from: next)
            return try Self.fetchPhotos(db, filter: "photo.pinId = ? AND photo.position >= ?", arguments: [pinID, next])
        }
    }

    /// Deletes every photo of a pin (their images follow). Returns how many were deleted.
    @discardableResult
    public func clearAlbum(pinID: Pin.ID) throws(StoreError) -> Int {
        try write { db in try PhotoRow.filter(Column("pinId") == pinID).deleteAll(db) }
    }

    /// A download finished: the image is stored and the photo marked stored, only if the photo
    /// still exists (false otherwise, and nothing is written).
    @discardableResult
    public func storeImage(photoID: PhotoRecord.ID, bytes: Data) throws(StoreError) -> Bool {
        guard !bytes.isEmpty else { throw .emptyImage(photoID: photoID) }
        return try write { db in
            guard var row = try PhotoRow.fetchOne(db, key: photoID) else { return false }
            try db.execute(sql: """
                INSERT INTO photoImage (photoId, bytes) VALUES (?, ?)
                ON CONFLICT (photoId) DO UPDATE SET bytes = excluded.bytes
                """, arguments: [photoID, bytes])
            (row.state, row.error) = PhotoStateColumns.columns(.stored)
            try row.update(db)
            return true
        }
    }

    /// A download failed: the photo is marked failed with the reason. A photo already stored
    /// keeps its image (false), as does a gone one.
    @discardableResult
    public func markPhotoFailed(photoID: PhotoRecord.ID, reason: String) throws(StoreError) -> Bool {
        try write { db in
            guard var row = try PhotoRow.fetchOne(db, key: photoID), row.state != PhotoStateColumns.stored else {
                return false
            }
            (row.state, row.error) = PhotoStateColumns.columns(.failed(reason: reason))
            try row.update(db)
            return true
        }
    }

    /// Retry: these failed photos are pending again. Returns how many were failed.
    @discardableResult
    public func markPhotosPending(ids: [PhotoRecord.ID]) throws(StoreError) -> Int {
        try write { db in
            var changed = 0
            for id in Set(ids) {
                guard var row = try PhotoRow.fetchOne(db, key: id), row.state == PhotoStateColumns.failed else { continue }
                (row.state, row.error) = PhotoStateColumns.columns(.pending)
                try row.update(db)
                changed += 1
            }
            return changed
        }
    }

    /// Deletes photos (their images follow) from any pins. Returns how many photos were deleted.
    @discardableResult
    public func deletePhotos(ids: [PhotoRecord.ID]) throws(StoreError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try write { db in try PhotoRow.deleteAll(db, keys: Set(ids)) }
    }

    // MARK: Internals

    /// Inserts pending photos at positions `from`, `from + 1`…, skipping any already in the album.
    private static func insert(_ db: Database, _ photos: [NewPhoto], pinID: Pin.ID, from first: Int) throws {
        var position = first
        for photo in photos {
            var row = PhotoRow(photo, pinID: pinID, position: position)
            // A photo already in the album (same source and id) is skipped; positions stay contiguous.
            try row.insert(db, onConflict: .ignore)
            position += db.changesCount
        }
    }

    private static func fetchPhotos(_ db: Database, filter: String, arguments: StatementArguments) throws -> [PhotoRecord] {
        try PhotoListing.fetchAll(db, sql: PhotoListing.select + " WHERE \(filter) ORDER BY photo.position, photo.id",
                                  arguments: arguments).map(\.photo)
    }
}
