import CTurboJPEG
import Foundation
import FuzzSupport
import Imaging

/// The decoder's pixels against TurboJPEG's own decode of the same bytes, made here with
/// `tjDecompress2` directly: the same scale, every pixel equal, in one of the EXIF orientations
/// (worked out here from the EXIF table, not with the decoder's code).
enum TurboJPEGOracle {
    /// Checks `image`, what `JPEGDecoder.decode(bytes, fitting: box…)` gave, pixel for pixel.
    static func check(_ bytes: Data, _ image: RGBImage, box: (width: Int, height: Int)) {
        guard let handle = tjInitDecompress() else { FuzzCheck.failed("TurboJPEG would not start") }
        defer { tjDestroy(handle) }
        bytes.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress!
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            FuzzCheck.that(tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace) == 0,
                           "the decoder decoded what TurboJPEG's header reader refuses")
            // Stored as shown (EXIF 1-4) or sideways (5-8): a square image could be either.
            var why: [String] = []
            for sideways in [false, true] {
                guard let problem = compare(handle, base, raw.count, image, box: box, stored: (Int(width), Int(height)),
                                            colorspace: colorspace, sideways: sideways) else { return }
                why.append(problem)
            }
            FuzzCheck.failed(why.joined(separator: "; "))
        }
    }

    /// Why `image` is not TurboJPEG's decode of a `stored` picture shown upright (turned when
    /// `sideways`), at the smallest scale covering `box`; nil when it is.
    static func compare(_ handle: tjhandle, _ base: UnsafePointer<UInt8>, _ count: Int, _ image: RGBImage,
                        box: (width: Int, height: Int), stored: (width: Int, height: Int), colorspace: Int32,
                        sideways: Bool) -> String? {
        let shown = sideways ? (width: image.height, height: image.width) : (width: image.width, height: image.height)
        let upright = sideways ? (width: stored.height, height: stored.width) : stored
        let need = (width: min(box.width, upright.width), height: min(box.height, upright.height))
        let factors = Self.factors
        let sizes = factors.map { (scaled(stored.width, $0), scaled(stored.height, $0)) }
        guard let first = sizes.firstIndex(where: { $0.0 == shown.width && $0.1 == shown.height }) else {
            return "\(shown.width)x\(shown.height) is no TurboJPEG scale of \(stored.width)x\(stored.height)"
                + (sideways ? " turned" : "")
        }
        // The decoder's contract: the smallest scale that covers the box (or the whole picture where smaller).
        if image.width < need.width || image.height < need.height {
            return "\(image.width)x\(image.height) does not cover the \(box.width)x\(box.height) box of a "
                + "\(upright.width)x\(upright.height) picture"
        }
        if first > 0 {
            let smaller = sideways ? (sizes[first - 1].1, sizes[first - 1].0) : sizes[first - 1]
            if smaller.0 >= need.width && smaller.1 >= need.height {
                return "a smaller scale (\(smaller.0)x\(smaller.1)) covers the \(box.width)x\(box.height) box"
            }
        }
        // Every scale of this size (a tiny picture has several): one must give the very pixels.
        var tried: [String] = []
        for (factor, size) in zip(factors, sizes) where size.0 == shown.width && size.1 == shown.height {
            for candidate in decoded(handle, base, count, size, colorspace: colorspace)
            where orientations(sideways).contains(where: { oriented(candidate, size, $0) == image.pixels }) {
                return nil
            }
            tried.append("\(factor.num)/\(factor.denom)")
        }
        return "\(image.width)x\(image.height) pixels differ from TurboJPEG's own decode at "
            + tried.joined(separator: ", ") + (sideways ? " turned" : "") + " in every orientation"
    }

    /// TurboJPEG's scaling factors up to 1/1, smallest first.
    static let factors: [(num: Int, denom: Int)] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [(1, 1)] }
        let all = (0..<Int(count)).map { (num: Int(factors[$0].num), denom: Int(factors[$0].denom)) }
        return all.filter { $0.num > 0 && $0.num <= $0.denom }.sorted { $0.num * $1.denom < $1.num * $0.denom }
    }()

    /// TJSCALED: a side scaled, rounded up.
    static func scaled(_ side: Int, _ f: (num: Int, denom: Int)) -> Int { (side * f.num + f.denom - 1) / f.denom }

    /// TurboJPEG's RGB for these bytes at this size; for CMYK, converted as libjpeg-turbo's tools do,
    /// with Adobe's inverted samples and without (the decoder picks by the Adobe segment).
    static func decoded(_ handle: tjhandle, _ base: UnsafePointer<UInt8>, _ count: Int, _ size: (Int, Int),
                        colorspace: Int32) -> [[UInt8]] {
        let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let channels = cmyk ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: size.0 * size.1 * channels)
        let status = pixels.withUnsafeMutableBufferPointer {
            tjDecompress2(handle, base, UInt(count), $0.baseAddress, Int32(size.0), Int32(size.0 * channels), Int32(size.1),
                          Int32((cmyk ? TJPF_CMYK : TJPF_RGB).rawValue), TJFLAG_LIMITSCANS)
        }
        FuzzCheck.that(status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue),
                       "the decoder decoded what TurboJPEG refuses: \(String(cString: tjGetErrorStr2(handle)))")
        guard cmyk else { return [pixels] }
        return [true, false].map { inverted in
            var rgb = [UInt8](repeating: 0, count: size.0 * size.1 * 3)
            for i in 0..<(size.0 * size.1) {
                let k = Int(pixels[i * 4 + 3])
                for c in 0..<3 {
                    let v = Int(pixels[i * 4 + c])
                    rgb[i * 3 + c] = UInt8(inverted ? (v * k + 127) / 255 : ((255 - v) * (255 - k) + 127) / 255)
                }
            }
            return rgb
        }
    }

    /// EXIF orientations 1-8 that keep the sides (1-4) or swap them (5-8).
    static func orientations(_ sideways: Bool) -> [Int] { sideways ? [5, 6, 7, 8] : [1, 2, 3, 4] }

    /// The stored pixels shown upright for EXIF orientation `o` (the tag's meaning: where row 0 and
    /// column 0 of the stored picture are shown).
    static func oriented(_ pixels: [UInt8], _ size: (Int, Int), _ o: Int) -> [UInt8] {
        let (w, h) = size
        let (outW, outH) = o >= 5 ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<outH {
            for x in 0..<outW {
                let (sx, sy): (Int, Int)
                switch o {
                case 2: (sx, sy) = (w - 1 - x, y)              // mirrored left to right
                case 3: (sx, sy) = (w - 1 - x, h - 1 - y)      // turned 180°
                case 4: (sx, sy) = (x, h - 1 - y)              // mirrored top to bottom
                case 5: (sx, sy) = (y, x)                      // transposed
                case 6: (sx, sy) = (y, h - 1 - x)              // turned 90° clockwise to show
                case 7: (sx, sy) = (w - 1 - y, h - 1 - x)      // transversed
                case 8: (sx, sy) = (w - 1 - y, x)              // turned 90° anticlockwise to show
                default: (sx, sy) = (x, y)
                }
                for c in 0..<3 { out[(y * outW + x) * 3 + c] = pixels[(sy * w + sx) * 3 + c] }
            }
        }
        return out
    }
}
