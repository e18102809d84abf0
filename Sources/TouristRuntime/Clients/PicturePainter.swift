import Dispatch
import Foundation
import Imaging
import Locking
import Terminal
import TouristCore

/// Turns a stored image into the picture for a box of cells: decoding and rendering, run off the
/// UI thread. A struct of one closure: the live one over the image libraries, or one a test gives.
public struct PicturePainter: Sendable {
    /// The stored image's bytes, and the picture wanted of it (its box, and the part of the image shown).
    public var paint: @Sendable (Data, PictureKey) -> Picture

    public init(paint: @escaping @Sendable (Data, PictureKey) -> Picture) {
        self.paint = paint
    }

    /// The album's renderer for a terminal with these capabilities; what cannot be decoded
    /// becomes a failed picture saying why.
    public static func live(capabilities: TerminalCapabilities) -> PicturePainter {
        // The picture threads already render several pictures at once.
        ImageLibraries.drawEachPictureOnItsCallersThread()
        let renderer = PictureRenderer(capabilities: capabilities)
        return PicturePainter { data, key in
            do throws(ImageError) {
                return .cells(try renderer.render(jpeg: data, crop: key.crop, columns: key.size.columns, rows: key.size.rows))
            } catch {
                return .failed(error.description)
            }
        }
    }
}

extension PicturePainter {
    /// A stored image as a real picture for the terminal's inline image protocol, fitted and
    /// centred in `area` (cells of `cell` pixels); nil when it cannot be decoded.
    static func inline(_ data: Data, protocol imageProtocol: InlineProtocol, cell: (width: Int, height: Int),
                       key: String, in area: Rect) -> InlinePicture? {
        let encoder = InlineImageEncoder(protocol: imageProtocol, cellWidth: cell.width, cellHeight: cell.height)
        guard let source = try? JPEGDecoder.dimensions(data) else { return nil }
        let box = encoder.box(imageWidth: source.width, imageHeight: source.height, columns: area.width, rows: area.height)
        let pixels = encoder.pixelSize(box: box)
        guard let image = try? JPEGDecoder.decode(data, fitting: pixels.width, pixels.height) else { return nil }
        return encoder.picture(image, key: key, in: area)
    }
}

