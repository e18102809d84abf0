import Foundation
import GRDB
import Model
import Geo

// One record per table (GRDB): rows are read by column name, never by position.
// The mapping between the model's states and the columns' strings lives here and only here.

/// A row of `pin`: the pin and its album summary, as the album state machine last saved it.
struct PinRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "pin"

    var id: Int64?
    var latitude: Double
    var longitude: Double
    var name: String?
    var createdAt: Date
    var albumState: String
    var albumError: String?
    var albumPage: Int?
    var albumPageCount: Int?
    var albumSource: String?
    var ownName: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A pin with its album counts, as the map and `pins` list it. 10,000 of these are read at every
/// start, so `fetchAll` finds each named column once per query, not once per row.
struct PinListing: FetchableRecord {
    var id: Int64
    var latitude: Double
    var longitude: Double
    var name: String?
    var ownName: String?
    /// Unix seconds: SQLite's date arithmetic is cheaper than parsing 10,000 date strings in Swift.
    var createdAtUnix: Double
    var albumState: String
    var albumError: String?
    var photoCount: Int
    var downloadedCount: Int
    var filter: AlbumFilter

    init(row: Row) throws {
        try self.init(row, ColumnIndices(row.columnNames))
    }

    private init(_ row: Row, _ c: ColumnIndices) {
        id = row[c.id]
        latitude = row[c.latitude]
        longitude = row[c.longitude]
        name = row[c.name]
        ownName = row[c.ownName]
        createdAtUnix = row[c.createdAtUnix]
        albumState = row[c.albumState]
        albumError = row[c.albumError]
        photoCount = row[c.photoCount]
        downloadedCount = row[c.downloadedCount]
        filter = AlbumFilterColumns.filter(text: row[c.filterText], tags: row[c.filterTags], from: row[c.filterFrom],
                                           to: row[c.filterTo], sort: row[c.filterSort])
    }

    /// Every row of `sql`, its columns looked up by name once.
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [PinListing] {
        let statement = try db.makeStatement(sql: sql)
        let columns = try ColumnIndices(statement.columnNames)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var listings: [PinListing] = []
        while let row = try rows.next() { listings.append(PinListing(row, columns)) }
        return listings
    }

    /// Where each field's column is in a result.
    private struct ColumnIndices {
        var id, latitude, longitude, name, ownName, createdAtUnix, albumState, albumError, photoCount, downloadedCount: Int
        var filterText, filterTags, filterFrom, filterTo, filterSort: Int

        init<Names: Collection<String>>(_ names: Names) throws {
            let lookup = Dictionary(names.enumerated().map { ($1.lowercased(), $0) }) { first, _ in first }
            func index(_ name: String) throws -> Int {
                guard let i = lookup[name.lowercased()] else { throw DatabaseError(message: "no column \(name) in a pin listing") }
                return i
            }
            (id, latitude, longitude, name, ownName, createdAtUnix) =
                (try index("id"), try index("latitude"), try index("longitude"), try index("name"), try index("ownName"),
                 try index("createdAtUnix"))
            (albumState, albumError, photoCount, downloadedCount) =
                (try index("albumState"), try index("albumError"), try index("photoCount"), try index("downloadedCount"))
            (filterText, filterTags, filterFrom, filterTo, filterSort) =
                (try index("filterText"), try index("filterTags"), try index("filterFrom"), try index("filterTo"),
                 try index("filterSort"))
        }
    }

    /// The one query of pins with their album counts: every pin (nil), or those `condition` (on
    /// `pin`'s columns) admits. The counts are one grouped pass over the (pinId, state) index,
    /// limited to the pins asked for, so one pin costs an index lookup, not a scan.
    static func query(where condition: String?) -> String {
        let pins = condition.map { "WHERE pinId IN (SELECT pin.id FROM pin WHERE \($0))" } ?? ""
        return """
            SELECT pin.id, pin.latitude, pin.longitude, pin.name, pin.ownName,
                (julianday(pin.createdAt) - 2440587.5) * 86400.0 AS createdAtUnix, pin.albumState, pin.albumError,
                pin.filterText, pin.filterTags, pin.filterFrom, pin.filterTo, pin.filterSort,
                COALESCE(c.photoCount, 0) AS photoCount, COALESCE(c.downloadedCount, 0) AS downloadedCount
            FROM pin
            LEFT JOIN (SELECT pinId, COUNT(*) AS photoCount, SUM(state = '\(PhotoStateColumns.stored)') AS downloadedCount
                       FROM photo \(pins) GROUP BY pinId) AS c ON c.pinId = pin.id
            \(condition.map { "WHERE \($0)" } ?? "")
            ORDER BY pin.id
            """
    }

    var pin: Pin {
        Pin(id: id, coordinate: GeoPoint(latitude: latitude, longitude: longitude), name: name,
            createdAt: Date(timeIntervalSince1970: createdAtUnix),
            albumStatus: AlbumStatusColumns.status(state: albumState, error: albumError),
            photoCount: photoCount, downloadedCount: downloadedCount, filter: filter, ownName: ownName)
    }
}

/// `pin.filterText`, `filterTags`, `filterFrom`, `filterTo`, `filterSort` ⇄ `AlbumFilter`: NULL for a
/// field left out, tags comma-joined (a tag never holds a comma), dates and the order as written.
enum AlbumFilterColumns {
    static let names = ["filterText", "filterTags", "filterFrom", "filterTo", "filterSort"]

    static func columns(_ filter: AlbumFilter) -> StatementArguments {
        [filter.text, filter.tags.isEmpty ? nil : filter.tagList, filter.taken.from?.description,
         filter.taken.to?.description, filter.sort.rawValue]
    }

    /// The stored filter. The schema admits only a filter's shapes; a side the calendar has no such day
    /// for (raw SQL) reads as open and an unknown order as the default, never a crash.
    static func filter(text: String?, tags: String?, from: String?, to: String?, sort: String) -> AlbumFilter {
        if text == nil && tags == nil && from == nil && to == nil && sort == AlbumSort.interesting.rawValue { return .none }
        func date(_ text: String?, _ side: String) -> FilterDate? {
            text.flatMap { text in try? FilterDate.parse(text, side: side) }
        }
        return AlbumFilter(text: text, tags: tags.map { $0.split(separator: ",").map(String.init) } ?? [],
                           taken: TakenRange(from: date(from, "from"), to: date(to, "to")),
                           sort: AlbumSort(rawValue: sort) ?? .interesting)
    }

    /// Writes the pin's filter: only a new pin (insert, import) and a new collection (`clearAlbum`) do.
    static func write(_ db: Database, pinID: Int64, _ filter: AlbumFilter) throws {
        let assignments = names.map { "\($0) = ?" }.joined(separator: ", ")
        var arguments = columns(filter)
        arguments += [pinID]
        try db.execute(sql: "UPDATE pin SET \(assignments) WHERE id = ?", arguments: arguments)
    }
}

/// `pin.albumState` and `pin.albumError` ⇄ `AlbumStatus`. The strings are `AlbumState`'s raw values;
/// the shipped schema's CHECK spells them too, and StateNameTests checks that it admits exactly those.
enum AlbumStatusColumns {
    static let downloading = AlbumState.downloading.rawValue

    static func status(state: String, error: String?) -> AlbumStatus {
        switch AlbumState(rawValue: state) {
        case .downloading: .downloading
        case .ready: .ready
        case .empty: .empty
        case .failed: .failed(reason: error ?? "The search failed")
        // The CHECK constraint admits only known states; a stray one reads as failed, never crashes.
        case nil: .failed(reason: "unknown album state \(state)")
        }
    }

    static func columns(_ status: AlbumStatus) -> (state: String, error: String?) {
        (status.state.rawValue, status.reason)
    }
}

/// A row of `photo`: the found photo's fields are `NewPhoto`'s coding keys, written and read by it.
struct PhotoRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "photo"

    var id: Int64?
    var pinId: Int64
    var position: Int
    var found: NewPhoto
    var state: String
    var error: String?

    enum CodingKeys: String, CodingKey { case id, pinId, position, state, error }

    init(_ photo: NewPhoto, pinID: Int64, position: Int) {
        pinId = pinID
        self.position = position
        found = photo
        (state, error) = PhotoStateColumns.columns(.pending)
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int64.self, forKey: .id)
        pinId = try c.decode(Int64.self, forKey: .pinId)
        position = try c.decode(Int.self, forKey: .position)
        state = try c.decode(String.self, forKey: .state)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        found = try NewPhoto(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(pinId, forKey: .pinId)
        try c.encode(position, forKey: .position)
        try c.encode(state, forKey: .state)
        try c.encode(error, forKey: .error)
        try found.encode(to: encoder)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A photo with the size of its stored image, as the album lists it.
struct PhotoListing: FetchableRecord {
    var row: PhotoRow
    var byteCount: Int

    init(row: Row) throws {
        self.row = try PhotoRow(row: row)
        byteCount = row["byteCount"] ?? 0
    }

    /// The row's columns and the found photo's, named once by their coding keys. `dateTaken` is read
    /// as text whatever affinity turned it into; `length()` reads the record header, not the blob.
    static let select: String = {
        let found = NewPhoto.CodingKeys.allCases.map { key in
            key == .dateTaken ? "CAST(photo.dateTaken AS TEXT) AS dateTaken" : "photo.\(key.stringValue)"
        }
        let columns = ["photo.id", "photo.pinId", "photo.position"] + found + ["photo.state", "photo.error"]
        return "SELECT " + columns.joined(separator: ", ") + """
            , COALESCE(length(photoImage.bytes), 0) AS byteCount
            FROM photo LEFT JOIN photoImage ON photoImage.photoId = photo.id
            """
    }()

    var photo: PhotoRecord {
        PhotoRecord(id: row.id ?? 0, pinID: row.pinId, position: row.position, found: row.found,
                    state: PhotoStateColumns.state(row.state, error: row.error), byteCount: byteCount)
    }
}

/// `photo.state` and `photo.error` ⇄ `PhotoState`. The strings are `PhotoStateName`'s raw values;
/// the shipped schema's CHECK spells them too, and StateNameTests checks that it admits exactly those.
enum PhotoStateColumns {
    static let pending = PhotoStateName.pending.rawValue
    static let stored = PhotoStateName.stored.rawValue
    static let failed = PhotoStateName.failed.rawValue

    static func state(_ text: String, error: String?) -> PhotoState {
        switch PhotoStateName(rawValue: text) {
        case .pending: .pending
        case .stored: .stored
        case .failed: .failed(reason: error ?? "The download failed")
        // The CHECK constraint admits only known states; a stray one reads as failed, never crashes.
        case nil: .failed(reason: "unknown photo state \(text)")
        }
    }

    static func columns(_ state: PhotoState) -> (state: String, error: String?) {
        (state.name, state.reason)
    }
}

/// The one row of `mapView`.
struct MapViewRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "mapView"

    var id: Int64 = 1
    var centerLatitude: Double
    var centerLongitude: Double
    var zoom: Int
    var cursorLatitude: Double
    var cursorLongitude: Double

    init(_ view: MapViewState) {
        centerLatitude = view.center.latitude
        centerLongitude = view.center.longitude
        zoom = view.zoom
        cursorLatitude = view.cursor.latitude
        cursorLongitude = view.cursor.longitude
    }

    var view: MapViewState {
        MapViewState(center: GeoPoint(latitude: centerLatitude, longitude: centerLongitude), zoom: zoom,
                     cursor: GeoPoint(latitude: cursorLatitude, longitude: cursorLongitude))
    }
}

/// A row of `setting`.
struct SettingRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "setting"

    var key: String
    var value: String
}
