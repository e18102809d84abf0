import Foundation
import Terminal

extension PictureRenderer {
    /// A picture of more cells than `sampledCells` gets a sketch first: half blocks, two pixels a
    /// cell, decoded at the smallest scale that covers them. It is on screen within a few
    /// milliseconds of a key (the photo view opened, a zoom step, a pan), and chafa's drawing
    /// replaces it once done (on a large terminal that takes tens of milliseconds).
    public func needsSketch(columns: Int, rows: Int) -> Bool {
        columns * rows > Self.sampledCells && symbols != .ascii && colorMode != .foregroundBackground
    }

    /// The sketch of a JPEG file's `crop` for `columns` × `rows` cells, fitted and centred as
    /// `render(jpeg:crop:columns:rows:)` fits it; nil when the picture is small enough to be drawn
    /// well at once, or the terminal shows no colours or only ASCII (a sketch is colours).
    public func sketch(jpeg data: Data, crop: PictureCrop = .whole, columns: Int, rows: Int,
                       pixelBudget: Int = JPEGDecoder.defaultPixelBudget) throws(ImageError) -> CellBuffer? {
        guard needsSketch(columns: columns, rows: rows) else { return nil }
        let source = try JPEGDecoder.dimensions(data)
        let part = crop.pixels(width: source.width, height: source.height)
        let fit = Self.fitted(imageWidth: part.width, imageHeight: part.height, columns: columns, rows: rows)
        guard fit.columns > 0, fit.rows > 0 else { return nil }
        let picture = crop.isWhole
            ? try JPEGDecoder.decode(data, fitting: fit.columns, fit.rows * 2, pixelBudget: pixelBudget)
            : try JPEGDecoder.decode(data, crop: crop, fitting: fit.columns, fit.rows * 2, pixelBudget: pixelBudget)
        return halfBlocks(picture, columns: columns, rows: rows)
    }

    /// Exactly `columns` × `rows` cells of upper half blocks, the picture fitted and centred: each
    /// cell's foreground the mean of its upper half's pixels, its background its lower half's.
    public func halfBlocks(_ image: RGBImage, columns: Int, rows: Int) -> CellBuffer {
        var buffer = CellBuffer(width: columns, height: rows)
        let box = Self.fitted(imageWidth: image.width, imageHeight: image.height, columns: columns, rows: rows)
        guard box.columns > 0, box.rows > 0, image.pixels.count == image.width * image.height * 3 else { return buffer }
        let width = box.columns, height = box.rows * 2
        // Shrunk by area means where the image has the pixels; a smaller one is enlarged by repeating them.
        let pixels = image.width >= width && image.height >= height
            ? image.averaged(width: width, height: height) : image
        let x0 = (columns - box.columns) / 2, y0 = (rows - box.rows) / 2
        func color(_ x: Int, _ y: Int) -> Color {
            let sx = x * pixels.width / width, sy = y * pixels.height / height
            let i = (sy * pixels.width + sx) * 3
            return .rgb(pixels.pixels[i], pixels.pixels[i + 1], pixels.pixels[i + 2])
        }
        for row in 0..<box.rows {
            for column in 0..<box.columns {
                buffer[x0 + column, y0 + row] = Cell("\u{2580}", style: Style(fg: color(column, row * 2),
                                                                              bg: color(column, row * 2 + 1)))
            }
        }
        return buffer
    }
}
