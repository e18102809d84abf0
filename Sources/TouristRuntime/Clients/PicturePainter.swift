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
    /// A quick first drawing of a picture that takes long to paint, shown until `paint`'s is done;
    /// nil when the picture is painted quickly enough at once.
    public var sketch: @Sendable (Data, PictureKey) -> Picture?

    public init(paint: @escaping @Sendable (Data, PictureKey) -> Picture,
                sketch: @escaping @Sendable (Data, PictureKey) -> Picture? = { _, _ in nil }) {
        self.paint = paint
        self.sketch = sketch
    }

    /// The album's renderer for a terminal with these capabilities; what cannot be decoded
    /// becomes a failed picture saying why.
    public static func live(capabilities: TerminalCapabilities) -> PicturePainter {
        // The picture threads already render several pictures at once.
        ImageLibraries.drawEachPictureOnItsCallersThread()
        let renderer = PictureRenderer(capabilities: capabilities)
        return PicturePainter(paint: { data, key in
            do throws(ImageError) {
                return .cells(try renderer.render(jpeg: data, crop: key.crop, columns: key.size.columns, rows: key.size.rows))
            } catch {
                return .failed(error.description)
            }
        }, sketch: { data, key in
            // The whole large image replaces the thumbnail's picture, already drawn: a sketch of it would be a step back.
            guard key.image == .thumbnail || !key.crop.isWhole else { return nil }
            // What cannot be decoded says so once, from `paint`.
            return (try? renderer.sketch(jpeg: data, crop: key.crop, columns: key.size.columns, rows: key.size.rows))
                .flatMap { $0 }.map { .cells($0) }
        })
    }
}

extension PicturePainter {
    /// A stored image as a real picture for the terminal's inline image protocol, the request's
    /// crop of it fitted and centred in its area; nil when it cannot be decoded. iTerm2 is sent
    /// the stored JPEG itself when the whole photo is shown upright; kitty the picture at its own
    /// resolution (never more pixels than the image has or the area shows); sixel at the area's pixels.
    static func inline(_ data: Data, _ request: InlineRequest) -> InlinePicture? {
        let encoder = InlineImageEncoder(protocol: request.imageProtocol, cellWidth: request.cellWidth,
                                         cellHeight: request.cellHeight)
        guard let upright = try? JPEGDecoder.dimensions(data) else { return nil }
        let part = cropSize(request.crop, of: upright)
        let box = encoder.box(imageWidth: part.width, imageHeight: part.height,
                              columns: request.area.width, rows: request.area.height)
        if request.imageProtocol == .iterm2, request.crop.isWhole, InlineImageEncoder.isUpright(data) {
            return encoder.picture(jpeg: [UInt8](data), box: box, key: request.key, in: request.area)
        }
        let size = encoder.sentSize(imageWidth: part.width, imageHeight: part.height, box: box)
        guard size.width > 0, size.height > 0,
              let image = try? JPEGDecoder.decode(data, crop: request.crop, fitting: size.width, size.height) else { return nil }
        return encoder.picture(image.shrunk(toWidth: size.width, height: size.height), box: box, key: request.key,
                               in: request.area, imageID: request.imageID, placeholderColor: request.placeholderColor)
    }

    /// The pixels of the part `crop` of an image of `size`.
    static func cropSize(_ crop: PictureCrop, of size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let part = crop.pixels(width: size.width, height: size.height)
        return (part.width, part.height)
    }
}

extension PicturePainter {
    /// The real picture the photo view shows for a stored JPEG in `area`, made as the picture
    /// pipeline makes it: for the benchmarks, which count the bytes it writes.
    public static func inlinePicture(_ data: Data, protocol imageProtocol: InlineProtocol, area: Rect,
                                     cellWidth: Int = 10, cellHeight: Int = 20, imageID: UInt32 = 1) -> InlinePicture? {
        var request = InlineRequest(photoID: 1, area: area, imageProtocol: imageProtocol,
                                    cellWidth: cellWidth, cellHeight: cellHeight)
        request.imageID = imageID
        return inline(data, request)
    }
}
