import Terminal
import WorldMap

/// A line layer of the map, in the order a cell shows them: where several
/// meet in one cell, the first of these colours it.
public enum MapLine: CaseIterable, Sendable {
    case coast, border, river, province

    /// This layer's dots in a cell of the raster.
    func bits(_ raster: MapRaster, _ i: Int) -> UInt8 {
        switch self {
        case .coast: return raster.coast[i]
        case .border: return raster.border[i]
        case .river: return raster.river[i]
        case .province: return raster.province[i]
        }
    }
}

/// Paints a rasterised map into cells: braille strokes over land or sea
/// backgrounds, or ASCII shapes when the terminal cannot show braille.
public struct MapWidget: Widget {
    public var raster: MapRaster
    public var theme: Theme
    public var capabilities: TerminalCapabilities

    public init(raster: MapRaster, theme: Theme, capabilities: TerminalCapabilities) {
        self.raster = raster
        self.theme = theme
        self.capabilities = capabilities
    }

    /// Paints the raster from the area's top left corner, clipped to the area.
    public func render(area: Rect, into buffer: inout CellBuffer) {
        for row in 0..<min(raster.height, area.height) {
            for col in 0..<min(raster.width, area.width) {
                let i = row * raster.width + col
                let isLand = raster.land[i].nonzeroBitCount >= 4
                var cell = Cell(" ", style: isLand ? theme.land : theme.sea)
                // Every line's dots in the cell, so lines that meet stay joined; the first layer colours them.
                let bits = raster.coast[i] | raster.border[i] | raster.river[i] | raster.province[i]
                if bits != 0, let line = MapLine.allCases.first(where: { $0.bits(raster, i) != 0 }) {
                    cell = MapWidget.stroke(line, bits: bits, over: cell.style, theme: theme, capabilities: capabilities)
                } else if capabilities.colors == .none && isLand && MapWidget.stipples(row: row, col: col) {
                    cell.symbol = MapWidget.stipple
                }
                buffer[area.x + col, area.y + row] = cell
            }
        }
    }

    /// Without colour, a light stipple tells land from sea: one dot in eight cells, in a diamond
    /// pattern, sparse enough that every kind of line stands out from it.
    public static let stipple: Unicode.Scalar = "\u{2802}"

    public static func stipples(row: Int, col: Int) -> Bool {
        row % 2 == 0 && col % 4 == (row / 2 % 2) * 2
    }

    /// A cell of a line layer with these dots over a land or sea style: the one
    /// drawing of each layer, shared with the legend. Without colour rivers are
    /// dim and province borders dotted; without braille each layer has a character.
    public static func stroke(_ line: MapLine, bits: UInt8, over background: Style, theme: Theme,
                              capabilities: TerminalCapabilities) -> Cell {
        var style = background
        switch line {
        case .coast: style.fg = theme.coast
        case .border: style.fg = theme.border
        case .river: style.fg = theme.river
        case .province: style.fg = theme.province
        }
        let colorless = capabilities.colors == .none
        if colorless && line == .river { style.attributes.insert(.dim) }
        guard capabilities.unicode else {
            // Not the table's density: without braille a coast is drawn by its direction, the others by a mark.
            switch line {
            case .coast: return Cell(asciiStroke(bits), style: style)
            case .border: return Cell(":", style: style)
            case .river: return Cell("~", style: style)
            case .province: return Cell(",", style: style)  // not `.`: that is a place's dot
            }
        }
        // Dotted: every other dot of the line, alternating by row so that it still reads as a line.
        let shown = colorless && line == .province ? (bits & 0b0101_0101 != 0 ? bits & 0b0101_0101 : bits) : bits
        return Cell(braille(shown), style: style)
    }

    /// The braille glyph for a cell's dot bits.
    @inlinable
    public static func braille(_ bits: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0x2800 + UInt32(bits)) ?? " "
    }

    /// An ASCII character whose shape follows the dots: `-`, `|`, `/` or `\`.
    public static func asciiStroke(_ bits: UInt8) -> Unicode.Scalar {
        // Dot positions in the braille bit order.
        let positions: [(x: Int, y: Int)] = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3)]
        var xs: [Int] = [], ys: [Int] = []
        for (bit, p) in positions.enumerated() where bits & (1 << bit) != 0 {
            xs.append(p.x)
            ys.append(p.y)
        }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return " " }
        if maxY - minY <= 1 { return "-" }
        if maxX == minX { return "|" }
        // Does the stroke fall from left to right?
        let leftY = zip(xs, ys).filter { $0.0 == 0 }.map(\.1)
        let rightY = zip(xs, ys).filter { $0.0 == 1 }.map(\.1)
        let leftMean = Double(leftY.reduce(0, +)) / Double(max(1, leftY.count))
        let rightMean = Double(rightY.reduce(0, +)) / Double(max(1, rightY.count))
        return rightMean > leftMean ? "\\" : "/"
    }
}
