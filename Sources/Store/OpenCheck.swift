import Foundation
import GRDB

/// What the file system says about the database path, gathered before anything is written.
struct PathFacts: Equatable, Sendable {
    struct File: Equatable, Sendable {
        var readable: Bool
        var writable: Bool
    }
    /// The database file, nil when it does not exist yet.
    var database: File?
    /// The `-wal` and `-shm` files SQLite keeps beside a WAL database, nil when absent.
    var wal: File?
    var shm: File?
    /// Whether files can be created in (and removed from) the database's directory.
    var folderWritable: Bool
}

/// Decides, from `access()`-style facts only, whether opening for writing can work.
/// Pure so every combination is tested without needing a non-root user.
func accessProblem(path: String, folder: String, facts: PathFacts) -> StoreError? {
    if let database = facts.database {
        if !database.readable { return .unreadable(path: path) }
        if !database.writable { return .readOnlyFile(path: path) }
    }
    for companion in [facts.wal, facts.shm] {
        if let file = companion, !(file.readable && file.writable) { return .readOnlyFile(path: path) }
    }
    // A new file, a missing -wal or -shm: SQLite must create them in the folder.
    let mustCreate = facts.database == nil || facts.wal == nil || facts.shm == nil
    if mustCreate && !facts.folderWritable { return .readOnlyFolder(path: path, folder: folder) }
    return nil
}

/// Serializes opening (checks, WAL set-up, migrations) among processes and threads, so two
/// instances started at once on a new file do not both create the schema.
///
/// An `flock` on the database's folder: it needs no extra file, and unlike a lock taken on the
/// database file itself, closing it cannot release SQLite's own `fcntl` locks.
enum OpenLock {
    static func holding<T>(path: String, folder: String, timeout: TimeInterval,
                           _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // A folder we cannot open for reading cannot be locked; opening still works, unserialized.
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else { throw .locked(path: path) }
            usleep(2_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}

enum OpenCheck {
    /// The 16 bytes every SQLite 3 file starts with.
    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    static func folder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    static func isDirectory(_ path: String) -> Bool? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return nil }
        return isDir.boolValue
    }

    /// Refuses a directory, a path under a regular file; creates missing folders (0700).
    static func preparePath(_ path: String) throws(StoreError) {
        guard !path.isEmpty else { throw .emptyPath }
        if isDirectory(path) == true { throw .isDirectory(path: path) }

        // Walk up to the first existing ancestor: it must be a directory.
        var missing: [String] = []
        var ancestor = folder(of: path)
        while true {
            if let isDir = isDirectory(ancestor) {
                if !isDir { throw .parentNotDirectory(path: path, parent: ancestor) }
                break
            }
            // stat() fails with ENOTDIR when something above is a file; keep walking to name it.
            missing.append(ancestor)
            let up = folder(of: ancestor)
            if up == ancestor { break }
            ancestor = up
        }
        // Folders vtourist creates are its own: the database in them can hold the Flickr key.
        for dir in missing.reversed() {
            let failure = PrivateFiles.makeFolder(dir)
            if failure != 0 && failure != EEXIST {
                throw .cannotCreateFolder(path: path, folder: dir, reason: String(cString: strerror(failure)))
            }
        }
    }

    /// Why there is no database at `path`, which does not exist: a file where a folder should be, or none.
    static func absence(_ path: String) -> StoreError {
        var ancestor = folder(of: path)
        while true {
            if let isDir = isDirectory(ancestor) {
                return isDir ? .missing(path: path) : .parentNotDirectory(path: path, parent: ancestor)
            }
            let up = folder(of: ancestor)
            if up == ancestor { return .missing(path: path) }
            ancestor = up
        }
    }

    static func facts(path: String) -> PathFacts {
        func file(_ p: String) -> PathFacts.File? {
            // nil when absent, also when it vanishes between calls (another instance closing removes -wal/-shm).
            func allowed(_ mode: Int32) -> Bool? { access(p, mode) == 0 ? true : (errno == ENOENT ? nil : false) }
            guard let readable = allowed(R_OK), let writable = allowed(W_OK) else { return nil }
            return .init(readable: readable, writable: writable)
        }
        return PathFacts(database: file(path), wal: file(path + "-wal"), shm: file(path + "-shm"),
                         folderWritable: access(folder(of: path), W_OK | X_OK) == 0)
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// True when the file starts with the SQLite header; false for text, images, random bytes.
    static func hasSQLiteHeader(_ path: String) throws(StoreError) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path: path) }
        defer { try? handle.close() }
        let header: Data
        do { header = try handle.read(upToCount: 100) ?? Data() } catch {
            throw .failure(path: path, detail: StoreError.oneLine(error.localizedDescription))
        }
        return header.count == 100 && Array(header.prefix(16)) == sqliteMagic
    }

    /// Reads an existing file without writing a byte or leaving a -wal/-shm behind, and
    /// refuses what vtourist must not open for writing.
    static func inspect(path: String, migrator: DatabaseMigrator, busyTimeout: TimeInterval) throws(StoreError) {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(busyTimeout)
        config.label = "vtourist.inspect"

        // A read-only connection to a WAL file creates -wal/-shm and cannot remove them on close;
        // with no WAL content, the main file is the whole database and can be read as immutable.
        let walSize = fileSize(path + "-wal")
        let location = walSize == 0 ? immutableURI(path) : path

        do {
            let queue = try DatabaseQueue(path: location, configuration: config)
            defer { try? queue.close() }
            try queue.read { db in try check(db, path: path, migrator: migrator) }
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// The checks themselves, on a read-only connection.
    static func check(_ db: Database, path: String, migrator: DatabaseMigrator) throws {
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            """)
        // No tables of its own (GRDB's bookkeeping at most, as after a crash mid-creation): as good as new.
        if tables.allSatisfy({ $0.hasPrefix("grdb_") }), try migrator.appliedIdentifiers(db).isEmpty { return }
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        guard applicationID == Schema.applicationID else { throw StoreError.foreignDatabase(path: path) }

        let applied = try migrator.appliedIdentifiers(db)
        let unknown = applied.subtracting(migrator.migrations)
        if !unknown.isEmpty { throw StoreError.newerVersion(path: path, migrations: Array(unknown)) }

        // Small tables only: a full quick_check would read every image (see docs/store.md).
        for table in Schema.tablesCheckedAtOpen where tables.contains(table) {
            let result = try String.fetchAll(db, sql: "PRAGMA quick_check(\(table))")
            if result != ["ok"] {
                throw StoreError.corrupt(path: path, detail: StoreError.oneLine(result.prefix(3).joined(separator: "\n")))
            }
        }
    }

    /// `file:` URI that reads the main file only, takes no locks and creates nothing.
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        return "file:\(encoded)?immutable=1"
    }
}
