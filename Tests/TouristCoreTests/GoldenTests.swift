import Terminal
import TouristCore
import Geo
import Model
import WorldMap
import XCTest

/// The screen as text: each test renders a state into a buffer and compares it
/// with a golden file. `make golden` rewrites them (GoldenFiles.swift).
final class GoldenTests: XCTestCase {
    static let geometry: WorldGeometry? = try? WorldGeometry.bundled()

    func geometry() throws -> WorldGeometry {
        try XCTUnwrap(GoldenTests.geometry, "the bundled map did not load")
    }

    func state(center: GeoPoint, zoom: Int, width: Int = 80, height: Int = 24, cursor: GeoPoint? = nil,
               unicode: Bool = true, colors: TerminalCapabilities.ColorDepth = .indexed256) -> AppState {
        let c = Mercator.project(center)
        let k = Mercator.project(cursor ?? center)
        var s = AppState(camera: MapCamera(centerX: c.x, centerY: c.y, zoom: zoom, cursorX: k.x, cursorY: k.y),
                         width: width, height: height,
                         capabilities: TerminalCapabilities(unicode: unicode, colors: colors))
        AppReducer(places: testPlaces).updateCursorPlace(&s)
        return s
    }

    func render(_ s: AppState) throws -> CellBuffer {
        AppView.render(s, raster: rasterize(try geometry(), viewport: s.viewport))
    }

    func testWorldView() throws {
        let s = state(center: GeoPoint(latitude: 20, longitude: 0), zoom: 1)
        let buffer = try render(s)
        try assertGolden(buffer, "world-80x24")
        // Land and sea differ: Sahara on land, mid-Atlantic at sea.
        let theme = Theme.forDepth(.indexed256)
        let sahara = s.viewport.cell(for: GeoPoint(latitude: 23, longitude: 12))
        let atlantic = s.viewport.cell(for: GeoPoint(latitude: 10, longitude: -35))
        XCTAssertEqual(buffer[sahara.col, sahara.row].style.bg, theme.land.bg)
        XCTAssertEqual(buffer[atlantic.col, atlantic.row].style.bg, theme.sea.bg)
    }

    func testWorldViewInASCII() throws {
        let s = state(center: GeoPoint(latitude: 20, longitude: 0), zoom: 1, unicode: false, colors: .none)
        let buffer = try render(s)
        XCTAssertTrue(buffer.cells.allSatisfy { $0.symbol.isASCII })
        try assertGolden(buffer, "world-ascii-80x24")
    }

    func testNaplesWithPinsAndACluster() throws {
        let naples = GeoPoint(latitude: 40.8522, longitude: 14.2681)
        var s = state(center: naples, zoom: 10, cursor: GeoPoint(latitude: 40.80, longitude: 14.10))
        s.pins = [
            Pin(id: 1, coordinate: naples, name: "Naples"),
            Pin(id: 2, coordinate: GeoPoint(latitude: 40.8525, longitude: 14.2684), name: "Naples too"),
            Pin(id: 3, coordinate: GeoPoint(latitude: 40.75, longitude: 14.45), name: "Vesuvius side"),
        ]
        let buffer = try render(s)
        try assertGolden(buffer, "naples-z10-pins")
        let cluster = s.viewport.cell(for: naples)
        XCTAssertEqual(buffer[cluster.col, cluster.row].symbol, "2")
        XCTAssertEqual(buffer[cluster.col, cluster.row].style, Theme.forDepth(.indexed256).cluster)
        let single = s.viewport.cell(for: s.pins[2].coordinate)
        XCTAssertEqual(buffer[single.col, single.row].symbol, "\u{25CF}")
        let cursor = s.cursorCell
        XCTAssertEqual(buffer[cursor.col, cursor.row].symbol, "\u{253C}")
    }

    func testPinUnderTheCursorIsHighlighted() throws {
        let naples = GeoPoint(latitude: 40.8522, longitude: 14.2681)
        var s = state(center: naples, zoom: 12)
        s.pins = [Pin(id: 1, coordinate: naples, name: "Naples")]
        let buffer = try render(s)
        let cell = s.cursorCell
        XCTAssertEqual(buffer[cell.col, cell.row].symbol, "\u{25CF}")
        XCTAssertEqual(buffer[cell.col, cell.row].style, Theme.forDepth(.indexed256).highlight)
    }

    func testStatusLine() throws {
        let s = state(center: GeoPoint(latitude: 40.8522, longitude: 14.2681), zoom: 10)
        let status = try render(s).rowText(23)
        let bar = try XCTUnwrap(MapScale(zoom: 10, latitude: 40.8522)).bar
        XCTAssertTrue(status.hasPrefix(" 40.8522\u{00B0}N 14.2681\u{00B0}E \u{2502} z10 \u{2502} \(bar) \u{2502} Naples, Campania, IT"), status)
        XCTAssertTrue(status.hasSuffix("0 pins \u{2502} ? help "), status)
    }

    func testGoToPromptAndDeleteDialog() throws {
        let naples = GeoPoint(latitude: 40.8522, longitude: 14.2681)
        var s = state(center: naples, zoom: 10)
        s.screen = .map(MapScreen(mode: .goTo(GoToPrompt(text: "Na", suggestions: testPlaces.complete("Na", 6), selected: 0))))
        try assertGolden(try render(s), "goto-prompt")
        s.pins = [Pin(id: 1, coordinate: naples, name: "Naples, Campania, IT")]
        s.screen = .map(MapScreen(mode: .confirmDelete(pin: 1)))
        try assertGolden(try render(s), "delete-dialog")
    }

    func testHelpOverlay() throws {
        var s = state(center: GeoPoint(latitude: 20, longitude: 0), zoom: 1)
        s.overlay = .help
        try assertGolden(try render(s), "help")
    }

    func testTooSmall() throws {
        let s = state(center: GeoPoint(latitude: 20, longitude: 0), zoom: 1, width: 30, height: 8)
        let text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.contains("Terminal too small"), text)
        XCTAssertTrue(text.contains("30x8; need 40x12"), text)
    }

    func testControlCharactersInNamesNeverReachTheScreen() throws {
        let naples = GeoPoint(latitude: 40.8522, longitude: 14.2681)
        var s = state(center: naples, zoom: 10)
        s.pins = [Pin(id: 1, coordinate: naples, name: "Evil\u{1B}[2J\u{07}name")]
        s.screen = .map(MapScreen(mode: .confirmDelete(pin: 1)))
        let buffer = try render(s)
        XCTAssertFalse(buffer.cells.contains { $0.symbol.value < 0x20 || $0.symbol.value == 0x7F })
        XCTAssertTrue(buffer.text.contains("Evilname"))
    }

    /// The photo screen at 80×24: the title and position, the picture's place, every detail (the long
    /// ones cut with `…`), the message line and the keys.
    func testPhotoView() throws {
        var s = Sample.photoState()
        guard case var .photo(screen) = s.screen else { return XCTFail("no photo screen") }
        var photos = screen.album.photos
        photos[4].found = NewPhoto(
            source: "commons", sourceID: "File:Castel.jpg",
            title: "Castel dell'Ovo seen from the Lungomare at dusk, with Vesuvius behind and the ferries coming in",
            author: "A. Photographer", dateTaken: "2019-06-21 20:14:03", url: "http://127.0.0.1/5.jpg",
            pageURL: "https://commons.wikimedia.org/wiki/File:Castel_dell%27Ovo_seen_from_the_Lungomare_at_dusk_with_Vesuvius.jpg",
            license: "CC BY-SA 4.0")
        photos[4].byteCount = 48_213
        screen.album.apply(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "commons"))
        s.screen = .photo(screen)
        s.message = StatusMessage("Saved to /home/me/Pictures/vtourist/Castel.jpg")
        let buffer = try render(s)
        try assertGolden(buffer, "photo-80x24")
        XCTAssertTrue(buffer.rowText(0).hasPrefix(" Castel dell'Ovo seen from the Lungomare"), buffer.rowText(0))
        XCTAssertTrue(buffer.rowText(0).contains("\u{2026}"), "the long title is cut")
        XCTAssertTrue(buffer.rowText(0).hasSuffix("5 of 10 "), buffer.rowText(0))
        XCTAssertTrue(buffer.rowText(8).contains("\u{2026}"), "the picture is on its way: \(buffer.rowText(8))")
        for detail in ["A. Photographer", "2019-06-21 20:14:03", "CC BY-SA 4.0",
                       "https://commons.wikimedia.org/wiki/File:Castel_dell", "Wikimedia Commons \u{00B7} 47.1 KB stored"] {
            XCTAssertTrue(buffer.text.contains(detail), detail)
        }
        let page = try XCTUnwrap((0..<buffer.height).map { buffer.rowText($0) }.first { $0.contains("Page") })
        XCTAssertEqual(page.displayWidth, 80)
        XCTAssertTrue(page.trimmingCharacters(in: .whitespaces).hasSuffix("\u{2026}"), "the long page is cut: \(page)")
        XCTAssertTrue(buffer.rowText(22).contains("Saved to /home/me/Pictures/vtourist/Castel.jpg"))
        XCTAssertTrue(buffer.rowText(23).contains("? help"), buffer.rowText(23))
    }
}
