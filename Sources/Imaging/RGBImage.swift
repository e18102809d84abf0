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

    /// The picture brought down to `w`×`h` (no larger than it), each pixel the mean of the pixels it covers.
    public func averaged(width w: Int, height h: Int) -> RGBImage {
        if w == width, h == height { return self }
        precondition(w > 0 && h > 0 && w <= width && h <= height, "averaged only shrinks")
        let xs = (0...w).map { $0 * width / w }, ys = (0...h).map { $0 * height / h }
        var out = [UInt8](repeating: 0, count: w * h * 3)
        // Column sums of one output row's band of source rows, then the means across each column span.
        var sums = [Int](repeating: 0, count: width * 3)
        let rowBytes = width * 3
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                sums.withUnsafeMutableBufferPointer { sums in
                    guard let src = src.baseAddress, let dst = dst.baseAddress, let sums = sums.baseAddress else { return }
                    for y in 0..<h {
                        sums.update(repeating: 0, count: rowBytes)
                        for sy in ys[y]..<ys[y + 1] {
                            let row = src + sy * rowBytes
                            for i in 0..<rowBytes { sums[i] &+= Int(row[i]) }
                        }
                        let rows = ys[y + 1] - ys[y]
                        for x in 0..<w {
                            let count = (xs[x + 1] - xs[x]) * rows
                            var r = 0, g = 0, b = 0
                            for sx in xs[x]..<xs[x + 1] {
                                r &+= sums[sx * 3]
                                g &+= sums[sx * 3 + 1]
                                b &+= sums[sx * 3 + 2]
                            }
                            let d = dst + (y * w + x) * 3
                            d[0] = UInt8((r + count / 2) / count)
                            d[1] = UInt8((g + count / 2) / count)
                            d[2] = UInt8((b + count / 2) / count)
                        }
                    }
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}
