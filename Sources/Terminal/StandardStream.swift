#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes every byte to a file descriptor, going on after an interruption and waiting while a
/// non-blocking descriptor is full. Nil when all is written, else the `errno` that stopped it.
@discardableResult
public func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n > 0 {
            offset += n
            continue
        }
        let error = n < 0 ? errno : EIO
        if error == EINTR { continue }
        if error == EAGAIN {
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, 100)
            continue
        }
        return error
    }
    return nil
}

/// Standard output and standard error, written without ever stopping the program: when the
/// text cannot be written (a full disk under a redirect, a file-size limit, a closed descriptor)
/// it is lost, not the work. Foundation's `FileHandle.write` stops the process on such an error.
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    public func write(_ bytes: [UInt8]) {
        // A standard stream that cannot be written to is not worth stopping the program for.
        _ = bytes.withUnsafeBytes { writeAll($0, to: rawValue) }
    }
}
