import XCTest
import Geo
@testable import WorldMap

final class ProjectionTests: XCTestCase {
    var places: [GeoPoint] { [GeoPoint(latitude: 48.85, longitude: 2.35), GeoPoint(latitude: 40.85, longitude: 14.27),
                  GeoPoint(latitude: -33.87, longitude: 151.21), GeoPoint(latitude: 64.1, longitude: -21.9),
                  GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: -54.8, longitude: -68.3),
                  GeoPoint(latitude: 85, longitude: 179.9), GeoPoint(latitude: -85, longitude: -180)] }

    func testMercatorEdges() {
        XCTAssertEqual(Mercator.x(longitude: -180), 0)
        XCTAssertEqual(Mercator.x(longitude: 180), 1)
        XCTAssertEqual(Mercator.y(latitude: 0), 0.5, accuracy: 1e-12)
        XCTAssertEqual(Mercator.y(latitude: Mercator.maxLatitude), 0, accuracy: 1e-9)
        XCTAssertEqual(Mercator.y(latitude: -Mercator.maxLatitude), 1, accuracy: 1e-9)
        XCTAssertEqual(Mercator.y(latitude: -90), Mercator.y(latitude: -Mercator.maxLatitude), "clamped")
        XCTAssertLessThan(Mercator.y(latitude: 60), Mercator.y(latitude: 30), "y runs southwards")
    }

    func testMercatorRoundTrips() {
        for p in places {
            let w = Mercator.project(p)
            let back = Mercator.unproject(x: w.x, y: w.y)
            XCTAssertEqual(back.latitude, p.latitude, accuracy: 1e-9)
            let dLon = abs(back.longitude - p.longitude)
            XCTAssertTrue(dLon < 1e-9 || abs(dLon - 360) < 1e-9, "\(p)")
        }
        // x wraps: one world to the east is the same place.
        let w = Mercator.project(places[0])
        XCTAssertEqual(Mercator.unproject(x: w.x + 1, y: w.y).longitude, places[0].longitude, accuracy: 1e-9)
    }

    func testViewportCellAndWorldRoundTrip() {
        for zoom in [0, 2, 7, 12, 15] {
            for center in [places[0], GeoPoint(latitude: 10, longitude: 179.9), GeoPoint(latitude: -60, longitude: -179.9)] {
                let vp = Viewport(center: center, zoom: zoom, width: 81, height: 25)
                for (col, row) in [(0, 0), (40, 12), (80, 24), (3, 20)] {
                    let w = vp.worldPosition(col: col, row: row)
                    let c = vp.cell(x: w.x, y: w.y)
                    if vp.widthDots < Int(vp.worldDots) {
                        XCTAssertEqual(c.col, col, "zoom \(zoom) \(center)")
                    } else {
                        // Wider than the world: the copy nearest the centre is picked.
                        let worldCells = Int(vp.worldDots) / Viewport.dotsPerCellX
                        XCTAssertEqual((c.col - col) % worldCells, 0, "zoom \(zoom) \(center)")
                        XCTAssertLessThanOrEqual(abs(c.col - vp.width / 2), worldCells / 2 + 1)
                    }
                    XCTAssertEqual(c.row, row, "zoom \(zoom) \(center)")
                    // The same via degrees, and via another copy of the world.
                    if zoom >= 2 {
                        let g = vp.geoPoint(col: col, row: row)
                        XCTAssertTrue(vp.cell(for: g) == (col, row), "zoom \(zoom) \(center) geo")
                        XCTAssertTrue(vp.cell(x: w.x + 1, y: w.y) == (col, row), "zoom \(zoom) next world")
                    }
                }
            }
        }
    }

    func testViewportGeometry() {
        let vp = Viewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 2, width: 200, height: 60)
        XCTAssertEqual(vp.worldDots, 256)
        XCTAssertEqual(vp.degreesPerDot, 360.0 / 256)
        XCTAssertEqual(vp.widthDots, 400)
        XCTAssertEqual(vp.heightDots, 240)
        XCTAssertEqual(Viewport(centerX: 0, centerY: 0, zoom: 99, width: 1, height: 1).zoom, Viewport.maxZoom)
    }
}
