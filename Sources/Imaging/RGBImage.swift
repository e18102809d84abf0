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

extension RGBImage {
    /// The picture brought to exactly `w`×`h`, larger along at least one side: each pixel sampled
    /// between its four nearest source pixels (bilinear), in fixed point.
    public func enlarged(width w: Int, height h: Int) -> RGBImage {
        if w == width, h == height { return self }
        precondition(w > 0 && h > 0 && width > 0 && height > 0, "enlarged needs pixels")
        var out = [UInt8](repeating: 0, count: w * h * 3)
        // Source positions of each output column and row, in 1/256 of a pixel, centres aligned.
        func positions(_ n: Int, _ source: Int) -> [(Int, Int, Int)] {
            (0..<n).map { i in
                let p = max(0, ((2 * i + 1) * source * 256 / (2 * n)) - 128)
                let i0 = min(source - 1, p >> 8)
                return (i0, min(source - 1, i0 + 1), p & 255)
            }
        }
        let xs = positions(w, width), ys = positions(h, height)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let src = src.baseAddress, let dst = dst.baseAddress else { return }
                for (y, (y0, y1, fy)) in ys.enumerated() {
                    let row0 = src + y0 * width * 3, row1 = src + y1 * width * 3
                    let line = dst + y * w * 3
                    for (x, (x0, x1, fx)) in xs.enumerated() {
                        for c in 0..<3 {
                            let top = Int(row0[x0 * 3 + c]) * (256 - fx) + Int(row0[x1 * 3 + c]) * fx
                            let bottom = Int(row1[x0 * 3 + c]) * (256 - fx) + Int(row1[x1 * 3 + c]) * fx
                            line[x * 3 + c] = UInt8((top * (256 - fy) + bottom * fy + 32768) >> 16)
                        }
                    }
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}
