import Geo
import Model
import Terminal
import TestSupport
@testable import TouristCore
import WorldMap
import XCTest

/// Counts side by side never run together into one number.
extension PinLayoutTests {
    var viewport: Viewport { Viewport(center: GeoPoint(latitude: 40.85, longitude: 14.27), zoom: 10, width: 60, height: 20) }

    /// Pins on the given cells of row 5, each cell's pins made distinct by id.
    func pins(onCols cols: [Int], row: Int = 5) -> [Pin] {
        cols.enumerated().map { i, col in
            Pin(id: Int64(i + 1), coordinate: viewport.geoPoint(col: col, row: row), name: nil)
        }
    }

    /// The map row as drawn: each marker's text (a count, or `o` for a pin) at its columns.
    func drawn(_ layout: PinLayout, row: Int = 5) -> String {
        var line = Array(repeating: Character(" "), count: viewport.width)
        for marker in layout.markers where marker.row == row {
            let text = marker.isCluster ? PinLayout.countLabel(marker.pins.count) : "o"
            for (i, c) in text.enumerated() where marker.col + i < line.count { line[marker.col + i] = c }
        }
        return String(line)
    }

    func testTwoClustersOfTwoSideBySideKeepAGap() {
        // Slot 0 holds cols 0-2, slot 1 cols 3-5: two pins on col 2 and two on col 3 drew "22".
        let layout = PinLayout(pins: pins(onCols: [2, 2, 3, 3]), viewport: viewport)
        XCTAssertEqual(layout.markers.count, 2)
        XCTAssertEqual(drawn(layout).trimmingCharacters(in: .whitespaces), "2 2")
        // The cursor on any pin of either cluster is still on that cluster.
        for (col, ids) in [(2, [1, 2]), (3, [3, 4])] {
            XCTAssertEqual(layout.marker(atCol: col, row: 5)?.pins, ids.map(Int64.init), "col \(col)")
        }
    }

    func testWideCountsMoveTheOneBeforeOrMergeWhenNeitherHasRoom() {
        // A 1-digit count before a 3-digit one: the first steps left within its slot.
        let small = pins(onCols: [2, 2]) + pins(onCols: Array(repeating: 3, count: 120)).map {
            var p = $0
            p.id += 10
            return p
        }
        let left = PinLayout(pins: small, viewport: viewport)
        XCTAssertEqual(drawn(left).trimmingCharacters(in: .whitespaces), "2 120")
        // Two 3-digit counts filling their slots: one cluster over both, the cursor on either slot on it.
        let big = (0..<250).map { i in
            Pin(id: Int64(i + 1), coordinate: viewport.geoPoint(col: i < 100 ? 0 : 3, row: 5), name: nil)
        }
        let merged = PinLayout(pins: big, viewport: viewport)
        XCTAssertEqual(merged.markers.count, 1)
        XCTAssertEqual(drawn(merged).trimmingCharacters(in: .whitespaces), "250")
        for col in 0..<6 { XCTAssertEqual(merged.marker(atCol: col, row: 5)?.pins.count, 250, "col \(col)") }
    }

    func testEveryCountHasABlankCellBesideItOnAnyLayout() {
        var rng = SeededRandom(testNamed: "PinLayoutTests.testEveryCountHasABlankCellBesideItOnAnyLayout", fallback: 3)
        for _ in 0..<300 {
            let cols = (0..<Int.random(in: 2...80, using: &rng)).map { _ in Int.random(in: 0..<viewport.width, using: &rng) }
            let all = pins(onCols: cols)
            let layout = PinLayout(pins: all, viewport: viewport)
            let counts = layout.markers.filter(\.isCluster).sorted { $0.col < $1.col }
            for (a, b) in zip(counts, counts.dropFirst()) {
                XCTAssertGreaterThan(b.col, a.col + a.width, "\(drawn(layout)) from \(cols.sorted())")
            }
            // No pin is lost or counted twice, and each is under its marker's slots.
            XCTAssertEqual(layout.markers.flatMap(\.pins).sorted(), all.map(\.id).sorted())
            for pin in all {
                let cell = viewport.cell(for: pin.coordinate)
                XCTAssertEqual(layout.marker(atCol: cell.col, row: cell.row)?.pins.contains(pin.id), true,
                               "pin on col \(cell.col): \(drawn(layout))")
            }
            // Every count stays on the map.
            for m in layout.markers { XCTAssertTrue(m.col >= 0 && m.col + m.width <= viewport.width, "\(m)") }
        }
    }
}
