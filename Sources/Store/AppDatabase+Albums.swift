import Foundation
import GRDB
import Model
import Geo

/// A pin with its photos and its last search's details, read in one transaction.
public struct StoredAlbum: Hashable, Sendable {
    /// The pin, with the album's status as the album state machine last saved it.
    public var pin: Pin
    public var photos: [PhotoRecord]
    /// Source, result page and page count of the collection; nil before the first search.
    public var source: String?
    public var page: Int?
    public var pageCount: Int?
    /// The album's generation as stored: every write for this album names it, and one naming another is refused.
    public var generation: Int

    public init(pin: Pin, photos: [PhotoRecord], source: String? = nil, page: Int? = nil, pageCount: Int? = nil,
                generation: Int = 0) {
        self.pin = pin
        self.photos = photos
        self.source = source
        self.page = page
        self.pageCount = pageCount
        self.generation = generation
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
                               source: row.albumSource, page: row.albumPage, pageCount: row.albumPageCount,
                               generation: try Self.generation(db, pinID: pinID) ?? 0)
        }
    }

    /// The album's stored generation, or nil when there is no such pin.
    public func albumGeneration(pinID: Pin.ID) throws(StoreError) -> Int? {
        try read { db in try Self.generation(db, pinID: pinID) }
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
    //
    // The store referees between processes working on one album (two windows, `drop --wait`): every
    // write of an album's work names the generation the work began for, and is refused with
    // `StoreError.staleAlbum`, inside the transaction that would have written it, once the album has
    // moved on (New Collection elsewhere, the pin moved). See docs/store.md.

    /// Saves the album's summary as the album state machine decided it, for `generation`. False when
    /// there is no such pin; throws `staleAlbum` when the album has moved on to another generation.
    @discardableResult
    public func saveAlbumStatus(pinID: Pin.ID, generation: Int, status: AlbumStatus, page: Int?, pageCount: Int?,
                                source: String) throws(StoreError) -> Bool {
        try write { db in
            guard var row = try PinRow.fetchOne(db, key: pinID) else { return false }
            try Self.check(db, pinID: pinID, generation: generation)
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
    /// Throws `staleAlbum`, writing nothing, when the album is no longer at `generation`.
    @discardableResult
    public func replaceAlbum(pinID: Pin.ID, generation: Int, photos: [NewPhoto]) throws(StoreError) -> [PhotoRecord] {
        try write { db in
            guard try PinRow.exists(db, key: pinID) else { return [] }
            try Self.check(db, pinID: pinID, generation: generation)
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
    /// Returns only the rows added. Add more keeps the generation: its answer is refused (`staleAlbum`,
    /// nothing written) when another collection began since it was asked.
    @discardableResult
    public func appendPhotos(pinID: Pin.ID, generation: Int, photos: [NewPhoto]) throws(StoreError) -> [PhotoRecord] {
        try write { db in
            guard try PinRow.exists(db, key: pinID) else { return [] }
            try Self.check(db, pinID: pinID, generation: generation)
            let next = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM photo WHERE pinId = ?",
                                        arguments: [pinID]) ?? 0
            try Self.insert(db, photos, pinID: pinID, from: next)
            return try Self.fetchPhotos(db, filter: "photo.pinId = ? AND photo.position >= ?", arguments: [pinID, next])
        }
    }

    /// A new collection begins: the album advances from `generation - 1` to `generation`, its filter
    /// becomes `filter` (the one the collection is searched with), every photo of the pin is deleted
    /// (their images follow) and the album is `downloading` with no page, as a new pin's, in one
    /// transaction: a crash after it leaves the new filter with an empty album that resumes from page 1.
    /// Throws `staleAlbum`, and writes nothing, when the album was not at `generation - 1` (another
    /// process began a collection, changed the filter or moved the pin first: its collection and filter
    /// stand). The only write of an existing pin's filter. Returns how many photos were deleted; 0 when
    /// there is no such pin.
    @discardableResult
    public func clearAlbum(pinID: Pin.ID, generation: Int, filter: AlbumFilter) throws(StoreError) -> Int {
        try write { db in
            guard try PinRow.exists(db, key: pinID) else { return 0 }
            // Compared as `stored + 1` in SQL: any Int the caller gives is safe (no overflow in Swift).
            try db.execute(sql: "UPDATE pin SET albumGeneration = ? WHERE id = ? AND albumGeneration + 1 = ?",
                           arguments: [generation, pinID, generation])
            guard db.changesCount > 0 else { throw StoreError.staleAlbum(pinID: pinID, generation: generation) }
            try AlbumFilterColumns.write(db, pinID: pinID, filter)
            // Starts over as a new pin's does, so a crash before the machine saves its search resumes it.
            try db.execute(sql: "UPDATE pin SET albumState = ?, albumError = NULL, albumPage = NULL, albumPageCount = NULL WHERE id = ?",
                           arguments: [AlbumStatusColumns.downloading, pinID])
            return try PhotoRow.filter(Column("pinId") == pinID).deleteAll(db)
        }
    }

    /// A download finished: the image is stored and the photo marked stored, only if the photo
    /// still exists (false otherwise, and nothing is written). Throws `staleAlbum`, writing nothing,
    /// when the photo's album is no longer at `generation`.
    @discardableResult
    public func storeImage(photoID: PhotoRecord.ID, generation: Int, bytes: Data) throws(StoreError) -> Bool {
        guard !bytes.isEmpty else { throw .emptyImage(photoID: photoID) }
        return try write { db in
            guard var row = try PhotoRow.fetchOne(db, key: photoID) else { return false }
            try Self.check(db, pinID: row.pinId, generation: generation)
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
    /// keeps its image (false), as does a gone one. Throws `staleAlbum`, writing nothing, when the
    /// photo's album is no longer at `generation`.
    @discardableResult
    public func markPhotoFailed(photoID: PhotoRecord.ID, generation: Int, reason: String) throws(StoreError) -> Bool {
        try write { db in
            guard var row = try PhotoRow.fetchOne(db, key: photoID) else { return false }
            try Self.check(db, pinID: row.pinId, generation: generation)
            guard row.state != PhotoStateColumns.stored else { return false }
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

    static func generation(_ db: Database, pinID: Pin.ID) throws -> Int? {
        try Int.fetchOne(db, sql: "SELECT albumGeneration FROM pin WHERE id = ?", arguments: [pinID])
    }

    /// The referee: throws `staleAlbum` unless the pin's album is still at `generation`, inside the
    /// caller's transaction, so nothing of an older generation is written. A gone pin is the caller's case.
    private static func check(_ db: Database, pinID: Pin.ID, generation: Int) throws {
        let same = try Bool.fetchOne(db, sql: "SELECT albumGeneration = ? FROM pin WHERE id = ?", arguments: [generation, pinID])
        if same == false { throw StoreError.staleAlbum(pinID: pinID, generation: generation) }
    }

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
