import Foundation
import GRDB
import Model
import Geo

/// Everything that can go wrong with the database, each as one line the user can act on.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The database path is an empty string.
    case emptyPath
    /// The path names a directory.
    case isDirectory(path: String)
    /// Nothing at the path, where a command that only reads wanted a database.
    case missing(path: String)
    /// A component of the path that should be a folder is a file.
    case parentNotDirectory(path: String, parent: String)
    /// The folders leading to the database could not be created.
    case cannotCreateFolder(path: String, folder: String, reason: String)
    /// The file exists but this user may not read it.
    case unreadable(path: String)
    /// The file exists but this user may not write it.
    case readOnlyFile(path: String)
    /// SQLite needs to create files next to the database and cannot.
    case readOnlyFolder(path: String, folder: String)
    /// A write to a database opened read-only (`AppDatabase.openForReading` on a file this user may not write).
    case readOnlyDatabase(path: String)
    /// A read-only database of an older schema: bringing it up to date needs a write.
    case readOnlyOlderVersion(path: String)
    /// The file is not SQLite at all.
    case notADatabase(path: String)
    /// The file is an SQLite database of another program.
    case foreignDatabase(path: String)
    /// The file is SQLite but damaged.
    case corrupt(path: String, detail: String)
    /// A later vtourist migrated the file to a schema this one does not know.
    case newerVersion(path: String, migrations: [String])
    /// Another program held the write lock for longer than we wait.
    case locked(path: String)
    /// The disk (or quota) is full.
    case diskFull(path: String)
    /// A coordinate outside latitude −90…90, longitude −180…180 (or not a number).
    case invalidCoordinate(latitude: Double, longitude: Double)
    /// A map view that cannot be stored (centre or cursor off the Earth, negative zoom).
    case invalidMapView(MapViewState)
    /// An image of no bytes was given to be stored for a photo.
    case emptyImage(photoID: Int64)
    /// Work for an album's older generation (a collection since replaced, a pin since moved): dropped unwritten.
    case staleAlbum(pinID: Int64, generation: Int)
    /// A setting's value out of range or unreadable; `expected` says what would do.
    case invalidSetting(key: String, value: String, expected: String)
    /// Any other SQLite or file-system failure, with SQLite's own words.
    case failure(path: String, detail: String)

    public var description: String {
        switch self {
        case .emptyPath:
            return "the database path is empty"
        case .isDirectory(let path):
            return "cannot open database \(path): it is a directory, not a file"
        case .missing(let path):
            return "no database at \(path): nothing has been stored there yet"
        case .parentNotDirectory(let path, let parent):
            return "cannot open database \(path): \(parent) is a file, not a directory"
        case .cannotCreateFolder(let path, let folder, let reason):
            return "cannot create the directory \(folder) for database \(path): \(reason)"
        case .unreadable(let path):
            return "cannot open database \(path): permission denied (not readable by this user)"
        case .readOnlyFile(let path):
            return "cannot open database \(path): the file is read-only for this user, and vtourist needs to save pins in it"
        case .readOnlyFolder(let path, let folder):
            return "cannot open database \(path): the directory \(folder) is read-only for this user, and SQLite needs to create its -wal and -shm files there"
        case .readOnlyDatabase(let path):
            return "cannot save in database \(path): it is read-only for this user"
        case .readOnlyOlderVersion(let path):
            return "cannot read database \(path): it was written by an older vtourist and is read-only for this user, "
                + "so it cannot be brought up to date; make it writable and run vtourist once"
        case .notADatabase(let path):
            return "cannot open database \(path): it is not a vtourist database (not an SQLite file)"
        case .foreignDatabase(let path):
            return "cannot open database \(path): it is not a vtourist database (an SQLite database of another program)"
        case .corrupt(let path, let detail):
            return "database \(path) is damaged (\(detail)); move it aside to start afresh, or restore a backup"
        case .newerVersion(let path, let migrations):
            let list = migrations.sorted().joined(separator: ", ")
            return "cannot open database \(path): it was written by a newer version of vtourist (unknown schema \(list)); please update vtourist"
        case .locked(let path):
            return "database \(path) is busy: another program is writing to it; try again when it has finished"
        case .diskFull(let path):
            return "cannot write database \(path): the disk is full (or the file may not grow any more)"
        case .invalidCoordinate(let latitude, let longitude):
            return "invalid coordinate \(latitude), \(longitude): latitude must be within −90…90 and longitude within −180…180"
        case .invalidMapView(let view):
            return "invalid map view: centre \(view.center.latitude), \(view.center.longitude), cursor \(view.cursor.latitude), \(view.cursor.longitude), zoom \(view.zoom)"
        case .emptyImage(let photoID):
            return "photo \(photoID): an empty image cannot be stored"
        case .staleAlbum(let pinID, let generation):
            return "pin \(pinID): the album's collection \(generation) was replaced, so its work is dropped"
        case .invalidSetting(let key, let value, let expected):
            return "invalid setting \(key) = \(Self.oneLine(value).debugDescription): \(expected)"
        case .failure(let path, let detail):
            return "database \(path): \(detail)"
        }
    }

    public var errorDescription: String? { description }
}

extension StoreError {
    /// Turns whatever SQLite or the file system threw into the one-line error for `path`.
    static func from(_ error: any Error, path: String) -> StoreError {
        if let storeError = error as? StoreError { return storeError }
        guard let dbError = error as? DatabaseError else {
            return .failure(path: path, detail: Self.oneLine(String(describing: error)))
        }
        let detail = Self.oneLine(dbError.message ?? "\(dbError.resultCode)")
        switch dbError.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .locked(path: path)
        case .SQLITE_CORRUPT:
            return .corrupt(path: path, detail: detail)
        case .SQLITE_NOTADB:
            return .notADatabase(path: path)
        case .SQLITE_READONLY:
            return .readOnlyFile(path: path)
        case .SQLITE_FULL:
            return .diskFull(path: path)
        case .SQLITE_IOERR where Self.fileCouldNotGrow.contains(dbError.extendedResultCode):
            // A write refused outright (no byte written, so SQLite cannot tell it is a full disk),
            // or the process may not make the file bigger (a file-size limit).
            return .diskFull(path: path)
        case .SQLITE_PERM, .SQLITE_AUTH:
            return .unreadable(path: path)
        default:
            return .failure(path: path, detail: detail)
        }
    }

    /// The I/O errors of writing or growing the database, its journal or its shared-memory file:
    /// on a full disk (or past a file-size limit) these are what SQLite reports.
    static let fileCouldNotGrow: [ResultCode] = [
        .SQLITE_IOERR_WRITE, .SQLITE_IOERR_TRUNCATE, .SQLITE_IOERR_SHMSIZE, .SQLITE_IOERR_SHMOPEN,
    ]

    /// Whether the same write may work later without anything changing in vtourist: another
    /// program finishes writing, space is freed. The app keeps such a write and tries it again.
    public var isTransient: Bool {
        switch self {
        case .locked, .diskFull: true
        default: false
        }
    }

    /// Seconds between tries of a write kept waiting by a full disk (a locked database waits its
    /// busy timeout in each try instead): the app's `WriteRetry` pauses this long, and the user is told so.
    public static let fullDiskPause: Double = 1

    /// What the user reads while a transient failure keeps a write waiting (nil when it is not one).
    public var waitingDescription: String? {
        switch self {
        case .locked:
            "another program is writing to the database; trying again until it has finished"
        case .diskFull:
            "the disk is full; trying again " + Self.every(Self.fullDiskPause) + " until there is room"
        default:
            nil
        }
    }

    /// "every second", "every 2 seconds", "every 0.5 seconds".
    static func every(_ seconds: Double) -> String {
        seconds == 1 ? "every second" : "every \(String(format: "%g", seconds)) seconds"
    }

    /// SQLite messages can hold newlines (e.g. quick_check lists); the user gets one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
