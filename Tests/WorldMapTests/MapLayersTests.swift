import Foundation
import XCTest
import Geo
@testable import WorldMap

/// Rivers, province lines and the detail level's shores (docs/data-map.md).
final class MapLayersTests: XCTestCase {
    func dots(_ layer: [UInt8]) -> Int { layer.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Dots of a layer in the cells within `radius` cells of a place.
    func dots(_ layer: [UInt8], _ raster: MapRaster, _ vp: Viewport, near p: GeoPoint, radius: Int) -> Int {
        let c = vp.cell(for: p)
        var n = 0
        for row in max(0, c.row - radius)...min(raster.height - 1, c.row + radius) {
            for col in max(0, c.col - radius)...min(raster.width - 1, c.col + radius) {
                n += layer[row * raster.width + col].nonzeroBitCount
            }
        }
        return n
    }

    func testRiversAppearByRank() {
        XCTAssertEqual((0...15).map(MapVisibility.riverRank(zoom:)),
                       [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4])
    }

    /// Rome at zoom 11: the Tiber runs through the middle of the view as
    /// one connected line of river cells; the open sea has none.
    func testTiberThroughRomeAtZoom11() throws {
        let g = try geometry()
        let vp = Viewport(center: GeoPoint(latitude: 41.8986, longitude: 12.4769), zoom: 11, width: 200, height: 60)
        XCTAssertEqual(MapDetail(viewport: vp), .detail)
        let r = rasterize(g, viewport: vp)
        // The river cells 8-connected to those near the centre.
        var seen = Set<Int>()
        var queue: [Int] = []
        for row in 25..<35 {
            for col in 90..<110 where r.river[row * r.width + col] != 0 {
                seen.insert(row * r.width + col)
                queue.append(row * r.width + col)
            }
        }
        XCTAssertFalse(queue.isEmpty, "river cells near the centre of Rome")
        while let cell = queue.popLast() {
            let row = cell / r.width, col = cell % r.width
            for dr in -1...1 {
                for dc in -1...1 {
                    let nr = row + dr, nc = col + dc
                    guard (0..<r.height).contains(nr), (0..<r.width).contains(nc) else { continue }
                    let n = nr * r.width + nc
                    if r.river[n] != 0, seen.insert(n).inserted { queue.append(n) }
                }
            }
        }
        let rows = Set(seen.map { $0 / r.width })
        XCTAssertEqual(rows.min(), 0, "the Tiber enters at the top of the view")
        XCTAssertGreaterThanOrEqual(rows.count, 45, "and runs down most of it")

        let sea = Viewport(center: GeoPoint(latitude: 40.9, longitude: 11.3), zoom: 11, width: 200, height: 60)
        let rs = rasterize(g, viewport: sea)
        XCTAssertEqual(dots(rs.land), 0, "open sea")
        XCTAssertEqual(dots(rs.river), 0)
    }

    /// Zoom 4: the Nile and the Amazon, not the Tiber.
    func testOnlyMajorRiversAtZoom4() throws {
        let g = try geometry()
        let africa = Viewport(center: GeoPoint(latitude: 25, longitude: 31), zoom: 4, width: 80, height: 30)
        let ra = rasterize(g, viewport: africa)
        XCTAssertGreaterThan(dots(ra.river, ra, africa, near: GeoPoint(latitude: 27.2, longitude: 31.2), radius: 2), 0, "the Nile at Asyut")
        let brazil = Viewport(center: GeoPoint(latitude: -3, longitude: -60), zoom: 4, width: 80, height: 30)
        let rb = rasterize(g, viewport: brazil)
        XCTAssertGreaterThan(dots(rb.river, rb, brazil, near: GeoPoint(latitude: -3.2, longitude: -59.0), radius: 2), 0, "the Amazon near Manaus")
        let italy = Viewport(center: GeoPoint(latitude: 42, longitude: 12.5), zoom: 4, width: 80, height: 30)
        let ri = rasterize(g, viewport: italy)
        XCTAssertEqual(dots(ri.river, ri, italy, near: GeoPoint(latitude: 41.9, longitude: 12.48), radius: 1), 0, "no Tiber at zoom 4")
        let world = Viewport(center: GeoPoint(latitude: 20, longitude: 0), zoom: 3, width: 200, height: 60)
        XCTAssertEqual(dots(rasterize(g, viewport: world).river), 0, "no rivers below zoom 4")
        let rome8 = Viewport(center: GeoPoint(latitude: 41.9, longitude: 12.48), zoom: 8, width: 80, height: 30)
        let r8 = rasterize(g, viewport: rome8)
        XCTAssertGreaterThan(dots(r8.river, r8, rome8, near: GeoPoint(latitude: 41.9, longitude: 12.48), radius: 3), 0, "the Tiber at zoom 8")
    }

    /// Lines between Italian regions at zoom 6, none at zoom 2.
    func testProvinceLinesFromZoom4() throws {
        let g = try geometry()
        let italy6 = Viewport(center: GeoPoint(latitude: 42.5, longitude: 12.5), zoom: 6, width: 200, height: 60)
        let r6 = rasterize(g, viewport: italy6)
        // Between Tuscany, Umbria and Lazio, well inside Italy.
        XCTAssertGreaterThan(dots(r6.province, r6, italy6, near: GeoPoint(latitude: 42.6, longitude: 12.0), radius: 6), 5)
        XCTAssertGreaterThan(dots(r6.province), 300)
        let world = Viewport(center: GeoPoint(latitude: 42.5, longitude: 12.5), zoom: 2, width: 200, height: 60)
        XCTAssertEqual(dots(rasterize(g, viewport: world).province), 0)
    }

    /// The coast GSHHG draws over the Bay of Naples at zoom 12 is made of
    /// short segments (length in cells: the larger of width / 2 dots and
    /// height / 4 dots); Natural Earth's fine level there has long ones.
    func testNaplesCoastIsFinerAtZoom12() throws {
        let g = try geometry()
        let vp = Viewport(center: GeoPoint(latitude: 40.80, longitude: 14.25), zoom: 12, width: 200, height: 60)
        XCTAssertEqual(MapDetail(viewport: vp), .detail)
        let index = try g.detailIndex()
        let xs = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        let ys = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        defer { xs.deallocate(); ys.deallocate() }
        // Only chunks whose box meets the view can hold a segment with an end in it: the others are not decoded.
        let units = Double(WorldGeometry.unitsPerWorld)
        let viewMinX = vp.originX * units, viewMinY = vp.originY * units
        let viewMaxX = viewMinX + Double(vp.widthDots) / vp.worldDots * units
        let viewMaxY = viewMinY + Double(vp.heightDots) / vp.worldDots * units
        func meetsView(_ minX: Int32, _ minY: Int32, _ maxX: Int32, _ maxY: Int32) -> Bool {
            Double(maxX) >= viewMinX && Double(minX) <= viewMaxX && Double(maxY) >= viewMinY && Double(minY) <= viewMaxY
        }
        var detailRuns: [[(Double, Double)]] = []
        for layer in [index.land, index.lakes] {
            for c in layer.chunks where meetsView(c.minX, c.minY, c.maxX, c.maxY) {
                let n = g.decode(c, shift: index.shift, xs: xs, ys: ys)
                detailRuns.append((0..<n).map { (Double(xs[$0]), Double(ys[$0])) })
            }
        }
        let fine = try g.level(.fine)
        var fineRuns: [[(Double, Double)]] = []
        for layer in [fine.land, fine.lakes] {
            for c in layer.chunks where meetsView(c.minX, c.minY, c.maxX, c.maxY) {
                fineRuns.append((Int(c.start)..<Int(c.start + c.count)).map { (Double(layer.xs[$0]), Double(layer.ys[$0])) })
            }
        }
        let detail = segmentLengthsInCells(detailRuns, vp)
        let ne = segmentLengthsInCells(fineRuns, vp)
        func share(_ l: [Double], within cells: Double) -> Double { Double(l.filter { $0 <= cells }.count) / Double(l.count) }
        XCTAssertGreaterThan(detail.count, 150, "the shore runs through this view")
        XCTAssertGreaterThan(detail.count, 3 * ne.count)
        // GSHHG itself has a few straight runs longer than 2 cells here (a
        // breakwater of 5.4 cells), so most segments, not all, are that short.
        XCTAssertLessThanOrEqual(detail[detail.count / 2], 1.5, "GSHHG's median segment in cells")
        XCTAssertGreaterThanOrEqual(share(detail, within: 2), 0.6)
        XCTAssertGreaterThan(ne[ne.count / 2], 3, "Natural Earth's median segment in cells")
        XCTAssertLessThan(share(ne, within: 2), 0.35)
        let raster = rasterize(g, viewport: vp)
        XCTAssertGreaterThan(dots(raster.coast), 400)
    }

    /// Segments with an end in the view: their lengths in cells, each the
    /// larger of its width in cells (2 dots) and its height in cells (4 dots).
    func segmentLengthsInCells(_ runs: [[(Double, Double)]], _ vp: Viewport) -> [Double] {
        let unitsPerDot = Double(WorldGeometry.unitsPerWorld) / vp.worldDots
        let ox = vp.originX * Double(WorldGeometry.unitsPerWorld), oy = vp.originY * Double(WorldGeometry.unitsPerWorld)
        func inView(_ p: (Double, Double)) -> Bool {
            let dx = (p.0 - ox) / unitsPerDot, dy = (p.1 - oy) / unitsPerDot
            return dx >= 0 && dx < Double(vp.widthDots) && dy >= 0 && dy < Double(vp.heightDots)
        }
        var lengths: [Double] = []
        for run in runs where run.count >= 2 {
            for (a, b) in zip(run, run.dropFirst()) where inView(a) || inView(b) {
                let cellsWide = abs(b.0 - a.0) / unitsPerDot / Double(Viewport.dotsPerCellX)
                let cellsHigh = abs(b.1 - a.1) / unitsPerDot / Double(Viewport.dotsPerCellY)
                lengths.append(max(cellsWide, cellsHigh))
            }
        }
        return lengths.sorted()
    }

    /// Even–odd fill of GSHHG's levels: Manitoulin Island is land inside
    /// Lake Huron, which is water inside North America.
    func testIslandInALakeIsLand() throws {
        let g = try geometry()
        let vp = Viewport(center: GeoPoint(latitude: 45.75, longitude: -82.2), zoom: 11, width: 200, height: 60)
        let r = rasterize(g, viewport: vp)
        func land(_ lat: Double, _ lon: Double) -> Bool {
            let c = vp.cell(for: GeoPoint(latitude: lat, longitude: lon))
            return r.land[c.row * r.width + c.col] == 0xFF
        }
        XCTAssertTrue(land(45.85, -82.3), "Manitoulin Island")
        XCTAssertFalse(land(45.55, -82.2) || r.land[(r.height - 1) * r.width + r.width / 2] == 0xFF, "Lake Huron")
    }

    /// Known land and water at city zoom, where GSHHG draws the shores.
    func testKnownPlacesAtDetailLevel() throws {
        let g = try geometry()
        let land = [("Paris", 48.85, 2.35), ("Sahara", 23.0, 10.0), ("Moscow", 55.75, 37.6),
                    ("Ukerewe Island in Lake Victoria", -2.05, 33.0), ("Isle Royale in Lake Superior", 48.0, -88.9)]
        let water = [("mid-Atlantic", 0.0, -30.0), ("Lake Victoria", -1.0, 33.0), ("Caspian Sea", 42.0, 50.5),
                     ("Lake Superior", 47.6, -87.5), ("Lake Geneva", 46.45, 6.55)]
        for (name, lat, lon, isLand) in land.map({ ($0.0, $0.1, $0.2, true) }) + water.map({ ($0.0, $0.1, $0.2, false) }) {
            let vp = Viewport(center: GeoPoint(latitude: lat, longitude: lon), zoom: 11, width: 20, height: 6)
            XCTAssertEqual(MapDetail(viewport: vp), .detail)
            let r = rasterize(g, viewport: vp)
            let c = vp.cell(for: GeoPoint(latitude: lat, longitude: lon))
            XCTAssertEqual(r.land[c.row * r.width + c.col] == 0xFF, isLand, name)
        }
    }
}
