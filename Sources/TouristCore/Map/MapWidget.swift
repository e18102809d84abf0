import Terminal
import WorldMap

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
        let colorless = capabilities.colors == .none
        for row in 0..<min(raster.height, area.height) {
            for col in 0..<min(raster.width, area.width) {
                let i = row * raster.width + col
                let isLand = raster.land[i].nonzeroBitCount >= 4
                var style = isLand ? theme.land : theme.sea
                let coast = raster.coast[i], border = raster.border[i]
                let symbol: Unicode.Scalar
                if coast != 0 || border != 0 {
                    style.fg = coast != 0 ? theme.coast : theme.border
                    if capabilities.unicode {
                        symbol = MapWidget.braille(coast | border)
                    } else {
                        // Not the table's density: without braille a coast is drawn by its direction, a border as dots.
                        symbol = coast != 0 ? MapWidget.asciiStroke(coast) : "."
                    }
                } else if colorless && isLand && (row + col) % 2 == 0 {
                    // Without colour, a light stipple tells land from sea.
                    symbol = "\u{2802}"
                } else {
                    symbol = " "
                }
                buffer[area.x + col, area.y + row] = Cell(symbol, style: style)
            }
        }
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
