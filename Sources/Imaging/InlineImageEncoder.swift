import CChafa
import Terminal

/// Turns a decoded picture into the escape sequence of an inline image
/// protocol (kitty, iTerm2, sixel) with libchafa's pixel modes: the picture
/// fitted into a box of cells keeping its aspect, as `PictureRenderer` fits
/// it, scaled by chafa to that box's pixels (`columns × cellWidth` by
/// `rows × cellHeight`). The sequence draws at the cursor. Holds only
/// settings: every `encode` makes and frees its own canvas, so any thread may use it.
///
/// chafa scales from whatever it is given: decode the JPEG near the pixel
/// size (`JPEGDecoder.decode(_:fitting:_:)` with `pixelSize`) to keep it fast.
public struct InlineImageEncoder: Sendable {
    public let imageProtocol: InlineProtocol
    /// The pixels one cell is taken to have (kitty and iTerm2 scale to the
    /// cells themselves; sixel pictures are exactly this many pixels a cell).
    public let cellWidth: Int
    public let cellHeight: Int

    public init(protocol imageProtocol: InlineProtocol, cellWidth: Int = 10, cellHeight: Int = 20) {
        self.imageProtocol = imageProtocol
        self.cellWidth = min(max(1, cellWidth), 1000)
        self.cellHeight = min(max(1, cellHeight), 1000)
    }

    /// The cells a picture of the given size takes inside `columns` × `rows`:
    /// `PictureRenderer.fitted`, so cells and inline pictures agree.
    public func box(imageWidth: Int, imageHeight: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        PictureRenderer.fitted(imageWidth: imageWidth, imageHeight: imageHeight, columns: columns, rows: rows)
    }

    /// The size in pixels of the picture `encode` writes for a box of cells.
    /// Sixel heights are cut down to whole six-pixel bands (chafa does so, so
    /// that the last band does not spill into the row below).
    public func pixelSize(box: (columns: Int, rows: Int)) -> (width: Int, height: Int) {
        let width = box.columns * cellWidth
        var height = box.rows * cellHeight
        if imageProtocol == .sixel { height = max(6, height - height % 6) }
        return (width, height)
    }

    /// The escape sequence that draws `image` fitted into `columns` × `rows`
    /// cells from the cursor; empty for an empty picture or box.
    public func encode(_ image: RGBImage, columns: Int, rows: Int) -> [UInt8] {
        encode(image, box: box(imageWidth: image.width, imageHeight: image.height, columns: columns, rows: rows))
    }

    /// The picture stretched to exactly `box` (fitting it again could round to another box).
    private func encode(_ image: RGBImage, box: (columns: Int, rows: Int)) -> [UInt8] {
        // chafa takes sizes as 32-bit ints; keep the pixel canvas within what a terminal can take.
        guard box.columns > 0, box.rows > 0, box.columns * cellWidth <= 16_384, box.rows * cellHeight <= 16_384,
              image.width <= Int(Int32.max) / 3, image.height <= Int(Int32.max),
              image.pixels.count == image.width * image.height * 3,
              let canvas = makeCanvas(box: box) else { return [] }
        defer { chafa_canvas_unref(canvas) }
        image.draw(on: canvas)
        // The fallback terminal description holds every protocol's sequences; the canvas picks by its pixel mode.
        guard let termInfo = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else { return [] }
        defer { chafa_term_info_unref(termInfo) }
        guard let printed = chafa_canvas_print(canvas, termInfo) else { return [] }
        defer { g_string_free(printed, 1) }
        guard let text = printed.pointee.str else { return [] }
        return text.withMemoryRebound(to: UInt8.self, capacity: Int(printed.pointee.len)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(printed.pointee.len)))
        }
    }

    /// The picture placed in `area`: fitted and centred in it as
    /// `PictureRenderer.render` centres cells, ready for the backend. Nil when nothing fits.
    public func picture(_ image: RGBImage, key: String, in area: Rect) -> InlinePicture? {
        let box = box(imageWidth: image.width, imageHeight: image.height, columns: area.width, rows: area.height)
        let sequence = encode(image, box: box)
        guard !sequence.isEmpty else { return nil }
        return InlinePicture(key: key, x: area.x + (area.width - box.columns) / 2,
                             y: area.y + (area.height - box.rows) / 2,
                             columns: box.columns, rows: box.rows, sequence: sequence)
    }

    /// What removes the pictures a protocol drew (kitty); empty where the
    /// backend repaints the cells instead.
    public static func clearSequence(for imageProtocol: InlineProtocol) -> [UInt8] {
        imageProtocol.clearSequence
    }

    /// A canvas of `box` cells in this protocol's pixel mode; the caller unrefs it.
    private func makeCanvas(box: (columns: Int, rows: Int)) -> OpaquePointer? {
        guard let config = chafa_canvas_config_new() else { return nil }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(box.columns), Int32(box.rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(cellWidth), Int32(cellHeight))
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_pixel_mode(config, pixelMode)
        return chafa_canvas_new(config)
    }

    private var pixelMode: ChafaPixelMode {
        switch imageProtocol {
        case .kitty: return CHAFA_PIXEL_MODE_KITTY
        case .iterm2: return CHAFA_PIXEL_MODE_ITERM2
        case .sixel: return CHAFA_PIXEL_MODE_SIXELS
        }
    }
}
