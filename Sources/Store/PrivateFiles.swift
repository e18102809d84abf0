import Foundation

/// The database can hold the Flickr API key (SPEC 2.3), so its files are for their owner only:
/// the file and its -wal/-shm 0600, a folder vtourist creates 0700. Modes are only ever tightened.
enum PrivateFiles {
    static let fileMode: mode_t = 0o600
    static let folderMode: mode_t = 0o700

    /// The permission bits of `path`, nil when it does not exist.
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Creates a folder for the owner only, whatever the umask.
    static func makeFolder(_ path: String) -> Int32 {
        guard mkdir(path, folderMode) == 0 else { return errno }
        // mkdir's mode passes through the umask, which may take the owner's own bits away.
        chmod(path, folderMode)
        return 0
    }

    /// Creates the database as an empty file for the owner only: SQLite gives a new database's
    /// -wal and -shm the main file's mode, so they are private too. True when this call created it.
    static func createEmptyFile(_ path: String) throws(StoreError) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard fd >= 0 else {
            // Another instance got there first (opening is serialised, but not with every program).
            if errno == EEXIST { return false }
            if errno == ENOSPC || errno == EDQUOT { throw .diskFull(path: path) }
            throw .failure(path: path, detail: String(cString: strerror(errno)))
        }
        fchmod(fd, fileMode)
        close(fd)
        return true
    }

    /// Takes group and other permissions off the database and its -wal/-shm; one note per file
    /// that had any, saying whether it worked.
    static func tighten(_ path: String) -> [PermissionNote] {
        var notes: [PermissionNote] = []
        for file in [path, path + "-wal", path + "-shm"] {
            guard let mode = mode(file), mode & 0o077 != 0 else { continue }
            let tightened = mode & ~mode_t(0o077)
            if chmod(file, tightened) == 0 {
                notes.append(PermissionNote(path: file, oldMode: mode, newMode: tightened, failure: nil))
            } else {
                notes.append(PermissionNote(path: file, oldMode: mode, newMode: tightened,
                                            failure: String(cString: strerror(errno))))
            }
        }
        return notes
    }
}

/// A database file other users could read or change, and what opening did about it.
public struct PermissionNote: Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var oldMode: mode_t
    public var newMode: mode_t
    /// Why the mode could not be changed (e.g. the file belongs to someone else), nil when it was.
    public var failure: String?

    public init(path: String, oldMode: mode_t, newMode: mode_t, failure: String?) {
        self.path = path
        self.oldMode = oldMode
        self.newMode = newMode
        self.failure = failure
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    public var description: String {
        let open = oldMode & 0o044 != 0 ? "readable" : "writable"
        let what = "\(path) was \(open) by other users (mode \(Self.octal(oldMode))); it can hold the Flickr API key"
        if let failure { return "\(what), but it could not be made \(Self.octal(newMode)): \(failure)" }
        return "\(what), so it is now \(Self.octal(newMode))"
    }
}
