/// How a stored picture must be turned to be shown upright: the EXIF Orientation tag (0x0112).
///
/// Each case says where the stored picture's first row and first column end up.
public enum EXIFOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left–right.
    case upMirrored = 2
    /// Turned half a circle.
    case down = 3
    /// Mirrored top–bottom.
    case downMirrored = 4
    /// Transposed: the first row is the left column, the first column the top row.
    case leftMirrored = 5
    /// Turn a quarter clockwise to show: the first row is the right column.
    case right = 6
    /// Transversed: the first row is the right column, the first column the bottom row.
    case rightMirrored = 7
    /// Turn a quarter anticlockwise to show: the first row is the left column.
    case left = 8

    /// Cases 5–8 swap width and height.
    public var swapsSides: Bool { rawValue >= 5 }
}

/// What the decoder needs from a JPEG's marker segments before the picture data.
struct JPEGMarkers: Equatable {
    /// From the first APP1 Exif segment's IFD0; `.up` when absent or unreadable.
    var orientation: EXIFOrientation = .up
    /// An APP14 "Adobe" segment is present: its CMYK is stored inverted (as Photoshop writes it).
    var hasAdobeSegment = false
    /// The frame header (SOFn): progressive or not, and each component's sampling factors.
    var isProgressive = false
    var sampling: [Sampling] = []
    struct Sampling: Equatable { var h: Int; var v: Int }
    /// How many components the first scan holds (0 when there is no scan header).
    var firstScanComponents = 0

    /// Whether the decoder must hold the whole picture's coefficients before it can give a row:
    /// progressive pictures, and sequential ones whose first scan lacks a component.
    var needsWholePicture: Bool {
        isProgressive || (firstScanComponents > 0 && firstScanComponents < sampling.count)
    }

    /// The bytes libjpeg's whole-picture coefficient buffer takes for a `width`×`height` frame
    /// (64 coefficients of 2 bytes per 8×8 block of each component), 0 when none is needed.
    func wholePictureBytes(width: Int, height: Int) -> Int {
        guard needsWholePicture, !sampling.isEmpty else { return 0 }
        // A frame header holds sides of at most 65535: no product below can overflow.
        let width = min(max(width, 0), 65535), height = min(max(height, 0), 65535)
        let hMax = max(1, sampling.map(\.h).max() ?? 1), vMax = max(1, sampling.map(\.v).max() ?? 1)
        var total = 0
        for component in sampling {
            let across = (width * max(1, component.h) + 8 * hMax - 1) / (8 * hMax)
            let down = (height * max(1, component.v) + 8 * vMax - 1) / (8 * vMax)
            total += across * down * 128
        }
        return total
    }

    /// Walks the segments from SOI to the first SOS (start of scan). Never fails:
    /// damaged or missing segments leave the defaults.
    static func read(_ bytes: UnsafeRawBufferPointer) -> JPEGMarkers {
        var result = JPEGMarkers()
        var foundExif = false
        let count = bytes.count
        guard count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return result }
        var i = 2
        while i + 4 <= count {
            guard bytes[i] == 0xFF else { break }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }                   // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            if marker == 0xD9 { break }                              // EOI: headers are over
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2 else { break }
            let start = i + 4
            let end = min(i + 2 + length, count)
            if marker == 0xDA {                                      // SOS: its component count, then stop
                if end > start { result.firstScanComponents = Int(bytes[start]) }
                break
            }
            // SOFn (not DHT C4, JPG C8, DAC CC): precision, height, width, components (id, sampling, table).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), end - start >= 6 {
                result.isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                let components = Int(bytes[start + 5])
                result.sampling = (0..<components).compactMap { c in
                    let at = start + 6 + c * 3 + 1
                    return at < end ? Sampling(h: Int(bytes[at] >> 4), v: Int(bytes[at] & 0x0F)) : nil
                }
            }
            if marker == 0xE1, !foundExif, end - start >= 6,
               bytes[start] == 0x45, bytes[start + 1] == 0x78, bytes[start + 2] == 0x69, bytes[start + 3] == 0x66,
               bytes[start + 4] == 0, bytes[start + 5] == 0 {
                foundExif = true
                let tiff = UnsafeRawBufferPointer(rebasing: bytes[(start + 6)..<end])
                if let orientation = exifOrientation(tiff) { result.orientation = orientation }
            } else if marker == 0xEE, end - start >= 5,
                      bytes[start] == 0x41, bytes[start + 1] == 0x64, bytes[start + 2] == 0x6F,
                      bytes[start + 3] == 0x62, bytes[start + 4] == 0x65 {
                result.hasAdobeSegment = true
            }
            i += 2 + length
        }
        return result
    }

    /// The Orientation tag of IFD0 in a TIFF structure (an Exif payload after "Exif\0\0").
    static func exifOrientation(_ tiff: UnsafeRawBufferPointer) -> EXIFOrientation? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false   // "II": Intel, little-endian
        case (0x4D, 0x4D): bigEndian = true    // "MM": Motorola, big-endian
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(bigEndian ? at : at + 2), let low = u16(bigEndian ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for n in 0..<entries {
            let entry = ifd + 2 + n * 12
            guard let tag = u16(entry), let type = u16(entry + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            let value: Int?
            switch type {
            case 3: value = u16(entry + 8)    // SHORT, as the standard says
            case 4: value = u32(entry + 8)    // LONG, written by a few tools
            default: value = nil
            }
            return value.flatMap(EXIFOrientation.init(rawValue:))
        }
        return nil
    }
}
