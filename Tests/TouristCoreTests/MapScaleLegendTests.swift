import Terminal
@testable import TouristCore
import WorldMap
import XCTest

/// The scale bar on the status line, the map's line layers (rivers, province
/// borders) as cells, and the legend in the map's help.
final class MapScaleLegendTests: XCTestCase {
    // MARK: The scale

    func testTheBarIsARoundDistanceAndItsWidthIsThatDistanceInCells() throws {
        for zoom in Viewport.minZoom...Viewport.maxZoom {
            for latitude in stride(from: -80.0, through: 80.0, by: 10) {
                let scale = try XCTUnwrap(MapScale(zoom: zoom, latitude: latitude))
                let perCell = MapScale.metresPerCell(zoom: zoom, latitude: latitude)
                // Round: 1, 2 or 5 times a power of ten.
                let power = pow(10, floor(log10(scale.metres)))
                XCTAssertTrue([1.0, 2, 5].contains((scale.metres / power).rounded()), "\(scale.metres)")
                // The bar is as wide as the distance, within half a cell, and its drawing has that width.
                XCTAssertEqual(Double(scale.cells) * perCell, scale.metres, accuracy: perCell / 2 + 1e-9)
                XCTAssertEqual(scale.bar.unicodeScalars.count, scale.cells, scale.bar)
                // Compact: the label fits with a dash either side and the bar stays short.
                XCTAssertGreaterThanOrEqual(scale.cells, scale.label.count + 6)
                XCTAssertLessThanOrEqual(scale.cells, 2 * (scale.label.count + 8), "z\(zoom) \(latitude)° \(scale.bar)")
            }
        }
    }

    func testTheScaleFollowsZoomAndLatitude() throws {
        // A cell at the equator at z0 is 1/32 of the world: about 1,252 km.
        XCTAssertEqual(MapScale.metresPerCell(zoom: 0, latitude: 0), 40_075_016.686 / 32, accuracy: 1)
        // Each zoom step halves it; at 60° a cell covers half the distance it covers at the equator.
        XCTAssertEqual(MapScale.metresPerCell(zoom: 5, latitude: 0), MapScale.metresPerCell(zoom: 4, latitude: 0) / 2,
                       accuracy: 1e-6)
        XCTAssertEqual(MapScale.metresPerCell(zoom: 8, latitude: 60), MapScale.metresPerCell(zoom: 8, latitude: 0) / 2,
                       accuracy: 1e-6)
        // z12 at the equator: 306 m a cell, so 2 km would be 7 cells, too short for its label; 5 km is 16.
        XCTAssertEqual(MapScale(zoom: 12, latitude: 0)?.bar, "\u{251C}\u{2500}\u{2500}\u{2500}\u{2500} 5 km \u{2500}\u{2500}\u{2500}\u{2500}\u{2524}")
        XCTAssertEqual(MapScale(zoom: 0, latitude: 0)?.label, "20000 km")
        XCTAssertEqual(MapScale(zoom: 15, latitude: 41.9)?.label, "500 m")
        XCTAssertNotEqual(MapScale(zoom: 6, latitude: 0), MapScale(zoom: 6, latitude: 70))
    }

    func testTheStatusLineShowsTheScaleAtTheCursorInUnicodeAndASCII() throws {
        var s = Sample.mapState()  // z10 over Naples
        let bar = try XCTUnwrap(MapScale(zoom: 10, latitude: s.camera.cursor.latitude)).bar
        let status = AppView.render(s, raster: nil).rowText(s.height - 1)
        XCTAssertTrue(status.contains("z10 \u{2502} \(bar)"), status)
        s.capabilities = TerminalCapabilities(unicode: false, colors: .none)
        let ascii = AppView.render(s, raster: nil).rowText(s.height - 1)
        XCTAssertTrue(ascii.contains("z10 | +-"), ascii)
        XCTAssertTrue(ascii.contains(" km -+ "), ascii)
    }

    // MARK: Line layers

    func raster(_ fill: (inout MapRaster) -> Void) -> MapRaster {
        var r = MapRaster(width: 6, height: 1)
        r.land = [UInt8](repeating: 0xFF, count: 6)
        fill(&r)
        return r
    }

    func cells(_ raster: MapRaster, _ caps: TerminalCapabilities) -> [Cell] {
        let theme = Theme.forDepth(caps.colors)
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.render(MapWidget(raster: raster, theme: theme, capabilities: caps), in: buffer.area)
        return (0..<6).map { buffer[$0, 0] }
    }

    func testEachLineLayerHasItsOwnColourAndTheFirstLayerColoursACellWhereTheyMeet() {
        let r = raster {
            $0.coast[0] = 0x12; $0.border[1] = 0x12; $0.river[2] = 0x12; $0.province[3] = 0x12
            $0.river[4] = 0x09; $0.border[4] = 0x12
        }
        let caps = TerminalCapabilities(unicode: true, colors: .indexed256)
        let theme = Theme.forDepth(.indexed256)
        let c = cells(r, caps)
        XCTAssertEqual(c.map(\.style.fg), [theme.coast, theme.border, theme.river, theme.province, theme.border, theme.land.fg])
        XCTAssertEqual(Set([theme.coast, theme.border, theme.river, theme.province]).count, 4)
        XCTAssertEqual(c[2].symbol, "\u{2812}")
        // Lines that meet keep all their dots.
        XCTAssertEqual(c[4].symbol, Unicode.Scalar(0x2800 + 0x1B))
        XCTAssertTrue(c.allSatisfy { $0.style.bg == theme.land.bg })
    }

    func testWithoutColourRiversAreDimAndProvinceBordersDotted() {
        let r = raster { $0.river[0] = 0xFF; $0.province[1] = 0xFF; $0.border[2] = 0xFF }
        let c = cells(r, TerminalCapabilities(unicode: true, colors: .none))
        XCTAssertTrue(c[0].style.attributes.contains(.dim))
        XCTAssertEqual(c[1].symbol, Unicode.Scalar(0x2800 + 0x55))
        XCTAssertFalse(c[2].style.attributes.contains(.dim))
        XCTAssertEqual(c[2].symbol, "\u{28FF}")
        // Without braille each layer has its own character.
        let ascii = cells(raster { $0.coast[0] = 0x12; $0.border[1] = 0x12; $0.river[2] = 0x12; $0.province[3] = 0x12 },
                          TerminalCapabilities(unicode: false, colors: .none))
        XCTAssertEqual(ascii.prefix(4).map(\.symbol), ["-", ":", "~", ","])
    }

    // MARK: The legend

    func testHelpOnTheMapShowsTheLegendDrawnAsTheMapDrawsIt() throws {
        var s = Sample.mapState()
        s.overlay = .help
        for (width, height) in [(200, 60), (100, 50), (80, 24)] {
            s.width = width
            s.height = height
            let buffer = AppView.render(s, raster: nil)
            let text = buffer.text
            XCTAssertTrue(text.contains("Keys and map"), "\(width)x\(height)\n\(text)")
            XCTAssertTrue(text.contains("move the cursor"), text)
            do {
                for words in ["land", "sea and lakes", "coast, lake shore", "river", "country border",
                              "state/province border", "place, big place", "landmark, peak",
                              "pin", "cursor", "scale at the cursor"] {
                    XCTAssertTrue(text.contains(words), "\(width)x\(height): \(words)\n\(text)")
                }
            }
        }
        // The samples are the map's own cells.
        let theme = Theme.forDepth(.indexed256)
        let rows = MapLegend.rows(theme: theme, capabilities: s.capabilities)
        let river = try XCTUnwrap(rows.first { $0.text.hasPrefix("river") })
        XCTAssertEqual(river.sample.first, MapWidget.stroke(.river, bits: 0x36, over: theme.land, theme: theme,
                                                            capabilities: s.capabilities))
        XCTAssertEqual(rows.first { $0.text == "pin" }?.sample.first?.symbol, PinsWidget.pinSymbol)
        // Each destination's glyph as the labels draw it, in UTF-8 and without.
        let unicodeGlyphs: [Unicode.Scalar] = [try XCTUnwrap(MapLabels.glyph(for: .landmark, unicode: true)),
                                               try XCTUnwrap(MapLabels.glyph(for: .volcano, unicode: true))]
        let glyphRow = try XCTUnwrap(rows.first { $0.text == "landmark, peak" })
        XCTAssertEqual(glyphRow.sample.map(\.symbol), unicodeGlyphs)
        let ascii = MapLegend.rows(theme: theme, capabilities: TerminalCapabilities(unicode: false, colors: .none))
        let asciiRow = try XCTUnwrap(ascii.first { $0.text == "landmark, peak" })
        XCTAssertEqual(asciiRow.sample.map(\.symbol), ["#", "^"] as [Unicode.Scalar])
        XCTAssertEqual(rows.first { $0.text == "place, big place" }?.sample.map(\.symbol), [MapLabels.dot, MapLabels.majorDot])
    }

    func testHelpOnOtherScreensHasNoLegend() {
        var s = Sample.albumState()
        s.overlay = .help
        let text = AppView.render(s, raster: nil).text
        XCTAssertFalse(text.contains("Keys and map"), text)
        XCTAssertFalse(text.contains("country border"), text)
    }
}

extension MapScaleLegendTests {
    func testTheHelpsClosingLineNeverLandsOnItsFrame() {
        var s = Sample.mapState()
        s.overlay = .help
        for height in 14...26 {
            s.width = 80
            s.height = height
            let buffer = AppView.render(s, raster: nil)
            for row in 0..<height where buffer.rowText(row).contains("\u{2514}") {
                XCTAssertFalse(buffer.rowText(row).contains("Any key"), "80x\(height)\n\(buffer.text)")
            }
        }
    }
}
