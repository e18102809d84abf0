import CChafa
import Dispatch
import Foundation
import Terminal

/// Turns a decoded picture into cells of a `CellBuffer` with libchafa: the
/// picture fitted inside the box keeping its aspect (a cell is about twice as
/// tall as wide), centred, the rest blank.
///
/// The symbols and the colour mode follow what the terminal can show; see
/// docs/imaging-cells.md for why the defaults are what they are. A value of
/// this type holds only settings: every `render` makes (and frees) its own
/// chafa canvas, so one renderer may be used from any number of threads.
public struct PictureRenderer: Sendable {
    /// Which characters the picture is drawn with.
    public enum Symbols: Sendable, Hashable {
        /// Block elements (halves, quadrants, eighths), box-drawing lines and
        /// the space; no wide glyphs, no Legacy Computing (U+1FBxx) glyphs.
        case blocks
        /// Only the upper and lower half blocks and the space: two pixels a cell.
        case halfBlocks
        /// Printable ASCII only (`LANG=C`, or terminals without UTF-8).
        case ascii
    }

    /// How colours are chosen, after the terminal's depth.
    public enum ColorMode: Sendable, Hashable {
        /// 24-bit colours.
        case trueColor
        /// The xterm palette's pens 16–255 (0–15 are themed by the terminal).
        case indexed240
        /// The ANSI pens 0–7.
        case indexed8
        /// No colour at all: the terminal's own foreground and background,
        /// the picture shown by the shapes of the symbols.
        case foregroundBackground
    }

    public let symbols: Symbols
    public let colorMode: ColorMode
    /// chafa's work factor, 0…1 (the command's `-w N` is (N − 1) / 8).
    public let workFactor: Float

    /// The work factor used unless one is given: chafa's own default (`-w 5`).
    public static let defaultWorkFactor: Float = 0.5

    /// Settings for a terminal with the given capabilities. `symbols` is honoured
    /// only where the terminal can show it: without Unicode it is always `.ascii`.
    public init(capabilities: TerminalCapabilities, symbols: Symbols? = nil,
                workFactor: Float = PictureRenderer.defaultWorkFactor) {
        switch capabilities.colors {
        case .trueColor: colorMode = .trueColor
        case .indexed256: colorMode = .indexed240
        case .eight: colorMode = .indexed8
        case .none: colorMode = .foregroundBackground
        }
        if !capabilities.unicode {
            self.symbols = .ascii
        } else {
            self.symbols = symbols ?? .blocks
        }
        self.workFactor = min(1, max(0, workFactor.isNaN ? PictureRenderer.defaultWorkFactor : workFactor))
    }

    /// The box, in cells, that a picture of the given pixel size takes when
    /// fitted inside `columns` × `rows` keeping its aspect, with cells twice
    /// as tall as wide. At least 1 × 1 when both the picture and the box are
    /// non-empty; 0 × 0 otherwise. Small pictures are enlarged to fill the box.
    public static func fitted(imageWidth: Int, imageHeight: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        guard imageWidth > 0, imageHeight > 0, columns > 0, rows > 0 else { return (0, 0) }
        let w = Double(imageWidth), h = Double(imageHeight)
        // Full width: rows = columns × (h / w) × fontRatio.
        let rowsAtFullWidth = Double(columns) * h / w * fontRatio
        if rowsAtFullWidth <= Double(rows) {
            return (columns, min(rows, max(1, Int(rowsAtFullWidth.rounded()))))
        }
        let columnsAtFullHeight = Double(rows) * w / h / fontRatio
        return (min(columns, max(1, Int(columnsAtFullHeight.rounded()))), rows)
    }

    /// A cell's width over its height.
    static let fontRatio = 0.5

    /// Does once what chafa does on a process's first picture (its symbol tables, its code
    /// paged in, about 1 ms) by drawing one cell: for a caller with something else to wait
    /// for, such as a decode on another thread.
    public func warmUp() {
        _ = render(RGBImage(width: 8, height: 16, pixels: [UInt8](repeating: 128, count: 8 * 16 * 3)), columns: 1, rows: 1)
    }

    /// Exactly `columns` × `rows` cells: the picture fitted inside (see
    /// `fitted`) and centred; every other cell blank with the default style.
    public func render(_ image: RGBImage, columns: Int, rows: Int) -> CellBuffer {
        var buffer = CellBuffer(width: columns, height: rows)
        let box = Self.fitted(imageWidth: image.width, imageHeight: image.height,
                              columns: buffer.width, rows: buffer.height)
        // chafa takes sizes as 32-bit ints; the decoder's pixel budget keeps real pictures far below.
        guard box.columns > 0, box.rows > 0, image.width <= Int(Int32.max) / 3, image.height <= Int(Int32.max),
              image.pixels.count == image.width * image.height * 3 else { return buffer }
        let x0 = (buffer.width - box.columns) / 2
        let y0 = (buffer.height - box.rows) / 2
        let pixels = Self.sampled(image, box: box)
        let bands = Self.bandCount(box, pixels: pixels)
        // Each band of rows on a canvas of its own, at once: its pixels are exactly its cells'.
        let parts = Bands(count: bands)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let top = box.rows * band / bands, bottom = box.rows * (band + 1) / bands
            let slice = bands == 1 ? pixels : pixels.cut(x: 0, y: top * Self.pixelsPerCell.rows, width: pixels.width,
                                                         height: (bottom - top) * Self.pixelsPerCell.rows)
            parts[band] = cells(slice, columns: box.columns, rows: bottom - top)
        }
        for band in 0..<bands {
            let top = box.rows * band / bands
            for (i, cell) in parts[band].enumerated() {
                if let cell { buffer[x0 + i % box.columns, y0 + top + i / box.columns] = cell }
            }
        }
        return buffer
    }

    /// How many bands of rows a picture is drawn in: one a core (at least four rows each) once it is
    /// brought to the cells' own pixels (`sampled`), else one.
    static func bandCount(_ box: (columns: Int, rows: Int), pixels: RGBImage) -> Int {
        let sampled = pixels.width == box.columns * pixelsPerCell.columns && pixels.height == box.rows * pixelsPerCell.rows
        guard sampled, box.columns * box.rows > sampledCells else { return 1 }
        return max(1, min(ProcessInfo.processInfo.activeProcessorCount, box.rows / 4))
    }

    /// Pictures of more cells than this are brought to the cells' own pixels (8×8 a cell) before
    /// chafa draws them, in bands on every core: chafa's own resampling of a large picture costs as
    /// much as drawing it, and its time goes with the cells (the photo view on a large terminal).
    /// Album cells and `render --size 80x40` are left to chafa whole.
    static let sampledCells = 4000

    /// The picture as chafa is given it for a box of cells: a large box gets exactly its cells'
    /// pixels, averaged down or, from a smaller picture (a thumbnail, a large image on a wide
    /// terminal), enlarged, so that its bands can be drawn on every core.
    public static func sampled(_ image: RGBImage, box: (columns: Int, rows: Int)) -> RGBImage {
        let grid = (width: box.columns * pixelsPerCell.columns, height: box.rows * pixelsPerCell.rows)
        guard box.columns * box.rows > sampledCells, image.width > 0, image.height > 0 else { return image }
        if image.width >= grid.width, image.height >= grid.height {
            return image.averaged(width: grid.width, height: grid.height)
        }
        return image.enlarged(width: grid.width, height: grid.height)
    }

    /// The picture drawn on one canvas of `columns` × `rows`, its cells row by row (nil: nothing drawn).
    private func cells(_ image: RGBImage, columns: Int, rows: Int) -> [Cell?] {
        var cells = [Cell?](repeating: nil, count: columns * rows)
        guard let canvas = makeCanvas(columns: columns, rows: rows) else { return cells }
        defer { chafa_canvas_unref(canvas) }
        image.draw(on: canvas)

        var fg: Int32 = 0, bg: Int32 = 0
        for y in 0..<rows {
            for x in 0..<columns {
                let code = chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))
                // 0 is the right half of a wide glyph; the symbol sets hold none, but never draw it.
                guard code != 0, let scalar = Unicode.Scalar(code) else { continue }
                chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                let background = color(raw: bg)
                // A space shows only its background; its foreground is whatever chafa left there.
                let foreground = scalar == " " ? background : color(raw: fg)
                cells[y * columns + x] = Cell(Cell.displayable(scalar), style: Style(fg: foreground, bg: background))
            }
        }
        return cells
    }

    /// A canvas of the given size with these settings; the caller unrefs it.
    private func makeCanvas(columns: Int, rows: Int) -> OpaquePointer? {
        guard let map = chafa_symbol_map_new() else { return nil }
        defer { chafa_symbol_map_unref(map) }
        chafa_symbol_map_add_by_tags(map, symbolTags(include: includedTags))
        chafa_symbol_map_remove_by_tags(map, symbolTags(include: excludedTags))
        if symbols != .ascii {
            // Legacy Computing (sextants, wedges…): many fonts lack them.
            chafa_symbol_map_remove_by_range(map, 0x1FB00, 0x1FBFF)
        }

        guard let config = chafa_canvas_config_new() else { return nil }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_canvas_mode(config, canvasMode)
        chafa_canvas_config_set_symbol_map(config, map)
        chafa_canvas_config_set_work_factor(config, workFactor)
        // chafa_canvas_new copies the config (and its symbol map).
        return chafa_canvas_new(config)
    }

    private var canvasMode: ChafaCanvasMode {
        switch colorMode {
        case .trueColor: return CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed240: return CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed8: return CHAFA_CANVAS_MODE_INDEXED_8
        case .foregroundBackground: return CHAFA_CANVAS_MODE_FGBG
        }
    }

    private var includedTags: [ChafaSymbolTags] {
        switch symbols {
        case .ascii: return [CHAFA_SYMBOL_TAG_ASCII, CHAFA_SYMBOL_TAG_SPACE]
        case .halfBlocks: return [CHAFA_SYMBOL_TAG_VHALF, CHAFA_SYMBOL_TAG_SPACE]
        case .blocks: return [CHAFA_SYMBOL_TAG_BLOCK, CHAFA_SYMBOL_TAG_BORDER, CHAFA_SYMBOL_TAG_SPACE]
        }
    }

    private var excludedTags: [ChafaSymbolTags] {
        // Not SEXTANT or WEDGE: chafa also tags the full and the left half block (█ ▌) SEXTANT, and
        // the Legacy Computing ones go by LEGACY and by their range (makeCanvas).
        var tags = [CHAFA_SYMBOL_TAG_WIDE, CHAFA_SYMBOL_TAG_LEGACY]
        // With colours, an inverted symbol is just another with fg and bg swapped (as chafa's command does);
        // without them it is the only way to draw the opposite shape.
        if colorMode != .foregroundBackground && symbols != .ascii { tags.append(CHAFA_SYMBOL_TAG_INVERTED) }
        return tags
    }

    private func symbolTags(include tags: [ChafaSymbolTags]) -> ChafaSymbolTags {
        ChafaSymbolTags(rawValue: tags.reduce(0) { $0 | $1.rawValue })
    }

    /// A raw colour from the canvas in the app's terms.
    func color(raw: Int32) -> Color {
        switch colorMode {
        case .foregroundBackground:
            return .default
        case .trueColor:
            guard raw >= 0 else { return .default }
            // Direct-colour terminfo sends 0–7 as the themed ANSI colours.
            let packed = raw < 8 ? 0x010101 : UInt32(raw) & 0xFF_FFFF
            return Color(hex: packed)
        case .indexed240, .indexed8:
            guard (0..<256).contains(raw) else { return .default }
            return XtermPalette.color(pen: Int(raw))
        }
    }
}

/// The cells of each band of a picture drawn on several threads at once.
private final class Bands: @unchecked Sendable {
    // Guarded by `lock`.
    private var parts: [[Cell?]]
    private let lock = NSLock()

    init(count: Int) { parts = Array(repeating: [], count: count) }

    subscript(band: Int) -> [Cell?] {
        get { lock.withLock { parts[band] } }
        set { lock.withLock { parts[band] = newValue } }
    }
}
