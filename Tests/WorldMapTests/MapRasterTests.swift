import Foundation
import XCTest
import Geo
import TestSupport
@testable import WorldMap

final class MapRasterTests: XCTestCase {
    func dotCount(_ layer: [UInt8]) -> Int { layer.reduce(0) { $0 + $1.nonzeroBitCount } }

    func landAt(_ raster: MapRaster, _ vp: Viewport, _ p: GeoPoint) -> Bool {
        let c = vp.cell(for: p)
        guard (0..<raster.width).contains(c.col), (0..<raster.height).contains(c.row) else { return false }
        return raster.land[c.row * raster.width + c.col] != 0
    }

    func testBrailleBitLayout() {
        let expected: [(Int, Int, UInt8)] = [(0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
                                             (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80)]
        for (x, y, bit) in expected {
            XCTAssertEqual(MapRaster.bit(dotX: x, dotY: y), bit, "dot (\(x), \(y))")
            XCTAssertEqual(MapRaster.bit(dotX: x + 6, dotY: y + 8), bit, "dot (\(x), \(y)) of another cell")
        }
    }

    func testLevelOfDetailFollowsScale() {
        XCTAssertEqual(MapDetail(degreesPerDot: 1.4), .coarse)
        XCTAssertEqual(MapDetail(degreesPerDot: 0.05), .medium)
        XCTAssertEqual(MapDetail(degreesPerDot: 0.005), .fine)
        XCTAssertEqual(MapDetail(degreesPerDot: 0.002), .detail)
        XCTAssertEqual(MapDetail(viewport: Viewport(centerX: 0.5, centerY: 0.5, zoom: 2, width: 10, height: 10)), .coarse)
        XCTAssertEqual(MapDetail(viewport: Viewport(centerX: 0.5, centerY: 0.5, zoom: 7, width: 10, height: 10)), .medium)
        XCTAssertEqual(MapDetail(viewport: Viewport(centerX: 0.5, centerY: 0.5, zoom: 10, width: 10, height: 10)), .fine)
        XCTAssertEqual(MapDetail(viewport: Viewport(centerX: 0.5, centerY: 0.5, zoom: 11, width: 10, height: 10)), .detail)
    }

    func testEmptyViewport() throws {
        let r = rasterize(try geometry(), viewport: Viewport(centerX: 0.5, centerY: 0.5, zoom: 3, width: 0, height: 5))
        XCTAssertEqual(r.width, 0)
        XCTAssertTrue(r.land.isEmpty && r.coast.isEmpty && r.border.isEmpty && r.river.isEmpty && r.province.isEmpty)
    }

    func testWorldViewHasLandSeaCoastAndBorders() throws {
        let vp = Viewport(center: GeoPoint(latitude: 20, longitude: 0), zoom: 2, width: 200, height: 60)
        let r = rasterize(try geometry(), viewport: vp)
        XCTAssertEqual(r.land.count, 200 * 60)
        XCTAssertTrue(landAt(r, vp, GeoPoint(latitude: 48.85, longitude: 2.35)), "Paris")
        XCTAssertFalse(landAt(r, vp, GeoPoint(latitude: 0, longitude: -30)), "mid-Atlantic")
        let land = dotCount(r.land), dots = 200 * 60 * 8
        XCTAssertTrue((dots / 6...dots / 2).contains(land), "land is a plausible share of the map: \(land) of \(dots)")
        XCTAssertGreaterThan(dotCount(r.coast), 2000)
        XCTAssertGreaterThan(dotCount(r.border), 500)
    }

    /// Centred on the antimeridian: Chukotka and New Zealand to the left,
    /// Alaska to the right.
    func testWrapsAroundLongitude180() throws {
        let g = try geometry()
        let north = Viewport(center: GeoPoint(latitude: 62, longitude: 180), zoom: 3, width: 80, height: 30)
        let rn = rasterize(g, viewport: north)
        XCTAssertTrue(landAt(rn, north, GeoPoint(latitude: 66, longitude: 172)), "Chukotka")
        XCTAssertTrue(landAt(rn, north, GeoPoint(latitude: 64, longitude: -155)), "Alaska")
        XCTAssertFalse(landAt(rn, north, GeoPoint(latitude: 57, longitude: -178)), "Bering Sea")
        let half = rn.width / 2
        var left = 0, right = 0
        for row in 0..<rn.height {
            for col in 0..<rn.width where rn.land[row * rn.width + col] != 0 {
                if col < half { left += 1 } else { right += 1 }
            }
        }
        XCTAssertGreaterThan(left, 100)
        XCTAssertGreaterThan(right, 100)

        let south = Viewport(center: GeoPoint(latitude: -40, longitude: 180), zoom: 4, width: 60, height: 20)
        let rs = rasterize(g, viewport: south)
        XCTAssertTrue(landAt(rs, south, GeoPoint(latitude: -38.5, longitude: 176)), "New Zealand, North Island")
        XCTAssertTrue(landAt(rs, south, GeoPoint(latitude: -43.5, longitude: 171)), "New Zealand, South Island")
    }

    /// The seam at ±180 is a cut through land, not a coast.
    func testNoCoastDrawnAlongTheAntimeridian() throws {
        let vp = Viewport(center: GeoPoint(latitude: 67.5, longitude: 180), zoom: 6, width: 40, height: 16)
        let r = rasterize(try geometry(), viewport: vp)
        let seam = Int(((Mercator.x(longitude: 180) - vp.originX) * vp.worldDots).rounded(.down))
        var landRows = 0, coastOnSeam = 0
        for y in 0..<vp.heightDots {
            let landAround = (-3...3).allSatisfy { MapRaster.isSet(r.land, width: r.width, dotX: seam + $0, dotY: y) }
            guard landAround else { continue }
            landRows += 1
            if MapRaster.isSet(r.coast, width: r.width, dotX: seam - 1, dotY: y)
                || MapRaster.isSet(r.coast, width: r.width, dotX: seam, dotY: y) { coastOnSeam += 1 }
        }
        XCTAssertGreaterThan(landRows, 10, "Chukotka straddles the seam")
        XCTAssertLessThanOrEqual(coastOnSeam, 2)
    }

    /// Antarctica's ring runs along the bottom of the world: not a coast.
    func testNoCoastDrawnAlongTheBottomOfTheWorld() throws {
        let vp = Viewport(centerX: 0.5, centerY: 0.9, zoom: 2, width: 100, height: 20)
        let r = rasterize(try geometry(), viewport: vp)
        let bottom = Int(((1 - vp.originY) * vp.worldDots).rounded(.down)) - 1
        XCTAssertTrue((0..<vp.heightDots).contains(bottom))
        var land = 0, coast = 0
        for x in 0..<vp.widthDots {
            if MapRaster.isSet(r.land, width: r.width, dotX: x, dotY: bottom) { land += 1 }
            if MapRaster.isSet(r.coast, width: r.width, dotX: x, dotY: bottom) { coast += 1 }
        }
        XCTAssertEqual(land, vp.widthDots, "Antarctica fills the bottom row")
        XCTAssertLessThan(coast, vp.widthDots / 20)
    }

    /// At zoom 0 the map is wider than the world: every copy is drawn alike.
    func testWiderThanTheWorldRepeats() throws {
        let vp = Viewport(centerX: 0.5, centerY: 0.5, zoom: 0, width: 100, height: 16)
        let r = rasterize(try geometry(), viewport: vp)
        let period = Int(vp.worldDots) / Viewport.dotsPerCellX
        var same = 0, compared = 0
        for row in 0..<r.height {
            for col in 0..<(r.width - period) {
                compared += 1
                if r.land[row * r.width + col] == r.land[row * r.width + col + period] { same += 1 }
            }
        }
        XCTAssertGreaterThan(Double(same), Double(compared) * 0.99)
        XCTAssertGreaterThan(dotCount(r.land), 1000)
    }

    /// Culling chunks (and standing in for those left of the map with one
    /// vertical edge) must give exactly the picture drawn from every chunk.
    func testCullingGivesTheSameRasterAsDrawingEverything() throws {
        let g = try geometry()
        let views: [(Double, Double, Int, Int, Int)] = [
            (40.85, 14.27, 12, 60, 20),   // Naples
            (45.8, -82.0, 11, 60, 20),    // Manitoulin Island in Lake Huron
            (61.0, 5.5, 10, 50, 20),      // Norwegian fjords
            (41.9, 12.48, 8, 60, 20),     // Rome
            (-2.0, 32.8, 9, 40, 15),      // Lake Victoria
            (42.0, 12.0, 7, 60, 20),      // Italy
            (48.0, 10.0, 5, 80, 24),      // Europe
            (66.0, 180.0, 5, 60, 20),     // the antimeridian
            (-75.0, 0.0, 3, 60, 20),      // Antarctica
            (45.0, -84.0, 6, 50, 20),     // Great Lakes
            (10.0, 100.0, 2, 100, 30),
            (0.0, 0.0, 0, 120, 20),
        ]
        let fine = try g.indexedLevel(.fine), detailed = try g.indexedLevel(.detail)
        // Drawing every detail shore costs about 7 s a view under a sanitizer (a third of the test):
        // there the detail level is checked at Manitoulin alone, the harder case (a lake's island in a
        // lake), and every other view is drawn as in a plain build.
        for (lat, lon, zoom, w, h) in views where !(SanitizerScale.isSanitized && zoom == 12) {
            let vp = Viewport(center: GeoPoint(latitude: lat, longitude: lon), zoom: zoom, width: w, height: h)
            let detail = MapDetail(viewport: vp)
            let source: MapSource = detail >= .fine
                ? .indexed(g, shores: detail == .detail ? detailed : fine, lines: fine)
                : .decoded(try g.level(detail))
            let culled = rasterize(source, viewport: vp, culling: true)
            let everything = rasterize(source, viewport: vp, culling: false)
            XCTAssertTrue(culled == everything, "at \(lat), \(lon) zoom \(zoom)")
            XCTAssertEqual(culled, rasterize(g, viewport: vp))
            if detail == .fine {
                XCTAssertEqual(culled, rasterize(try g.level(.fine), viewport: vp, culling: true),
                               "drawn in place or from decoded arrays, the fine level looks the same")
            }
            XCTAssertGreaterThan(dotCount(culled.land), 0)
        }
    }

    /// The scanline fill agrees with an independent point-in-polygon test
    /// at (nearly) every dot centre.
    func testFillAgreesWithPointInPolygon() throws {
        let g = try geometry()
        for (lat, lon, zoom) in [(40.75, 14.3, 10), (45.0, -84.0, 7)] {
            let vp = Viewport(center: GeoPoint(latitude: lat, longitude: lon), zoom: zoom, width: 30, height: 10)
            let detail = MapDetail(viewport: vp)
            let r = rasterize(try g.level(detail), viewport: vp, culling: true)
            // Every dot in a plain build; under a sanitizer, where each point-in-polygon test costs ten
            // times as much, every second dot of every second row (a quarter, spread over the view).
            let step = SanitizerScale.isSanitized ? 2 : 1
            var disagree = 0, checked = 0
            for y in stride(from: 0, to: vp.heightDots, by: step) {
                for x in stride(from: 0, to: vp.widthDots, by: step) {
                    checked += 1
                    let wx = vp.originX + (Double(x) + 0.5) / vp.worldDots
                    let wy = vp.originY + (Double(y) + 0.5) / vp.worldDots
                    let inside = g.isLand(Mercator.unproject(x: wx, y: wy), detail: detail)
                    if inside != MapRaster.isSet(r.land, width: r.width, dotX: x, dotY: y) { disagree += 1 }
                }
            }
            XCTAssertLessThan(disagree, checked / 100, "at \(lat), \(lon) zoom \(zoom)")
        }
    }
}
