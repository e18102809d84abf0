import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bundled data file read whole with `read(2)` into memory its `Data` owns. (Foundation's
/// `Data(contentsOf:)` reads into a buffer of its own, which on this platform is never freed; a
/// mapped file was measured slower to rasterise from, about 5% at z6, than memory read in.)
public enum WholeFile {
    /// Why a file could not be read, as the system says it.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func data(at url: URL) throws(Failure) -> Data {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(description: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(description: "not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { return Data() }
        // Bytes of our own handed to Data, which frees them with its last copy.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        var done = 0
        while done < size {
            let n = Foundation.read(fd, buffer + done, size - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let reason = n < 0 ? String(cString: strerror(errno)) : "the file changed while it was read"
                buffer.deallocate()
                throw Failure(description: reason)
            }
            done += n
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }
}
