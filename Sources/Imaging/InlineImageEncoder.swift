import CChafa
import Foundation
import Terminal

/// Turns a picture into what an inline image protocol shows, fitted into a box of cells keeping
/// its aspect, as `PictureRenderer` fits it:
/// - kitty: the picture at its own resolution (never more pixels than it has or the box shows),
///   as a PNG sent once under an image id and placed by id over the box (`c`/`r`: the terminal
///   scales it); inside tmux (`kittyUnicode`) sent through tmux's passthrough with a virtual
///   placement, shown by Unicode placeholder cells whose colour carries the id.
/// - iTerm2: a JPEG file, width and height in cells (the terminal scales it): the stored bytes as
///   they are when the whole photo is shown (`picture(jpeg:…)`), re-encoded otherwise.
/// - sixel: libchafa's sixels at exactly the box's pixels (`columns × cellWidth` by `rows × cellHeight`).
/// Holds only settings, so any thread may use it.
public struct InlineImageEncoder: Sendable {
    public let imageProtocol: InlineProtocol
    /// The pixels one cell is taken to have (what the box shows; sixel pictures are exactly this many pixels a cell).
    public let cellWidth: Int
    public let cellHeight: Int

    public init(protocol imageProtocol: InlineProtocol, cellWidth: Int = 10, cellHeight: Int = 20) {
        self.imageProtocol = imageProtocol
        self.cellWidth = min(max(1, cellWidth), 1000)
        self.cellHeight = min(max(1, cellHeight), 1000)
    }

    /// The cells a picture of the given size takes inside `columns` × `rows`:
    /// `PictureRenderer.fitted`, so cells and inline pictures agree. Placeholder cells
    /// number at most `ImagePlaceholder.maxSide` a side.
    public func box(imageWidth: Int, imageHeight: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        var columns = columns, rows = rows
        if imageProtocol == .kittyUnicode {
            columns = min(columns, ImagePlaceholder.maxSide)
            rows = min(rows, ImagePlaceholder.maxSide)
        }
        return PictureRenderer.fitted(imageWidth: imageWidth, imageHeight: imageHeight, columns: columns, rows: rows)
    }

    /// The size in pixels the box shows. Sixel heights are cut down to whole six-pixel bands
    /// (chafa does so, so that the last band does not spill into the row below).
    public func pixelSize(box: (columns: Int, rows: Int)) -> (width: Int, height: Int) {
        let width = box.columns * cellWidth
        var height = box.rows * cellHeight
        if imageProtocol == .sixel { height = max(6, height - height % 6) }
        return (width, height)
    }

    /// The pixels sent for a picture of `imageWidth` × `imageHeight` shown in `box`: sixel the
    /// box's pixels; the others the picture's own size, made smaller (keeping its aspect) only
    /// where the box shows fewer pixels. Never larger than the picture.
    public func sentSize(imageWidth: Int, imageHeight: Int, box: (columns: Int, rows: Int)) -> (width: Int, height: Int) {
        let view = pixelSize(box: box)
        guard imageProtocol != .sixel else { return view }
        guard imageWidth > 0, imageHeight > 0, view.width > 0, view.height > 0 else { return (0, 0) }
        let scale = min(1, Double(view.width) / Double(imageWidth), Double(view.height) / Double(imageHeight))
        if scale >= 1 { return (imageWidth, imageHeight) }
        return (min(imageWidth, max(1, Int((Double(imageWidth) * scale).rounded()))),
                min(imageHeight, max(1, Int((Double(imageHeight) * scale).rounded()))))
    }

    /// The picture placed in `box`, centred in `area` as `PictureRenderer.render` centres cells, as
    /// sent for this protocol. `image` should be `sentSize` already (kitty and iTerm2 send it as it
    /// is; sixel scales it to the box). kitty pictures are sent and placed under `imageID`; the
    /// placeholder cells (`kittyUnicode`) are drawn in `placeholderColor`, which carries that id
    /// (`PlaceholderID`; by default the colour of slot `imageID`, the id at 256 colours). Nil when
    /// nothing fits or the encoding failed.
    public func picture(_ image: RGBImage, box: (columns: Int, rows: Int), key: String, in area: Rect,
                        imageID: UInt32 = 1, placeholderColor: Color? = nil) -> InlinePicture? {
        guard box.columns > 0, box.rows > 0, image.width > 0, image.height > 0,
              image.pixels.count == image.width * image.height * 3 else { return nil }
        var picture = InlinePicture(key: key, x: area.x + (area.width - box.columns) / 2,
                                    y: area.y + (area.height - box.rows) / 2,
                                    columns: box.columns, rows: box.rows, sequence: [])
        switch imageProtocol {
        case .kitty, .kittyUnicode:
            let virtual = imageProtocol == .kittyUnicode
            guard let (payload, format) = Self.kittyPayload(image) else { return nil }
            picture.imageID = imageID
            picture.transmit = KittyGraphics.transmit(payload, format: format, id: imageID, passthrough: virtual)
            if virtual {
                picture.sequence = KittyGraphics.placeVirtually(id: imageID, columns: box.columns, rows: box.rows,
                                                                passthrough: true)
                picture.cells = ImagePlaceholder.cells(columns: box.columns, rows: box.rows,
                                                       color: placeholderColor ?? PlaceholderID.color(slot: Int(imageID)))
            } else {
                picture.sequence = KittyGraphics.place(id: imageID, columns: box.columns, rows: box.rows)
            }
        case .iterm2:
            guard let jpeg = JPEGEncoder.encode(image) else { return nil }
            picture.sequence = Self.iterm2File(jpeg, box: box)
        case .sixel:
            picture.sequence = sixels(image, box: box)
        }
        return picture.sequence.isEmpty ? nil : picture
    }

    /// The picture fitted into `area` (convenience for a picture already at its sent size).
    public func picture(_ image: RGBImage, key: String, in area: Rect, imageID: UInt32 = 1) -> InlinePicture? {
        picture(image, box: box(imageWidth: image.width, imageHeight: image.height, columns: area.width, rows: area.height),
                key: key, in: area, imageID: imageID)
    }

    /// iTerm2: a JPEG file sent as it is (the stored bytes of a photo shown whole), over `box`.
    public func picture(jpeg: [UInt8], box: (columns: Int, rows: Int), key: String, in area: Rect) -> InlinePicture? {
        guard imageProtocol == .iterm2, box.columns > 0, box.rows > 0, !jpeg.isEmpty else { return nil }
        return InlinePicture(key: key, x: area.x + (area.width - box.columns) / 2, y: area.y + (area.height - box.rows) / 2,
                             columns: box.columns, rows: box.rows, sequence: Self.iterm2File(jpeg, box: box))
    }

    /// Whether a JPEG file shows upright as it is stored (no EXIF turn or mirror): iTerm2 is then
    /// sent the file itself.
    public static func isUpright(_ jpeg: Data) -> Bool {
        jpeg.withUnsafeBytes { JPEGMarkers.read($0).orientation == .up }
    }

    /// `ESC ]1337;File=inline=1;size=N;width=C;height=R;preserveAspectRatio=1:base64 BEL`: width and
    /// height in cells, the terminal scales the file to them.
    static func iterm2File(_ file: [UInt8], box: (columns: Int, rows: Int)) -> [UInt8] {
        var out = Array("\u{1B}]1337;File=inline=1;size=\(file.count);width=\(box.columns);height=\(box.rows);preserveAspectRatio=1:".utf8)
        out += Data(file).base64EncodedData()
        out.append(0x07)
        return out
    }

    /// What kitty is sent for a picture: a PNG, or zlib-compressed RGB where the PNG could not be made.
    static func kittyPayload(_ image: RGBImage) -> ([UInt8], KittyGraphics.Format)? {
        if let png = PNGEncoder.encode(image) { return (png, .png) }
        guard let packed = PNGEncoder.deflate(image.pixels) else { return nil }
        return (packed, .zlibRGB(width: image.width, height: image.height))
    }

    /// libchafa's sixels of the picture stretched to exactly `box` (fitting it again could round to another box).
    private func sixels(_ image: RGBImage, box: (columns: Int, rows: Int)) -> [UInt8] {
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

    /// A canvas of `box` cells in sixel pixel mode; the caller unrefs it.
    private func makeCanvas(box: (columns: Int, rows: Int)) -> OpaquePointer? {
        guard let config = chafa_canvas_config_new() else { return nil }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(box.columns), Int32(box.rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(cellWidth), Int32(cellHeight))
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
        return chafa_canvas_new(config)
    }
}

extension RGBImage {
    /// The picture scaled down to `width` × `height` by averaging the pixels each new one covers
    /// (a box filter); itself when already that size. Sizes are clamped to 1…its own.
    public func shrunk(toWidth width: Int, height: Int) -> RGBImage {
        let w = min(max(1, width), self.width), h = min(max(1, height), self.height)
        if w == self.width && h == self.height { return self }
        var out = [UInt8](repeating: 0, count: w * h * 3)
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let y0 = y * self.height / h, y1 = max(y0 + 1, (y + 1) * self.height / h)
                for x in 0..<w {
                    let x0 = x * self.width / w, x1 = max(x0 + 1, (x + 1) * self.width / w)
                    var r = 0, g = 0, b = 0
                    for sy in y0..<y1 {
                        var i = (sy * self.width + x0) * 3
                        for _ in x0..<x1 {
                            r += Int(src[i]); g += Int(src[i + 1]); b += Int(src[i + 2])
                            i += 3
                        }
                    }
                    let n = (y1 - y0) * (x1 - x0), o = (y * w + x) * 3
                    out[o] = UInt8((r + n / 2) / n)
                    out[o + 1] = UInt8((g + n / 2) / n)
                    out[o + 2] = UInt8((b + n / 2) / n)
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}
