import Foundation
import GRDB
import TouristCore
import WorldMap

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
    private let writer: any DatabaseWriter
    /// A connection of its own for `dataVersion()`: the pragma is per connection.
    private let versionReader: (any DatabaseReader)?

    private init(path: String, busyTimeout: TimeInterval, writer: any DatabaseWriter,
                 versionReader: (any DatabaseReader)?) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.writer = writer
        self.versionReader = versionReader
    }

    // MARK: Opening

    /// Opens (or creates) the database at `path`, creating missing parent directories.
    ///
    /// Before anything is written, refuses a directory, a path under a file, a file that is not
    /// a vtourist database, a damaged one, one from a newer vtourist, and one this user cannot
    /// write; the file is then left exactly as it was.
    public static func open(path: String, busyTimeout: TimeInterval = 5) throws(StoreError) -> AppDatabase {
        try OpenCheck.preparePath(path)
        let folder = OpenCheck.folder(of: path)
        return try OpenLock.holding(path: path, folder: folder, timeout: busyTimeout) { () throws(StoreError) in
            try openChecked(path: path, folder: folder, busyTimeout: busyTimeout)
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

        do {
            let pool = try DatabasePool(path: path, configuration: configuration(busyTimeout: busyTimeout))
            do {
                try migrate(pool, migrator: migrator, path: path)
                var readerConfig = configuration(busyTimeout: busyTimeout)
                readerConfig.readonly = true
                readerConfig.label = "vtourist.dataVersion"
                let reader = try DatabaseQueue(path: path, configuration: readerConfig)
                return AppDatabase(path: path, busyTimeout: busyTimeout, writer: pool, versionReader: reader)
            } catch {
                try? closeLast(pool)
                throw error
            }
        } catch {
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
    public static func openTemporary(busyTimeout: TimeInterval = 5) throws(StoreError) -> AppDatabase {
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

    /// createdAt as Unix seconds: SQLite's date arithmetic is cheaper than parsing 10,000 date strings in Swift.
    private static let pinColumns = """
        pin.id, pin.latitude, pin.longitude, pin.name, (julianday(pin.createdAt) - 2440587.5) * 86400.0, pin.albumState
        """

    /// Every pin with its album counts, oldest first.
    public func pins() throws(StoreError) -> [Pin] {
        try read { db in
            // One grouped pass over the (pinId, state) index instead of two lookups per pin.
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(Self.pinColumns), COALESCE(c.photoCount, 0), COALESCE(c.downloadedCount, 0)
                FROM pin
                LEFT JOIN (SELECT pinId, COUNT(*) AS photoCount, SUM(state = 'stored') AS downloadedCount
                           FROM photo GROUP BY pinId) AS c ON c.pinId = pin.id
                ORDER BY pin.id
                """)
            var pins: [Pin] = []
            while let row = try rows.next() { pins.append(try Self.pin(row)) }
            return pins
        }
    }

    /// The pin with this id, or nil.
    public func pin(id: Pin.ID) throws(StoreError) -> Pin? {
        try read { db in try Self.fetchPin(db, id: id) }
    }

    /// Saves a new pin with an empty album.
    @discardableResult
    public func insertPin(at coordinate: GeoPoint, name: String?) throws(StoreError) -> Pin {
        try Self.validate(coordinate)
        let createdAt = Date()
        return try write { db in
            try db.execute(sql: """
                INSERT INTO pin (latitude, longitude, name, createdAt, albumState) VALUES (?, ?, ?, ?, 'empty')
                """, arguments: [coordinate.latitude, coordinate.longitude, name, createdAt])
            // Read back, so the returned pin equals what later reads return (dates keep milliseconds).
            guard let pin = try Self.fetchPin(db, id: db.lastInsertedRowID) else {
                throw StoreError.failure(path: path, detail: "the new pin could not be read back")
            }
            return pin
        }
    }

    /// Saves many pins in one transaction (imports, benchmarks).
    public func insertPins(_ points: [(GeoPoint, String?)]) throws(StoreError) {
        for (point, _) in points { try Self.validate(point) }
        let createdAt = Date()
        try write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO pin (latitude, longitude, name, createdAt, albumState) VALUES (?, ?, ?, ?, 'empty')
                """)
            for (point, name) in points {
                try statement.execute(arguments: [point.latitude, point.longitude, name, createdAt])
            }
        }
    }

    /// Moves a pin: its photos and their images are deleted and its album starts over as empty.
    /// Returns nil when there is no such pin.
    @discardableResult
    public func movePin(id: Pin.ID, to coordinate: GeoPoint, name: String?) throws(StoreError) -> Pin? {
        try Self.validate(coordinate)
        return try write { db in
            try db.execute(sql: """
                UPDATE pin SET latitude = ?, longitude = ?, name = ?, albumState = 'empty',
                    albumError = NULL, albumPage = NULL, albumPageCount = NULL, albumSource = NULL
                WHERE id = ?
                """, arguments: [coordinate.latitude, coordinate.longitude, name, id])
            guard db.changesCount > 0 else { return nil }
            // photoImage rows follow by cascade.
            try db.execute(sql: "DELETE FROM photo WHERE pinId = ?", arguments: [id])
            return try Self.fetchPin(db, id: id)
        }
    }

    /// Deletes a pin with its photos and images. False when there was no such pin.
    @discardableResult
    public func deletePin(id: Pin.ID) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM pin WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    // MARK: Map view

    /// The map view saved last, or nil before the first save.
    public func mapView() throws(StoreError) -> MapViewState? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT centerLatitude, centerLongitude, zoom, cursorLatitude, cursorLongitude FROM mapView WHERE id = 1
                """) else { return nil }
            return MapViewState(
                center: GeoPoint(latitude: try row.decode(atIndex: 0), longitude: try row.decode(atIndex: 1)),
                zoom: try row.decode(atIndex: 2),
                cursor: GeoPoint(latitude: try row.decode(atIndex: 3), longitude: try row.decode(atIndex: 4)))
        }
    }

    public func saveMapView(_ view: MapViewState) throws(StoreError) {
        guard view.center.isValid, view.cursor.isValid, view.zoom >= 0 else { throw .invalidMapView(view) }
        try write { db in
            try db.execute(sql: """
                INSERT INTO mapView (id, centerLatitude, centerLongitude, zoom, cursorLatitude, cursorLongitude)
                VALUES (1, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET centerLatitude = excluded.centerLatitude,
                    centerLongitude = excluded.centerLongitude, zoom = excluded.zoom,
                    cursorLatitude = excluded.cursorLatitude, cursorLongitude = excluded.cursorLongitude
                """, arguments: [view.center.latitude, view.center.longitude, view.zoom,
                                 view.cursor.latitude, view.cursor.longitude])
        }
    }

    // MARK: Settings

    public func setting(_ key: String) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func setSetting(_ key: String, _ value: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, arguments: [key, value])
        }
    }

    public func removeSetting(_ key: String) throws(StoreError) {
        try write { db in try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key]) }
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
        do { return try writer.write(body) } catch { throw mapped(error) }
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
        guard let row = try Row.fetchOne(db, sql: """
            SELECT \(pinColumns),
                (SELECT COUNT(*) FROM photo WHERE pinId = pin.id),
                (SELECT COUNT(*) FROM photo WHERE pinId = pin.id AND state = 'stored')
            FROM pin WHERE id = ?
            """, arguments: [id]) else { return nil }
        return try pin(row)
    }

    /// Columns as in `pinColumns`, then photoCount and downloadedCount.
    private static func pin(_ row: Row) throws -> Pin {
        let state: String = try row.decode(atIndex: 5)
        return Pin(
            id: try row.decode(atIndex: 0),
            coordinate: GeoPoint(latitude: try row.decode(atIndex: 1), longitude: try row.decode(atIndex: 2)),
            name: try row.decode(atIndex: 3),
            createdAt: Date(timeIntervalSince1970: try row.decode(atIndex: 4)),
            // The CHECK constraint admits only known states; a stray one reads as failed, never crashes.
            albumState: AlbumState(rawValue: state) ?? .failed,
            photoCount: try row.decode(atIndex: 6),
            downloadedCount: try row.decode(atIndex: 7))
    }
}
