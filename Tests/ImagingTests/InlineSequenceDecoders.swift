import Foundation

/// Small, strict readers of the three inline image protocols, written from
/// the protocols' documentation: they take the raw bytes a terminal would
/// receive and give back the picture, or say what is wrong with them.
struct DecodedPicture {
    var width: Int
    var height: Int
    /// Row-major RGB, 3 bytes a pixel.
    var rgb: [UInt8]

    func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }
}

struct SequenceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
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

struct KittyImage {
    /// The first chunk's control keys (a=T, f, s, v, c, r …).
    var control: [String: String]
    var chunks: Int
    var picture: DecodedPicture
}

/// `ESC _G keys[;base64] ESC \` chunks, back to back and nothing else; `m=1`
/// on every chunk but the last; payloads of at most 4096 bytes.
func decodeKitty(_ bytes: [UInt8]) throws -> KittyImage {
    var i = 0
    var controls: [[String: String]] = []
    var payload: [UInt8] = []
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
        if parts.count == 2 {
            guard parts[1].count <= 4096 else { throw SequenceError("chunk of \(parts[1].count) bytes") }
            payload += try base64(parts[1])
        }
        controls.append(keys)
        i = next
    }
    guard let first = controls.first, let last = controls.last else { throw SequenceError("no chunks") }
    for (n, keys) in controls.enumerated() {
        let more = keys["m"] ?? "0"
        if n < controls.count - 1 {
            guard more == "1" else { throw SequenceError("chunk \(n) of \(controls.count) lacks m=1") }
        }
    }
    guard (last["m"] ?? "0") == "0" else { throw SequenceError("the last chunk says more follows") }
    guard first["a"] == "T" else { throw SequenceError("not transmit-and-display: \(first)") }
    guard let s = first["s"], let v = first["v"] else { throw SequenceError("no size: \(first)") }
    let width = try integer(Substring(s)), height = try integer(Substring(v))
    let bpp: Int
    switch first["f"] ?? "32" {
    case "24": bpp = 3
    case "32": bpp = 4
    default: throw SequenceError("format f=\(first["f"] ?? "")")
    }
    guard payload.count == width * height * bpp else {
        throw SequenceError("\(payload.count) bytes for \(width)×\(height)×\(bpp)")
    }
    var rgb: [UInt8] = []
    rgb.reserveCapacity(width * height * 3)
    for p in stride(from: 0, to: payload.count, by: bpp) { rgb += payload[p..<(p + 3)] }
    return KittyImage(control: first, chunks: controls.count,
                      picture: DecodedPicture(width: width, height: height, rgb: rgb))
}

// MARK: iTerm2

struct ITermImage {
    /// The arguments before the colon (inline, width, height …).
    var arguments: [String: String]
    var picture: DecodedPicture
}

/// `ESC ]1337;File=args:base64 BEL` (or `ESC \`), the file a TIFF, PNG or JPEG.
func decodeITerm(_ bytes: [UInt8]) throws -> ITermImage {
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
    return ITermImage(arguments: arguments, picture: try decodeFile(file))
}

/// An uncompressed baseline TIFF (what chafa writes); PNG and JPEG give their size only.
private func decodeFile(_ file: [UInt8]) throws -> DecodedPicture {
    if file.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
        guard file.count >= 24 else { throw SequenceError("short PNG") }
        let be = { (o: Int) in file[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return DecodedPicture(width: be(16), height: be(20), rgb: [])
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

struct SixelImage {
    /// From the raster attributes `"Pan;Pad;Ph;Pv`.
    var declaredWidth: Int
    var declaredHeight: Int
    /// The widest band, in pixel columns.
    var columns: Int
    /// Six-pixel bands that hold pixels.
    var bands: Int
    var picture: DecodedPicture
}

/// `ESC P params q "1;1;W;H #n;2;r;g;b … data ESC \`, painted band by band.
func decodeSixel(_ bytes: [UInt8]) throws -> SixelImage {
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
