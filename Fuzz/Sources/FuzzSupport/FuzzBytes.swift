import Foundation

/// The fuzzer's input read as a stream of small typed values: every read succeeds (zeros once
/// the bytes run out), so any input is a valid program of actions.
public struct FuzzBytes {
    private let bytes: [UInt8]
    private var position = 0

    public init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A number in `range`, from one or two bytes.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = range.upperBound - range.lowerBound + 1
        let raw = span <= 256 ? Int(byte()) : Int(byte()) << 8 | Int(byte())
        return range.lowerBound + raw % span
    }

    /// A small signed number with the edges of the type mixed in: where bugs live.
    public mutating func edgyInt() -> Int {
        switch byte() % 8 {
        case 0: return Int.max
        case 1: return Int.min
        case 2: return -Int(byte())
        case 3: return Int(Int32.max)
        default: return Int(byte())
        }
    }

    /// A double, now and then not finite or very large.
    public mutating func double() -> Double {
        switch byte() % 10 {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -.infinity
        case 3: return Double(Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte()))) * 1e6
        default: return Double(Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte()))) / 100
        }
    }

    /// Up to `maxLength` bytes as UTF-8 text (invalid sequences become U+FFFD).
    public mutating func text(maxLength: Int) -> String {
        let length = min(Int(byte()) % (maxLength + 1), bytes.count - min(position, bytes.count))
        defer { position += length }
        return String(decoding: bytes[position..<(position + length)], as: UTF8.self)
    }
}

/// Input read as whole files: the fuzzer's bytes as `Data`.
public func fuzzData(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let data, count > 0 else { return Data() }
    return Data(bytes: data, count: count)
}
