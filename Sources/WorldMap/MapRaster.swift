import Foundation

/// The map of a viewport as braille dots, one byte per cell in each layer.
/// Bits follow Unicode braille, so a cell's glyph is U+2800 + bits:
/// dot (x, y) of the 2×4 cell → (0,0)=0x01 (0,1)=0x02 (0,2)=0x04 (1,0)=0x08
/// (1,1)=0x10 (1,2)=0x20 (0,3)=0x40 (1,3)=0x80.
public struct MapRaster: Sendable, Equatable {
    /// Size in cells.
    public let width: Int
    public let height: Int
    /// Dots whose centre is on land (lakes count as water).
    public var land: [UInt8]
    /// Dots on a coastline or lake shore.
    public var coast: [UInt8]
    /// Dots on a country border.
    public var border: [UInt8]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let n = self.width * self.height
        land = [UInt8](repeating: 0, count: n)
        coast = [UInt8](repeating: 0, count: n)
        border = [UInt8](repeating: 0, count: n)
    }

    /// The braille bit of dot (x, y) within its cell.
    public static func bit(dotX: Int, dotY: Int) -> UInt8 {
        dotBit(dotX, dotY)
    }

    /// Whether the dot at (x, y) in dot space of the whole raster is set in a layer.
    public static func isSet(_ layer: [UInt8], width: Int, dotX: Int, dotY: Int) -> Bool {
        layer[(dotY >> 2) * width + (dotX >> 1)] & bit(dotX: dotX, dotY: dotY) != 0
    }
}

/// Draws the world's land, coastlines and borders as seen through a
/// viewport, at the level of detail `MapDetail(viewport:)` picks. Pure: no
/// terminal code; safe from any thread.
public func rasterize(_ geometry: WorldGeometry, viewport: Viewport) -> MapRaster {
    let level = geometry.levelForDrawing(MapDetail(viewport: viewport))
    return rasterize(level, viewport: viewport, culling: true)
}

/// `culling: false` processes every segment of every chunk (tests compare
/// it with the culled path, which must give the same picture).
func rasterize(_ level: MapLevel, viewport: Viewport, culling: Bool) -> MapRaster {
    var raster = MapRaster(width: viewport.width, height: viewport.height)
    let widthDots = raster.width * Viewport.dotsPerCellX
    let heightDots = raster.height * Viewport.dotsPerCellY
    guard widthDots > 0, heightDots > 0 else { return raster }
    let cells = raster.width * raster.height
    let toggles = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: widthDots * heightDots)
    let coast = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: cells)
    let border = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: cells)
    defer {
        toggles.deallocate()
        coast.deallocate()
        border.deallocate()
    }
    toggles.initialize(repeating: 0)
    coast.initialize(repeating: 0)
    border.initialize(repeating: 0)

    var r = Rasterizer(viewport: viewport, widthDots: widthDots, heightDots: heightDots,
                       toggles: toggles, coast: coast, border: border)
    let firstCopy = Int(viewport.originX.rounded(.down))
    let lastCopy = Int((viewport.originX + Double(widthDots) / viewport.worldDots).rounded(.down))
    for copy in firstCopy...lastCopy {
        r.offsetX = Double(copy) * viewport.worldDots - r.originXDots
        r.draw(level.land, fillBit: 1, stroke: coast, culling: culling)
        r.draw(level.lakes, fillBit: 2, stroke: coast, culling: culling)
        r.draw(level.borders, fillBit: 0, stroke: border, culling: culling)
    }
    raster.land.withUnsafeMutableBufferPointer { r.fill(into: $0) }
    raster.coast = Array(coast)
    raster.border = Array(border)
    return raster
}

@inline(__always)
private func dotBit(_ x: Int, _ y: Int) -> UInt8 {
    // Braille bits as a lookup in a 64-bit constant, one byte per dot.
    UInt8(truncatingIfNeeded: UInt64(0x8020_1008_4004_0201) >> (UInt64((x & 1) << 2 | (y & 3)) << 3))
}

/// Floor without a libm call; callers keep `v` within a few million.
@inline(__always)
private func floorToInt(_ v: Double) -> Int {
    let i = Int(v)
    return Double(i) > v ? i - 1 : i
}

/// Dot space: dot (i, j) covers [i, i+1)×[j, j+1); its centre is (i+½, j+½).
private struct Rasterizer {
    let widthDots: Int
    let heightDots: Int
    let cellsWide: Int
    /// Dots per world unit of the file's integer coordinates.
    let scale: Double
    let originXDots: Double
    let originYDots: Double
    /// Dot x of world unit 0 for the copy of the world being drawn.
    var offsetX = 0.0
    /// Per dot, XOR of the fill bits (1 land, 2 lake) of edges crossing that
    /// row just left of the dot's centre; a prefix XOR along the row gives
    /// each dot's parity.
    let toggles: UnsafeMutableBufferPointer<UInt8>
    let coast: UnsafeMutableBufferPointer<UInt8>
    let border: UnsafeMutableBufferPointer<UInt8>

    init(viewport: Viewport, widthDots: Int, heightDots: Int, toggles: UnsafeMutableBufferPointer<UInt8>,
         coast: UnsafeMutableBufferPointer<UInt8>, border: UnsafeMutableBufferPointer<UInt8>) {
        self.widthDots = widthDots
        self.heightDots = heightDots
        self.cellsWide = widthDots / Viewport.dotsPerCellX
        scale = viewport.worldDots / Double(WorldGeometry.unitsPerWorld)
        originXDots = viewport.originX * viewport.worldDots
        originYDots = viewport.originY * viewport.worldDots
        self.toggles = toggles
        self.coast = coast
        self.border = border
    }

    /// The first row whose centre is at or below y: a segment from y0 to y1
    /// crosses the centres of rows row(min)..<row(max).
    @inline(__always)
    func row(_ y: Double) -> Int {
        let t = max(-2, min(Double(heightDots + 2), y - 0.5))
        let i = Int(t)
        return Double(i) < t ? i + 1 : i
    }

    func draw(_ layer: MapLayer, fillBit: UInt8, stroke: UnsafeMutableBufferPointer<UInt8>, culling: Bool) {
        let w = Double(widthDots), h = Double(heightDots)
        let isRing = fillBit != 0
        let world = WorldGeometry.unitsPerWorld
        layer.xs.withUnsafeBufferPointer { xs in
            layer.ys.withUnsafeBufferPointer { ys in
                for c in layer.chunks {
                    let first = Int(c.start), last = Int(c.start + c.count) - 1
                    if culling {
                        let minX = Double(c.minX) * scale + offsetX
                        let maxX = Double(c.maxX) * scale + offsetX
                        let minY = Double(c.minY) * scale - originYDots
                        let maxY = Double(c.maxY) * scale - originYDots
                        if minX > w + 1 || minY > h + 1 || maxY < -1 { continue }
                        if maxX < -1 {
                            // Wholly left: its crossings of each row have the same
                            // parity as one vertical edge joining its two ends.
                            if isRing {
                                let a = row(Double(ys[first]) * scale - originYDots)
                                let b = row(Double(ys[last]) * scale - originYDots)
                                toggleColumnZero(from: min(a, b), to: max(a, b), bit: fillBit)
                            }
                            continue
                        }
                    }
                    var ax = Double(xs[first]) * scale + offsetX
                    var ay = Double(ys[first]) * scale - originYDots
                    var aDotX = floorToInt(ax), aDotY = floorToInt(ay)
                    var aRow = row(ay)
                    var aEdge = worldEdges(xs[first], ys[first], world)
                    for i in (first + 1)...last {
                        let bx = Double(xs[i]) * scale + offsetX
                        let by = Double(ys[i]) * scale - originYDots
                        let bDotX = floorToInt(bx), bDotY = floorToInt(by)
                        // Zoomed out, many points fall in the dot of the last one kept:
                        // skip them (the chunk's last point is always kept, so the
                        // fill's parity stays exact).
                        if bDotX == aDotX && bDotY == aDotY && i != last { continue }
                        let bRow = row(by)
                        let bEdge = worldEdges(xs[i], ys[i], world)
                        if isRing && aRow != bRow {
                            crossRows(ax, ay, bx, by, aRow, bRow, bit: fillBit)
                        }
                        // Rings' edges along the world's border are cuts, not coast.
                        if !isRing || aEdge & bEdge == 0 {
                            strokeSegment(ax, ay, bx, by, into: stroke)
                        }
                        ax = bx; ay = by; aRow = bRow; aEdge = bEdge
                        aDotX = bDotX; aDotY = bDotY
                    }
                }
            }
        }
    }

    /// Bits 1 left, 2 right, 4 top, 8 bottom: which borders of the world a point lies on.
    @inline(__always)
    func worldEdges(_ x: Int32, _ y: Int32, _ world: Int32) -> UInt8 {
        (x == 0 ? 1 : 0) | (x == world ? 2 : 0) | (y == 0 ? 4 : 0) | (y == world ? 8 : 0)
    }

    @inline(__always)
    func toggleColumnZero(from: Int, to: Int, bit: UInt8) {
        let lo = max(from, 0), hi = min(to, heightDots)
        guard lo < hi else { return }
        for j in lo..<hi { toggles[j * widthDots] ^= bit }
    }

    @inline(__always)
    func crossRows(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ aRow: Int, _ bRow: Int, bit: UInt8) {
        let lo = max(min(aRow, bRow), 0), hi = min(max(aRow, bRow), heightDots)
        guard lo < hi else { return }
        let slope = (bx - ax) / (by - ay)
        let w = Double(widthDots)
        for j in lo..<hi {
            let x = ax + (Double(j) + 0.5 - ay) * slope
            // First dot whose centre is right of the crossing.
            if x - 0.5 >= w - 1 { continue }
            let col = x < 0.5 ? 0 : floorToInt(x - 0.5) + 1
            toggles[j * widthDots + col] ^= bit
        }
    }

    /// Prefix XOR along each row; a dot is land when inside a land ring and
    /// not inside a lake ring.
    func fill(into land: UnsafeMutableBufferPointer<UInt8>) {
        for j in 0..<heightDots {
            var parity: UInt8 = 0
            let rowBase = (j >> 2) * cellsWide
            let toggleBase = j * widthDots
            for i in 0..<widthDots {
                parity ^= toggles[toggleBase + i]
                if parity == 1 {
                    land[rowBase + (i >> 1)] |= dotBit(i, j)
                }
            }
        }
    }

    @inline(__always)
    func setDot(_ x: Int, _ y: Int, into layer: UnsafeMutableBufferPointer<UInt8>) {
        if x >= 0 && x < widthDots && y >= 0 && y < heightDots {
            layer[(y >> 2) * cellsWide + (x >> 1)] |= dotBit(x, y)
        }
    }

    func strokeSegment(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                       into layer: UnsafeMutableBufferPointer<UInt8>) {
        let w = Double(widthDots), h = Double(heightDots)
        var x0 = ax, y0 = ay, x1 = bx, y1 = by
        if !(x0 >= 0 && x0 < w && y0 >= 0 && y0 < h && x1 >= 0 && x1 < w && y1 >= 0 && y1 < h) {
            // Liang–Barsky: clip to the map plus a dot of margin.
            var t0 = 0.0, t1 = 1.0
            let dx = x1 - x0, dy = y1 - y0
            @inline(__always) func clip(_ p: Double, _ q: Double) -> Bool {
                if p == 0 { return q >= 0 }
                let t = q / p
                if p < 0 {
                    if t > t1 { return false }
                    if t > t0 { t0 = t }
                } else {
                    if t < t0 { return false }
                    if t < t1 { t1 = t }
                }
                return true
            }
            guard clip(-dx, x0 + 1), clip(dx, w + 1 - x0), clip(-dy, y0 + 1), clip(dy, h + 1 - y0) else { return }
            x1 = x0 + t1 * dx; y1 = y0 + t1 * dy
            x0 = x0 + t0 * dx; y0 = y0 + t0 * dy
        }
        var cx = floorToInt(x0), cy = floorToInt(y0)
        let ex = floorToInt(x1), ey = floorToInt(y1)
        let sx = cx < ex ? 1 : -1, sy = cy < ey ? 1 : -1
        let dx = abs(ex - cx), dy = -abs(ey - cy)
        var err = dx + dy
        while true {
            setDot(cx, cy, into: layer)
            if cx == ex && cy == ey { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; cx += sx }
            if e2 <= dx { err += dx; cy += sy }
        }
    }
}
