import Foundation

/// How much detail the map geometry has: three simplifications of Natural
/// Earth 1:10m (docs/data-map.md).
public enum MapDetail: Int, Sendable, CaseIterable, Comparable {
    case coarse = 0
    case medium = 1
    case fine = 2

    /// The level that looks right at this scale: > 0.1° per dot coarse,
    /// > 0.01° medium, else fine.
    public init(degreesPerDot: Double) {
        if degreesPerDot > 0.1 {
            self = .coarse
        } else if degreesPerDot > 0.01 {
            self = .medium
        } else {
            self = .fine
        }
    }

    public init(viewport: Viewport) {
        self.init(degreesPerDot: viewport.degreesPerDot)
    }

    public static func < (a: MapDetail, b: MapDetail) -> Bool { a.rawValue < b.rawValue }
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
}

/// One kind of geometry at one level: land rings, lake rings or border lines.
/// Coordinates are Web Mercator world units scaled to 0…2^26
/// (`WorldGeometry.unitsPerWorld`).
public struct MapLayer: Sendable {
    public let chunks: [MapChunk]
    public let xs: [Int32]
    public let ys: [Int32]
}

/// The three layers at one level of detail.
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

    public var pointCount: Int { land.xs.count + lakes.xs.count + borders.xs.count }
}

/// The bundled world map: land, lakes and country borders at three levels
/// of detail, read from a `.vtmap` file. The coarse level is decoded when
/// loading; the others on first use (thread-safe).
public final class WorldGeometry: Sendable {
    public static let resourceName = "world.vtmap"
    public static let unitsPerWorld: Int32 = 1 << 26

    private let bytes: [UInt8]
    private let entries: [LevelEntry]
    private let coarse: MapLevel
    private let cache: LevelCache

    /// Reads and checks a map file; decodes its coarse level.
    public static func load(from url: URL) throws -> WorldGeometry {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MapDataError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        return try WorldGeometry(bytes: [UInt8](data))
    }

    /// The map file shipped with vtourist, found by `ResourceLocator`.
    public static func bundled() throws -> WorldGeometry {
        guard let url = ResourceLocator.url(for: resourceName) else {
            throw MapDataError.notFound(resourceName)
        }
        return try load(from: url)
    }

    public init(bytes: [UInt8]) throws {
        let entries = try bytes.withUnsafeBufferPointer { try WorldGeometry.readDirectory($0) }
        self.bytes = bytes
        self.entries = entries
        self.coarse = try bytes.withUnsafeBufferPointer {
            try WorldGeometry.decodeLevel($0, entry: entries[0], detail: .coarse)
        }
        self.cache = LevelCache()
    }

    /// The geometry at a level of detail, decoding it on first use.
    /// Throws if that part of the file is damaged.
    public func level(_ detail: MapDetail) throws -> MapLevel {
        if detail == .coarse { return coarse }
        return try cache.level(detail) {
            try bytes.withUnsafeBufferPointer {
                try WorldGeometry.decodeLevel($0, entry: entries[detail.rawValue], detail: detail)
            }
        }
    }

    /// The level to draw with: the one asked for, or the coarse level
    /// (checked at load) if that one cannot be decoded.
    public func levelForDrawing(_ detail: MapDetail) -> MapLevel {
        (try? level(detail)) ?? coarse
    }

    /// Decodes every level now (e.g. from a background task after start-up)
    /// so that zooming in later does not pause.
    public func preload() throws {
        for detail in MapDetail.allCases { _ = try level(detail) }
    }

    /// Whether a place is on land (lakes count as water) at a level of detail.
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
                        land: layers[0], lakes: layers[1], borders: layers[2])
    }

    private static func decodeLayer(_ r: inout ByteReader, shift: Int, expectedPoints: Int) throws -> MapLayer {
        let gridMax = Int(unitsPerWorld) >> shift
        let chunkCount = try r.uvarint()
        // A chunk takes at least 9 bytes: a bound before allocating.
        guard chunkCount <= r.remaining / 9 else {
            throw MapDataError.corrupt("\(r.context) claims \(chunkCount) chunks in \(r.remaining) bytes")
        }
        var chunks: [MapChunk] = []
        chunks.reserveCapacity(chunkCount)
        var xs: [Int32] = []
        var ys: [Int32] = []
        xs.reserveCapacity(expectedPoints)
        ys.reserveCapacity(expectedPoints)
        var prevMinX = 0, prevMinY = 0
        for n in 0..<chunkCount {
            let head = try r.uvarint()
            let count = head >> 1
            let startsPart = head & 1 == 1
            guard (2...MapFormat.maxChunkPoints).contains(count) else {
                throw MapDataError.corrupt("\(r.context): chunk \(n) has \(count) points")
            }
            guard startsPart || n > 0 else {
                throw MapDataError.corrupt("\(r.context): first chunk continues nothing")
            }
            let minX = prevMinX + (try r.svarint())
            let minY = prevMinY + (try r.svarint())
            let maxX = minX + (try r.uvarint())
            let maxY = minY + (try r.uvarint())
            prevMinX = minX
            prevMinY = minY
            guard minX >= 0, minY >= 0, maxX <= gridMax, maxY <= gridMax else {
                throw MapDataError.corrupt("\(r.context): chunk \(n) lies outside the world")
            }
            let bodyLength = try r.uvarint()
            guard bodyLength <= r.remaining else {
                throw MapDataError.truncated("\(r.context): chunk \(n) runs past the end")
            }
            let bodyEnd = r.position + bodyLength
            let start = xs.count
            var x = minX + (try r.uvarint())
            var y = minY + (try r.uvarint())
            for i in 0..<count {
                if i > 0 {
                    x += try r.svarint()
                    y += try r.svarint()
                }
                guard x >= minX, x <= maxX, y >= minY, y <= maxY else {
                    throw MapDataError.corrupt("\(r.context): chunk \(n) leaves its bounding box")
                }
                xs.append(Int32(x << shift))
                ys.append(Int32(y << shift))
            }
            guard r.position == bodyEnd else {
                throw MapDataError.corrupt("\(r.context): chunk \(n) has the wrong length")
            }
            if !startsPart, let last = chunks.last {
                let end = Int(last.start + last.count) - 1
                guard xs[end] == xs[start], ys[end] == ys[start] else {
                    throw MapDataError.corrupt("\(r.context): chunk \(n) does not continue the previous one")
                }
            }
            chunks.append(MapChunk(start: Int32(start), count: Int32(count),
                                   minX: Int32(minX << shift), minY: Int32(minY << shift),
                                   maxX: Int32(maxX << shift), maxY: Int32(maxY << shift),
                                   startsPart: startsPart))
        }
        return MapLayer(chunks: chunks, xs: xs, ys: ys)
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

/// Levels decoded on first use. `@unchecked` because the dictionary is
/// only touched while holding the lock.
final class LevelCache: @unchecked Sendable {
    private let lock = NSLock()
    private var levels: [MapDetail: Result<MapLevel, MapDataError>] = [:]

    func level(_ detail: MapDetail, decode: () throws -> MapLevel) throws -> MapLevel {
        lock.lock()
        defer { lock.unlock() }
        if let known = levels[detail] { return try known.get() }
        let result: Result<MapLevel, MapDataError>
        do {
            result = .success(try decode())
        } catch let error as MapDataError {
            result = .failure(error)
        } catch {
            result = .failure(.corrupt(String(describing: error)))
        }
        levels[detail] = result
        return try result.get()
    }
}
