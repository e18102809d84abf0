import Foundation
import Model
import Store

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a save wrote.
public struct AlbumSaved: Sendable, Equatable {
    /// The folder, as given.
    public var folder: String
    /// The photos written (the files before `credits.json` and `index.html`).
    public var photos: Int
    /// Every file written, in order, as paths.
    public var files: [String]
}

/// Why an album was not (wholly) saved; each names the path it concerns.
public enum AlbumSaveFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No such pin (deleted meanwhile).
    case noSuchPin(Pin.ID)
    /// No photo of the album is stored: nothing written, no folder made.
    case nothingStored(Pin.ID)
    /// The store could not be read.
    case store(String)
    /// A file the save would write is there already: nothing written. `others`: how many more are.
    case exists(path: String, others: Int)
    /// The folder, or a folder on the way to it, is not one or cannot be made.
    case folder(path: String, reason: String)
    /// A file could not be written (the disk full, say); `written`: the files written before it, left in place.
    case cannotWrite(path: String, reason: String, written: [String])

    public var description: String {
        switch self {
        case let .noSuchPin(id):
            return "pin \(id) is gone (deleted while this ran)"
        case let .nothingStored(id):
            return "pin \(id) has no stored photos yet: nothing written"
        case let .store(reason):
            return "cannot read the album: \(reason)"
        case let .exists(path, others):
            let more = others == 0 ? "" : others == 1 ? " (and 1 other file)" : " (and \(others) other files)"
            return "\(path) already exists\(more): nothing written"
        case let .folder(path, reason):
            return "cannot make the folder \(path): \(reason)"
        case let .cannotWrite(path, reason, written):
            guard !written.isEmpty else { return "cannot write \(path): \(reason); nothing written" }
            let names = written.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
            return "cannot write \(path): \(reason); "
                + (written.count == 1 ? "the file written before it is" : "the \(written.count) files written before it are")
                + " left in place: \(names)"
        }
    }
}

/// Writes an album into a folder: each stored photo's original bytes (the large image where one is
/// stored, else the album's image; never re-encoded), then `credits.json` and `index.html`.
public enum AlbumSaving {
    /// Saves the pin's album into `folder` (made with its parents, 0755, when missing). Without `force`
    /// an existing file is never written over: when one is there, nothing is written. `written` hears
    /// each file as it lands.
    public static func save(_ store: AppDatabase, pinID: Pin.ID, into folder: String, force: Bool,
                            written: (String) -> Void = { _ in }) throws(AlbumSaveFailure) -> AlbumSaved {
        let export: AlbumExport
        do {
            guard let album = try store.album(pinID: pinID) else { throw AlbumSaveFailure.noSuchPin(pinID) }
            export = AlbumExport(album, large: try store.largeImageInfos(pinID: pinID))
        } catch let failure as AlbumSaveFailure {
            throw failure
        } catch {
            throw .store("\(error)")
        }
        guard !export.items.isEmpty else { throw .nothingStored(pinID) }
        let folderURL = URL(fileURLWithPath: folder, isDirectory: true)
        func path(_ name: String) -> String { folderURL.appendingPathComponent(name).path }

        if let (failed, reason) = makeFolders(folderURL.path) { throw .folder(path: failed, reason: reason) }
        if !force {
            let there = export.fileNames.map(path).filter(exists)
            if let first = there.first { throw .exists(path: first, others: there.count - 1) }
        }

        var files: [String] = []
        // Each file written → the large image it came from (nil: the album's image).
        var kept: [String: LargeImageInfo?] = [:]
        func put(_ bytes: Data, _ name: String) throws(AlbumSaveFailure) {
            let file = path(name)
            if let reason = writeFile(bytes, to: file, force: force) {
                throw .cannotWrite(path: file, reason: reason, written: files)
            }
            files.append(file)
            written(file)
        }
        for item in export.items {
            let id = item.photo.record.id
            let bytes: Data?
            let large: LargeImage?
            do {
                large = try store.largeImage(photoID: id)
                bytes = try large?.bytes ?? store.imageBytes(photoID: id)
            } catch {
                throw .cannotWrite(path: path(item.file), reason: "cannot read the photo: \(error)", written: files)
            }
            // A photo deleted or fetched again meanwhile is left out, of the credits too.
            guard let bytes else { continue }
            try put(bytes, item.file)
            kept[item.file] = .some(large.map { LargeImageInfo(width: $0.width, height: $0.height, bytes: $0.bytes.count) })
        }
        let saved = export.written(kept)
        try put(saved.credits, AlbumExport.creditsFile)
        try put(Data(saved.indexHTML.utf8), AlbumExport.indexFile)
        return AlbumSaved(folder: folder, photos: kept.count, files: files)
    }

    /// Where `W` saves a pin's album: `<pictures>/vtourist/<pin name>/`, or `<pin name> 2/`, `3`, … when
    /// that holds something already. `taken`: the folder passed over, when one was.
    public static func picturesFolder(_ pictures: URL, pin: Pin) -> (folder: String, taken: String?) {
        let base = pictures.appendingPathComponent("vtourist", isDirectory: true)
        let name = SafeFileName.make(pin.displayName, fallback: "Pin \(pin.id)")
        var n = 1
        while true {
            let folder = base.appendingPathComponent(n == 1 ? name : "\(name) \(n)", isDirectory: true).path
            if isEmptyOrMissing(folder) {
                return (folder, n == 1 ? nil : base.appendingPathComponent(name, isDirectory: true).path)
            }
            n += 1
        }
    }

    // MARK: - Files

    /// Whether nothing is at `path`, or an empty folder. A path that cannot be looked at (a file on the
    /// way, no permission) counts as free: the save then names it and says why.
    static func isEmptyOrMissing(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return true }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return false }
        return (try? FileManager.default.contentsOfDirectory(atPath: path).isEmpty) ?? false
    }

    /// Whether anything (a file, a folder, a dangling link) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Makes the folder and its parents (0755): nil when it is there, else the path that failed and why.
    static func makeFolders(_ path: String) -> (String, String)? {
        var info = stat()
        if stat(path, &info) == 0 {
            return (info.st_mode & S_IFMT) == S_IFDIR ? nil : (path, "it is a file, not a folder")
        }
        // ENOTDIR: a file on the way, which the parents' turn names.
        guard errno == ENOENT || errno == ENOTDIR else { return (path, reason(errno)) }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, let failed = makeFolders(parent) { return failed }
        if mkdir(path, 0o755) != 0, errno != EEXIST { return (path, reason(errno)) }
        return nil
    }

    /// Writes a file: nil when written, else why not. The bytes go to a hidden temporary file beside
    /// it (`.vtourist-XXXXXX`), which then takes the name, so the name holds the whole file or nothing,
    /// even when the process is killed (a kill can leave only the hidden file). Without `force` the name
    /// is taken only when nothing has it (a hard link: one that appeared meanwhile is never written
    /// over; where the file system has no hard links, the file is created there directly, O_EXCL); with
    /// it, the temporary file is renamed over the old one, so a failure leaves the old file whole.
    static func writeFile(_ bytes: Data, to path: String, force: Bool) -> String? {
        var template = Array(((path as NSString).deletingLastPathComponent + "/.vtourist-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return reason(errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(temporary) }
        var failure = write(bytes, to: fd)
        if failure == nil, fchmod(fd, 0o644) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if let failure { return reason(failure) }
        if force {
            return rename(temporary, path) == 0 ? nil : reason(errno)
        }
        if link(temporary, path) == 0 { return nil }
        switch errno {
        case EEXIST:
            return "it appeared meanwhile"
        case EPERM, EOPNOTSUPP, EMLINK, ENOSYS:
            // No hard links here (FAT, some network shares): straight to the name, made only if free.
            return writeDirectly(bytes, to: path)
        case let code:
            return reason(code)
        }
    }

    /// Writes the file under its own name, created only when nothing is there; a file that could not
    /// be finished is removed.
    static func writeDirectly(_ bytes: Data, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errno == EEXIST ? "it appeared meanwhile" : reason(errno) }
        var failure = write(bytes, to: fd)
        if close(fd) != 0, failure == nil { failure = errno }
        guard let failure else { return nil }
        unlink(path)
        return reason(failure)
    }

    /// Writes all the bytes: nil, or the error number that stopped it.
    static func write(_ bytes: Data, to fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC, EFBIG, EDQUOT: "the disk is full"
        default: String(cString: strerror(code))
        }
    }
}
