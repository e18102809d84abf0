import AlbumExport
import Foundation
import Terminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Saving a photo's image as a file: `<pictures>/vtourist/<title>.jpg`, never over an existing file.
public enum PhotoFile {
    /// The pictures folder: `$XDG_PICTURES_DIR` when set, else `~/Pictures`.
    public static func picturesFolder(environment: [String: String]) -> URL {
        if let dir = environment["XDG_PICTURES_DIR"], dir.hasPrefix("/") {
            return URL(fileURLWithPath: dir, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("Pictures", isDirectory: true)
    }

    /// Where a save left the photo: a new file, or the file that already held exactly these bytes.
    public enum Saved: Equatable, Sendable {
        case written(String)
        case alreadySaved(String)

        public var path: String {
            switch self {
            case let .written(path), let .alreadySaved(path): path
            }
        }

        /// What the message line says.
        public var message: String {
            switch self {
            case let .written(path): "Saved to \(path)"
            case let .alreadySaved(path): "Already saved as \(path)"
            }
        }
    }

    /// Writes the bytes to a new file in `<pictures>/vtourist/` named after the title (`name (2).jpg`
    /// when that is taken by other bytes), creating the folders. A file of that name holding exactly
    /// these bytes is the photo saved before: nothing is written again.
    public static func save(_ bytes: Data, title: String, pictures: URL) throws -> Saved {
        let folder = pictures.appendingPathComponent("vtourist", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = SafeFileName.make(title, fallback: "photo")
        var n = 1
        while true {
            let file = folder.appendingPathComponent(n == 1 ? "\(name).jpg" : "\(name) (\(n)).jpg").path
            // O_EXCL: a file that is there, or appears meanwhile, is never written over.
            let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 {
                if errno == EEXIST {
                    if holds(bytes, file) { return .alreadySaved(file) }
                    n += 1
                    continue
                }
                throw PhotoFileError(String(cString: strerror(errno)))
            }
            do {
                try write(bytes, to: fd)
                guard close(fd) == 0 else { throw PhotoFileError(String(cString: strerror(errno))) }
            } catch {
                unlink(file)
                throw error
            }
            return .written(file)
        }
    }

    /// Whether the regular file at `path` holds exactly `bytes` (its size is compared before it is read).
    static func holds(_ bytes: Data, _ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count else {
            return false
        }
        return FileManager.default.contents(atPath: path) == bytes
    }

    private static func write(_ bytes: Data, to fd: Int32) throws {
        if let error = bytes.withUnsafeBytes({ writeAll($0, to: fd) }) {
            close(fd)
            throw PhotoFileError(String(cString: strerror(error)))
        }
    }
}

public struct PhotoFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
