import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bundled data file mapped read-only into memory: its pages are read as they are touched, shared
/// with every process that maps the same file, and unmapped when the last `Data` over them goes.
/// (Foundation's `Data(contentsOf:)` copies the file into a buffer of its own instead, and on this
/// platform that buffer is never freed.)
public enum MappedFile {
    /// Why a file could not be mapped, as the system says it.
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
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw Failure(description: String(cString: strerror(errno)))
        }
        return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in _ = munmap(pointer, count) })
    }
}
