import Model
import Terminal
import WorldMap

/// Where pins land on screen at the current zoom. Pins that would share a
/// cell (or crowd one 3-cell slot of a row) become one cluster with a count.
public struct PinLayout: Equatable, Sendable {
    public struct Marker: Equatable, Sendable {
        public var col: Int
        public var row: Int
        /// Cells the marker covers from `col` (1 for a pin, the label's width for a cluster).
        public var width: Int
        public var pins: [Pin.ID]
        /// The first column of the slot its pins fell in: a cluster's count may be narrower than
        /// the cells its pins are on, and the cursor on any of them is on the cluster.
        public var slotCol: Int
        /// Columns of the slots its pins fell in (two or more slots once neighbours merged).
        public var slotSpan: Int
        public var isCluster: Bool { pins.count > 1 }

        public init(col: Int, row: Int, width: Int, pins: [Pin.ID], slotCol: Int? = nil, slotSpan: Int = PinLayout.slotWidth) {
            self.col = col
            self.row = row
            self.width = width
            self.pins = pins
            self.slotCol = slotCol ?? col / PinLayout.slotWidth * PinLayout.slotWidth
            self.slotSpan = slotSpan
        }

        /// Whether the marker is drawn over the cell, or one of its pins is on it.
        public func covers(col c: Int, row r: Int) -> Bool {
            r == row && ((c >= col && c < col + width) || (isCluster && c >= slotCol && c < slotCol + slotSpan))
        }

        /// The first column after its cells and its slots.
        var end: Int { max(col + width, slotCol + slotSpan) }
    }

    /// Columns per clustering slot: wide enough for a three-character count.
    public static let slotWidth = 3

    public private(set) var markers: [Marker] = []

    public init(pins: [Pin], viewport: Viewport, excluding excluded: Pin.ID? = nil) {
        let w = viewport.width, h = viewport.height
        guard w > 0, h > 0 else { return }
        let slotsPerRow = (w + PinLayout.slotWidth - 1) / PinLayout.slotWidth
        // Per slot: index of its marker in `markers`, or -1.
        var slotMarker = [Int](repeating: -1, count: slotsPerRow * h)
        for pin in pins where pin.id != excluded {
            let nearest = viewport.cell(for: pin.coordinate)
            guard nearest.row >= 0, nearest.row < h else { continue }
            // Where the world repeats across the screen (z0–z1), the pin is on every copy.
            for col in PinLayout.copies(of: nearest.col, viewport: viewport, from: 0, to: w) {
                let cell = (col: col, row: nearest.row)
                let slot = cell.row * slotsPerRow + cell.col / PinLayout.slotWidth
                let existing = slotMarker[slot]
                if existing < 0 {
                    slotMarker[slot] = markers.count
                    markers.append(Marker(col: cell.col, row: cell.row, width: 1, pins: [pin.id]))
                } else {
                    markers[existing].pins.append(pin.id)
                    markers[existing].col = min(markers[existing].col, cell.col)
                }
            }
        }
        for i in markers.indices where markers[i].isCluster {
            let labelWidth = PinLayout.countLabel(markers[i].pins.count).displayWidth
            let slotEnd = (markers[i].col / PinLayout.slotWidth + 1) * PinLayout.slotWidth
            markers[i].width = labelWidth
            markers[i].col = max(0, min(markers[i].col, min(slotEnd, w) - labelWidth))
        }
        markers = PinLayout.parted(markers, width: w)
    }

    /// The markers with a blank cell between counts side by side ("2" "2" would read "22"): the right
    /// one moves right within its slot, else the left one left within its own; where neither has
    /// room, the two become one cluster over both slots. A pin beside a count needs no gap: its
    /// glyph is no digit.
    static func parted(_ markers: [Marker], width w: Int) -> [Marker] {
        guard markers.contains(where: \.isCluster) else { return markers }
        var result = markers
        var gone = Set<Int>()
        for indices in Dictionary(grouping: markers.indices, by: { markers[$0].row }).values {
            var previous: Int?
            // Where the count left of `previous` ends: `previous` moves left only clear of it.
            var beforePrevious = Int.min
            func advance(to index: Int) {
                beforePrevious = previous.map { result[$0].isCluster ? result[$0].col + result[$0].width : Int.min } ?? Int.min
                previous = index
            }
            for index in indices.sorted(by: { markers[$0].col < markers[$1].col }) {
                guard let p = previous, result[p].isCluster, result[index].isCluster,
                      result[index].col <= result[p].col + result[p].width else {
                    advance(to: index)
                    continue
                }
                var left = result[p], right = result[index]
                if left.col + left.width + 1 + right.width <= min(right.slotCol + right.slotSpan, w) {
                    right.col = left.col + left.width + 1
                } else if right.col - 1 - left.width >= max(left.slotCol, beforePrevious + 1) {
                    left.col = right.col - 1 - left.width
                } else {
                    let pins = left.pins + right.pins
                    result[p] = Marker(col: left.col, row: left.row, width: countLabel(pins.count).displayWidth, pins: pins,
                                       slotCol: left.slotCol, slotSpan: right.slotCol + right.slotSpan - left.slotCol)
                    gone.insert(index)
                    continue
                }
                result[p] = left
                result[index] = right
                advance(to: index)
            }
        }
        return result.indices.filter { !gone.contains($0) }.map { result[$0] }
    }

    /// The columns from `from` up to `to` (not included) where a place drawn at `col` shows: one,
    /// or one per copy of the world when it is narrower than the screen.
    public static func copies(of col: Int, viewport: Viewport, from: Int, to: Int) -> StrideTo<Int> {
        let period = max(1, Int(viewport.worldDots) / Viewport.dotsPerCellX)
        guard period < to - from else { return stride(from: col, to: col >= from && col < to ? col + 1 : col, by: 1) }
        let first = from + ((col - from) % period + period) % period
        return stride(from: first, to: to, by: period)
    }

    /// The marker drawn over a cell, if any.
    public func marker(atCol col: Int, row: Int) -> Marker? {
        markers.first { $0.covers(col: col, row: row) }
    }

    /// A cluster's count in at most three characters.
    public static func countLabel(_ n: Int) -> String {
        if n < 1000 { return String(n) }
        return "\(min(n / 1000, 99))k"
    }
}
