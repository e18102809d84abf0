import Foundation

/// A TCP port on 127.0.0.1 that refuses every connection: a socket bound to it
/// that never listens, so nothing else can take the port while this lives.
public final class ClosedPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClosedPortError(message: "cannot make a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ClosedPortError(message: "cannot bind a loopback port: \(reason)")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

public struct ClosedPortError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
