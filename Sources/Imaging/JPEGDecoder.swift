import CTurboJPEG
import Foundation
import Terminal

/// Decodes JPEG bytes into an upright `RGBImage` no larger than needed, with libturbojpeg.
///
/// Each call makes its own TurboJPEG handle, so calls from any number of threads at
/// once are safe; nothing is shared.
public enum JPEGDecoder {
    /// Pictures declaring more pixels than this are refused (a 60000×60000 header is not decoded).
    public static let defaultPixelBudget = 64_000_000
    /// Progressive pictures (and sequential ones in several scans) are decoded by keeping every
    /// coefficient of the whole picture, at whatever scale they are shown: more than this is refused.
    /// 64 MB is a 21-megapixel progressive photo in 4:2:0; a 600-byte file declaring 8000×8000 would
    /// take 192 MB.
    public static let wholePictureMemoryBudget = 64 << 20

    /// Throws what `decode` would refuse before decoding anything: bytes that are no JPEG, a header
    /// the decoder cannot read, a declared size over `pixelBudget`, or more whole-picture memory than
    /// `wholePictureMemoryBudget`. Reads only the headers.
    public static func check(_ data: Data, pixelBudget: Int = defaultPixelBudget) throws(ImageError) {
        let result = data.withUnsafeBytes { bytes -> Result<Void, ImageError> in
            Result { () throws(ImageError) in
                _ = try checkedHeader(Handle(), bytes, pixelBudget: pixelBudget)
            }
        }
        try result.get()
    }

    /// The frame header and markers, once the declared size is within both budgets.
    private static func checkedHeader(_ handle: Handle, _ bytes: UnsafeRawBufferPointer,
                                      pixelBudget: Int) throws(ImageError) -> (Handle.Header, JPEGMarkers) {
        let header = try handle.header(bytes)
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        if overflow || pixels > pixelBudget {
            throw .tooLarge(width: header.width, height: header.height)
        }
        let markers = JPEGMarkers.read(bytes)
        if markers.wholePictureBytes(width: header.width, height: header.height) > wholePictureMemoryBudget {
            throw .tooLarge(width: header.width, height: header.height)
        }
        return (header, markers)
    }

    /// Decodes `data` at the smallest TurboJPEG scale (1/8 … 1/1) whose picture still
    /// covers a `width`×`height` box on both sides, or the whole picture where it is smaller
    /// than the box on a side. The box is in upright pixels: for a photo stored sideways
    /// (EXIF orientation 5–8) the sides are swapped before the scale is chosen, and the
    /// decoded pixels are turned upright.
    ///
    /// A declared size over `pixelBudget` pixels, or a progressive picture whose coefficients would
    /// take more than `wholePictureMemoryBudget`, is refused before anything is allocated.
    /// A truncated file gives the part that decoded (the rest is grey).
    public static func decode(_ data: Data, fitting width: Int, _ height: Int,
                              pixelBudget: Int = defaultPixelBudget) throws(ImageError) -> RGBImage {
        let result = data.withUnsafeBytes { bytes -> Result<RGBImage, ImageError> in
            Result { () throws(ImageError) -> RGBImage in
                try decode(bytes, box: (max(width, 1), max(height, 1)), pixelBudget: pixelBudget)
            }
        }
        return try result.get()
    }

    /// The upright size of the picture (EXIF orientations 5–8 swap the sides), read from the header only.
    public static func dimensions(_ data: Data) throws(ImageError) -> (width: Int, height: Int) {
        let result = data.withUnsafeBytes { bytes -> Result<(width: Int, height: Int), ImageError> in
            Result { () throws(ImageError) -> (width: Int, height: Int) in
                let header = try Handle().header(bytes)
                let markers = JPEGMarkers.read(bytes)
                return markers.orientation.swapsSides
                    ? (header.height, header.width) : (header.width, header.height)
            }
        }
        return try result.get()
    }

    /// The TurboJPEG scaling factors of at most 1/1, smallest first.
    static let scalingFactors: [(num: Int, denom: Int)] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [(1, 1)] }
        let all = (0..<Int(count)).map { (num: Int(factors[$0].num), denom: Int(factors[$0].denom)) }
        let downward = all.filter { $0.num > 0 && $0.denom > 0 && $0.num <= $0.denom }
        let sorted = downward.sorted { $0.num * $1.denom < $1.num * $0.denom }
        return sorted.isEmpty ? [(1, 1)] : sorted
    }()

    /// TurboJPEG's `TJSCALED` (a C macro): a side scaled by num/denom, rounded up.
    static func scaled(_ side: Int, _ factor: (num: Int, denom: Int)) -> Int {
        (side * factor.num + factor.denom - 1) / factor.denom
    }

    /// The smallest scale whose result covers the box on both sides, where the picture
    /// is large enough; otherwise 1/1. `width`×`height` and the box are in stored orientation.
    static func scale(width: Int, height: Int, covering box: (width: Int, height: Int)) -> (num: Int, denom: Int) {
        let needW = min(box.width, width), needH = min(box.height, height)
        return scalingFactors.first { scaled(width, $0) >= needW && scaled(height, $0) >= needH } ?? (1, 1)
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, box: (Int, Int), pixelBudget: Int) throws(ImageError) -> RGBImage {
        let handle = try Handle()
        let (header, markers) = try checkedHeader(handle, bytes, pixelBudget: pixelBudget)
        let orientation = markers.orientation
        // The box in stored orientation.
        let storedBox = orientation.swapsSides ? (width: box.1, height: box.0) : (width: box.0, height: box.1)
        let factor = scale(width: header.width, height: header.height, covering: storedBox)
        let outW = scaled(header.width, factor), outH = scaled(header.height, factor)

        let stored = try decompress(handle, bytes, header: header, markers: markers, width: outW, height: outH)
        return oriented(stored, orientation)
    }

    /// Decompresses at exactly `width`×`height` (a size one scaling factor gives), as RGB.
    private static func decompress(_ handle: Handle, _ bytes: UnsafeRawBufferPointer, header: Handle.Header,
                                   markers: JPEGMarkers, width: Int, height: Int) throws(ImageError) -> RGBImage {
        switch header.colorspace {
        case Int32(TJCS_CMYK.rawValue), Int32(TJCS_YCCK.rawValue):
            // TurboJPEG 2.1 does not convert CMYK to RGB: decode CMYK and convert here.
            let cmyk = try handle.decompress(bytes, width: width, height: height, format: TJPF_CMYK, channels: 4)
            return rgb(fromCMYK: cmyk, width: width, height: height, inverted: markers.hasAdobeSegment)
        default:
            let rgb = try handle.decompress(bytes, width: width, height: height, format: TJPF_RGB, channels: 3)
            return RGBImage(width: width, height: height, pixels: rgb)
        }
    }

    // MARK: - A part of the picture

    /// Decodes only the part `crop` of the upright picture, at the smallest scale whose result still
    /// covers a `width`×`height` box (as `decode(_:fitting:_:)` does for the whole): the part is cut
    /// out losslessly on the JPEG's block boundaries first (TurboJPEG's transform), so a small part of
    /// a large photo decodes few pixels; then the exact part is cut from what was decoded. The EXIF
    /// orientation is honoured (the crop is of the upright picture). The same refusals as `decode`.
    public static func decode(_ data: Data, crop: PictureCrop, fitting width: Int, _ height: Int,
                              pixelBudget: Int = defaultPixelBudget) throws(ImageError) -> RGBImage {
        try decodeCounting(data, crop: crop, fitting: width, height, pixelBudget: pixelBudget).image
    }

    /// `decode(_:crop:fitting:_:)`, and how many pixels were decompressed for it (tests read it).
    static func decodeCounting(_ data: Data, crop: PictureCrop, fitting width: Int, _ height: Int,
                               pixelBudget: Int = defaultPixelBudget) throws(ImageError) -> (image: RGBImage, decoded: Int) {
        let box = (max(width, 1), max(height, 1))
        let result = data.withUnsafeBytes { bytes -> Result<(image: RGBImage, decoded: Int), ImageError> in
            Result { () throws(ImageError) -> (image: RGBImage, decoded: Int) in
                if crop.isWhole {
                    let image = try decode(bytes, box: box, pixelBudget: pixelBudget)
                    return (image, image.width * image.height)
                }
                return try decode(bytes, crop: crop, box: box, pixelBudget: pixelBudget)
            }
        }
        return try result.get()
    }

    /// A rectangle of pixels.
    struct PixelRect: Equatable { var x: Int; var y: Int; var width: Int; var height: Int }

    /// Where an upright rectangle lies in the stored picture (`width`×`height` stored pixels).
    static func storedRect(_ r: PixelRect, _ orientation: EXIFOrientation, width w: Int, height h: Int) -> PixelRect {
        switch orientation {
        case .up: return r
        case .upMirrored: return PixelRect(x: w - r.x - r.width, y: r.y, width: r.width, height: r.height)
        case .down: return PixelRect(x: w - r.x - r.width, y: h - r.y - r.height, width: r.width, height: r.height)
        case .downMirrored: return PixelRect(x: r.x, y: h - r.y - r.height, width: r.width, height: r.height)
        case .leftMirrored: return PixelRect(x: r.y, y: r.x, width: r.height, height: r.width)
        case .right: return PixelRect(x: r.y, y: h - r.x - r.width, width: r.height, height: r.width)
        case .rightMirrored: return PixelRect(x: w - r.y - r.height, y: h - r.x - r.width, width: r.height, height: r.width)
        case .left: return PixelRect(x: w - r.y - r.height, y: r.x, width: r.height, height: r.width)
        }
    }

    /// The block (MCU) size of a subsampling, in pixels; nil for one TurboJPEG does not know.
    static func mcuSize(subsampling: Int32) -> (width: Int, height: Int)? {
        switch subsampling {
        case Int32(TJSAMP_444.rawValue), Int32(TJSAMP_GRAY.rawValue): return (8, 8)
        case Int32(TJSAMP_422.rawValue): return (16, 8)
        case Int32(TJSAMP_420.rawValue): return (16, 16)
        case Int32(TJSAMP_440.rawValue): return (8, 16)
        case Int32(TJSAMP_411.rawValue): return (32, 8)
        default: return nil
        }
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, crop: PictureCrop, box: (Int, Int),
                               pixelBudget: Int) throws(ImageError) -> (image: RGBImage, decoded: Int) {
        let handle = try Handle()
        let (header, markers) = try checkedHeader(handle, bytes, pixelBudget: pixelBudget)
        let orientation = markers.orientation
        let swaps = orientation.swapsSides
        let upright = swaps ? (width: header.height, height: header.width) : (width: header.width, height: header.height)
        let part = crop.pixels(width: upright.width, height: upright.height)
        let wanted = storedRect(PixelRect(x: part.x, y: part.y, width: part.width, height: part.height), orientation,
                                width: header.width, height: header.height)
        let storedBox = swaps ? (width: box.1, height: box.0) : (width: box.0, height: box.1)
        // A part's sides scaled are not rounded up (it lies inside the picture): a 1-pixel part needs 1/1.
        let needW = Double(min(storedBox.width, wanted.width)), needH = Double(min(storedBox.height, wanted.height))
        let factor = scalingFactors.first {
            Double(wanted.width * $0.num) >= needW * Double($0.denom) && Double(wanted.height * $0.num) >= needH * Double($0.denom)
        } ?? (1, 1)

        // The part cut out on block boundaries, as a JPEG of its own; the whole picture when that fails.
        var source = PixelRect(x: 0, y: 0, width: header.width, height: header.height)
        var decoded: RGBImage?
        if let mcu = mcuSize(subsampling: header.subsampling) {
            // One block more each way where there is one: the part's edges then decode as in the whole
            // picture (chroma is smoothed across neighbouring blocks).
            let left = max(0, wanted.x - wanted.x % mcu.width - mcu.width)
            let top = max(0, wanted.y - wanted.y % mcu.height - mcu.height)
            let right = min(header.width, wanted.x + wanted.width + mcu.width)
            let bottom = min(header.height, wanted.y + wanted.height + mcu.height)
            let region = PixelRect(x: left, y: top, width: right - left, height: bottom - top)
            if let part = try? Transformer().crop(bytes, region) {
                let result = part.withUnsafeBytes { partBytes -> Result<(Handle.Header, RGBImage), ImageError> in
                    Result { () throws(ImageError) -> (Handle.Header, RGBImage) in
                        let partHeader = try handle.header(partBytes)
                        let outW = scaled(partHeader.width, factor), outH = scaled(partHeader.height, factor)
                        return (partHeader, try decompress(handle, partBytes, header: partHeader, markers: markers,
                                                           width: outW, height: outH))
                    }
                }
                let (partHeader, image) = try result.get()
                decoded = image
                source = PixelRect(x: region.x, y: region.y, width: partHeader.width, height: partHeader.height)
            }
        }
        let image: RGBImage
        if let decoded {
            image = decoded
        } else {
            image = try decompress(handle, bytes, header: header, markers: markers,
                                   width: scaled(header.width, factor), height: scaled(header.height, factor))
        }
        // The exact part, in the decoded (scaled) pixels.
        let sx = Double(image.width) / Double(source.width), sy = Double(image.height) / Double(source.height)
        let x0 = min(image.width - 1, max(0, Int((Double(wanted.x - source.x) * sx).rounded(.down))))
        let y0 = min(image.height - 1, max(0, Int((Double(wanted.y - source.y) * sy).rounded(.down))))
        let x1 = max(x0 + 1, min(image.width, Int((Double(wanted.x + wanted.width - source.x) * sx).rounded(.up))))
        let y1 = max(y0 + 1, min(image.height, Int((Double(wanted.y + wanted.height - source.y) * sy).rounded(.up))))
        let cut = image.cut(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        return (oriented(cut, orientation), image.width * image.height)
    }

    /// CMYK to RGB the way libjpeg-turbo's own tools do (no colour management):
    /// with Adobe's inverted samples, R = C·K/255; with plain samples, R = (255−C)(255−K)/255.
    static func rgb(fromCMYK cmyk: [UInt8], width: Int, height: Int, inverted: Bool) -> RGBImage {
        let count = width * height
        var rgb = [UInt8](repeating: 0, count: count * 3)
        cmyk.withUnsafeBufferPointer { src in
            rgb.withUnsafeMutableBufferPointer { dst in
                for i in 0..<count {
                    var c = Int(src[i * 4]), m = Int(src[i * 4 + 1]), y = Int(src[i * 4 + 2]), k = Int(src[i * 4 + 3])
                    if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                    dst[i * 3] = UInt8((c * k + 127) / 255)
                    dst[i * 3 + 1] = UInt8((m * k + 127) / 255)
                    dst[i * 3 + 2] = UInt8((y * k + 127) / 255)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: rgb)
    }

    /// Turns stored pixels upright for an EXIF orientation.
    public static func oriented(_ image: RGBImage, _ orientation: EXIFOrientation) -> RGBImage {
        if orientation == .up { return image }
        let w = image.width, h = image.height
        let outW = orientation.swapsSides ? h : w
        let outH = orientation.swapsSides ? w : h
        var out = [UInt8](repeating: 0, count: outW * outH * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outH {
                    for x in 0..<outW {
                        // The stored pixel shown at (x, y).
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = (sy * w + sx) * 3, d = (y * outW + x) * 3
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: outW, height: outH, pixels: out)
    }
}

/// One TurboJPEG decompressor, destroyed with its owner. Never shared between threads.
private final class Handle {
    let raw: tjhandle

    init() throws(ImageError) {
        guard let raw = tjInitDecompress() else { throw .corrupt("the JPEG decoder could not start") }
        self.raw = raw
    }

    deinit { tjDestroy(raw) }

    struct Header { var width: Int; var height: Int; var colorspace: Int32; var subsampling: Int32 }

    /// Checks the bytes look like a JPEG and reads the frame header.
    func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> Header {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .empty }
        guard bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else {
            throw .notJPEG(FileKind.sniff(bytes))
        }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(raw, base.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
                                         &width, &height, &subsampling, &colorspace)
        if status != 0 { throw .corrupt(message) }
        guard width > 0, height > 0 else { throw .corrupt("no picture size") }
        return Header(width: Int(width), height: Int(height), colorspace: colorspace, subsampling: subsampling)
    }

    /// Decompresses at exactly `width`×`height` (a size one scaling factor gives).
    /// A warning (such as a truncated file) still returns what was decoded.
    func decompress(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int,
                    format: TJPF, channels: Int) throws(ImageError) -> [UInt8] {
        guard let base = bytes.baseAddress else { throw .empty }
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            tjDecompress2(raw, base.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
                          out.baseAddress, Int32(width), Int32(width * channels), Int32(height),
                          Int32(format.rawValue), TJFLAG_LIMITSCANS)
        }
        if status != 0 && tjGetErrorCode(raw) != Int32(TJERR_WARNING.rawValue) {
            throw .corrupt(message)
        }
        return pixels
    }

    /// TurboJPEG's last error, short: first letter lowered, no trailing full stop.
    private var message: String {
        guard let text = tjGetErrorStr2(raw) else { return "" }
        var message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        if message.hasSuffix(".") { message.removeLast() }
        if let first = message.first, message.dropFirst().first?.isLowercase ?? true {
            message = first.lowercased() + message.dropFirst()
        }
        return message
    }
}

/// One TurboJPEG transformer: cuts a part out of a JPEG without decoding it (on block boundaries).
private final class Transformer {
    let raw: tjhandle

    init() throws(ImageError) {
        guard let raw = tjInitTransform() else { throw .corrupt("the JPEG transformer could not start") }
        self.raw = raw
    }

    deinit { tjDestroy(raw) }

    /// The region (its left and top on block boundaries) as a JPEG of its own.
    func crop(_ bytes: UnsafeRawBufferPointer, _ region: JPEGDecoder.PixelRect) throws(ImageError) -> Data {
        guard let base = bytes.baseAddress else { throw .empty }
        var transform = tjtransform()
        transform.r = tjregion(x: Int32(region.x), y: Int32(region.y), w: Int32(region.width), h: Int32(region.height))
        transform.op = Int32(TJXOP_NONE.rawValue)
        transform.options = TJXOPT_CROP
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjTransform(raw, base.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), 1, &out, &size,
                                 &transform, TJFLAG_LIMITSCANS)
        defer { if let out { tjFree(out) } }
        guard status == 0, let out, size > 0 else { throw .corrupt("the part could not be cut out") }
        return Data(bytes: out, count: Int(size))
    }
}
