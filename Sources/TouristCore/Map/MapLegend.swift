import Terminal
import Geo

/// A line of the map's legend: a sample drawn exactly as the map draws it, and what it means.
public struct LegendRow: Equatable, Sendable {
    public var sample: [Cell]
    public var text: String

    public init(_ sample: [Cell], _ text: String) {
        self.sample = sample
        self.text = text
    }
}

/// What the map's glyphs and colours mean, for help on the map (`?`). Each
/// sample comes from the widget that draws that thing on the map, so the
/// legend cannot drift from the map.
enum MapLegend {
    /// A short horizontal stroke: the middle two rows of a braille cell's dots.
    private static let stroke: UInt8 = 0x12 | 0x24

    static func rows(theme: Theme, capabilities: TerminalCapabilities) -> [LegendRow] {
        func line(_ kind: MapLine, over background: Style) -> [Cell] {
            let cell = MapWidget.stroke(kind, bits: stroke, over: background, theme: theme, capabilities: capabilities)
            return [cell, cell, cell]
        }
        let colorless = capabilities.colors == .none
        // Land and sea as the map fills them (a stipple on land without colour).
        let land = (0..<4).map { col in
            Cell(colorless && MapWidget.stipples(row: 0, col: col) ? MapWidget.stipple : " ", style: theme.land)
        }
        let sea = Cell(" ", style: theme.sea)
        // The shortest bar the status line draws.
        let scale = MapScale(metres: 5000, cells: 10).bar.unicodeScalars.map { Cell($0, style: theme.dialog) }
        var pin = theme.land
        pin.fg = theme.pin.fg
        pin.attributes = theme.pin.attributes
        var cursor = theme.land
        cursor.fg = theme.cursor.fg
        cursor.attributes = theme.cursor.attributes
        // Marks of places and destinations, as the labels draw them over land.
        var dot = theme.land
        dot.fg = theme.labelDot.fg
        dot.attributes = theme.labelDot.attributes
        let unicode = capabilities.unicode
        let rows = [
            LegendRow(land, "land"),
            LegendRow([sea, sea, sea, sea], "sea and lakes"),
            LegendRow(line(.coast, over: theme.sea), "coast, lake shore"),
            LegendRow(line(.river, over: theme.land), "river (big ones first)"),
            LegendRow(line(.border, over: theme.land), "country border"),
            LegendRow(line(.province, over: theme.land), "state/province border"),
            LegendRow([Cell(MapLabels.dot, style: dot), Cell(MapLabels.majorDot, style: dot)], "place, big place"),
            // The destinations' glyphs share a row: the legend stays short enough for 80x24.
            LegendRow(MapLabels.glyphs.map { Cell(Cell.displayable(unicode ? $0.unicode : $0.ascii), style: dot) },
                      MapLabels.glyphs.map(\.meaning).joined(separator: ", ")),
            LegendRow([Cell(PinsWidget.pinSymbol, style: pin)], "pin"),
            LegendRow(PinLayout.countLabel(12).unicodeScalars.map { Cell($0, style: theme.cluster) },
                      "pins too close: how many"),
            LegendRow([Cell(PinsWidget.cursorSymbol, style: cursor)], "cursor"),
            LegendRow(scale, "scale at the cursor"),
        ]
        return rows
    }
}
