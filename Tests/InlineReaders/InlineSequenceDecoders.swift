import CZlib
import Foundation
import Imaging

/// Small, strict readers (shared by the imaging and runtime tests) of the three inline image protocols, written from
/// the protocols' documentation: they take the raw bytes a terminal would
/// receive and give back the picture, or say what is wrong with them.
public struct DecodedPicture {
    public var width: Int
    public var height: Int
    /// Row-major RGB, 3 bytes a pixel.
    public var rgb: [UInt8]

    public func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }
}

public struct SequenceError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

private let esc: UInt8 = 0x1B

/// The bytes up to the next `ESC \` (string terminator) from `start`; the index after it.
private func untilST(_ bytes: [UInt8], from start: Int) throws -> (body: ArraySlice<UInt8>, next: Int) {
    var i = start
    while i + 1 < bytes.count {
        if bytes[i] == esc {
            guard bytes[i + 1] == UInt8(ascii: "\\") else { throw SequenceError("ESC inside a string at \(i)") }
            return (bytes[start..<i], i + 2)
        }
        i += 1
    }
    throw SequenceError("no string terminator after \(start)")
}

private func base64(_ text: ArraySlice<UInt8>) throws -> [UInt8] {
    let allowed = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8))
    guard text.allSatisfy(allowed.contains), text.count % 4 == 0,
          let data = Data(base64Encoded: Data(text)) else { throw SequenceError("bad base64 (\(text.count) bytes)") }
    return [UInt8](data)
}

private func integer(_ text: Substring) throws -> Int {
    guard let value = Int(text), value >= 0 else { throw SequenceError("not a number: \(text)") }
    return value
}

// MARK: kitty

public struct KittyImage {
    /// The first chunk's control keys (a=t, f, i, q …).
    public var control: [String: String]
    /// The placement's keys (a=p, i, c, r …), when one follows the data.
    public var placement: [String: String]?
    public var chunks: Int
    /// The bytes the base64 payload decoded to (the PNG file, or zlib stream).
    public var payload: [UInt8]
    public var picture: DecodedPicture
}

/// tmux's passthrough taken off: `ESC P tmux ; … ESC \` strings back to back, the ESCs inside
/// doubled; what they carry, joined.
public func unwrapTmux(_ bytes: [UInt8]) throws -> [UInt8] {
    let prefix = Array("\u{1B}Ptmux;".utf8)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        guard bytes[i...].starts(with: prefix) else { throw SequenceError("expected ESC Ptmux; at \(i)") }
        i += prefix.count
        var closed = false
        while i < bytes.count {
            if bytes[i] == esc {
                guard i + 1 < bytes.count else { throw SequenceError("lone ESC at the end") }
                if bytes[i + 1] == esc {
                    out.append(esc)
                    i += 2
                    continue
                }
                guard bytes[i + 1] == UInt8(ascii: "\\") else { throw SequenceError("undoubled ESC at \(i)") }
                i += 2
                closed = true
                break
            }
            out.append(bytes[i])
            i += 1
        }
        guard closed else { throw SequenceError("passthrough not closed") }
    }
    return out
}

/// The `ESC _G keys[;base64] ESC \` commands, back to back and nothing else: their keys and payloads.
public func kittyCommands(_ bytes: [UInt8]) throws -> [(keys: [String: String], payload: ArraySlice<UInt8>?)] {
    var i = 0
    var commands: [(keys: [String: String], payload: ArraySlice<UInt8>?)] = []
    while i < bytes.count {
        guard bytes.count - i >= 3, bytes[i] == esc, bytes[i + 1] == UInt8(ascii: "_"), bytes[i + 2] == UInt8(ascii: "G")
        else { throw SequenceError("expected ESC _G at \(i)") }
        let (body, next) = try untilST(bytes, from: i + 3)
        let parts = body.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
        var keys: [String: String] = [:]
        for pair in String(decoding: parts[0], as: UTF8.self).split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].count == 1, kv[0].allSatisfy(\.isLetter),
                  kv[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }), keys[String(kv[0])] == nil
            else { throw SequenceError("bad control key \(pair)") }
            keys[String(kv[0])] = String(kv[1])
        }
        commands.append((keys, parts.count == 2 ? parts[1] : nil))
        i = next
    }
    return commands
}

/// An image sent by id (`a=t`) in chunks (`m=1` on every chunk but the last, payloads of at
/// most 4096 bytes, later chunks with no keys but m and q), then at most one placement (`a=p`).
/// The pixels: a PNG (`f=100`) or zlib-compressed RGB (`f=24,o=z`), inflated and read back.
public func decodeKitty(_ bytes: [UInt8]) throws -> KittyImage {
    var commands = try kittyCommands(bytes)
    var placement: [String: String]?
    if let last = commands.last, last.keys["a"] == "p" {
        guard last.payload == nil else { throw SequenceError("a placement with a payload") }
        placement = last.keys
        commands.removeLast()
    }
    guard let first = commands.first, let last = commands.last else { throw SequenceError("no chunks") }
    guard first.keys["a"] == "t" else { throw SequenceError("not transmit: \(first.keys)") }
    var encoded: [UInt8] = []
    for (n, command) in commands.enumerated() {
        if n > 0 {
            guard Set(command.keys.keys).isSubset(of: ["m", "q"]) else { throw SequenceError("keys on chunk \(n): \(command.keys)") }
        }
        guard let payload = command.payload, payload.count <= 4096 else { throw SequenceError("chunk \(n) payload") }
        if n < commands.count - 1 {
            guard command.keys["m"] == "1" else { throw SequenceError("chunk \(n) of \(commands.count) lacks m=1") }
        }
        encoded += payload
    }
    guard (last.keys["m"] ?? "0") == "0" else { throw SequenceError("the last chunk says more follows") }
    let payload = try base64(encoded[...])
    let picture: DecodedPicture
    switch (first.keys["f"], first.keys["o"]) {
    case ("100", nil):
        picture = try decodePNG(payload)
    case ("24", "z"):
        guard let s = first.keys["s"], let v = first.keys["v"] else { throw SequenceError("no size: \(first.keys)") }
        let width = try integer(Substring(s)), height = try integer(Substring(v))
        picture = DecodedPicture(width: width, height: height, rgb: try inflate(payload, expecting: width * height * 3))
    default:
        throw SequenceError("format \(first.keys)")
    }
    return KittyImage(control: first.keys, placement: placement, chunks: commands.count, payload: payload, picture: picture)
}

/// A zlib stream inflated; it must give exactly `expecting` bytes.
public func inflate(_ stream: [UInt8], expecting count: Int) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count + 1)
    var length = uLong(out.count)
    let status = out.withUnsafeMutableBufferPointer { target in
        stream.withUnsafeBufferPointer { uncompress(target.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
    }
    guard status == Z_OK else { throw SequenceError("zlib status \(status)") }
    guard Int(length) == count else { throw SequenceError("inflated to \(length) bytes, not \(count)") }
    return Array(out.prefix(count))
}

/// An 8-bit RGB, non-interlaced PNG read back (signature, IHDR, IDAT chunks with their CRCs,
/// IEND; each row's filter undone).
public func decodePNG(_ file: [UInt8]) throws -> DecodedPicture {
    guard file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw SequenceError("no PNG signature") }
    let be = { (o: Int) in file[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) } }
    var i = 8
    var header: ArraySlice<UInt8>?
    var data: [UInt8] = []
    var ended = false
    while i + 12 <= file.count {
        let length = be(i)
        let type = String(decoding: file[(i + 4)..<(i + 8)], as: UTF8.self)
        guard i + 12 + length <= file.count else { throw SequenceError("chunk \(type) overruns") }
        let body = file[(i + 8)..<(i + 8 + length)]
        let crc = file[(i + 4)..<(i + 8 + length)].withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        guard UInt32(truncatingIfNeeded: crc) == UInt32(be(i + 8 + length)) else { throw SequenceError("bad CRC on \(type)") }
        switch type {
        case "IHDR": header = body
        case "IDAT": data += body
        case "IEND": ended = true
        default: break
        }
        i += 12 + length
    }
    guard ended, i == file.count, let header, header.count == 13 else { throw SequenceError("PNG structure") }
    let h = Array(header)
    let width = h[0..<4].reduce(0) { $0 << 8 | Int($1) }, height = h[4..<8].reduce(0) { $0 << 8 | Int($1) }
    guard h[8] == 8, h[9] == 2, h[12] == 0 else { throw SequenceError("not 8-bit RGB non-interlaced: \(h)") }
    let stride = width * 3
    let raw = try inflate(data, expecting: (stride + 1) * height)
    var rgb = [UInt8](repeating: 0, count: stride * height)
    for y in 0..<height {
        let filter = raw[y * (stride + 1)]
        for x in 0..<stride {
            let a = x >= 3 ? Int(rgb[y * stride + x - 3]) : 0
            let b = y > 0 ? Int(rgb[(y - 1) * stride + x]) : 0
            let c = x >= 3 && y > 0 ? Int(rgb[(y - 1) * stride + x - 3]) : 0
            let predictor: Int
            switch filter {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            default: throw SequenceError("filter \(filter)")
            }
            rgb[y * stride + x] = UInt8(truncatingIfNeeded: Int(raw[y * (stride + 1) + 1 + x]) + predictor)
        }
    }
    return DecodedPicture(width: width, height: height, rgb: rgb)
}

// MARK: iTerm2

public struct ITermImage {
    /// The arguments before the colon (inline, width, height …).
    public var arguments: [String: String]
    /// The file carried.
    public var file: [UInt8]
    public var picture: DecodedPicture
}

/// `ESC ]1337;File=args:base64 BEL` (or `ESC \`), the file a TIFF, PNG or JPEG.
public func decodeITerm(_ bytes: [UInt8]) throws -> ITermImage {
    let prefix = Array("\u{1B}]1337;File=".utf8)
    guard bytes.starts(with: prefix) else { throw SequenceError("no ESC ]1337;File= prefix") }
    var end = bytes.count
    if bytes.last == 0x07 {
        end -= 1
    } else if bytes.suffix(2) == [esc, UInt8(ascii: "\\")] {
        end -= 2
    } else {
        throw SequenceError("no BEL or ST at the end")
    }
    let body = bytes[prefix.count..<end]
    guard let colon = body.firstIndex(of: UInt8(ascii: ":")) else { throw SequenceError("no colon") }
    var arguments: [String: String] = [:]
    for pair in String(decoding: body[..<colon], as: UTF8.self).split(separator: ";") {
        let kv = pair.split(separator: "=", maxSplits: 1)
        guard kv.count == 2 else { throw SequenceError("bad argument \(pair)") }
        arguments[String(kv[0])] = String(kv[1])
    }
    let file = try base64(body[(colon + 1)...])
    if let size = arguments["size"] {
        guard try integer(Substring(size)) == file.count else { throw SequenceError("size=\(size) for \(file.count) bytes") }
    }
    return ITermImage(arguments: arguments, file: file, picture: try decodeFile(file))
}

/// A JPEG (decoded whole), a PNG, or an uncompressed baseline TIFF (what chafa writes).
private func decodeFile(_ file: [UInt8]) throws -> DecodedPicture {
    if file.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try decodePNG(file) }
    if file.starts(with: [0xFF, 0xD8, 0xFF]) {
        let image = try JPEGDecoder.decode(Data(file), fitting: Int(Int32.max), Int(Int32.max))
        return DecodedPicture(width: image.width, height: image.height, rgb: image.pixels)
    }
    guard file.starts(with: Array("II*\0".utf8)) else { throw SequenceError("neither TIFF nor PNG: \(file.prefix(4))") }
    func le(_ offset: Int, _ size: Int) throws -> Int {
        guard offset >= 0, offset + size <= file.count else { throw SequenceError("TIFF offset \(offset) outside") }
        return file[offset..<(offset + size)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
    let ifd = try le(4, 4)
    var tags: [Int: Int] = [:]
    for n in 0..<(try le(ifd, 2)) {
        let entry = ifd + 2 + n * 12
        let type = try le(entry + 2, 2)
        tags[try le(entry, 2)] = try le(entry + 8, type == 3 ? 2 : 4)
    }
    guard let width = tags[256], let height = tags[257], let offset = tags[273] else {
        throw SequenceError("TIFF without size or strip: \(tags)")
    }
    guard tags[259] ?? 1 == 1 else { throw SequenceError("compressed TIFF") }
    let samples = tags[277] ?? 1
    guard samples >= 3, offset + width * height * samples <= file.count else {
        throw SequenceError("TIFF strip of \(samples) samples does not fit")
    }
    var rgb: [UInt8] = []
    rgb.reserveCapacity(width * height * 3)
    for p in stride(from: offset, to: offset + width * height * samples, by: samples) { rgb += file[p..<(p + 3)] }
    return DecodedPicture(width: width, height: height, rgb: rgb)
}

// MARK: sixel

public struct SixelImage {
    /// From the raster attributes `"Pan;Pad;Ph;Pv`.
    public var declaredWidth: Int
    public var declaredHeight: Int
    /// The widest band, in pixel columns.
    public var columns: Int
    /// Six-pixel bands that hold pixels.
    public var bands: Int
    public var picture: DecodedPicture
}

/// `ESC P params q "1;1;W;H #n;2;r;g;b … data ESC \`, painted band by band.
public func decodeSixel(_ bytes: [UInt8]) throws -> SixelImage {
    guard bytes.count >= 4, bytes[0] == esc, bytes[1] == UInt8(ascii: "P") else { throw SequenceError("no DCS") }
    guard let q = bytes.firstIndex(of: UInt8(ascii: "q")),
          bytes[2..<q].allSatisfy({ $0 == UInt8(ascii: ";") || (0x30...0x39).contains($0) })
    else { throw SequenceError("no sixel introducer") }
    let (body, next) = try untilST(bytes, from: q + 1)
    guard next == bytes.count else { throw SequenceError("bytes after the string terminator") }
    let data = Array(body)
    var i = 0
    func number() -> Int {
        var value = 0
        while i < data.count, (0x30...0x39).contains(data[i]) {
            value = value * 10 + Int(data[i] - 0x30)
            i += 1
        }
        return value
    }
    func numbers() -> [Int] {
        var values = [number()]
        while i < data.count, data[i] == UInt8(ascii: ";") {
            i += 1
            values.append(number())
        }
        return values
    }
    guard data.first == UInt8(ascii: "\"") else { throw SequenceError("no raster attributes") }
    i = 1
    let raster = numbers()
    guard raster.count == 4 else { throw SequenceError("raster attributes \(raster)") }
    let width = raster[2], height = raster[3]
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    var palette: [Int: (UInt8, UInt8, UInt8)] = [:]
    var colour = (UInt8(0), UInt8(0), UInt8(0))
    var x = 0, band = 0, columns = 0, lastBand = -1
    while i < data.count {
        let byte = data[i]
        switch byte {
        case UInt8(ascii: "#"):
            i += 1
            let values = numbers()
            if values.count == 5 {
                guard values[1] == 2, values[2...].allSatisfy({ $0 <= 100 }) else {
                    throw SequenceError("colour \(values)")
                }
                let scale = { (p: Int) in UInt8((p * 255 + 50) / 100) }
                palette[values[0]] = (scale(values[2]), scale(values[3]), scale(values[4]))
            } else {
                guard values.count == 1, let chosen = palette[values[0]] else {
                    throw SequenceError("colour register \(values) used before it was set")
                }
                colour = chosen
            }
        case UInt8(ascii: "$"):
            x = 0
            i += 1
        case UInt8(ascii: "-"):
            x = 0
            band += 1
            i += 1
        case UInt8(ascii: "!"), 0x3F...0x7E:
            var repeats = 1
            if byte == UInt8(ascii: "!") {
                i += 1
                repeats = number()
                guard i < data.count, (0x3F...0x7E).contains(data[i]) else { throw SequenceError("bad repeat") }
            }
            let bits = Int(data[i] - 0x3F)
            i += 1
            for _ in 0..<repeats {
                for row in 0..<6 where bits & (1 << row) != 0 {
                    let y = band * 6 + row
                    guard x < width, y < height else { throw SequenceError("pixel \(x),\(y) outside \(width)×\(height)") }
                    let p = (y * width + x) * 3
                    rgb[p] = colour.0
                    rgb[p + 1] = colour.1
                    rgb[p + 2] = colour.2
                    lastBand = max(lastBand, band)
                }
                x += 1
                columns = max(columns, x)
            }
        default:
            throw SequenceError("unexpected byte \(byte) at \(i)")
        }
    }
    return SixelImage(declaredWidth: width, declaredHeight: height, columns: columns, bands: lastBand + 1,
                      picture: DecodedPicture(width: width, height: height, rgb: rgb))
}
