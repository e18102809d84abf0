import CZlib
import Foundation

/// A small PNG writer for kitty's graphics protocol (`f=100`): 8-bit RGB, no interlace, each row
/// filtered by the filter whose bytes sum smallest as signed values (the usual PNG heuristic),
/// then deflated by zlib. Photos come out at roughly half their raw size.
public enum PNGEncoder {
    /// The PNG file of `image`; nil when zlib fails or the picture is empty.
    public static func encode(_ image: RGBImage, level: Int32 = 6) -> [UInt8]? {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 3,
              image.width <= Int(Int32.max) / 3, image.height <= Int(Int32.max) else { return nil }
        guard let compressed = deflate(filtered(image), level: level) else { return nil }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(UInt32(image.width), to: &header)
        appendBigEndian(UInt32(image.height), to: &header)
        // Bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace.
        header += [8, 2, 0, 0, 0]
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", compressed, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The rows with a filter type byte in front of each, as PNG's IDAT stream holds them.
    static func filtered(_ image: RGBImage) -> [UInt8] {
        let stride = image.width * 3
        var out = [UInt8](repeating: 0, count: (stride + 1) * image.height)
        var candidate = [UInt8](repeating: 0, count: stride)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                let row = y * stride
                var bestCost = Int.max
                for filter: UInt8 in 0...4 {
                    var cost = 0
                    for x in 0..<stride {
                        let a = x >= 3 ? Int(pixels[row + x - 3]) : 0
                        let b = y > 0 ? Int(pixels[row - stride + x]) : 0
                        let c = x >= 3 && y > 0 ? Int(pixels[row - stride + x - 3]) : 0
                        let value = Int(pixels[row + x])
                        let predicted: Int
                        switch filter {
                        case 0: predicted = 0
                        case 1: predicted = a
                        case 2: predicted = b
                        case 3: predicted = (a + b) / 2
                        default: predicted = paeth(a, b, c)
                        }
                        let byte = UInt8(truncatingIfNeeded: value - predicted)
                        candidate[x] = byte
                        cost += abs(Int(Int8(bitPattern: byte)))
                    }
                    if cost < bestCost {
                        bestCost = cost
                        let start = y * (stride + 1)
                        out[start] = filter
                        for x in 0..<stride { out[start + 1 + x] = candidate[x] }
                    }
                }
            }
        }
        return out
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// `bytes` as a zlib stream (what PNG's IDAT and kitty's `o=z` take); nil when zlib fails.
    public static func deflate(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        out.removeSubrange(Int(length)...)
        return out
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typed = Array(type.utf8) + data
        png += typed
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
