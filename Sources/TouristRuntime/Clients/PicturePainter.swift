import Dispatch
import Foundation
import Imaging
import Locking
import Terminal
import TouristCore

/// Turns a stored image into the picture for a box of cells: decoding and rendering, run off the
/// UI thread. A struct of one closure: the live one over the image libraries, or one a test gives.
public struct PicturePainter: Sendable {
    public var paint: @Sendable (Data, PictureSize) -> Picture

    public init(paint: @escaping @Sendable (Data, PictureSize) -> Picture) {
        self.paint = paint
    }

    /// The album's renderer for a terminal with these capabilities; what cannot be decoded
    /// becomes a failed picture saying why.
    public static func live(capabilities: TerminalCapabilities) -> PicturePainter {
        // The picture threads already render several pictures at once.
        ImageLibraries.drawEachPictureOnItsCallersThread()
        let renderer = PictureRenderer(capabilities: capabilities)
        return PicturePainter { data, size in
            do throws(ImageError) {
                return .cells(try renderer.render(jpeg: data, columns: size.columns, rows: size.rows))
            } catch {
                return .failed(error.description)
            }
        }
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
        guard size.width > 0, size.height > 0, let image = decode(data, crop: request.crop, fitting: size) else { return nil }
        return encoder.picture(image.shrunk(toWidth: size.width, height: size.height), box: box, key: request.key,
                               in: request.area, imageID: request.imageID, placeholderColor: request.placeholderColor)
    }

    /// The pixels of the part `crop` of an image of `size` (at least one each way).
    static func cropSize(_ crop: PictureCrop, of size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        (max(1, size.width * min(max(crop.width, 0), PictureCrop.unit) / PictureCrop.unit),
         max(1, size.height * min(max(crop.height, 0), PictureCrop.unit) / PictureCrop.unit))
    }

    /// The part `crop` of the JPEG, decoded at least as large as `size` where the image allows:
    /// the whole picture decoded at the scale that gives the part that size, then the part cut out.
    private static func decode(_ data: Data, crop: PictureCrop, fitting size: (width: Int, height: Int)) -> RGBImage? {
        if crop.isWhole { return try? JPEGDecoder.decode(data, fitting: size.width, size.height) }
        let unit = PictureCrop.unit
        let cropWidth = min(max(1, crop.width), unit), cropHeight = min(max(1, crop.height), unit)
        guard let whole = try? JPEGDecoder.decode(data, fitting: size.width * unit / cropWidth,
                                                  size.height * unit / cropHeight) else { return nil }
        return whole.cut(x: whole.width * crop.x / unit, y: whole.height * crop.y / unit,
                         width: max(1, whole.width * cropWidth / unit), height: max(1, whole.height * cropHeight / unit))
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
