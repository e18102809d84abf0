import Foundation
import Geo

/// How much detail the map geometry has: three simplifications of Natural
/// Earth 1:10m, and GSHHG full-resolution shores for city zoom
/// (docs/data-map.md).
public enum MapDetail: Int, Sendable, CaseIterable, Comparable {
    case coarse = 0
    case medium = 1
    case fine = 2
    /// GSHHG shores, read in place from the mapped file chunk by chunk;
    /// borders, province lines and rivers come from `fine`.
    case detail = 3

    /// The level that looks right at this scale: > 0.1° per dot coarse
    /// (zoom 0–5), > 0.01° medium (6–9), > 0.003° fine (10), else detail (11–15).
    public init(degreesPerDot: Double) {
        if degreesPerDot > 0.1 {
            self = .coarse
        } else if degreesPerDot > 0.01 {
            self = .medium
        } else if degreesPerDot > 0.003 {
            self = .fine
        } else {
            self = .detail
        }
    }

    public init(viewport: Viewport) {
        self.init(degreesPerDot: viewport.degreesPerDot)
    }

    /// The levels `level(_:)` decodes whole into a `MapLevel` (drawing reads
    /// `fine` in place and decodes it whole only when asked).
    public static let decoded: [MapDetail] = [.coarse, .medium, .fine]

    public static func < (a: MapDetail, b: MapDetail) -> Bool { a.rawValue < b.rawValue }
}

/// Which lines are drawn at a zoom: bigger rivers earlier, province lines
/// from zoom 4 (docs/data-map.md).
public enum MapVisibility {
    /// Province (first-level) lines are drawn from this zoom on.
    public static let provinceMinZoom = 4

    /// The highest river rank drawn at a zoom (0: none). Rank 1 holds the
    /// river-lakes and permanent major rivers, 2 additional major rivers,
    /// 3 additional rivers, 4 minor ones.
    public static func riverRank(zoom: Int) -> Int {
        switch zoom {
        case ..<4: return 0
        case 4...5: return 1
        case 6...7: return 2
        case 8...9: return 3
        default: return 4
        }
    }
}

/// A run of at most 256 points of one ring or line, with its bounding box.
/// A chunk that continues a part starts with the previous chunk's last
/// point, so the chunks of a part join up.
public struct MapChunk: Sendable, Hashable {
    /// Index of the first point in the layer's `xs`/`ys`.
    public var start: Int32
    public var count: Int32
    public var minX: Int32
    public var minY: Int32
    public var maxX: Int32
    public var maxY: Int32
    /// True for the first chunk of a ring or line.
    public var startsPart: Bool
    /// Rivers: 1 (biggest) … 4 (minor); 0 in the other layers.
    public var rank: UInt8
}

/// One kind of geometry at one level: land rings, lake rings or border lines.
/// Coordinates are Web Mercator world units scaled to 0…2^26
/// (`WorldGeometry.unitsPerWorld`).
public struct MapLayer: Sendable {
    public let chunks: [MapChunk]
    public let xs: [Int32]
    public let ys: [Int32]
}

/// The five layers at one decoded level of detail.
public struct MapLevel: Sendable {
    public let detail: MapDetail
    /// Douglas–Peucker tolerance the level was simplified with.
    public let toleranceDegrees: Double
    /// Land polygons' rings (also stroked as coastline, except their
    /// artificial edges on the world's border).
    public let land: MapLayer
    /// Lake polygons' rings: filled as water, stroked as shore.
    public let lakes: MapLayer
    /// Country (admin-0) land borders.
    public let borders: MapLayer
    /// State, province and region (admin-1) lines.
    public let provinces: MapLayer
    /// Rivers, each chunk ranked (`MapChunk.rank`).
    public let rivers: MapLayer

    public var pointCount: Int {
        land.xs.count + lakes.xs.count + borders.xs.count + provinces.xs.count + rivers.xs.count
    }
}

/// The bundled world map: land, lakes, borders, province lines and rivers
/// at four levels of detail, read from a memory-mapped `.vtmap` file. The
/// coarse level is decoded when loading, medium on first use (thread-safe).
/// The fine and detail levels are drawn in place: on first use only their
/// chunks' heads are read into an index, and `rasterize` decodes the chunks
/// it draws. (`level(.fine)` still decodes the fine level whole, for
/// `isLand` and tests.)
public final class WorldGeometry: Sendable {
    public static let resourceName = "world.vtmap"
    public static let unitsPerWorld: Int32 = 1 << 26

    /// The file's bytes, memory-mapped when loaded from a file.
    let data: Data
    private let entries: [LevelEntry]
    private let coarse: MapLevel
    private let cache: LevelCache
    private let indexCache: IndexCache

    /// Maps and checks a map file; decodes its coarse level.
    public static func load(from url: URL) throws -> WorldGeometry {
        let data: Data
        do {
            data = try MappedFile.data(at: url)
        } catch {
            throw MapDataError.unreadable(path: url.path, reason: error.description)
        }
        return try WorldGeometry(data: data)
    }

    /// The map file shipped with vtourist, found by `ResourceLocator`.
    public static func bundled() throws -> WorldGeometry {
        guard let url = ResourceLocator.url(for: resourceName) else {
            throw MapDataError.notFound(resourceName)
        }
        return try load(from: url)
    }

    public convenience init(bytes: [UInt8]) throws {
        try self.init(data: Data(bytes))
    }

    public init(data: Data) throws {
        let entries = try data.withUnsafeBytes { try WorldGeometry.readDirectory($0.assumingMemoryBound(to: UInt8.self)) }
        self.data = data
        self.entries = entries
        self.coarse = try data.withUnsafeBytes {
            try WorldGeometry.decodeLevel($0.assumingMemoryBound(to: UInt8.self), entry: entries[0], detail: .coarse)
        }
        self.cache = LevelCache()
        self.indexCache = IndexCache()
    }

    /// The decoded geometry at a level, decoding it on first use. The
    /// detail level is never decoded whole: asking for it gives `fine`.
    /// Throws if that part of the file is damaged.
    public func level(_ detail: MapDetail) throws -> MapLevel {
        let detail = min(detail, .fine)
        if detail == .coarse { return coarse }
        let entry = entries[detail.rawValue]
        return try cache.level(detail) {
            try data.withUnsafeBytes {
                try WorldGeometry.decodeLevel($0.assumingMemoryBound(to: UInt8.self), entry: entry, detail: detail)
            }
        }
    }

    /// The level to draw with: the one asked for, or the coarse level
    /// (checked at load) if that one cannot be decoded.
    public func levelForDrawing(_ detail: MapDetail) -> MapLevel {
        (try? level(detail)) ?? coarse
    }

    /// The chunk index of the fine or detail level, built on first use from
    /// the chunks' heads (their points are checked when drawn, or all at
    /// once by `preload()`). Throws if the heads are damaged.
    func indexedLevel(_ detail: MapDetail) throws -> IndexedLevel {
        let detail = max(detail, .fine)
        let entry = entries[detail.rawValue]
        return try indexCache.index(detail) {
            try data.withUnsafeBytes {
                try WorldGeometry.indexLevel($0.assumingMemoryBound(to: UInt8.self), entry: entry, detail: detail)
            }
        }
    }

    func detailIndex() throws -> IndexedLevel {
        try indexedLevel(.detail)
    }

    /// Decodes the medium level, indexes the fine and detail levels and
    /// checks every point of them now (e.g. from a background task after
    /// start-up), so that zooming in later does not pause and damage
    /// anywhere in the file is reported. (The fine level is drawn in place,
    /// so it is not decoded whole.)
    public func preload() throws {
        _ = try level(.medium)
        for detail in [MapDetail.fine, .detail] { try checkPoints(try indexedLevel(detail)) }
    }

    /// Decodes every chunk of an indexed level, checking its points and that
    /// each chunk continues the one before.
    func checkPoints(_ level: IndexedLevel) throws {
        let xs = UnsafeMutablePointer<Int32>.allocate(capacity: MapFormat.maxChunkPoints)
        let ys = UnsafeMutablePointer<Int32>.allocate(capacity: MapFormat.maxChunkPoints)
        defer { xs.deallocate(); ys.deallocate() }
        for layer in level.layers {
            var previousEnd: (Int32, Int32) = (0, 0)
            for (n, c) in layer.chunks.enumerated() {
                let count = decode(c, shift: level.shift, xs: xs, ys: ys)
                guard count == Int(c.count) else {
                    throw MapDataError.corrupt("\(level.detail) level: chunk \(n) leaves its bounding box or has the wrong length")
                }
                guard c.startsPart || previousEnd == (xs[0], ys[0]) else {
                    throw MapDataError.corrupt("\(level.detail) level: chunk \(n) does not continue the previous one")
                }
                previousEnd = (xs[count - 1], ys[count - 1])
            }
        }
    }

    /// Whether a place is on land (lakes count as water) at a decoded level
    /// of detail (`.detail` answers from `.fine`).
    public func isLand(_ point: GeoPoint, detail: MapDetail = .fine) -> Bool {
        let level = levelForDrawing(detail)
        let w = Mercator.project(point)
        let scale = Double(WorldGeometry.unitsPerWorld)
        let px = (w.x - w.x.rounded(.down)) * scale
        let py = w.y * scale
        return level.land.parityOfRayToTheLeft(x: px, y: py) && !level.lakes.parityOfRayToTheLeft(x: px, y: py)
    }

    // MARK: - Decoding

    private static func readDirectory(_ buf: UnsafeBufferPointer<UInt8>) throws -> [LevelEntry] {
        guard buf.count >= MapFormat.headerSize else {
            if buf.count >= 4, Array(buf[0..<4]) != MapFormat.magic { throw MapDataError.notAMapFile }
            throw MapDataError.truncated("file is \(buf.count) bytes, shorter than its header")
        }
        guard Array(buf[0..<4]) == MapFormat.magic else { throw MapDataError.notAMapFile }
        // Chunk offsets are kept as 32-bit numbers.
        guard buf.count < Int(Int32.max) else { throw MapDataError.corrupt("file is larger than 2 GB") }
        let version = Int(buf[4]) | Int(buf[5]) << 8
        guard version == MapFormat.version else { throw MapDataError.unsupportedVersion(version) }
        guard Int(buf[6]) == MapFormat.coordinateBits else {
            throw MapDataError.corrupt("coordinates have \(buf[6]) bits, expected \(MapFormat.coordinateBits)")
        }
        let levelCount = Int(buf[7])
        guard levelCount >= MapDetail.allCases.count else {
            throw MapDataError.corrupt("file has \(levelCount) levels of detail, expected \(MapDetail.allCases.count)")
        }
        var reader = ByteReader(buf, from: MapFormat.headerSize,
                                to: min(buf.count, MapFormat.headerSize + levelCount * MapFormat.levelEntrySize),
                                context: "level directory")
        var entries: [LevelEntry] = []
        for i in 0..<levelCount {
            let entry = LevelEntry(toleranceMicrodegrees: try reader.u32(), shift: try reader.u32(),
                                   offset: try reader.u32(), length: try reader.u32(), pointCount: try reader.u32())
            guard entry.shift < MapFormat.coordinateBits else {
                throw MapDataError.corrupt("level \(i) has grid shift \(entry.shift)")
            }
            guard entry.offset + entry.length <= buf.count else {
                throw MapDataError.truncated("level \(i) needs bytes \(entry.offset)..<\(entry.offset + entry.length), file has \(buf.count)")
            }
            // Each point takes at least two bytes: a bound before allocating.
            guard entry.pointCount <= entry.length / 2 else {
                throw MapDataError.corrupt("level \(i) claims \(entry.pointCount) points in \(entry.length) bytes")
            }
            entries.append(entry)
        }
        return entries
    }

    static func decodeLevel(_ buf: UnsafeBufferPointer<UInt8>, entry: LevelEntry, detail: MapDetail) throws -> MapLevel {
        var reader = ByteReader(buf, from: entry.offset, to: entry.offset + entry.length,
                                context: "\(detail) level")
        var layers: [MapLayer] = []
        for _ in 0..<MapFormat.layerCount {
            layers.append(try decodeLayer(&reader, shift: entry.shift, expectedPoints: entry.pointCount))
        }
        guard reader.remaining == 0 else {
            throw MapDataError.corrupt("\(detail) level has \(reader.remaining) stray bytes at its end")
        }
        return MapLevel(detail: detail, toleranceDegrees: Double(entry.toleranceMicrodegrees) / 1e6,
                        land: layers[0], lakes: layers[1], borders: layers[2],
                        provinces: layers[3], rivers: layers[4])
    }

    static func indexLevel(_ buf: UnsafeBufferPointer<UInt8>, entry: LevelEntry, detail: MapDetail) throws -> IndexedLevel {
        var reader = ByteReader(buf, from: entry.offset, to: entry.offset + entry.length, context: "\(detail) level")
        var layers: [IndexedLayer] = []
        for _ in 0..<MapFormat.layerCount {
            layers.append(try indexLayer(&reader, shift: entry.shift))
        }
        guard reader.remaining == 0 else {
            throw MapDataError.corrupt("\(detail) level has \(reader.remaining) stray bytes at its end")
        }
        return IndexedLevel(detail: detail, shift: entry.shift, land: layers[0], lakes: layers[1],
                            borders: layers[2], provinces: layers[3], rivers: layers[4])
    }

    private static func decodeLayer(_ r: inout ByteReader, shift: Int, expectedPoints: Int) throws -> MapLayer {
        var xs: [Int32] = []
        var ys: [Int32] = []
        xs.reserveCapacity(expectedPoints)
        ys.reserveCapacity(expectedPoints)
        var chunks: [MapChunk] = []
        try walkLayer(&r, shift: shift, reserve: { chunks.reserveCapacity($0) }) { points, head, n in
            let start = xs.count
            try decodeBody(&points, head, n: n) { x, y in
                xs.append(Int32(x << shift))
                ys.append(Int32(y << shift))
            }
            if !head.startsPart, let last = chunks.last {
                let end = Int(last.start + last.count) - 1
                guard xs[end] == xs[start], ys[end] == ys[start] else {
                    throw MapDataError.corrupt("\(points.context): chunk \(n) does not continue the previous one")
                }
            }
            chunks.append(MapChunk(start: Int32(start), count: Int32(head.count),
                                   minX: Int32(head.minX << shift), minY: Int32(head.minY << shift),
                                   maxX: Int32(head.maxX << shift), maxY: Int32(head.maxY << shift),
                                   startsPart: head.startsPart, rank: head.rank))
        }
        return MapLayer(chunks: chunks, xs: xs, ys: ys)
    }

    /// Reads a layer's chunk heads only, not its points. A ring's chunk ends
    /// where the next one of the ring starts, or (the ring's last) where the
    /// ring's first chunk starts.
    private static func indexLayer(_ r: inout ByteReader, shift: Int) throws -> IndexedLayer {
        var chunks: [IndexedChunk] = []
        try walkLayer(&r, shift: shift, reserve: { chunks.reserveCapacity($0) }) { points, head, _ in
            chunks.append(IndexedChunk(minX: Int32(head.minX << shift), minY: Int32(head.minY << shift),
                                       maxX: Int32(head.maxX << shift), maxY: Int32(head.maxY << shift),
                                       firstX: Int32(head.x0 << shift), firstY: Int32(head.y0 << shift), lastY: 0,
                                       bodyOffset: Int32(points.position), bodyEnd: Int32(points.end),
                                       count: Int16(head.count), rank: head.rank, startsPart: head.startsPart))
        }
        var partStart = 0
        for i in chunks.indices {
            if chunks[i].startsPart { partStart = i }
            let continued = i + 1 < chunks.count && !chunks[i + 1].startsPart
            chunks[i].lastY = continued ? chunks[i + 1].firstY : chunks[partStart].firstY
        }
        return IndexedLayer(chunks: chunks)
    }

    /// A chunk's head, in grid units.
    struct ChunkHead {
        var count: Int
        var startsPart: Bool
        var rank: UInt8
        var minX: Int, minY: Int, maxX: Int, maxY: Int
        /// The first point; the chunk's points hold the others as deltas.
        var x0: Int, y0: Int
    }

    /// Reads a layer's table of chunk heads, checking them, and gives each
    /// head with a reader over that chunk's points (which `body` may decode
    /// with `decodeBody` or leave); leaves `r` at the end of the layer.
    private static func walkLayer(_ r: inout ByteReader, shift: Int, reserve: (Int) -> Void = { _ in },
                                  body: (inout ByteReader, ChunkHead, Int) throws -> Void) throws {
        let gridMax = Int(unitsPerWorld) >> shift
        let chunkCount = try r.uvarint()
        let headsLength = try r.uvarint()
        guard headsLength <= r.remaining else {
            throw MapDataError.truncated("\(r.context): chunk heads run past the end")
        }
        guard chunkCount <= headsLength / MapFormat.minChunkHeadBytes,
              chunkCount <= (r.remaining - headsLength) / MapFormat.minChunkPointBytes else {
            throw MapDataError.corrupt("\(r.context) claims \(chunkCount) chunks in \(r.remaining) bytes")
        }
        reserve(chunkCount)
        var heads = ByteReader(r.bytes, from: r.position, to: r.position + headsLength, context: r.context)
        var pointsStart = heads.end
        var prevMinX = 0, prevMinY = 0
        for n in 0..<chunkCount {
            let head = try heads.uvarint()
            let count = head >> 1
            let startsPart = head & 1 == 1
            guard (2...MapFormat.maxChunkPoints).contains(count) else {
                throw MapDataError.corrupt("\(r.context): chunk \(n) has \(count) points")
            }
            guard startsPart || n > 0 else {
                throw MapDataError.corrupt("\(r.context): first chunk continues nothing")
            }
            let rank = try heads.uvarint()
            guard rank <= 15 else { throw MapDataError.corrupt("\(r.context): chunk \(n) has rank \(rank)") }
            let minX = prevMinX + (try heads.svarint())
            let minY = prevMinY + (try heads.svarint())
            let maxX = minX + (try heads.uvarint())
            let maxY = minY + (try heads.uvarint())
            prevMinX = minX
            prevMinY = minY
            guard minX >= 0, minY >= 0, maxX <= gridMax, maxY <= gridMax else {
                throw MapDataError.corrupt("\(r.context): chunk \(n) lies outside the world")
            }
            let x0 = minX + (try heads.uvarint())
            let y0 = minY + (try heads.uvarint())
            guard x0 <= maxX, y0 <= maxY else {
                throw MapDataError.corrupt("\(r.context): chunk \(n) leaves its bounding box")
            }
            let pointsLength = try heads.uvarint()
            guard pointsLength <= r.end - pointsStart else {
                throw MapDataError.truncated("\(r.context): chunk \(n) runs past the end")
            }
            var points = ByteReader(r.bytes, from: pointsStart, to: pointsStart + pointsLength, context: r.context)
            try body(&points, ChunkHead(count: count, startsPart: startsPart, rank: UInt8(rank),
                                        minX: minX, minY: minY, maxX: maxX, maxY: maxY, x0: x0, y0: y0), n)
            pointsStart += pointsLength
        }
        guard heads.remaining == 0 else {
            throw MapDataError.corrupt("\(r.context): chunk heads have \(heads.remaining) stray bytes")
        }
        r.position = pointsStart
    }

    /// Decodes a chunk's points (grid units), checking each lies in its box
    /// and that they fill the chunk's bytes exactly.
    @inline(__always)
    private static func decodeBody(_ r: inout ByteReader, _ head: ChunkHead, n: Int,
                                   point: (Int, Int) throws -> Void) throws {
        var x = head.x0, y = head.y0
        try point(x, y)
        for _ in 1..<head.count {
            x += try r.svarint()
            y += try r.svarint()
            guard x >= head.minX, x <= head.maxX, y >= head.minY, y <= head.maxY else {
                throw MapDataError.corrupt("\(r.context): chunk \(n) leaves its bounding box")
            }
            try point(x, y)
        }
        guard r.remaining == 0 else {
            throw MapDataError.corrupt("\(r.context): chunk \(n) has the wrong length")
        }
    }
}

extension MapLayer {
    /// Even–odd parity of the layer's rings crossed by a ray from (x, y)
    /// to the left (world units 0…2^26): true inside.
    func parityOfRayToTheLeft(x px: Double, y py: Double) -> Bool {
        var inside = false
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                for c in chunks {
                    if Double(c.minX) > px { continue }
                    let first = Int(c.start), last = Int(c.start + c.count) - 1
                    if Double(c.maxX) < px {
                        // A continuous run wholly left of the point crosses the ray
                        // an odd number of times iff its ends are on opposite sides.
                        if (Double(ys[first]) <= py) != (Double(ys[last]) <= py) { inside.toggle() }
                        continue
                    }
                    if Double(c.minY) > py || Double(c.maxY) < py { continue }
                    for i in first..<last {
                        let ay = Double(ys[i]), by = Double(ys[i + 1])
                        guard (ay <= py) != (by <= py) else { continue }
                        let ax = Double(xs[i]), bx = Double(xs[i + 1])
                        let cx = ax + (py - ay) * (bx - ax) / (by - ay)
                        if cx < px { inside.toggle() }
                    }
                }
            }
        }
        return inside
    }
}

/// A chunk that stays in the file until drawn: its box (world units), the
/// y of its ends (all a ring's chunk left of the map adds to the fill) and
/// where its points are.
struct IndexedChunk: Sendable {
    var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    var firstX: Int32, firstY: Int32, lastY: Int32
    /// Where the chunk's points after the first are, as deltas.
    var bodyOffset: Int32, bodyEnd: Int32
    var count: Int16
    var rank: UInt8
    var startsPart: Bool
}

/// A ring or line of an indexed level: its box and its chunks.
struct IndexedPart: Sendable {
    var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    var firstChunk: Int32, chunkCount: Int32
}

/// The chunks of one layer of an indexed level, with their parts' boxes in
/// a grid of 128×128 cells over the world, so a frame looks only at the
/// parts near the view. A ring wholly left of the view crosses each row an
/// even number of times, so it can be skipped even by the fill.
struct IndexedLayer: Sendable {
    static let gridShift = 19
    static let gridSize = 1 << (MapFormat.coordinateBits - gridShift)

    let chunks: [IndexedChunk]
    let parts: [IndexedPart]
    /// The parts touching grid cell `c` are `cellParts[cellStart[c]..<cellStart[c + 1]]`.
    let cellStart: [Int32]
    let cellParts: [Int32]

    init(chunks: [IndexedChunk]) {
        var parts: [IndexedPart] = []
        parts.reserveCapacity(chunks.count)
        var i = 0
        while i < chunks.count {
            let c = chunks[i]
            var part = IndexedPart(minX: c.minX, minY: c.minY, maxX: c.maxX, maxY: c.maxY,
                                   firstChunk: Int32(i), chunkCount: 1)
            var j = i + 1
            while j < chunks.count && !chunks[j].startsPart {
                let c = chunks[j]
                part.minX = min(part.minX, c.minX)
                part.minY = min(part.minY, c.minY)
                part.maxX = max(part.maxX, c.maxX)
                part.maxY = max(part.maxY, c.maxY)
                j += 1
            }
            part.chunkCount = Int32(j - i)
            parts.append(part)
            i = j
        }
        let size = IndexedLayer.gridSize
        var counts = [Int32](repeating: 0, count: size * size + 1)
        for p in parts {
            let (x0, y0, x1, y1) = IndexedLayer.cells(p.minX, p.minY, p.maxX, p.maxY)
            for cy in y0...y1 { for cx in x0...x1 { counts[cy * size + cx + 1] += 1 } }
        }
        for c in 0..<size * size { counts[c + 1] += counts[c] }
        var fill = counts
        var cellParts = [Int32](repeating: 0, count: Int(counts[size * size]))
        for (n, p) in parts.enumerated() {
            let (x0, y0, x1, y1) = IndexedLayer.cells(p.minX, p.minY, p.maxX, p.maxY)
            for cy in y0...y1 {
                for cx in x0...x1 {
                    cellParts[Int(fill[cy * size + cx])] = Int32(n)
                    fill[cy * size + cx] += 1
                }
            }
        }
        self.chunks = chunks
        self.parts = parts
        self.cellStart = counts
        self.cellParts = cellParts
    }

    /// The grid cells a box in world units covers, clamped to the world.
    static func cells(_ minX: Int32, _ minY: Int32, _ maxX: Int32, _ maxY: Int32) -> (Int, Int, Int, Int) {
        let top = gridSize - 1
        func cell(_ v: Int32) -> Int { min(max(Int(v) >> gridShift, 0), top) }
        return (cell(minX), cell(minY), cell(maxX), cell(maxY))
    }

    /// Calls `body` once with each part whose box meets the box in world
    /// units (which may reach outside the world: it is clamped).
    func forEachPart(meeting minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
                     _ body: (IndexedPart) -> Void) {
        let world = Double(WorldGeometry.unitsPerWorld)
        guard maxX >= 0, minX <= world, maxY >= 0, minY <= world else { return }
        let box = (Int32(max(minX, 0)), Int32(max(minY, 0)), Int32(min(maxX, world)), Int32(min(maxY, world)))
        let (x0, y0, x1, y1) = IndexedLayer.cells(box.0, box.1, box.2, box.3)
        let size = IndexedLayer.gridSize
        for cy in y0...y1 {
            for cx in x0...x1 {
                let c = cy * size + cx
                for k in Int(cellStart[c])..<Int(cellStart[c + 1]) {
                    let p = parts[Int(cellParts[k])]
                    guard p.maxX >= box.0, p.minX <= box.2, p.maxY >= box.1, p.minY <= box.3 else { continue }
                    // A part in several cells is visited from the first of them the box covers.
                    let (px, py, _, _) = IndexedLayer.cells(p.minX, p.minY, p.maxX, p.maxY)
                    guard cx == max(px, x0), cy == max(py, y0) else { continue }
                    body(p)
                }
            }
        }
    }
}

/// The fine or detail level read in place: each layer's chunk index; the
/// points are decoded from the mapped file only when drawn. (The detail
/// level's line layers are empty: at city zoom lines come from fine.)
struct IndexedLevel: Sendable {
    let detail: MapDetail
    let shift: Int
    let land: IndexedLayer
    let lakes: IndexedLayer
    let borders: IndexedLayer
    let provinces: IndexedLayer
    let rivers: IndexedLayer

    var layers: [IndexedLayer] { [land, lakes, borders, provinces, rivers] }
}

extension WorldGeometry {
    /// Decodes one indexed chunk's points into `xs`/`ys` (room for 256
    /// each), in world units, checking that they lie in the chunk's box and
    /// fill its bytes exactly. Returns the number of points, or 0 if not.
    func decode(_ c: IndexedChunk, shift: Int, xs: UnsafeMutablePointer<Int32>, ys: UnsafeMutablePointer<Int32>) -> Int {
        data.withUnsafeBytes { raw -> Int in
            let buf = raw.assumingMemoryBound(to: UInt8.self)
            let count = Int(c.count)
            guard Int(c.bodyEnd) <= buf.count, (2...MapFormat.maxChunkPoints).contains(count) else { return 0 }
            var r = ByteReader(buf, from: Int(c.bodyOffset), to: Int(c.bodyEnd), context: "chunk")
            // The box in grid units.
            let minX = Int(c.minX) >> shift, minY = Int(c.minY) >> shift
            let maxX = Int(c.maxX) >> shift, maxY = Int(c.maxY) >> shift
            var inBox = true
            do {
                var x = Int(c.firstX) >> shift
                var y = Int(c.firstY) >> shift
                inBox = x >= minX && x <= maxX && y >= minY && y <= maxY
                xs[0] = Int32(truncatingIfNeeded: x << shift)
                ys[0] = Int32(truncatingIfNeeded: y << shift)
                for i in 1..<count {
                    x += try r.svarint()
                    y += try r.svarint()
                    inBox = inBox && x >= minX && x <= maxX && y >= minY && y <= maxY
                    xs[i] = Int32(truncatingIfNeeded: x << shift)
                    ys[i] = Int32(truncatingIfNeeded: y << shift)
                }
            } catch {
                return 0
            }
            return inBox && r.remaining == 0 ? count : 0
        }
    }
}

/// Levels decoded on first use. `@unchecked` because the dictionary is
/// only touched while holding the lock.
final class LevelCache: @unchecked Sendable {
    private let lock = NSLock()
    private var levels: [MapDetail: Result<MapLevel, MapDataError>] = [:]

    func level(_ detail: MapDetail, decode: () throws -> MapLevel) throws -> MapLevel {
        lock.lock()
        defer { lock.unlock() }
        if let known = levels[detail] { return try known.get() }
        let result = remembering(decode)
        levels[detail] = result
        return try result.get()
    }
}

/// Indexed levels, built on first use. `@unchecked` because the dictionary
/// is only touched while holding the lock.
final class IndexCache: @unchecked Sendable {
    private let lock = NSLock()
    private var levels: [MapDetail: Result<IndexedLevel, MapDataError>] = [:]

    func index(_ detail: MapDetail, build: () throws -> IndexedLevel) throws -> IndexedLevel {
        lock.lock()
        defer { lock.unlock() }
        if let known = levels[detail] { return try known.get() }
        let built = remembering(build)
        levels[detail] = built
        return try built.get()
    }
}

/// Runs a decoder, keeping its failure as a `MapDataError`.
private func remembering<T>(_ decode: () throws -> T) -> Result<T, MapDataError> {
    do {
        return .success(try decode())
    } catch let error as MapDataError {
        return .failure(error)
    } catch {
        return .failure(.corrupt(String(describing: error)))
    }
}
