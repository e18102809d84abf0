/// Why a picture could not be decoded. The description is short enough for an album cell.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// The bytes are something else; what they look like.
    case notJPEG(FileKind)
    /// The declared size is over the pixel budget (checked before anything is allocated).
    case tooLarge(width: Int, height: Int)
    /// A JPEG the decoder cannot read; TurboJPEG's message.
    case corrupt(String)

    public var description: String {
        switch self {
        case .empty:
            return "empty file"
        case .notJPEG(.unknown):
            return "not a picture"
        case .notJPEG(let kind):
            return "not a JPEG (\(kind.description))"
        case .tooLarge(let width, let height):
            return "too large (\(width)×\(height))"
        case .corrupt(let message):
            return message.isEmpty ? "damaged JPEG" : "damaged JPEG: \(message)"
        }
    }
}

/// What a file that is not a JPEG looks like, judged from its first bytes.
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
    case png, gif, webp, bmp, tiff, heif, avif, pdf, svg, webPage, text, unknown

    public var description: String {
        switch self {
        case .png: "a PNG picture"
        case .gif: "a GIF picture"
        case .webp: "a WebP picture"
        case .bmp: "a BMP picture"
        case .tiff: "a TIFF picture"
        case .heif: "a HEIF picture"
        case .avif: "an AVIF picture"
        case .pdf: "a PDF document"
        case .svg: "an SVG drawing"
        case .webPage: "a web page"
        case .text: "text"
        case .unknown: "not a picture"
        }
    }

    /// Sniffs the first bytes (only called for data that does not start like a JPEG).
    static func sniff<Bytes: Collection>(_ bytes: Bytes) -> FileKind where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(512))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("BM".utf8)), head.count >= 18,
           [12, 40, 52, 56, 64, 108, 124].contains(Int(head[14]) | Int(head[15]) << 8), head[16] == 0, head[17] == 0 {
            return .bmp   // "BM", then the DIB header's size at offset 14
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("ftyp".utf8), at: 4) {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            if brand.hasPrefix("avi") { return .avif }
            if ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].contains(brand) { return .heif }
            return .unknown
        }
        if starts(Array("%PDF".utf8)) { return .pdf }
        // Markup and text: skip a byte-order mark and leading white space.
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        text = text.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        let lower = String(decoding: text.prefix(256), as: UTF8.self).lowercased()
        if lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") || lower.hasPrefix("<head")
            || lower.hasPrefix("<body") || (lower.hasPrefix("<") && lower.contains("<html")) {
            return .webPage
        }
        if lower.hasPrefix("<svg") || (lower.hasPrefix("<?xml") && lower.contains("<svg")) { return .svg }
        let printable = text.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        // Valid UTF-8, allowing a character cut off at the end of the sniffed bytes.
        let validUTF8 = (0...min(3, text.count)).contains { String(validating: Array(text.dropLast($0)), as: UTF8.self) != nil }
        if !text.isEmpty && printable && validUTF8 { return .text }
        return .unknown
    }
}
