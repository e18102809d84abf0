import Foundation
import GRDB
import TouristCore

/// A photo found by a search, before it is stored.
public struct NewPhoto: Hashable, Sendable {
    public var source: String
    public var sourceID: String
    public var title: String?
    public var author: String?
    public var dateTaken: String?
    public var url: String
    public var largeURL: String?
    public var pageURL: String?
    public var license: String?
    public var width: Int?
    public var height: Int?

    public init(source: String, sourceID: String, title: String? = nil, author: String? = nil,
                dateTaken: String? = nil, url: String, largeURL: String? = nil, pageURL: String? = nil,
                license: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.source = source
        self.sourceID = sourceID
        self.title = title
        self.author = author
        self.dateTaken = dateTaken
        self.url = url
        self.largeURL = largeURL
        self.pageURL = pageURL
        self.license = license
        self.width = width
        self.height = height
    }
}

/// A pin with its photos and its last search's details, read in one transaction.
public struct Album: Hashable, Sendable {
    public var pin: Pin
    public var photos: [PhotoRecord]
    /// Source, result page and page count of the last search; nil before the first.
    public var source: String?
    public var page: Int?
    public var pageCount: Int?
    /// Why the search failed (state `failed`).
    public var error: String?

    public init(pin: Pin, photos: [PhotoRecord], source: String? = nil, page: Int? = nil, pageCount: Int? = nil,
                error: String? = nil) {
        self.pin = pin
        self.photos = photos
        self.source = source
        self.page = page
        self.pageCount = pageCount
        self.error = error
    }
}

/// An album left `downloading` when the app stopped: what start-up must resume.
public struct InterruptedAlbum: Hashable, Sendable {
    public var pinID: Pin.ID
    /// As recorded by `beginAlbum`, `replaceAlbum` or `appendPhotos`.
    public var source: String?
    public var page: Int?
    public var pageCount: Int?
    public var photoCount: Int
    /// Photos still to download; fetch them with `pendingPhotos(pinID:)`.
    public var pendingCount: Int

    /// Nothing is pending, so the search itself was in flight and must be redone.
    public var needsSearch: Bool { pendingCount == 0 }

    public init(pinID: Pin.ID, source: String?, page: Int?, pageCount: Int?, photoCount: Int, pendingCount: Int) {
        self.pinID = pinID
        self.source = source
        self.page = page
        self.pageCount = pageCount
        self.photoCount = photoCount
        self.pendingCount = pendingCount
    }
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
            try Self.fetchPhotos(db, filter: "photo.pinId = ? AND photo.state = 'pending'", arguments: [pinID])
        }
    }

    /// One photo, or nil.
    public func photo(id: PhotoRecord.ID) throws(StoreError) -> PhotoRecord? {
        try read { db in try Self.fetchPhotos(db, filter: "photo.id = ?", arguments: [id]).first }
    }

    /// A pin and its photos as of one moment, or nil when there is no such pin.
    public func album(pinID: Pin.ID) throws(StoreError) -> Album? {
        try read { db -> Album? in
            guard let pin = try Self.fetchPin(db, id: pinID),
                  let row = try Row.fetchOne(db, sql: """
                      SELECT albumSource, albumPage, albumPageCount, albumError FROM pin WHERE id = ?
                      """, arguments: [pinID]) else { return nil }
            return Album(pin: pin, photos: try Self.fetchPhotos(db, filter: "photo.pinId = ?", arguments: [pinID]),
                         source: try row.decode(atIndex: 0), page: try row.decode(atIndex: 1),
                         pageCount: try row.decode(atIndex: 2), error: try row.decode(atIndex: 3))
        }
    }

    /// The stored image of a photo, or nil when none is stored (or there is no such photo).
    public func imageBytes(photoID: PhotoRecord.ID) throws(StoreError) -> Data? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM photoImage WHERE photoId = ?", arguments: [photoID])
        }
    }

    /// Albums left `downloading` (the app stopped or was killed), oldest pin first.
    public func pinsWithPendingWork() throws(StoreError) -> [InterruptedAlbum] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT pin.id, pin.albumSource, pin.albumPage, pin.albumPageCount,
                    (SELECT COUNT(*) FROM photo WHERE pinId = pin.id),
                    (SELECT COUNT(*) FROM photo WHERE pinId = pin.id AND state = 'pending')
                FROM pin WHERE pin.albumState = 'downloading' ORDER BY pin.id
                """)
            return try rows.map { row in
                InterruptedAlbum(pinID: try row.decode(atIndex: 0), source: try row.decode(atIndex: 1),
                                 page: try row.decode(atIndex: 2), pageCount: try row.decode(atIndex: 3),
                                 photoCount: try row.decode(atIndex: 4), pendingCount: try row.decode(atIndex: 5))
            }
        }
    }

    // MARK: The album's life

    /// A search starts: the album is `downloading`, with no error, for this source and page.
    /// The photos already there stay until the answer replaces them. False when there is no such pin.
    @discardableResult
    public func beginAlbum(pinID: Pin.ID, source: String, page: Int?) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: """
                UPDATE pin SET albumState = 'downloading', albumError = NULL, albumSource = ?, albumPage = ?
                WHERE id = ?
                """, arguments: [source, page, pinID])
            return db.changesCount > 0
        }
    }

    /// A search answered: the pin's photos and images are replaced by `photos`, all pending, in
    /// this order (duplicates dropped). Returns the new rows; [] and nothing written when the pin is gone.
    @discardableResult
    public func replaceAlbum(pinID: Pin.ID, photos: [NewPhoto], page: Int?, pageCount: Int?,
                             source: String) throws(StoreError) -> [PhotoRecord] {
        try write { db in
            guard try Self.pinExists(db, pinID) else { return [] }
            // Images follow by cascade.
            try db.execute(sql: "DELETE FROM photo WHERE pinId = ?", arguments: [pinID])
            try Self.insert(db, photos, pinID: pinID, from: 0)
            try db.execute(sql: """
                UPDATE pin SET albumState = \(Self.albumStateFromPhotos), albumError = NULL,
                    albumPage = ?, albumPageCount = ?, albumSource = ?
                WHERE id = ?
                """, arguments: [page, pageCount, source, pinID])
            return try Self.fetchPhotos(db, filter: "photo.pinId = ?", arguments: [pinID])
        }
    }

    /// "Add more" answered: photos not already in the album are appended after the last one, pending.
    /// The album is then downloading, ready or empty by its photos. Returns only the rows added.
    @discardableResult
    public func appendPhotos(pinID: Pin.ID, photos: [NewPhoto], page: Int?,
                             pageCount: Int?) throws(StoreError) -> [PhotoRecord] {
        try write { db in
            guard try Self.pinExists(db, pinID) else { return [] }
            let next = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM photo WHERE pinId = ?",
                                        arguments: [pinID]) ?? 0
            try Self.insert(db, photos, pinID: pinID, from: next)
            try db.execute(sql: """
                UPDATE pin SET albumState = \(Self.albumStateFromPhotos), albumError = NULL,
                    albumPage = ?, albumPageCount = ?
                WHERE id = ?
                """, arguments: [page, pageCount, pinID])
            return try Self.fetchPhotos(db, filter: "photo.pinId = ? AND photo.position >= ?", arguments: [pinID, next])
        }
    }

    /// A download finished: the image is stored and the photo marked stored, only if the photo
    /// still exists (false otherwise, and nothing is written). The album turns `ready` when this
    /// was its last pending photo.
    @discardableResult
    public func storeImage(photoID: PhotoRecord.ID, bytes: Data) throws(StoreError) -> Bool {
        guard !bytes.isEmpty else { throw .emptyImage(photoID: photoID) }
        return try write { db in
            guard let pinID = try Self.pinOfPhoto(db, photoID) else { return false }
            try db.execute(sql: """
                INSERT INTO photoImage (photoId, bytes) VALUES (?, ?)
                ON CONFLICT (photoId) DO UPDATE SET bytes = excluded.bytes
                """, arguments: [photoID, bytes])
            try db.execute(sql: "UPDATE photo SET state = 'stored', error = NULL WHERE id = ?", arguments: [photoID])
            try Self.readyIfDone(db, pinID: pinID)
            return true
        }
    }

    /// A download failed: a pending photo is marked failed with the reason. A photo already stored
    /// keeps its image (false), as does a gone one. The album turns `ready` when nothing is pending.
    @discardableResult
    public func markPhotoFailed(photoID: PhotoRecord.ID, reason: String) throws(StoreError) -> Bool {
        try write { db in
            guard let pinID = try Self.pinOfPhoto(db, photoID) else { return false }
            try db.execute(sql: "UPDATE photo SET state = 'failed', error = ? WHERE id = ? AND state = 'pending'",
                           arguments: [reason, photoID])
            guard db.changesCount > 0 else { return false }
            try Self.readyIfDone(db, pinID: pinID)
            return true
        }
    }

    /// Retry: a failed photo is pending again, and a `ready` album is `downloading` again.
    /// False when the photo is gone or did not fail.
    @discardableResult
    public func markPhotoPending(photoID: PhotoRecord.ID) throws(StoreError) -> Bool {
        try write { db in
            guard let pinID = try Self.pinOfPhoto(db, photoID) else { return false }
            try db.execute(sql: "UPDATE photo SET state = 'pending', error = NULL WHERE id = ? AND state = 'failed'",
                           arguments: [photoID])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "UPDATE pin SET albumState = 'downloading' WHERE id = ? AND albumState = 'ready'",
                           arguments: [pinID])
            return true
        }
    }

    /// The search failed: the album is `failed` with the reason; its photos stay. False when there is no such pin.
    @discardableResult
    public func failAlbum(pinID: Pin.ID, reason: String) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE pin SET albumState = 'failed', albumError = ? WHERE id = ?",
                           arguments: [reason, pinID])
            return db.changesCount > 0
        }
    }

    /// Deletes photos (their images follow) from any pins; each album touched is then
    /// downloading, ready or empty by what is left, except a `failed` one, which keeps its error.
    /// Returns how many photos were deleted.
    @discardableResult
    public func deletePhotos(ids: [PhotoRecord.ID]) throws(StoreError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try write { db in
            var pins = Set<Pin.ID>()
            var deleted = 0
            let find = try db.makeStatement(sql: "SELECT pinId FROM photo WHERE id = ?")
            let delete = try db.makeStatement(sql: "DELETE FROM photo WHERE id = ?")
            for id in Set(ids) {
                guard let pinID = try Int64.fetchOne(find, arguments: [id]) else { continue }
                try delete.execute(arguments: [id])
                pins.insert(pinID)
                deleted += db.changesCount
            }
            let settle = try db.makeStatement(sql: """
                UPDATE pin SET albumState = \(Self.albumStateFromPhotos) WHERE id = ? AND albumState != 'failed'
                """)
            for pinID in pins { try settle.execute(arguments: [pinID]) }
            return deleted
        }
    }

    // MARK: Internals

    /// An album's state from its photos, as an SQL expression over `pin`.
    private static let albumStateFromPhotos = """
        CASE WHEN NOT EXISTS (SELECT 1 FROM photo WHERE pinId = pin.id) THEN 'empty'
             WHEN EXISTS (SELECT 1 FROM photo WHERE pinId = pin.id AND state = 'pending') THEN 'downloading'
             ELSE 'ready' END
        """

    /// A `downloading` album with nothing pending left is `ready`; other states are not this rule's to change.
    private static func readyIfDone(_ db: Database, pinID: Pin.ID) throws {
        try db.execute(sql: """
            UPDATE pin SET albumState = 'ready'
            WHERE id = ? AND albumState = 'downloading'
                AND NOT EXISTS (SELECT 1 FROM photo WHERE pinId = pin.id AND state = 'pending')
            """, arguments: [pinID])
    }

    private static func pinExists(_ db: Database, _ pinID: Pin.ID) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM pin WHERE id = ?", arguments: [pinID]) ?? false
    }

    private static func pinOfPhoto(_ db: Database, _ photoID: PhotoRecord.ID) throws -> Pin.ID? {
        try Int64.fetchOne(db, sql: "SELECT pinId FROM photo WHERE id = ?", arguments: [photoID])
    }

    /// Inserts pending photos at positions `from`, `from + 1`…, skipping any already in the album.
    private static func insert(_ db: Database, _ photos: [NewPhoto], pinID: Pin.ID, from first: Int) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO photo (pinId, position, source, sourceId, title, author, dateTaken, url, largeURL,
                pageURL, license, width, height, state)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')
            ON CONFLICT (pinId, source, sourceId) DO NOTHING
            """)
        var position = first
        for photo in photos {
            try statement.execute(arguments: [
                pinID, position, photo.source, photo.sourceID, photo.title, photo.author, photo.dateTaken,
                photo.url, photo.largeURL, photo.pageURL, photo.license, photo.width, photo.height,
            ])
            // Positions stay contiguous when a duplicate is skipped.
            position += db.changesCount
        }
    }

    /// Photos joined with their image sizes; `length()` reads the record header, not the blob.
    private static func fetchPhotos(_ db: Database, filter: String, arguments: StatementArguments) throws -> [PhotoRecord] {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT photo.id, photo.pinId, photo.position, photo.source, photo.sourceId, photo.title, photo.author,
                CAST(photo.dateTaken AS TEXT), photo.url, photo.largeURL, photo.pageURL, photo.license,
                photo.width, photo.height, photo.state, photo.error, COALESCE(length(photoImage.bytes), 0)
            FROM photo LEFT JOIN photoImage ON photoImage.photoId = photo.id
            WHERE \(filter)
            ORDER BY photo.position, photo.id
            """, arguments: arguments)
        var photos: [PhotoRecord] = []
        while let row = try rows.next() {
            let state: String = try row.decode(atIndex: 14)
            photos.append(PhotoRecord(
                id: try row.decode(atIndex: 0), pinID: try row.decode(atIndex: 1), position: try row.decode(atIndex: 2),
                source: try row.decode(atIndex: 3), sourceID: try row.decode(atIndex: 4),
                title: try row.decode(atIndex: 5), author: try row.decode(atIndex: 6),
                dateTaken: try row.decode(atIndex: 7), url: try row.decode(atIndex: 8),
                largeURL: try row.decode(atIndex: 9), pageURL: try row.decode(atIndex: 10),
                license: try row.decode(atIndex: 11), width: try row.decode(atIndex: 12),
                height: try row.decode(atIndex: 13),
                // The CHECK constraint admits only known states; a stray one reads as failed, never crashes.
                state: PhotoRecord.State(rawValue: state) ?? .failed,
                error: try row.decode(atIndex: 15), byteCount: try row.decode(atIndex: 16)))
        }
        return photos
    }
}
