import Foundation

/// Why a gazetteer file could not be used.
public enum GazetteerError: Error, Equatable, CustomStringConvertible {
    case missingResource(String)
    case unreadable(path: String, reason: String)
    case invalidFormat(path: String, reason: String)
    /// A line of the destinations file (0: the file as a whole) is not as docs/data-places.md says.
    case invalidDestinations(path: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .missingResource(let name): "Gazetteer data \(name) not found (set VTOURIST_DATA_DIR)"
        case .unreadable(let path, let reason): "Cannot read gazetteer \(path): \(reason)"
        case .invalidFormat(let path, let reason): "Gazetteer \(path) is damaged or of another version: \(reason)"
        case .invalidDestinations(let path, let line, let reason):
            line > 0 ? "Destinations file \(path) is damaged at line \(line): \(reason)"
                     : "Destinations file \(path) is damaged: \(reason)"
        }
    }
}

/// Where things are in a places.vtgaz file (see docs/data-places.md).
/// All numbers are little-endian; offsets are from the start of the file
/// except string offsets, which are from the start of the string section.
struct PlacesLayout: Sendable {
    static let magic: [UInt8] = Array("VTGAZ".utf8) + [0, 0, 1]
    static let version: UInt32 = 2
    static let headerSize = 92
    static let recordSize = 20
    static let countrySize = 26
    static let admin1Size = 8
    static let indexEntrySize = 6
    static let gridColumns = 360
    static let gridRows = 180
    static let noAdmin1: UInt16 = 0xFFFF
    static let aliasFlag: UInt32 = 0x80_0000
    /// Record byte 19, bit 0.
    static let capitalFlag: UInt8 = 0x01
    static let noRank: UInt32 = 0xFFFF_FFFF

    var count = 0
    var countryCount = 0
    var admin1Count = 0
    var indexCount = 0
    var records = 0
    var countries = 0
    var admin1 = 0
    var index = 0
    var gridStarts = 0
    var gridItems = 0
    var gridItemCount = 0
    var strings = 0
    var stringsLength = 0

    /// Checks the header against the bytes; every later read is still bounds-checked.
    init(_ bytes: UnsafeRawBufferPointer) throws(PlacesLayoutError) {
        let r = ByteReader(bytes)
        guard bytes.count >= Self.headerSize else { throw .init("file is \(bytes.count) bytes, shorter than its header") }
        guard Array(bytes[0..<8]) == Self.magic else { throw .init("not a vtourist gazetteer") }
        guard r.u32(8) == Self.version else { throw .init("format version \(r.u32(8)), expected \(Self.version)") }
        count = Int(r.u32(12))
        countryCount = Int(r.u32(16))
        admin1Count = Int(r.u32(20))
        indexCount = Int(r.u32(24))
        let cells = Int(r.u32(28))
        let total = Int(r.u32(88))
        guard total == bytes.count else { throw .init("file is \(bytes.count) bytes, header says \(total) (truncated?)") }
        guard cells == Self.gridColumns * Self.gridRows else { throw .init("grid of \(cells) cells") }

        var sections: [(offset: Int, length: Int)] = []
        for i in 0..<7 {
            let offset = Int(r.u32(32 + 8 * i)), length = Int(r.u32(36 + 8 * i))
            guard offset >= Self.headerSize, offset + length <= total else { throw .init("section \(i) lies outside the file") }
            sections.append((offset, length))
        }
        let expected = [count * Self.recordSize, countryCount * Self.countrySize, admin1Count * Self.admin1Size,
                        indexCount * Self.indexEntrySize, (cells + 1) * 4]
        for (i, length) in expected.enumerated() where sections[i].length != length {
            throw .init("section \(i) is \(sections[i].length) bytes, expected \(length)")
        }
        records = sections[0].offset
        countries = sections[1].offset
        admin1 = sections[2].offset
        index = sections[3].offset
        gridStarts = sections[4].offset
        gridItems = sections[5].offset
        gridItemCount = sections[5].length / 4
        strings = sections[6].offset
        stringsLength = sections[6].length
        guard count < Int(Self.aliasFlag), countryCount <= 256, admin1Count < Int(Self.noAdmin1) else {
            throw .init("tables too large")
        }
        // Cell starts must rise from 0 to the item count, so every cell's range is valid.
        var previous: UInt32 = 0
        for c in 0...cells {
            let start = r.u32(gridStarts + 4 * c)
            guard start >= previous else { throw .init("grid cell \(c) starts before the previous one") }
            previous = start
        }
        guard r.u32(gridStarts) == 0, Int(previous) == gridItemCount else { throw .init("grid does not match its items") }
    }
}

struct PlacesLayoutError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Little-endian reads that return 0 instead of trapping when out of bounds,
/// so a damaged file yields odd answers rather than a crash.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    @inline(__always) func u8(_ offset: Int) -> UInt8 {
        guard offset >= 0, offset < bytes.count else { return 0 }
        return bytes[offset]
    }

    @inline(__always) func u16(_ offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always) func i32(_ offset: Int) -> Int32 { Int32(bitPattern: u32(offset)) }

    /// 24-bit unsigned at `offset`.
    @inline(__always) func u24(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u8(offset + 2)) << 16
    }
}
