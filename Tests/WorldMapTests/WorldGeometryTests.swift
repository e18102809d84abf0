import Locking
import Foundation
import TestSupport
import XCTest
import Geo
@testable import WorldMap

/// The bundled map file, decoded once for all tests.
let bundledGeometry: Result<WorldGeometry, Error> = Result { try WorldGeometry.bundled() }

func geometry() throws -> WorldGeometry {
    try bundledGeometry.get()
}

func bundledBytes() throws -> [UInt8] {
    let url = try XCTUnwrap(ResourceLocator.url(for: WorldGeometry.resourceName))
    return [UInt8](try Data(contentsOf: url))
}

final class WorldGeometryTests: XCTestCase {
    func testEveryLevelDecodes() throws {
        let g = try geometry()
        var previous = 0
        for detail in MapDetail.decoded {
            let level = try g.level(detail)
            XCTAssertEqual(level.detail, detail)
            XCTAssertFalse(level.land.chunks.isEmpty)
            XCTAssertFalse(level.lakes.chunks.isEmpty)
            XCTAssertFalse(level.borders.chunks.isEmpty)
            XCTAssertFalse(level.provinces.chunks.isEmpty)
            XCTAssertFalse(level.rivers.chunks.isEmpty)
            XCTAssertGreaterThan(level.pointCount, previous, "finer levels have more points")
            previous = level.pointCount
        }
        XCTAssertEqual(try g.level(.coarse).toleranceDegrees, 0.08, accuracy: 1e-9)
        XCTAssertEqual(try g.level(.detail).detail, .fine, "the detail level is never decoded whole")
    }

    /// Rivers are ranked 1…4; the coarse level keeps only rank 1, fine all.
    func testRiverRanksPerLevel() throws {
        let g = try geometry()
        func ranks(_ d: MapDetail) throws -> Set<UInt8> { Set(try g.level(d).rivers.chunks.map(\.rank)) }
        XCTAssertEqual(try ranks(.coarse), [1])
        XCTAssertEqual(try ranks(.medium), [1, 2, 3])
        XCTAssertEqual(try ranks(.fine), [1, 2, 3, 4])
        XCTAssertEqual(Set(try g.level(.fine).land.chunks.map(\.rank)), [0])
    }

    /// The detail level's index agrees with its chunks as decoded from the file.
    func testDetailChunksDecodeWithinTheirBoxes() throws {
        let g = try geometry()
        let index = try g.detailIndex()
        XCTAssertGreaterThan(index.land.chunks.count, 10_000)
        XCTAssertFalse(index.lakes.chunks.isEmpty)
        let xs = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        let ys = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        defer { xs.deallocate(); ys.deallocate() }
        for layer in [index.land, index.lakes] {
            for c in layer.chunks.enumerated().filter({ $0.offset % 97 == 0 }).map(\.element) {
                let n = g.decode(c, shift: index.shift, xs: xs, ys: ys)
                XCTAssertEqual(n, Int(c.count))
                XCTAssertEqual(ys[0], c.firstY)
                XCTAssertEqual(ys[n - 1], c.lastY)
                for i in 0..<n {
                    XCTAssertTrue((c.minX...c.maxX).contains(xs[i]) && (c.minY...c.maxY).contains(ys[i]))
                }
            }
        }
    }

    func testChunksAreContinuousAndWithinTheirBoxes() throws {
        let g = try geometry()
        for detail in MapDetail.decoded {
            let level = try g.level(detail)
            for layer in [level.land, level.lakes, level.borders, level.provinces, level.rivers] {
                var previousEnd: (Int32, Int32)?
                for c in layer.chunks {
                    XCTAssertLessThanOrEqual(c.count, 256)
                    let first = Int(c.start)
                    if !c.startsPart, let end = previousEnd {
                        XCTAssertTrue(end == (layer.xs[first], layer.ys[first]))
                    }
                    for i in first..<first + Int(c.count) {
                        XCTAssertTrue((c.minX...c.maxX).contains(layer.xs[i]) && (c.minY...c.maxY).contains(layer.ys[i]))
                    }
                    let last = first + Int(c.count) - 1
                    previousEnd = (layer.xs[last], layer.ys[last])
                }
            }
        }
    }

    func testRingsAreClosed() throws {
        let level = try geometry().level(.medium)
        for layer in [level.land, level.lakes] {
            var start: (Int32, Int32) = (0, 0)
            for (n, c) in layer.chunks.enumerated() {
                if c.startsPart { start = (layer.xs[Int(c.start)], layer.ys[Int(c.start)]) }
                let isLastOfPart = n + 1 == layer.chunks.count || layer.chunks[n + 1].startsPart
                if isLastOfPart {
                    let end = Int(c.start + c.count) - 1
                    XCTAssertTrue(start == (layer.xs[end], layer.ys[end]))
                }
            }
        }
    }

    func testKnownPlacesAtEveryLevel() throws {
        let g = try geometry()
        let land = [("Paris", 48.85, 2.35), ("Sahara", 23.0, 10.0), ("Brasília", -15.8, -47.9),
                    ("Moscow", 55.75, 37.6), ("Alice Springs", -23.7, 133.9)]
        let water = [("mid-Atlantic", 0.0, -30.0), ("Lake Victoria", -1.0, 33.0), ("Caspian Sea", 42.0, 50.5),
                     ("Lake Superior", 47.6, -87.5), ("Pacific", 0.0, -150.0)]
        for detail in MapDetail.allCases {
            for (name, lat, lon) in land {
                XCTAssertTrue(g.isLand(GeoPoint(latitude: lat, longitude: lon), detail: detail), "\(name) at \(detail)")
            }
            for (name, lat, lon) in water {
                XCTAssertFalse(g.isLand(GeoPoint(latitude: lat, longitude: lon), detail: detail), "\(name) at \(detail)")
            }
        }
    }

    func testNaplesCoastAtFineLevel() throws {
        let g = try geometry()
        XCTAssertTrue(g.isLand(GeoPoint(latitude: 40.853, longitude: 14.268), detail: .fine), "Naples centre")
        XCTAssertFalse(g.isLand(GeoPoint(latitude: 40.80, longitude: 14.22), detail: .fine), "Gulf of Naples")
        XCTAssertTrue(g.isLand(GeoPoint(latitude: 40.55, longitude: 14.24), detail: .fine), "Capri")
        let vp = Viewport(center: GeoPoint(latitude: 40.83, longitude: 14.25), zoom: 12, width: 40, height: 12)
        XCTAssertEqual(MapDetail(viewport: vp), .detail)
        let raster = rasterize(g, viewport: vp)
        let coastDots = raster.coast.reduce(0) { $0 + $1.nonzeroBitCount }
        XCTAssertGreaterThan(coastDots, 40, "the shore runs through this view")
        XCTAssertGreaterThan(raster.land.reduce(0) { $0 + $1.nonzeroBitCount }, 100)
    }

    func testLevelsDecodeOnceFromManyThreads() throws {
        let g = try WorldGeometry(bytes: try bundledBytes())
        let counts = LockedCounts()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let detail: MapDetail = i % 2 == 0 ? .fine : .medium
            counts.add(detail, (try? g.level(detail).pointCount) ?? -1)
        }
        XCTAssertEqual(counts.distinct(.fine).count, 1)
        XCTAssertEqual(counts.distinct(.medium).count, 1)
        XCTAssertFalse(counts.distinct(.fine).contains(-1))
    }

    func testPreloadChecksEveryLevel() throws {
        let g = try WorldGeometry(bytes: try bundledBytes())
        XCTAssertNoThrow(try g.preload())
    }

    /// The fine level read in place has the same chunks as decoded whole.
    func testIndexedFineLevelMatchesTheDecodedOne() throws {
        let g = try geometry()
        let decoded = try g.level(.fine), indexed = try g.indexedLevel(.fine)
        let xs = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        let ys = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        defer { xs.deallocate(); ys.deallocate() }
        let pairs = [(decoded.land, indexed.land), (decoded.lakes, indexed.lakes), (decoded.borders, indexed.borders),
                     (decoded.provinces, indexed.provinces), (decoded.rivers, indexed.rivers)]
        for (layer, index) in pairs {
            XCTAssertEqual(layer.chunks.count, index.chunks.count)
            for (c, i) in zip(layer.chunks, index.chunks).enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
                XCTAssertEqual([c.minX, c.minY, c.maxX, c.maxY], [i.minX, i.minY, i.maxX, i.maxY])
                XCTAssertEqual(c.rank, i.rank)
                XCTAssertEqual(g.decode(i, shift: indexed.shift, xs: xs, ys: ys), Int(c.count))
                let first = Int(c.start)
                XCTAssertEqual(Array(UnsafeBufferPointer(start: xs, count: Int(c.count))), Array(layer.xs[first..<first + Int(c.count)]))
                XCTAssertEqual(Array(UnsafeBufferPointer(start: ys, count: Int(c.count))), Array(layer.ys[first..<first + Int(c.count)]))
            }
        }
    }

    func testLoadsFromAMappedFile() throws {
        let url = try XCTUnwrap(ResourceLocator.url(for: WorldGeometry.resourceName))
        let g = try WorldGeometry.load(from: url)
        XCTAssertTrue(g.isLand(GeoPoint(latitude: 48.85, longitude: 2.35)))
        XCTAssertNoThrow(try g.detailIndex())
    }
}

/// Collects results from concurrent work.
final class LockedCounts: Sendable {
    private let values = Locked<[MapDetail: Set<Int>]>([:])
    func add(_ d: MapDetail, _ v: Int) {
        values.withLock { _ = $0[d, default: []].insert(v) }
    }
    func distinct(_ d: MapDetail) -> Set<Int> {
        values.withLock { $0[d] ?? [] }
    }
}

final class MapFileErrorTests: XCTestCase {
    func testTruncatedFilesThrow() throws {
        let bytes = try bundledBytes()
        for length in [0, 3, 7, 8, 20, 67, 68, 87, 88, 200, bytes.count / 3, bytes.count / 2, bytes.count - 1] {
            XCTAssertThrowsError(try WorldGeometry(bytes: Array(bytes[0..<length])), "length \(length)") { error in
                XCTAssertTrue(error is MapDataError)
                XCTAssertFalse(String(describing: error).isEmpty)
            }
        }
    }

    func testGarbageThrows() {
        var rng = SeededRandom(testNamed: "MapFileErrorTests.testGarbageThrows", fallback: 7)
        let garbage = (0..<5000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        XCTAssertThrowsError(try WorldGeometry(bytes: garbage)) { error in
            XCTAssertEqual(error as? MapDataError, .notAMapFile)
        }
        XCTAssertThrowsError(try WorldGeometry(bytes: Array("VTMP".utf8) + [9, 0, 26, 3])) { error in
            XCTAssertEqual(error as? MapDataError, .unsupportedVersion(9))
        }
        XCTAssertThrowsError(try WorldGeometry(bytes: Array("VTMP".utf8) + [1, 0, 26, 3] + [UInt8](repeating: 0, count: 60))) { error in
            XCTAssertEqual(error as? MapDataError, .unsupportedVersion(1), "a version 1 file is not read as version 2")
        }
    }

    func testMissingFileThrowsWithItsPath() {
        let url = URL(fileURLWithPath: "/nonexistent/world.vtmap")
        XCTAssertThrowsError(try WorldGeometry.load(from: url)) { error in
            XCTAssertTrue(String(describing: error).contains("/nonexistent/world.vtmap"))
        }
    }

    /// Flipped bytes anywhere in the coarse level must give an error or a
    /// usable map, never a crash.
    func testCorruptedCoarseLevelNeverCrashes() throws {
        let bytes = try bundledBytes()
        let coarseStart = 8 + 20 * 4
        let coarseLength = UInt64(levelEntry(bytes, 0).length)
        var rng = SeededRandom(testNamed: "MapFileErrorTests.testCorruptedCoarseLevelNeverCrashes", fallback: 42)
        var errors = 0
        let rounds = SanitizerScale.rounds(150)
        for _ in 0..<rounds {
            var damaged = bytes
            for _ in 0..<3 {
                let at = coarseStart + Int(rng.next() % coarseLength)
                damaged[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            do {
                let g = try WorldGeometry(bytes: damaged)
                _ = rasterize(g, viewport: Viewport(centerX: 0.5, centerY: 0.5, zoom: 1, width: 40, height: 12))
            } catch {
                XCTAssertTrue(error is MapDataError)
                errors += 1
            }
        }
        XCTAssertGreaterThan(errors, rounds * 2 / 3, "most damage is detected (two thirds of the rounds)")
    }

    func testCorruptedFineLevelFallsBackToCoarse() throws {
        var bytes = try bundledBytes()
        // The fine level's directory entry: offset at +8, length at +12.
        let entry = 8 + 20 * 2
        let offset = Int(bytes[entry + 8]) | Int(bytes[entry + 9]) << 8 | Int(bytes[entry + 10]) << 16 | Int(bytes[entry + 11]) << 24
        for i in 0..<64 { bytes[offset + 1 + i] = 0xFF }
        let g = try WorldGeometry(bytes: bytes)
        XCTAssertThrowsError(try g.level(.fine))
        XCTAssertThrowsError(try g.level(.fine), "the failure is remembered")
        XCTAssertEqual(g.levelForDrawing(.fine).detail, .coarse)
        let vp = Viewport(center: GeoPoint(latitude: 40.85, longitude: 14.27), zoom: 12, width: 20, height: 6)
        _ = rasterize(g, viewport: vp)
    }

    /// Damage in the detail level is found by `preload()` (its chunks'
    /// heads when first drawn, their points when decoded); drawing never
    /// traps and falls back to the fine level or skips the damaged chunk.
    func testCorruptedDetailLevelFallsBackToFine() throws {
        let bytes = try bundledBytes()
        let entry = levelEntry(bytes, 3)
        var rng = SeededRandom(testNamed: "MapFileErrorTests.testCorruptedDetailLevelFallsBackToFine", fallback: 5)
        for round in 0..<SanitizerScale.rounds(4) {
            var damaged = bytes
            let at = entry.offset + 1 + Int(rng.next() % UInt64(min(entry.length - 200, 4000)))
            for i in 0..<40 { damaged[at + i] = round % 2 == 0 ? 0xFF : UInt8(truncatingIfNeeded: rng.next()) }
            let g = try WorldGeometry(bytes: damaged)
            XCTAssertThrowsError(try g.preload(), "round \(round)") { error in
                XCTAssertTrue(error is MapDataError)
            }
            let vp = Viewport(center: GeoPoint(latitude: 40.853, longitude: 14.268), zoom: 12, width: 40, height: 12)
            let raster = rasterize(g, viewport: vp)
            XCTAssertGreaterThan(raster.land.reduce(0) { $0 + $1.nonzeroBitCount }, 100, "drawn from the fine level")
        }
        // Scattered flipped bytes: an error when indexing, or a map that draws.
        for _ in 0..<SanitizerScale.rounds(20) {
            var damaged = bytes
            for _ in 0..<3 {
                damaged[entry.offset + Int(rng.next() % UInt64(entry.length))] = UInt8(truncatingIfNeeded: rng.next())
            }
            let g = try WorldGeometry(bytes: damaged)
            _ = rasterize(g, viewport: Viewport(center: GeoPoint(latitude: 35.68, longitude: 139.77), zoom: 12, width: 40, height: 12))
            if let index = try? g.detailIndex() {
                // Every chunk decodes to its points or to nothing.
                let xs = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
                let ys = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
                defer { xs.deallocate(); ys.deallocate() }
                for c in index.land.chunks { XCTAssertTrue([0, Int(c.count)].contains(g.decode(c, shift: index.shift, xs: xs, ys: ys))) }
            }
        }
        var cut = bytes
        cut.removeLast(10)
        XCTAssertThrowsError(try WorldGeometry(bytes: cut)) { XCTAssertTrue($0 is MapDataError) }
    }
}

/// A level's place in the file, read from the directory.
func levelEntry(_ bytes: [UInt8], _ level: Int) -> (offset: Int, length: Int) {
    let at = 8 + 20 * level
    func u32(_ i: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[i + $1]) << (8 * $1) } }
    return (u32(at + 8), u32(at + 12))
}

