import Foundation
import WorldMap

/// The map's scale bar for the status line: a round distance (1, 2 or 5 times
/// a power of ten, in metres or kilometres) and how many cells it spans along
/// the parallel through the cursor. Web Mercator stretches east–west distances
/// by 1 / cos(latitude), so the same zoom gives a shorter distance per cell
/// towards the poles.
public struct MapScale: Equatable, Sendable {
    /// The distance the bar stands for, in metres.
    public var metres: Double
    /// The bar's width in cells, ends included.
    public var cells: Int

    /// The Earth's equatorial circumference in metres (WGS 84), the width of
    /// the Mercator world at the equator.
    static let equatorMetres = 40_075_016.686

    public init(metres: Double, cells: Int) {
        self.metres = metres
        self.cells = cells
    }

    /// The scale at this zoom and latitude: the smallest round distance whose
    /// bar leaves room for its label (`├─ 5 km ─┤`), or nil when the latitude
    /// is off the map.
    public init?(zoom: Int, latitude: Double) {
        let perCell = MapScale.metresPerCell(zoom: zoom, latitude: latitude)
        guard perCell.isFinite, perCell > 0 else { return nil }
        var power = 1.0
        while true {
            for step in [1.0, 2.0, 5.0] {
                let metres = step * power
                let cells = Int((metres / perCell).rounded())
                if cells >= MapScale.label(metres: metres).count + 6 {
                    self.metres = metres
                    self.cells = cells
                    return
                }
            }
            power *= 10
            if power > 1e8 { return nil }
        }
    }

    /// Metres east–west across one cell (two braille dots) at this latitude.
    public static func metresPerCell(zoom: Int, latitude: Double) -> Double {
        let lat = min(Mercator.maxLatitude, max(-Mercator.maxLatitude, latitude))
        let worldDots = Viewport.baseWorldDots * Double(1 << max(0, min(zoom, Viewport.maxZoom)))
        return equatorMetres * cos(lat * .pi / 180) / worldDots * Double(Viewport.dotsPerCellX)
    }

    /// `500 m`, `2 km`, `5000 km`.
    static func label(metres: Double) -> String {
        metres < 1000 ? "\(Int(metres)) m" : "\(Int(metres / 1000)) km"
    }

    public var label: String { MapScale.label(metres: metres) }

    /// The bar: `├── 5 km ──┤`, `cells` wide (the ASCII fallback turns it into `|-- 5 km --|`).
    public var bar: String {
        let text = " \(label) "
        let dashes = max(2, cells - 2 - text.count)  // at least one either side
        let left = dashes / 2
        return "\u{251C}" + String(repeating: "\u{2500}", count: left) + text
            + String(repeating: "\u{2500}", count: dashes - left) + "\u{2524}"
    }
}
