import Foundation
import Gazetteer
import Terminal
import Geo
import Model
import WorldMap

/// A name the map may show: a country, a capital, another place, or a destination (a landmark, a peak).
public struct LabelCandidate: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case country, capital, place
        /// Marked by its kind's glyph (`MapLabels.glyphs`) instead of a dot.
        case destination(DestinationKind)
    }

    public var name: String
    /// The name in plain ASCII, for terminals without UTF-8 (empty: none).
    public var asciiName: String
    public var coordinate: GeoPoint
    public var kind: Kind
    /// Drawn to stand out: capitals and places of a million or more.
    public var isMajor: Bool
    /// Lower goes first: countries by area, then capitals, then places by
    /// population. It never depends on the view, so a pan only shifts labels.
    public var priority: Int

    public init(name: String, asciiName: String? = nil, coordinate: GeoPoint, kind: Kind, isMajor: Bool, priority: Int) {
        self.name = LabelCandidate.oneScalarPerCell(name)
        self.asciiName = asciiName ?? asciiSpelling(name)
        self.coordinate = coordinate
        self.kind = kind
        self.isMajor = isMajor
        self.priority = priority
    }
}

extension LabelCandidate {
    /// The name as cells show it (`displayable`: composed, controls gone; a CJK name's
    /// characters take two columns each, as `displayWidth` measures it).
    static func oneScalarPerCell(_ name: String) -> String { name.displayable }
}

/// The candidates for one map view, most important first: what the runtime
/// computes once per view (like the raster) and the map view places.
public struct LabelCandidates: Equatable, Sendable {
    /// The map area's view they were chosen for.
    public var viewport: Viewport
    public var items: [LabelCandidate]
    /// False while names the view may show are still being read (the destinations, read in the
    /// background at start): the view asks again at its next frame.
    public var isComplete: Bool

    public init(viewport: Viewport, items: [LabelCandidate], isComplete: Bool = true) {
        self.viewport = viewport
        self.items = items
        self.isComplete = isComplete
    }
}

/// A name placed on the map, in the map area's cells.
public struct MapLabel: Equatable, Sendable {
    public var text: String
    /// Where the text starts.
    public var col: Int
    public var row: Int
    /// The place's dot; countries have none.
    public var dotCol: Int?
    public var dotRow: Int?
    public var kind: LabelCandidate.Kind
    public var isMajor: Bool
    /// What marks its place: a dot, or a destination's glyph.
    public var symbol: Unicode.Scalar = MapLabels.dot

    /// The cells it covers: its text, then its dot.
    public var cells: [(col: Int, row: Int)] {
        var all = (0..<text.displayWidth).map { (col: col + $0, row: row) }
        if let dotCol, let dotRow { all.append((dotCol, dotRow)) }
        return all
    }

    public func covers(col c: Int, row r: Int) -> Bool {
        if c == dotCol && r == dotRow { return true }
        return r == row && c >= col && c < col + text.displayWidth
    }
}

/// Which names the map shows, where. Pure: the same view, candidates and
/// pins always give the same labels.
///
/// Candidates are taken greedily in their fixed priority order over the map
/// area widened by `margin` cells on every side: a name goes right of its
/// dot, else left, above or below, with two columns and one row clear around
/// it, pins' cells kept clear, and no dot within 16 columns and 4 rows of
/// another (12 and 3 for countries and major places). Then the labels wholly
/// inside the area are kept, less those on a pin marker or the cursor
/// (dropped, not replaced; a cursor right on a place only takes the place of
/// its dot, and so does a pin on it or near enough to bar its name, the name
/// then going beside the pin). Placement in the widened area, in cells fixed to the
/// world, makes a pan shift labels rather than reshuffle them: names come and
/// go at the edges only. The cursor is left out of the greedy pass so that
/// moving it changes at most the label it touches.
public enum MapLabels {
    /// Cells added on each side of the area while placing: room for a label
    /// just off screen to keep its place when it comes into view.
    public static let margin = 24
    /// Deepest zoom at which countries are named.
    public static let countryMaxZoom = 5
    /// Capitals are named from this zoom with a fifth of the population other places need.
    public static let capitalMinZoom = 3
    /// A country is named once it is this many cells across (taken as the
    /// square root of its area): tiny countries do not crowd the world map.
    public static let countryMinCells = 4.0
    /// Population that makes a place major.
    public static let majorPopulation = 1_000_000
    /// At most one label per this many cells of the map area: a safety net
    /// the spacing rules seldom reach (when it does, a pan may change labels).
    public static let cellsPerLabel = 160
    /// Most candidates a view asks for.
    public static let candidateLimit = 1500

    /// Landmarks and peaks are named from this zoom on (a region's view), each as heavy as a place
    /// of that zoom must be populous (`Destination.weight` is on the scale of population).
    public static let destinationMinZoom = 7
    /// Longer names of destinations are left off the map (a site's full official name would bar a
    /// whole row); the go-to prompt still finds them.
    public static let destinationMaxWidth = 24

    /// The destinations named on the map and the glyph that marks each in place of a dot, with the
    /// legend's words for it. The one table the labels and the legend read.
    public static let glyphs: [(kinds: [DestinationKind], unicode: Unicode.Scalar, ascii: Unicode.Scalar, meaning: String)] = [
        ([.landmark], "\u{2302}", "#", "landmark"),
        ([.mountain, .volcano], "\u{25B2}", "^", "peak"),
    ]

    /// The glyph that marks a destination of this kind on the map; nil: not named on the map.
    public static func glyph(for kind: DestinationKind, unicode: Bool) -> Unicode.Scalar? {
        glyphs.first { $0.kinds.contains(kind) }.map { unicode ? $0.unicode : $0.ascii }
    }

    /// The smallest population named at a zoom; nil: no places yet.
    public static func minPopulation(zoom: Int) -> Int? {
        let table = [10_000_000, 5_000_000, 2_000_000, 1_000_000, 500_000, 250_000, 100_000, 50_000, 25_000, 10_000, 5_000, 5_000, 2_000]
        guard zoom >= 1 else { return nil }
        return zoom - 1 < table.count ? table[zoom - 1] : 1000
    }

    /// The latitude/longitude box the widened area covers.
    public static func box(for viewport: Viewport) -> GeoBox {
        let cellX = Double(Viewport.dotsPerCellX) / viewport.worldDots
        let cellY = Double(Viewport.dotsPerCellY) / viewport.worldDots
        let x0 = viewport.originX - Double(margin) * cellX
        let x1 = viewport.originX + Double(viewport.width + margin) * cellX
        let y0 = max(0, viewport.originY - Double(margin) * cellY)
        let y1 = min(1, viewport.originY + Double(viewport.height + margin) * cellY)
        let north = Mercator.unproject(x: 0.5, y: y0).latitude
        let south = Mercator.unproject(x: 0.5, y: y1).latitude
        if x1 - x0 >= 1 { return .band(south: south, north: north) }
        func longitude(_ x: Double) -> Double {
            let w = x - x.rounded(.down)
            return w * 360 - 180
        }
        return GeoBox(south: south, west: longitude(x0), north: north, east: longitude(x1))
    }

    /// The candidates for a view from the gazetteer: countries at world zoom,
    /// capitals, then places as populous as the zoom asks, most important first.
    public static func candidates(for viewport: Viewport, gazetteer: Gazetteer, countries: [Country],
                                  capitals: [Place]) -> LabelCandidates {
        let box = box(for: viewport)
        var items: [LabelCandidate] = []
        if viewport.zoom <= countryMaxZoom {
            let cellsPerKm = viewport.worldDots / Double(Viewport.dotsPerCellX) / 40_075
            for (i, country) in countries.enumerated() where box.contains(country.labelPoint)
                && Double(country.areaKm2).squareRoot() * cellsPerKm >= countryMinCells {
                items.append(LabelCandidate(name: country.name.uppercased(), coordinate: country.labelPoint,
                                            kind: .country, isMajor: false, priority: i))
            }
        }
        if viewport.zoom >= capitalMinZoom, let least = minPopulation(zoom: viewport.zoom) {
            for capital in capitals where capital.population >= least / 5 && box.contains(capital.coordinate) {
                items.append(candidate(capital))
            }
        }
        if let least = minPopulation(zoom: viewport.zoom) {
            for place in gazetteer.places(in: box, minPopulation: least, limit: candidateLimit) where !place.isCapital {
                items.append(candidate(place))
            }
        }
        var isComplete = true
        if viewport.zoom >= destinationMinZoom, let least = minPopulation(zoom: viewport.zoom) {
            // A frame never waits for the destinations file: until it is read, the places alone.
            let destinations = gazetteer.destinationsIfReady(in: box, minWeight: least, limit: candidateLimit)
            isComplete = destinations != nil
            for destination in destinations ?? []
            where glyph(for: destination.kind, unicode: true) != nil && destination.name.displayWidth <= destinationMaxWidth {
                // It ranks among places as a place of its weight would: after the places at least as
                // populous, so a famous landmark is named before the suburbs around it.
                items.append(LabelCandidate(name: destination.name, coordinate: destination.coordinate,
                                            kind: .destination(destination.kind), isMajor: false,
                                            priority: 1_000_000 + gazetteer.placeCount(atLeast: destination.weight)))
            }
        }
        items.sort { $0.priority < $1.priority }
        return LabelCandidates(viewport: viewport, items: items, isComplete: isComplete)
    }

    static func candidate(_ place: Place) -> LabelCandidate {
        LabelCandidate(name: place.name, coordinate: place.coordinate, kind: place.isCapital ? .capital : .place,
                       isMajor: place.isCapital || place.population >= majorPopulation,
                       priority: (place.isCapital ? 1_000 : 1_000_000) + place.rank)
    }

    /// Countries in priority order: the biggest first.
    public static func byArea(_ countries: [Country]) -> [Country] {
        countries.sorted { ($0.areaKm2, $1.code) > ($1.areaKm2, $0.code) }
    }

    /// Places the candidates (in priority order) on the map area of `viewport`.
    /// `pins` are kept clear wherever they are (`excluding` the one being
    /// moved), but for a pin right on a place, which stands in for its dot;
    /// labels on a `marker` or the `cursor` cell are then dropped.
    public static func place(_ candidates: [LabelCandidate], viewport: Viewport, pins: [Pin], excluding: Pin.ID? = nil,
                             markers: [PinLayout.Marker], cursor: (col: Int, row: Int)?, unicode: Bool) -> [MapLabel] {
        let w = viewport.width, h = viewport.height
        guard w > 0, h > 0, !candidates.isEmpty else { return [] }
        var grid = OccupancyGrid(width: w + 2 * margin, height: h + 2 * margin)
        let near = box(for: viewport)  // a cheap test first: projecting is the costly part
        for pin in pins where pin.id != excluding && near.contains(pin.coordinate) {
            let cell = viewport.cell(for: pin.coordinate)
            for col in PinLayout.copies(of: cell.col, viewport: viewport, from: -margin, to: w + margin) {
                grid.markPin(col + margin, cell.row + margin)
            }
        }
        let maxCount = max(4, w * h / cellsPerLabel)
        var placed: [MapLabel] = []
        for candidate in candidates {
            let text = unicode ? candidate.name : candidate.asciiName
            guard !text.isEmpty else { continue }
            let nearest = viewport.cell(for: candidate.coordinate)
            // Where the world repeats across the screen (z0–z1), each copy is named.
            for col in PinLayout.copies(of: nearest.col, viewport: viewport, from: -margin, to: w + margin) {
                let c = col + margin, r = nearest.row + margin
                guard let label = fit(text, candidate, col: c, row: r, in: &grid) else { continue }
                // Keep only what lies wholly in the area and clear of markers and the cursor.
                let inside = label.cells.allSatisfy { $0.col >= margin && $0.col < margin + w && $0.row >= margin && $0.row < margin + h }
                guard inside else { continue }
                var shown = label
                shown.symbol = symbol(for: candidate, unicode: unicode)
                shown.col -= margin
                shown.row -= margin
                shown.dotCol = shown.dotCol.map { $0 - margin }
                shown.dotRow = shown.dotRow.map { $0 - margin }
                if let cursor, shown.dotCol == cursor.col && shown.dotRow == cursor.row {
                    // The cursor on the place stands in for its dot: "Went to Paris" shows "Paris".
                    shown.dotCol = nil
                    shown.dotRow = nil
                }
                let cells = shown.cells
                if let cursor, cells.contains(where: { $0.col == cursor.col && $0.row == cursor.row }) { continue }
                if markers.contains(where: { m in cells.contains { m.covers(col: $0.col, row: $0.row) } }) { continue }
                placed.append(shown)
                if placed.count == maxCount { return placed }
            }
        }
        return placed
    }

    /// What marks a candidate's place: its kind's glyph for a destination, else a dot (bigger for
    /// major places).
    static func symbol(for candidate: LabelCandidate, unicode: Bool) -> Unicode.Scalar {
        if case let .destination(kind) = candidate.kind, let glyph = glyph(for: kind, unicode: unicode) { return glyph }
        return candidate.isMajor ? majorDot : dot
    }

    /// The dots of places: capitals and places of a million or more get the bigger one.
    public static let dot: Unicode.Scalar = "\u{00B7}"
    public static let majorDot: Unicode.Scalar = "\u{2022}"

    /// The first free spot for a name around its place (right, left, above,
    /// below; a country's name centred on its point), marked taken.
    private static func fit(_ text: String, _ candidate: LabelCandidate, col c: Int, row r: Int,
                            in grid: inout OccupancyGrid) -> MapLabel? {
        let width = text.displayWidth
        let centred = c - width / 2
        if candidate.kind == .country {
            guard grid.isClear(col: centred, row: r, width: width), grid.hasNoDot(near: c, r, spacing: OccupancyGrid.majorDotSpacing) else {
                return nil
            }
            grid.mark(col: centred, row: r, width: width)
            grid.markDot(c, r)
            return MapLabel(text: text, col: centred, row: r, kind: .country, isMajor: candidate.isMajor)
        }
        let spacing = candidate.isMajor ? OccupancyGrid.majorDotSpacing : OccupancyGrid.dotSpacing
        // A pin dropped on the place, or so near that it would bar the name, stands in for its dot:
        // the name goes beside the pin ("Rome" by a pin dropped at 41.89, 12.51).
        let anchor = grid.hasPin(c, r) ? (col: c, row: r) : grid.nearestPin(around: c, r) ?? (col: c, row: r)
        let onPin = grid.hasPin(anchor.col, anchor.row)
        guard grid.isClear(col: anchor.col, row: anchor.row, width: 1, besidePin: anchor),
              grid.hasNoDot(near: c, r, spacing: spacing) else {
            return nil
        }
        let (ac, ar) = anchor, beside = ac - width / 2
        let spots = [(ac + 1, ar), (ac - width, ar), (beside, ar - 1), (beside, ar + 1)]
        for (col, row) in spots where grid.isClear(col: col, row: row, width: width, besidePin: anchor) {
            grid.mark(col: ac, row: ar, width: 1)
            grid.markDot(c, r)
            grid.mark(col: col, row: row, width: width)
            return MapLabel(text: text, col: col, row: row, dotCol: onPin ? nil : c, dotRow: onPin ? nil : r,
                            kind: candidate.kind, isMajor: candidate.isMajor)
        }
        return nil
    }
}

/// Cells taken by labels and pins while placing, and the places' dots.
private struct OccupancyGrid {
    let width: Int
    let height: Int
    var taken: [Bool]
    var dots: [Bool]
    var pins: [Bool]

    /// No dot of a place within this many columns and rows of another: the map stays airy where
    /// places crowd. Big places and countries may come a little closer.
    static let dotSpacing = (cols: 16, rows: 4)
    static let majorDotSpacing = (cols: 12, rows: 3)

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        taken = Array(repeating: false, count: width * height)
        dots = taken
        pins = taken
    }

    func hasPin(_ col: Int, _ row: Int) -> Bool {
        col >= 0 && col < width && row >= 0 && row < height && pins[row * width + col]
    }

    /// The pin nearest a place's cell among those that would keep its dot from being clear (the
    /// cells `isClear` looks at around it), nearest first, then the upper, then the left one.
    func nearestPin(around col: Int, _ row: Int) -> (col: Int, row: Int)? {
        var best: (col: Int, row: Int, distance: Int)?
        for dy in -1...1 {
            for dx in -Self.gap...Self.gap where hasPin(col + dx, row + dy) {
                let distance = dx * dx + 4 * dy * dy  // a row is about two columns high
                if best.map({ distance < $0.distance }) ?? true { best = (col + dx, row + dy, distance) }
            }
        }
        return best.map { (col: $0.col, row: $0.row) }
    }

    mutating func markPin(_ col: Int, _ row: Int) {
        if col >= 0, col < width, row >= 0, row < height { pins[row * width + col] = true }
    }

    func hasNoDot(near col: Int, _ row: Int, spacing: (cols: Int, rows: Int)) -> Bool {
        let (dc, dr) = spacing
        for y in max(0, row - dr + 1)...min(height - 1, row + dr - 1) {
            for x in max(0, col - dc + 1)...min(width - 1, col + dc - 1) where dots[y * width + x] { return false }
        }
        return true
    }

    mutating func markDot(_ col: Int, _ row: Int) {
        if col >= 0, col < width, row >= 0, row < height { dots[row * width + col] = true }
    }

    /// Columns kept clear on each side of a label (rows: one).
    static let gap = 2

    /// Is the run inside the grid, with no label or pin in it or the cells around it? A pin at
    /// `besidePin` (the label's own place) does not count.
    func isClear(col: Int, row: Int, width w: Int, besidePin: (col: Int, row: Int)? = nil) -> Bool {
        guard col >= 0, row >= 0, col + w <= width, row < height else { return false }
        let own = besidePin.map { $0.row * width + $0.col } ?? -1
        for y in max(0, row - 1)...min(height - 1, row + 1) {
            for x in max(0, col - Self.gap)...min(width - 1, col + w - 1 + Self.gap) {
                let i = y * width + x
                if taken[i] || (pins[i] && i != own) { return false }
            }
        }
        return true
    }

    mutating func mark(col: Int, row: Int, width w: Int) {
        guard row >= 0, row < height, col < width, col + w > 0 else { return }
        for x in max(0, col)..<min(width, col + w) { taken[row * width + x] = true }
    }
}

/// The labels over the map: a dot at each place and its name beside it.
struct LabelsWidget: Widget {
    var labels: [MapLabel]
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        for label in labels {
            let style: Style
            switch label.kind {
            case .country: style = theme.countryLabel
            case .capital, .place, .destination: style = label.isMajor ? theme.labelMajor : theme.label
            }
            if let dotCol = label.dotCol, let dotRow = label.dotRow {
                paint(label.symbol, col: dotCol, row: dotRow, style: theme.labelDot, area: area, into: &buffer)
            }
            var col = label.col
            for cell in label.text.displayCells {
                paint(cell, col: col, row: label.row, style: style, area: area, into: &buffer)
                col += cell.width
            }
        }
    }

    /// Writes a character of a name over the map, keeping the map's background (a wide one only whole).
    private func paint(_ text: TextCell, col: Int, row: Int, style: Style, area: Rect, into buffer: inout CellBuffer) {
        let x = area.x + col, y = area.y + row
        guard area.contains(x: x, y: y), x + text.width <= area.right else { return }
        var cell = buffer[x, y].style
        cell.fg = style.fg
        cell.attributes = style.attributes
        buffer.put(text.text, x: x, y: y, style: cell, maxWidth: text.width)
    }

    /// Writes a glyph over the map, keeping the map's background.
    private func paint(_ symbol: Unicode.Scalar, col: Int, row: Int, style: Style, area: Rect, into buffer: inout CellBuffer) {
        let x = area.x + col, y = area.y + row
        guard area.contains(x: x, y: y) else { return }
        var cell = buffer[x, y].style
        cell.fg = style.fg
        cell.attributes = style.attributes
        buffer[x, y] = Cell(Cell.displayable(symbol), style: cell)
    }
}
