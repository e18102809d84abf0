import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a web page in the browser: `xdg-open`, else `open`, started on its own, in a session of its
/// own with nothing of the terminal (standard input, output and error are /dev/null), so it can never
/// write into the screen curses draws. Blocks until the opener exits: call it off the UI thread.
public enum PageOpener {
    /// The openers tried, in order.
    static let programs = ["xdg-open", "open"]

    /// The live opener: the first of `programs` that can be started.
    @Sendable public static func live(_ url: String) -> Result<Void, PageOpenFailure> {
        var reasons: [String] = []
        for program in programs {
            let (pid, errorCode) = spawnDetached(program, [url])
            if let pid {
                let status = waitForExit(pid)
                return status == 0 ? .success(()) : .failure(PageOpenFailure("\(program) failed (status \(status))"))
            }
            guard errorCode == ENOENT else {
                return .failure(PageOpenFailure("cannot start \(program): \(String(cString: strerror(errorCode)))"))
            }
            reasons.append("no \(program)")
        }
        return .failure(PageOpenFailure(reasons.joined(separator: ", ")))
    }

    /// Starts a program found on the PATH with the caller's environment, in a new session, its
    /// standard streams on /dev/null. The child's pid, or nil and the errno of why it could not start.
    static func spawnDetached(_ program: String, _ arguments: [String]) -> (pid: pid_t?, error: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if os(Linux)
        let newSession: Int32 = 0x80  // POSIX_SPAWN_SETSID, not imported from the glibc header
        #else
        let newSession = Int32(POSIX_SPAWN_SETSID)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(newSession))
        let cArgs = ([program] + arguments).map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, program, &actions, &attributes, cArgs, environ)
        return rc == 0 ? (pid, 0) : (nil, rc)
    }

    /// Waits for a child; its exit status, or 128+N after signal N.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

/// Why a page could not be opened, in words for the message line.
public struct PageOpenFailure: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
