import Foundation

/// Why a map file could not be read. The message names the file's problem
/// in words a user can act on (reinstall, regenerate).
public enum MapDataError: Error, Equatable, CustomStringConvertible, Sendable {
    case notFound(String)
    case unreadable(path: String, reason: String)
    case notAMapFile
    case unsupportedVersion(Int)
    case truncated(String)
    case corrupt(String)

    public var description: String {
        switch self {
        case .notFound(let name):
            return "map data \(name) not found (set VTOURIST_DATA_DIR to the folder holding it)"
        case .unreadable(let path, let reason):
            return "cannot read map data \(path): \(reason)"
        case .notAMapFile:
            return "map data is not a vtourist map file (bad magic bytes)"
        case .unsupportedVersion(let v):
            return "map data has format version \(v); this build reads version \(MapFormat.version)"
        case .truncated(let what):
            return "map data is truncated: \(what)"
        case .corrupt(let what):
            return "map data is corrupt: \(what)"
        }
    }
}

/// Constants of the `.vtmap` format (docs/data-map.md).
enum MapFormat {
    static let magic: [UInt8] = Array("VTMP".utf8)
    static let version = 2
    static let coordinateBits = 26
    static let headerSize = 8
    static let levelEntrySize = 20
    static let maxChunkPoints = 256
    /// Land, lakes, borders, provinces, rivers.
    static let layerCount = 5
    /// The smallest possible chunk head: nine one-byte fields.
    static let minChunkHeadBytes = 9
    /// The smallest possible chunk's points: one pair of one-byte deltas.
    static let minChunkPointBytes = 2
}

/// One entry of the level directory.
struct LevelEntry: Sendable {
    var toleranceMicrodegrees: Int
    var shift: Int
    var offset: Int
    var length: Int
    var pointCount: Int
}

/// Reads little-endian integers and varints with bounds checks; every
/// failure is a thrown `MapDataError`, never a trap.
struct ByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int
    let context: String

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, context: String) {
        self.bytes = bytes
        self.position = start
        self.end = end
        self.context = context
    }

    var remaining: Int { end - position }

    mutating func u32() throws -> Int {
        guard remaining >= 4 else { throw MapDataError.truncated("\(context) ends inside a 32-bit field") }
        var v = 0
        for i in 0..<4 { v |= Int(bytes[position + i]) << (8 * i) }
        position += 4
        return v
    }

    /// Unsigned LEB128, at most 5 bytes: every value the format stores fits
    /// in 35 bits, so sums of them can never overflow `Int`.
    @inline(__always)
    mutating func uvarint() throws -> Int {
        var result = 0
        var shift = 0
        while true {
            guard position < end else { throw MapDataError.truncated("\(context) ends inside a number") }
            let b = Int(bytes[position])
            position += 1
            result |= (b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            guard shift < 35 else { throw MapDataError.corrupt("\(context) holds an over-long number") }
        }
    }

    @inline(__always)
    mutating func svarint() throws -> Int {
        let u = try uvarint()
        return (u >> 1) ^ -(u & 1)
    }
}
