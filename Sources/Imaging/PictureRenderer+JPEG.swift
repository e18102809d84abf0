import Foundation
import Terminal

extension PictureRenderer {
    /// Pixels decoded for each cell: enough for the renderer's view of a cell, no more. The decoder
    /// scales down while decoding (TurboJPEG's DCT scaling), which is where the time is saved.
    static let pixelsPerCell = (columns: 4, rows: 8)

    /// A JPEG file's bytes as exactly `columns` × `rows` cells (see `render(_:columns:rows:)`): the
    /// one path from stored bytes to cells, for the album, the photo screen and `vtourist render`.
    public func render(jpeg data: Data, columns: Int, rows: Int,
                       pixelBudget: Int = JPEGDecoder.defaultPixelBudget) throws(ImageError) -> CellBuffer {
        let source = try JPEGDecoder.dimensions(data)
        let fit = Self.fitted(imageWidth: source.width, imageHeight: source.height, columns: columns, rows: rows)
        let picture = try JPEGDecoder.decode(data, fitting: max(1, fit.columns) * Self.pixelsPerCell.columns,
                                             max(1, fit.rows) * Self.pixelsPerCell.rows, pixelBudget: pixelBudget)
        return render(picture, columns: columns, rows: rows)
    }
}
