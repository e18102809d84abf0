/// A decoded picture: 8-bit RGB, row-major, no padding. What the decoder gives and the renderer takes.
public struct RGBImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGBImage needs width × height × 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y) as (r, g, b).
    public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// The rectangle of pixels at (x, y), `width`×`height`, inside the image.
    public func cut(x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        if x == 0, y == 0, w == width, h == height { return self }
        var out = [UInt8](repeating: 0, count: w * h * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<h {
                    let s = ((y + row) * width + x) * 3
                    dst.baseAddress!.advanced(by: row * w * 3).update(from: src.baseAddress!.advanced(by: s), count: w * 3)
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}
