import Foundation
import GRDB
import Model
import Geo

/// The vtourist database: the only owner of the SQLite connection and the only place SQL lives.
///
/// Every operation is one transaction. Errors are always `StoreError`, one line naming the file.
/// Safe to use from any thread; several processes may open the same file at once (WAL mode,
/// writers wait up to `busyTimeout` for each other).
public final class AppDatabase: Sendable {
    /// The database file, or ":memory:".
    public let path: String
    /// How long a write waits for another connection's write lock before failing with `.locked`.
    public let busyTimeout: TimeInterval
    /// The busy timeout unless the caller chooses one (`VTOURIST_BUSY_TIMEOUT` for the app).
    public static let defaultBusyTimeout: TimeInterval = 5
    private let writer: any DatabaseWriter
    /// A connection of its own for `dataVersion()`: the pragma is per connection.
    private let versionReader: (any DatabaseReader)?
    /// Files of the database other users could read or change when it was opened (now 0600 where
    /// possible): the caller tells the user, once.
    public let permissionNotes: [PermissionNote]
    /// Opened by `openForReading` on a file this user may not write: every write is refused with
    /// `.readOnlyDatabase` before SQLite is asked.
    public let isReadOnly: Bool

    private init(path: String, busyTimeout: TimeInterval, writer: any DatabaseWriter,
                 versionReader: (any DatabaseReader)?, permissionNotes: [PermissionNote] = [], isReadOnly: Bool = false) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.writer = writer
        self.versionReader = versionReader
        self.permissionNotes = permissionNotes
        self.isReadOnly = isReadOnly
    }

    /// What the app says on its message line when it could only open the database read-only.
    public var readOnlyNote: String? {
        isReadOnly ? "The database \(path) is read-only for this user: nothing you change will be saved." : nil
    }

    // MARK: Opening

    /// Opens (or creates) the database at `path`, creating missing parent directories.
    ///
    /// Before anything is written, refuses a directory, a path under a file, a file that is not
    /// a vtourist database, a damaged one, one from a newer vtourist, and one this user cannot
    /// write; the file is then left exactly as it was.
    public static func open(path: String, busyTimeout: TimeInterval = defaultBusyTimeout) throws(StoreError) -> AppDatabase {
        try OpenCheck.preparePath(path)
        let folder = OpenCheck.folder(of: path)
        return try OpenLock.holding(path: path, folder: folder, timeout: busyTimeout) { () throws(StoreError) in
            try openChecked(path: path, folder: folder, busyTimeout: busyTimeout)
        }
    }

    /// Opens a database that already exists, for commands that only read: a missing file is
    /// `.missing`, and no file or folder is created.
    public static func openExisting(path: String, busyTimeout: TimeInterval = defaultBusyTimeout) throws(StoreError) -> AppDatabase {
        guard !path.isEmpty else { throw .emptyPath }
        // A dangling link counts as missing: opening it would create its target.
        guard OpenCheck.isDirectory(path) != nil else { throw OpenCheck.absence(path) }
        return try open(path: path, busyTimeout: busyTimeout)
    }

    /// Opens a database that already exists for reading it: as `openExisting` does where this user
    /// may write it (brought up to date, permissions tightened), else read-only (`isReadOnly`), with
    /// nothing written, migrated or created beside it.
    public static func openForReading(path: String, busyTimeout: TimeInterval = defaultBusyTimeout) throws(StoreError) -> AppDatabase {
        guard !path.isEmpty else { throw .emptyPath }
        guard OpenCheck.isDirectory(path) != nil else { throw OpenCheck.absence(path) }
        return try openAllowingReadOnly(path: path, busyTimeout: busyTimeout)
    }

    /// Opens (or creates) the database as `open` does; one that exists but that this user may not
    /// write is opened read-only instead (`isReadOnly`), as the full-screen app wants it.
    public static func openAllowingReadOnly(path: String, busyTimeout: TimeInterval = defaultBusyTimeout) throws(StoreError) -> AppDatabase {
        do {
            return try open(path: path, busyTimeout: busyTimeout)
        } catch {
            // A new database in a read-only folder stays refused: there is nothing to read.
            switch error {
            case .readOnlyFile, .readOnlyFolder:
                guard OpenCheck.isDirectory(path) == false else { throw error }
                return try openReadOnly(path: path, busyTimeout: busyTimeout)
            default:
                throw error
            }
        }
    }

    /// A read-only connection to an existing database, checked as `open` checks it. A database of an
    /// older schema is refused (`.readOnlyOlderVersion`): bringing it up to date needs a write.
    static func openReadOnly(path: String, busyTimeout: TimeInterval) throws(StoreError) -> AppDatabase {
        guard !path.isEmpty else { throw .emptyPath }
        guard let isDirectory = OpenCheck.isDirectory(path) else { throw OpenCheck.absence(path) }
        if isDirectory { throw .isDirectory(path: path) }
        if OpenCheck.facts(path: path).database?.readable == false { throw .unreadable(path: path) }
        // An empty file holds no schema, and none can be made in it.
        guard OpenCheck.fileSize(path) > 0 else { throw .readOnlyFile(path: path) }
        guard try OpenCheck.hasSQLiteHeader(path) else { throw .notADatabase(path: path) }
        let migrator = Schema.migrator
        try OpenCheck.inspect(path: path, migrator: migrator, busyTimeout: busyTimeout)
        var config = configuration(busyTimeout: busyTimeout)
        config.readonly = true
        do {
            // As `inspect` reads it: without WAL content the main file is the whole database, read
            // without locks or -wal/-shm files that a read-only user could not remove again.
            let location = OpenCheck.fileSize(path + "-wal") == 0 ? OpenCheck.immutableURI(path) : path
            let queue = try DatabaseQueue(path: location, configuration: config)
            let complete: Bool
            do {
                complete = try queue.read { db in try migrator.hasCompletedMigrations(db) }
            } catch {
                try? queue.close()
                throw error
            }
            guard complete else {
                try? queue.close()
                throw StoreError.readOnlyOlderVersion(path: path)
            }
            return AppDatabase(path: path, busyTimeout: busyTimeout, writer: queue, versionReader: nil, isReadOnly: true)
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    private static func openChecked(path: String, folder: String, busyTimeout: TimeInterval) throws(StoreError) -> AppDatabase {
        if let problem = accessProblem(path: path, folder: folder, facts: OpenCheck.facts(path: path)) {
            throw problem
        }
        let migrator = Schema.migrator
        if OpenCheck.fileSize(path) > 0 {
            guard try OpenCheck.hasSQLiteHeader(path) else { throw .notADatabase(path: path) }
            try OpenCheck.inspect(path: path, migrator: migrator, busyTimeout: busyTimeout)
        }
        // Only a file that passed every check is touched: a new one is created 0600, an old one tightened.
        let created = try PrivateFiles.createEmptyFile(path)
        let notes = created ? [] : PrivateFiles.tighten(path)

        do {
            let pool = try DatabasePool(path: path, configuration: configuration(busyTimeout: busyTimeout))
            do {
                try migrate(pool, migrator: migrator, path: path)
                var readerConfig = configuration(busyTimeout: busyTimeout)
                readerConfig.readonly = true
                readerConfig.label = "vtourist.dataVersion"
                let reader = try DatabaseQueue(path: path, configuration: readerConfig)
                return AppDatabase(path: path, busyTimeout: busyTimeout, writer: pool, versionReader: reader,
                                   permissionNotes: notes)
            } catch {
                try? closeLast(pool)
                throw error
            }
        } catch {
            // The empty file made above is no database yet; leave the folder as it was.
            if created && OpenCheck.fileSize(path) == 0 { unlink(path) }
            throw StoreError.from(error, path: path)
        }
    }

    /// A private database in memory, for tests and previews.
    public static func openInMemory() throws(StoreError) -> AppDatabase {
        do {
            let queue = try DatabaseQueue(configuration: configuration(busyTimeout: 0))
            try migrate(queue, migrator: Schema.migrator, path: ":memory:")
            return AppDatabase(path: ":memory:", busyTimeout: 0, writer: queue, versionReader: nil)
        } catch {
            throw StoreError.from(error, path: ":memory:")
        }
    }

    /// A new database file in a fresh temporary directory (real WAL, real files), for tests.
    public static func openTemporary(busyTimeout: TimeInterval = defaultBusyTimeout) throws(StoreError) -> AppDatabase {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("vtourist-\(UUID().uuidString)", isDirectory: true)
        return try open(path: folder.appendingPathComponent("vtourist.sqlite").path, busyTimeout: busyTimeout)
    }

    /// Closes every connection; later calls throw. Removes -wal/-shm when no one else has the file open.
    public func close() throws(StoreError) {
        do {
            try versionReader?.close()
            if let pool = writer as? DatabasePool { try Self.closeLast(pool) } else { try writer.close() }
        } catch {
            throw mapped(error)
        }
    }

    /// Closes the pool's readers before its writer: only a writer that closes last can
    /// checkpoint and delete -wal/-shm (GRDB's own close() closes the writer first).
    private static func closeLast(_ pool: DatabasePool) throws {
        pool.releaseMemory()
        try pool.close()
    }

    private static func configuration(busyTimeout: TimeInterval) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(busyTimeout)
        config.label = "vtourist"
        return config
    }

    private static func migrate(_ writer: any DatabaseWriter, migrator: DatabaseMigrator, path: String) throws {
        let (superseded, unknown, complete) = try writer.read { db in
            let applied = try migrator.appliedIdentifiers(db)
            return (try migrator.hasBeenSuperseded(db), applied.subtracting(migrator.migrations),
                    try migrator.hasCompletedMigrations(db))
        }
        // Checked again here: the read-only inspection may have run before a crashed writer's WAL was replayed.
        if superseded { throw StoreError.newerVersion(path: path, migrations: Array(unknown)) }
        // An up-to-date file needs no write lock, so opening works while another process writes.
        if !complete { try migrator.migrate(writer) }
    }

    // MARK: Pins

    /// Every pin with its album counts, oldest first.
    public func pins() throws(StoreError) -> [Pin] {
        try read { db in try PinListing.fetchAll(db, sql: PinListing.query(where: nil)).map(\.pin) }
    }

    /// The pin with this id, or nil.
    public func pin(id: Pin.ID) throws(StoreError) -> Pin? {
        try read { db in try Self.fetchPin(db, id: id) }
    }

    /// Pins whose shown name (`Pin.shownName`: their own, else their nearest place's) is `name`,
    /// ignoring case (in every script, not only ASCII), oldest first.
    public func pins(named name: String) throws(StoreError) -> [Pin] {
        let wanted = name.lowercased()
        return try read { db in
            let named = try Row.fetchAll(db, sql: """
                SELECT id, COALESCE(ownName, name) AS name FROM pin WHERE COALESCE(ownName, name) IS NOT NULL ORDER BY id
                """)
            return try named.filter { ($0["name"] as String).lowercased() == wanted }
                .compactMap { row in try Self.fetchPin(db, id: row["id"]) }
        }
    }

    /// Pins within `degrees` of `point` in latitude and in longitude (across the antimeridian too),
    /// compared as coordinates are written (`CoordinateNumber`), oldest first.
    public func pins(near point: GeoPoint, within degrees: Double) throws(StoreError) -> [Pin] {
        try read { db in try Self.pins(db, near: point, within: degrees) }
    }

    /// Saves a new pin as `insertPin` does, unless pins are already within `degrees` of the place
    /// (`pins(near:within:)`): then nothing is saved and those pins are returned. One transaction,
    /// so two drops at once cannot both pass the check.
    public func insertPin(at coordinate: GeoPoint, name: String?, unlessWithin degrees: Double,
                          filter: AlbumFilter = .none) throws(StoreError) -> PinDrop {
        try Self.validate(coordinate)
        let createdAt = Date()
        return try write { db in
            let there = try Self.pins(db, near: coordinate, within: degrees)
            if !there.isEmpty { return .alreadyThere(there) }
            return .added(try insertNewPin(db, coordinate, name: name, filter: filter, createdAt: createdAt))
        }
    }

    private static func pins(_ db: Database, near point: GeoPoint, within degrees: Double) throws -> [Pin] {
        let limit = CoordinateNumber.units(degrees)
        let fullCircle = CoordinateNumber.units(360)
        let latitude = CoordinateNumber.units(point.latitude)
        let longitude = CoordinateNumber.units(point.longitude)
        // A little wider than `degrees`, so rounding never leaves a pin out before it is compared.
        let margin = degrees * 1.001 + 1e-7
        let rows = try Row.fetchAll(db, sql: "SELECT id, latitude, longitude FROM pin WHERE latitude BETWEEN ? AND ? ORDER BY id",
                                    arguments: [point.latitude - margin, point.latitude + margin])
        return try rows.filter { row in
            let dLat = abs(CoordinateNumber.units(row["latitude"]) - latitude)
            let dLon = abs(CoordinateNumber.units(row["longitude"]) - longitude) % fullCircle
            return dLat <= limit && min(dLon, fullCircle - dLon) <= limit
        }.compactMap { row in try fetchPin(db, id: row["id"]) }
    }

    /// Saves a new pin with its album's filter. Its album is `downloading`: the first search is waiting,
    /// so a pin saved just before a crash still gets its album when the app resumes it (the album state
    /// machine restores a `downloading` album without photos as a search to send). A filter that is not
    /// one (the caller checks with `AlbumFilter.validated`) is refused by the schema and nothing is saved.
    @discardableResult
    public func insertPin(at coordinate: GeoPoint, name: String?, filter: AlbumFilter = .none) throws(StoreError) -> Pin {
        try Self.validate(coordinate)
        let createdAt = Date()
        return try write { db in try insertNewPin(db, coordinate, name: name, filter: filter, createdAt: createdAt) }
    }

    private func insertNewPin(_ db: Database, _ coordinate: GeoPoint, name: String?, filter: AlbumFilter,
                              createdAt: Date) throws -> Pin {
        var row = Self.newPin(coordinate, name: name, createdAt: createdAt, album: .downloading)
        try row.insert(db)
        if let id = row.id, !filter.isEmpty { try AlbumFilterColumns.write(db, pinID: id, filter) }
        // Read back, so the returned pin equals what later reads return (dates keep milliseconds).
        guard let id = row.id, let pin = try Self.fetchPin(db, id: id) else {
            throw StoreError.failure(path: path, detail: "the new pin could not be read back")
        }
        return pin
    }

    /// Saves many pins with empty albums in one transaction (benchmarks, tests).
    public func insertPins(_ points: [(GeoPoint, String?)]) throws(StoreError) {
        for (point, _) in points { try Self.validate(point) }
        let createdAt = Date()
        try write { db in
            for (point, name) in points {
                var row = Self.newPin(point, name: name, createdAt: createdAt, album: .empty)
                try row.insert(db)
            }
        }
    }

    /// Adds the pins of an imported file in one transaction, each with its album `downloading` as a
    /// dropped pin's is, skipping every pin whose `PinIdentity` is already in the database or earlier in
    /// `pins`. Each keeps the file's filter. Nothing is stored if any coordinate or filter is invalid.
    public func importPins(_ pins: [NewPin]) throws(StoreError) -> PinImport {
        for pin in pins { try Self.validate(pin.coordinate) }
        let now = Date()
        return try write { db in
            var seen = Set<PinIdentity>()
            let existing = try Row.fetchCursor(db, sql: "SELECT latitude, longitude, COALESCE(ownName, name) AS name FROM pin")
            while let row = try existing.next() {
                seen.insert(PinIdentity(GeoPoint(latitude: row["latitude"], longitude: row["longitude"]), name: row["name"]))
            }
            var result = PinImport(added: [], duplicates: 0)
            result.added.reserveCapacity(pins.count)
            for pin in pins {
                guard seen.insert(PinIdentity(pin.coordinate, name: pin.ownName ?? pin.name)).inserted else {
                    result.duplicates += 1
                    continue
                }
                var row = Self.newPin(pin.coordinate, name: pin.name, createdAt: pin.createdAt ?? now, album: .downloading)
                row.ownName = pin.ownName
                try row.insert(db)
                guard let id = row.id else { throw StoreError.failure(path: path, detail: "an imported pin got no id") }
                if !pin.filter.isEmpty { try AlbumFilterColumns.write(db, pinID: id, pin.filter) }
                result.added.append(id)
            }
            return result
        }
    }

    /// Moves a pin; its photos and their images are deleted (they were of the old place), and its album
    /// starts over like a new pin's: `downloading`, its first search at the new place waiting, so a crash
    /// before the album state machine saves anything still gets the album resumed. The album's generation
    /// advances in the same transaction, so work begun for the old place is refused. Returns nil when
    /// there is no such pin.
    @discardableResult
    public func movePin(id: Pin.ID, to coordinate: GeoPoint, name: String?) throws(StoreError) -> Pin? {
        try Self.validate(coordinate)
        return try write { db in
            guard let old = try PinRow.fetchOne(db, key: id) else { return nil }
            var row = Self.newPin(coordinate, name: name, createdAt: old.createdAt, album: .downloading)
            row.id = id
            row.ownName = old.ownName  // a name of the user's own follows the pin
            try row.update(db)
            try db.execute(sql: "UPDATE pin SET albumGeneration = albumGeneration + 1 WHERE id = ?", arguments: [id])
            // photoImage rows follow by cascade.
            try PhotoRow.filter(Column("pinId") == id).deleteAll(db)
            return try Self.fetchPin(db, id: id)
        }
    }

    /// Gives a pin a name of its own (`PinName.checked`), or none (nil: it is shown by its nearest
    /// place's name again). Only that column is written, so a move or an album saved meanwhile by
    /// another process is kept. Returns the pin as stored, nil when there is no such pin; a name the
    /// rule would refuse is refused by the schema and nothing is saved.
    @discardableResult
    public func renamePin(id: Pin.ID, to ownName: String?) throws(StoreError) -> Pin? {
        try write { db in
            try db.execute(sql: "UPDATE pin SET ownName = ? WHERE id = ?", arguments: [ownName, id])
            guard db.changesCount > 0 else { return nil }
            return try Self.fetchPin(db, id: id)
        }
    }

    /// Deletes a pin with its photos and images. False when there was no such pin.
    @discardableResult
    public func deletePin(id: Pin.ID) throws(StoreError) -> Bool {
        try write { db in try PinRow.deleteOne(db, key: id) }
    }

    // MARK: Map view

    /// The map view saved last, or nil before the first save.
    public func mapView() throws(StoreError) -> MapViewState? {
        try read { db in try MapViewRow.fetchOne(db, key: 1)?.view }
    }

    public func saveMapView(_ view: MapViewState) throws(StoreError) {
        guard view.center.isValid, view.cursor.isValid, view.zoom >= 0 else { throw .invalidMapView(view) }
        try write { db in try MapViewRow(view).save(db) }
    }

    // MARK: Settings

    public func setting(_ key: String) throws(StoreError) -> String? {
        try read { db in try SettingRow.fetchOne(db, key: key)?.value }
    }

    /// Stores a setting's text as it is; what depends on it follows in the same transaction
    /// (`settingWritten`: a lowered large-image budget evicts at once).
    public func setSetting(_ key: String, _ value: String) throws(StoreError) {
        try write { db in
            try SettingRow(key: key, value: value).save(db)
            try Self.settingWritten(db, key: key)
        }
    }

    public func removeSetting(_ key: String) throws(StoreError) {
        try write { db in
            _ = try SettingRow.deleteOne(db, key: key)
            try Self.settingWritten(db, key: key)
        }
    }

    // MARK: Watching and checking

    /// A number that changes whenever a connection other than the reader's commits, this
    /// process's or another's. Cheap enough to poll every second; compare, don't interpret.
    public func dataVersion() throws(StoreError) -> Int {
        let reader: any DatabaseReader = versionReader ?? writer
        do {
            return try reader.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw mapped(error)
        }
    }

    /// Full `PRAGMA integrity_check`: reads every page, images included, so it is slow on big files.
    /// False when damage is found; throws only when the check itself cannot run (locked, closed).
    public func integrityCheck() throws(StoreError) -> Bool {
        do {
            return try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"] }
        } catch .corrupt, .notADatabase {
            return false
        }
    }

    // MARK: Internals

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try writer.read(body) } catch { throw mapped(error) }
    }

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        if isReadOnly { throw .readOnlyDatabase(path: path) }
        do { return try writer.write(body) } catch { throw mapped(error) }
    }

    /// `body` in one IMMEDIATE transaction: the write lock is taken before anything is read, so
    /// another process cannot change what `body` reads before it writes.
    func writeImmediate<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        if isReadOnly { throw .readOnlyDatabase(path: path) }
        do {
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                // inTransaction ran `body` (or threw), so there is a result.
                return result!
            }
        } catch {
            throw mapped(error)
        }
    }

    func mapped(_ error: any Error) -> StoreError {
        StoreError.from(error, path: path)
    }

    /// Raw SQL for tests that must reach past the named operations (constraints, corruption).
    func executeForTesting(_ sql: String) throws(StoreError) {
        try write { db in try db.execute(sql: sql) }
    }

    /// First column of every row, as integers, for tests.
    func integersForTesting(_ sql: String) throws(StoreError) -> [Int] {
        try read { db in try Int.fetchAll(db, sql: sql) }
    }

    /// Every row described as text, for tests (query plans).
    func textsForTesting(_ sql: String) throws(StoreError) -> [String] {
        try read { db in try Row.fetchAll(db, sql: sql).map { $0.description } }
    }

    private static func validate(_ point: GeoPoint) throws(StoreError) {
        guard point.isValid else { throw .invalidCoordinate(latitude: point.latitude, longitude: point.longitude) }
    }

    static func fetchPin(_ db: Database, id: Pin.ID) throws -> Pin? {
        try PinListing.fetchAll(db, sql: PinListing.query(where: "pin.id = :id"), arguments: ["id": id]).first?.pin
    }

    private static func newPin(_ point: GeoPoint, name: String?, createdAt: Date, album: AlbumStatus) -> PinRow {
        let (state, error) = AlbumStatusColumns.columns(album)
        return PinRow(id: nil, latitude: point.latitude, longitude: point.longitude, name: name, createdAt: createdAt,
                      albumState: state, albumError: error)
    }
}

/// What `insertPin(at:name:unlessWithin:)` did: saved the pin, or found pins already at the place.
public enum PinDrop: Hashable, Sendable {
    case added(Pin)
    case alreadyThere([Pin])
}

/// What `importPins` did: the new pins' ids, in the file's order, and how many pins it skipped as duplicates.
public struct PinImport: Hashable, Sendable {
    public var added: [Pin.ID]
    public var duplicates: Int

    public init(added: [Pin.ID], duplicates: Int) {
        self.added = added
        self.duplicates = duplicates
    }
}
