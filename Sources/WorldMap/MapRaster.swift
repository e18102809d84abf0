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
    /// Dots on a river visible at this zoom (`MapVisibility.riverRank(zoom:)`).
    public var river: [UInt8]
    /// Dots on a state, province or region line (from `MapVisibility.provinceMinZoom`).
    public var province: [UInt8]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let n = self.width * self.height
        land = [UInt8](repeating: 0, count: n)
        coast = [UInt8](repeating: 0, count: n)
        border = [UInt8](repeating: 0, count: n)
        river = [UInt8](repeating: 0, count: n)
        province = [UInt8](repeating: 0, count: n)
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

/// Draws the world's land, coastlines, borders, province lines and rivers
/// as seen through a viewport, at the level of detail `MapDetail(viewport:)`
/// picks. Coarse and medium are drawn from decoded arrays; fine and detail
/// chunk by chunk from the mapped file (at `.detail`, shores come from
/// GSHHG, borders, province lines and rivers from `.fine`). A level that
/// cannot be read falls back to a coarser one. Pure: no terminal code;
/// safe from any thread.
public func rasterize(_ geometry: WorldGeometry, viewport: Viewport) -> MapRaster {
    let detail = MapDetail(viewport: viewport)
    if detail >= .fine, let lines = try? geometry.indexedLevel(.fine) {
        let shores = detail == .detail ? (try? geometry.indexedLevel(.detail)) ?? lines : lines
        return rasterize(.indexed(geometry, shores: shores, lines: lines), viewport: viewport, culling: true)
    }
    return rasterize(.decoded(geometry.levelForDrawing(min(detail, .medium))), viewport: viewport, culling: true)
}

/// Where a frame's geometry comes from: a decoded level, or indexed levels
/// read in place (land and lakes from `shores`, lines from `lines`).
enum MapSource {
    case decoded(MapLevel)
    case indexed(WorldGeometry, shores: IndexedLevel, lines: IndexedLevel)
}

func rasterize(_ level: MapLevel, viewport: Viewport, culling: Bool) -> MapRaster {
    rasterize(.decoded(level), viewport: viewport, culling: culling)
}

/// `culling: false` processes every segment of every chunk (tests compare
/// it with the culled path, which must give the same picture).
func rasterize(_ source: MapSource, viewport: Viewport, culling: Bool) -> MapRaster {
    var raster = MapRaster(width: viewport.width, height: viewport.height)
    let widthDots = raster.width * Viewport.dotsPerCellX
    let heightDots = raster.height * Viewport.dotsPerCellY
    guard widthDots > 0, heightDots > 0 else { return raster }
    let cells = raster.width * raster.height
    let toggles = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: widthDots * heightDots)
    let strokes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: cells * 4)
    let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * MapFormat.maxChunkPoints)
    defer {
        toggles.deallocate()
        strokes.deallocate()
        scratch.deallocate()
    }
    toggles.initialize(repeating: 0)
    strokes.initialize(repeating: 0)
    let coast = UnsafeMutableBufferPointer(rebasing: strokes[0..<cells])
    let border = UnsafeMutableBufferPointer(rebasing: strokes[cells..<2 * cells])
    let river = UnsafeMutableBufferPointer(rebasing: strokes[2 * cells..<3 * cells])
    let province = UnsafeMutableBufferPointer(rebasing: strokes[3 * cells..<4 * cells])

    let riverRank = UInt8(MapVisibility.riverRank(zoom: viewport.zoom))
    let provinces = viewport.zoom >= MapVisibility.provinceMinZoom
    var r = Rasterizer(viewport: viewport, widthDots: widthDots, heightDots: heightDots,
                       toggles: toggles, culling: culling)
    let firstCopy = Int(viewport.originX.rounded(.down))
    let lastCopy = Int((viewport.originX + Double(widthDots) / viewport.worldDots).rounded(.down))
    for copy in firstCopy...lastCopy {
        r.offsetX = Double(copy) * viewport.worldDots - r.originXDots
        switch source {
        case .decoded(let level):
            r.draw(level.land, fillBit: 1, stroke: coast)
            r.draw(level.lakes, fillBit: 2, stroke: coast)
            if riverRank > 0 { r.draw(level.rivers, fillBit: 0, stroke: river, maxRank: riverRank) }
            r.draw(level.borders, fillBit: 0, stroke: border)
            if provinces { r.draw(level.provinces, fillBit: 0, stroke: province) }
        case .indexed(let geometry, let shores, let lines):
            let xs = scratch, ys = scratch + MapFormat.maxChunkPoints
            func draw(_ layer: IndexedLayer, of level: IndexedLevel, fillBit: UInt8,
                      stroke: UnsafeMutableBufferPointer<UInt8>, maxRank: UInt8 = 0) {
                r.draw(layer, fillBit: fillBit, stroke: stroke, maxRank: maxRank, xs: xs, ys: ys) {
                    geometry.decode($0, shift: level.shift, xs: xs, ys: ys)
                }
            }
            draw(shores.land, of: shores, fillBit: 1, stroke: coast)
            draw(shores.lakes, of: shores, fillBit: 2, stroke: coast)
            if riverRank > 0 { draw(lines.rivers, of: lines, fillBit: 0, stroke: river, maxRank: riverRank) }
            draw(lines.borders, of: lines, fillBit: 0, stroke: border)
            if provinces { draw(lines.provinces, of: lines, fillBit: 0, stroke: province) }
        }
    }
    raster.land.withUnsafeMutableBufferPointer { r.fill(into: $0) }
    raster.coast = Array(coast)
    raster.border = Array(border)
    raster.river = Array(river)
    raster.province = Array(province)
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
    let culling: Bool

    init(viewport: Viewport, widthDots: Int, heightDots: Int, toggles: UnsafeMutableBufferPointer<UInt8>,
         culling: Bool) {
        self.widthDots = widthDots
        self.heightDots = heightDots
        self.cellsWide = widthDots / Viewport.dotsPerCellX
        scale = viewport.worldDots / Double(WorldGeometry.unitsPerWorld)
        originXDots = viewport.originX * viewport.worldDots
        originYDots = viewport.originY * viewport.worldDots
        self.toggles = toggles
        self.culling = culling
    }

    /// The first row whose centre is at or below y: a segment from y0 to y1
    /// crosses the centres of rows row(min)..<row(max).
    @inline(__always)
    func row(_ y: Double) -> Int {
        let t = max(-2, min(Double(heightDots + 2), y - 0.5))
        let i = Int(t)
        return Double(i) < t ? i + 1 : i
    }

    /// Whether a chunk with this box must be drawn. A ring's chunk wholly
    /// left of the map is not drawn: its crossings of each row have the
    /// same parity as one vertical edge joining its two ends, so that edge
    /// is added to the fill instead.
    @inline(__always)
    func mustDraw(minX: Int32, minY: Int32, maxX: Int32, maxY: Int32, firstY: Int32, lastY: Int32,
                  fillBit: UInt8) -> Bool {
        guard culling else { return true }
        let w = Double(widthDots), h = Double(heightDots)
        let left = Double(minX) * scale + offsetX
        let right = Double(maxX) * scale + offsetX
        let top = Double(minY) * scale - originYDots
        let bottom = Double(maxY) * scale - originYDots
        if left > w + 1 || top > h + 1 || bottom < -1 { return false }
        if right < -1 {
            if fillBit != 0 {
                let a = row(Double(firstY) * scale - originYDots)
                let b = row(Double(lastY) * scale - originYDots)
                toggleColumnZero(from: min(a, b), to: max(a, b), bit: fillBit)
            }
            return false
        }
        return true
    }

    /// Draws a decoded layer's chunks of rank ≤ `maxRank` (rank 0 always).
    func draw(_ layer: MapLayer, fillBit: UInt8, stroke: UnsafeMutableBufferPointer<UInt8>, maxRank: UInt8 = 0) {
        layer.xs.withUnsafeBufferPointer { xs in
            layer.ys.withUnsafeBufferPointer { ys in
                guard let xs = xs.baseAddress, let ys = ys.baseAddress else { return }
                for c in layer.chunks where c.rank <= maxRank {
                    let first = Int(c.start), last = Int(c.start + c.count) - 1
                    if mustDraw(minX: c.minX, minY: c.minY, maxX: c.maxX, maxY: c.maxY,
                                firstY: ys[first], lastY: ys[last], fillBit: fillBit) {
                        drawRun(xs + first, ys + first, count: Int(c.count), fillBit: fillBit, stroke: stroke)
                    }
                }
            }
        }
    }

    /// Draws an indexed layer's chunks of rank ≤ `maxRank`, decoding each
    /// one drawn into `xs`/`ys` with `points`. Culling, only the rings near
    /// the map are looked at.
    func draw(_ layer: IndexedLayer, fillBit: UInt8, stroke: UnsafeMutableBufferPointer<UInt8>, maxRank: UInt8,
              xs: UnsafeMutablePointer<Int32>, ys: UnsafeMutablePointer<Int32>,
              points: (IndexedChunk) -> Int) {
        func drawChunks(_ range: Range<Int>) {
            for i in range {
                let c = layer.chunks[i]
                guard c.rank <= maxRank else { continue }
                if mustDraw(minX: c.minX, minY: c.minY, maxX: c.maxX, maxY: c.maxY,
                            firstY: c.firstY, lastY: c.lastY, fillBit: fillBit) {
                    let count = points(c)
                    if count >= 2 { drawRun(xs, ys, count: count, fillBit: fillBit, stroke: stroke) }
                }
            }
        }
        guard culling else { return drawChunks(0..<layer.chunks.count) }
        // The map plus a dot of margin, in world units of this copy.
        let left = (-1 - offsetX) / scale, right = (Double(widthDots) + 1 - offsetX) / scale
        let top = (originYDots - 1) / scale, bottom = (originYDots + Double(heightDots) + 1) / scale
        layer.forEachPart(meeting: left, top, right, bottom) { p in
            drawChunks(Int(p.firstChunk)..<Int(p.firstChunk + p.chunkCount))
        }
    }

    /// Strokes a run of points and, for a ring, adds its row crossings to the fill.
    @inline(__always)
    func drawRun(_ xs: UnsafePointer<Int32>, _ ys: UnsafePointer<Int32>, count: Int, fillBit: UInt8,
                 stroke: UnsafeMutableBufferPointer<UInt8>) {
        let isRing = fillBit != 0
        let world = WorldGeometry.unitsPerWorld
        let last = count - 1
        var ax = Double(xs[0]) * scale + offsetX
        var ay = Double(ys[0]) * scale - originYDots
        var aDotX = floorToInt(ax), aDotY = floorToInt(ay)
        var aRow = row(ay)
        var aEdge = worldEdges(xs[0], ys[0], world)
        for i in 1...last {
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
