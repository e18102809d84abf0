import Terminal
@testable import TouristCore
import Geo
import Model
import WorldMap
import XCTest

/// At z0–z1 the world is narrower than a wide screen and repeats: pins and names are on every copy.
final class WorldCopiesTests: XCTestCase {
    let rome = GeoPoint(latitude: 41.9, longitude: 12.5)

    func testAPinIsDrawnOnEveryCopyOfTheWorld() {
        // z0: the world is 32 cells wide; 100 cells show it three times and a bit.
        let viewport = Viewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0, width: 100, height: 20)
        let layout = PinLayout(pins: [Pin(id: 1, coordinate: rome, name: "Rome")], viewport: viewport)
        let cols = layout.markers.map(\.col)
        XCTAssertGreaterThanOrEqual(cols.count, 3, "\(cols)")
        XCTAssertEqual(Set(zip(cols, cols.dropFirst()).map { $1 - $0 }), [32], "one world apart: \(cols)")
        XCTAssertEqual(Set(layout.markers.map(\.row)).count, 1)
        // Each copy is the pin: the cursor on any of them finds it.
        for marker in layout.markers { XCTAssertEqual(layout.marker(atCol: marker.col, row: marker.row)?.pins, [1]) }
        // Where the world is wider than the screen, one copy as before.
        let z3 = Viewport(center: rome, zoom: 3, width: 100, height: 20)
        XCTAssertEqual(PinLayout(pins: [Pin(id: 1, coordinate: rome, name: nil)], viewport: z3).markers.count, 1)
    }

    func testANameIsPlacedOnEveryCopyOfTheWorld() {
        let viewport = Viewport(center: GeoPoint(latitude: 20, longitude: 0), zoom: 1, width: 200, height: 30)
        let candidate = LabelCandidate(name: "ITALY", coordinate: rome, kind: .country, isMajor: false, priority: 0)
        let placed = MapLabels.place([candidate], viewport: viewport, pins: [], markers: [], cursor: nil, unicode: true)
        // z1: 64 cells a world; 200 cells show three copies whole.
        XCTAssertGreaterThanOrEqual(placed.count, 3, "\(placed)")
        XCTAssertEqual(Set(placed.map(\.text)), ["ITALY"])
        let cols = placed.map(\.col).sorted()
        XCTAssertEqual(Set(zip(cols, cols.dropFirst()).map { $1 - $0 }), [64], "\(cols)")
    }
}
