#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
