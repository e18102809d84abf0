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
        var data = Data(count: size)
        let read = data.withUnsafeMutableBytes { buffer -> Int in
            var done = 0
            while done < size {
                let n = Foundation.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return n < 0 ? -1 : done }
                done += n
            }
            return done
        }
        guard read == size else { throw Failure(description: read < 0 ? String(cString: strerror(errno)) : "the file changed while it was read") }
        return data
    }
}
