#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes a UI thread blocked in `NcursesTerminal.nextEvent` from any thread:
/// a self-pipe the event wait polls next to standard input.
public final class TerminalWaker: Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TerminalError.system("pipe failed (errno \(errno))") }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            // Non-blocking both ends: a full pipe already means "wake up".
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Makes a blocked (or the next) `nextEvent` return nil at once.
    public func wake() {
        var byte = WakeReason.wake.rawValue
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe; tells which reasons were in it.
    func drain() -> (woken: Bool, resized: Bool) {
        var woken = false, resized = false
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readFD, &bytes, bytes.count)
            guard n > 0 else { break }
            for b in bytes[0..<n] {
                if b == WakeReason.resize.rawValue { resized = true } else { woken = true }
            }
        }
        return (woken, resized)
    }
}

/// What a byte in the wake-up pipe means.
enum WakeReason: UInt8 {
    case wake = 0x57    // "W": another thread called wake()
    case resize = 0x52  // "R": SIGWINCH
}
