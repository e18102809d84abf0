import Foundation

extension JPEGDecoder {
    /// Why downloaded bytes are no picture to store, or nil: the album's image check (`ImageCheck`).
    /// Only bytes that are no JPEG at all fail the download (a web page, an error body): `r` asks
    /// again. A JPEG that arrived whole over HTTP is stored as it came, so nothing that arrived is
    /// lost: one cut short inside shows the part that decodes, and one the decoder refuses (too
    /// large, a damaged header) says why in its cell (`✗ cannot show`), refused from its header
    /// before anything is allocated whenever it is drawn.
    public static func downloadProblem(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(16))
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else {
            let head = String(decoding: data.prefix(64), as: UTF8.self).lowercased()
            if head.contains("<html") || head.contains("<!doctype") { return "not a picture (a web page)" }
            return "not a JPEG picture"
        }
        return nil
    }
}
