import Foundation
import Terminal

extension PictureRenderer {
    /// Pixels decoded for each cell: chafa samples 8×8 a cell, so no fewer (4×8 cost 0.2–1 dB at
    /// vertical edges, docs/imaging.md), and no more: the decoder scales down while decoding
    /// (TurboJPEG's DCT scaling), which is where the time is saved.
    static let pixelsPerCell = (columns: 8, rows: 8)

    /// The pixel box to decode a picture fitted to `fit` cells at.
    public static func decodeBox(_ fit: (columns: Int, rows: Int)) -> (width: Int, height: Int) {
        (max(1, fit.columns) * pixelsPerCell.columns, max(1, fit.rows) * pixelsPerCell.rows)
    }

    /// A JPEG file's bytes as exactly `columns` × `rows` cells (see `render(_:columns:rows:)`): the
    /// one path from stored bytes to cells, for the album, the photo screen and `vtourist render`.
    /// `crop`: only that part of the picture, fitted as the whole would be; only it is decoded.
    public func render(jpeg data: Data, crop: PictureCrop = .whole, columns: Int, rows: Int,
                       pixelBudget: Int = JPEGDecoder.defaultPixelBudget) throws(ImageError) -> CellBuffer {
        let source = try JPEGDecoder.dimensions(data)
        let part = crop.pixels(width: source.width, height: source.height)
        let fit = Self.fitted(imageWidth: part.width, imageHeight: part.height, columns: columns, rows: rows)
        let box = Self.decodeBox(fit)
        let picture = crop.isWhole
            ? try JPEGDecoder.decode(data, fitting: box.width, box.height, pixelBudget: pixelBudget)
            : try JPEGDecoder.decode(data, crop: crop, fitting: box.width, box.height, pixelBudget: pixelBudget)
        return render(picture, columns: columns, rows: rows)
    }
}
