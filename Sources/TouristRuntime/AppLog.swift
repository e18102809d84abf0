import Foundation

/// Where the app writes what went wrong while curses owns the screen (stderr is not the user's to
/// read then): one line each, with the time, appended to `vtourist.log` beside the database.
public struct AppLog: Sendable {
    public var write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Writes nothing.
    public static let none = AppLog { _ in }

    /// The log file beside the database at `databasePath` (the same private folder).
    public static func beside(databasePath: String) -> AppLog {
        let path = URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("vtourist.log").path
        return file(path)
    }

    /// Appends to `path`, created readable by its owner only. A log that cannot be written is skipped:
    /// the message is on screen all the same.
    public static func file(_ path: String) -> AppLog {
        AppLog { text in
            let stamp = ISO8601DateFormatter().string(from: Date())
            let line = "\(stamp) \(text.replacingOccurrences(of: "\n", with: " "))\n"
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            defer { close(fd) }
            _ = line.utf8CString.withUnsafeBufferPointer { Foundation.write(fd, $0.baseAddress, $0.count - 1) }
        }
    }
}
