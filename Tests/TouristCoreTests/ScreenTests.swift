import AlbumMachine
import Terminal
@testable import TouristCore
import Geo
import Model
import XCTest

/// Screens own their state; help is an overlay above the screen it covers.
final class ScreenTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    func send(_ s: inout AppState, _ key: Key) -> [AppEffect] {
        reducer.reduce(&s, .event(.key(key), time: 0))
    }

    func testClosingHelpReturnsToTheAlbumExactlyAsItWas() {
        var s = Sample.albumState()
        XCTAssertEqual(send(&s, .char("?")), [])
        guard case let .album(album) = s.screen else { return XCTFail("album left") }
        XCTAssertEqual(s.overlay, .help)
        XCTAssertEqual(album.selected, 4)
        XCTAssertEqual(album.marked, [2])
        let text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.contains("delete the marked photos"), text)
        XCTAssertFalse(text.contains("drop a pin"), text)
        XCTAssertEqual(send(&s, .escape), [])
        XCTAssertNil(s.overlay)
        XCTAssertEqual(s.screen, .album(album))
    }

    func testAlbumUpdatesReachTheAlbumUnderHelp() {
        var s = Sample.albumState()
        _ = send(&s, .char("?"))
        let fewer = AlbumSnapshot(pinID: 1, photos: [Sample.photo(1), Sample.photo(5)], status: .ready, source: "flickr")
        XCTAssertEqual(reducer.reduce(&s, .albumLoaded(fewer)), [])
        XCTAssertEqual(s.album?.photos.map(\.id), [1, 5])
        XCTAssertEqual(s.album?.selectedPhoto?.id, 5)
        XCTAssertEqual(s.album?.marked, [])
        XCTAssertEqual(s.overlay, .help)
    }

    func testAPinDeletedElsewhereClosesItsAlbumEvenUnderHelp() {
        var s = Sample.albumState()
        _ = send(&s, .char("?"))
        XCTAssertEqual(reducer.reduce(&s, .pinsLoaded([])), [])
        XCTAssertEqual(s.screen, .map(MapScreen()))
        XCTAssertEqual(s.message, StatusMessage("That pin was deleted elsewhere.", kind: .error))
        // Help now covers the map, and shows the map's keys.
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("drop a pin at the cursor"))
    }

    func testTheMouseDoesNothingUnderAnOverlay() {
        var s = Sample.mapState()
        s.overlay = .help
        let before = s
        XCTAssertEqual(reducer.reduce(&s, .event(.mouse(MouseEvent(.press, x: 3, y: 3)), time: 0)), [])
        XCTAssertEqual(s, before)
    }

    func testThePressOfAHeldButtonBelongsToTheMap() {
        var s = Sample.mapState()
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.press, x: 10, y: 5)), time: 7))
        XCTAssertEqual(s.map?.mousePress, MousePress(x: 10, y: 5, time: 7))
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.release, x: 10, y: 5)), time: 7.1))
        XCTAssertEqual(s.screen, .map(MapScreen()))
    }

    func testOpeningAnAlbumStartsItFresh() {
        var s = Sample.mapState()
        XCTAssertEqual(send(&s, .enter), [.openAlbum(1)])
        XCTAssertEqual(s.screen, .album(AlbumScreen(pinID: 1)))
        XCTAssertNil(s.map)
        XCTAssertEqual(send(&s, .char("q")), [])
        XCTAssertEqual(s.screen, .map(MapScreen()))
        XCTAssertNil(s.album)
    }

    func testResizeKeepsTheAlbumSelectionOnScreen() {
        var s = Sample.albumState()
        _ = send(&s, .end)
        XCTAssertEqual(s.album?.selected, 9)
        XCTAssertEqual(s.album?.topRow, 2)  // 3 columns, 2 rows shown: rows 2 and 3
        _ = reducer.reduce(&s, .event(.resize(width: 80, height: 40), time: 0))
        XCTAssertEqual(s.album?.topRow, 1)  // 3 rows shown: rows 1 to 3, none empty below
        _ = send(&s, .home)
        XCTAssertEqual(s.album?.topRow, 0)
        _ = send(&s, .end)
        _ = reducer.reduce(&s, .event(.resize(width: 120, height: 24), time: 0))
        XCTAssertEqual(s.album?.topRow, 1)  // 4 columns: photo 10 is on row 2 of 3
    }

    func testTheAlbumPaintsOnlyTheAreasItIsGiven() {
        let s = Sample.albumState()
        guard case let .album(album) = s.screen else { return XCTFail("no album") }
        var buffer = CellBuffer(width: 80, height: 24)
        buffer.fill(x: 0, y: 0, width: 80, height: 24, with: Cell("Z"))
        // An album below two rows that belong to something else, and narrower than the screen.
        let layout = ScreenLayout(Rect(x: 0, y: 2, width: 60, height: 22))
        AlbumView.render(album, state: s, pictures: PictureShelf(), theme: Theme.forDepth(.indexed256), layout: layout, into: &buffer)
        XCTAssertEqual(buffer.rowText(0), String(repeating: "Z", count: 80))
        XCTAssertEqual(buffer.rowText(1), String(repeating: "Z", count: 80))
        for y in 2..<24 { XCTAssertTrue(buffer.rowText(y).hasSuffix(String(repeating: "Z", count: 20)), "row \(y)") }
        XCTAssertTrue(buffer.rowText(2).hasPrefix(" Naples"), buffer.rowText(2))
        // The grid is measured in that area: two columns fit in 60, and the reducer moves by the same.
        let grid = AlbumGrid(area: layout.main)
        XCTAssertEqual(grid, AlbumGrid(area: Rect(x: 0, y: 0, width: 60, height: 21)))
        XCTAssertEqual(grid.columns, 2)
        XCTAssertEqual(grid.visibleRows, 2)
        XCTAssertEqual(AlbumGrid(area: s.layout.main), AlbumGrid(area: Rect(x: 0, y: 0, width: 80, height: 23)))
        XCTAssertEqual(AlbumGrid(area: s.layout.main).columns, 3)
    }

    /// The screen drawn for a terminal without UTF-8 is the Unicode screen through the one ASCII table.
    func assertASCIIIsTheTablesReading(_ s: AppState, rows: [Int], file: StaticString = #filePath, line: UInt = #line) {
        var ascii = s
        ascii.capabilities = TerminalCapabilities(unicode: false, colors: s.capabilities.colors)
        var unicode = AppView.render(s, raster: nil)
        unicode.makeASCII()
        let drawn = AppView.render(ascii, raster: nil)
        for y in rows {
            XCTAssertEqual(drawn.rowText(y), unicode.rowText(y), "row \(y)", file: file, line: line)
        }
    }

    func testEveryWidgetLeavesItsASCIIToTheTable() {
        var album = Sample.albumState()
        album.updateAlbum { screen in
            screen.snapshot?.status = .downloading
            screen.snapshot?.photos[1].state = .failed(reason: "HTTP 500")
            screen.snapshot?.photos[2].state = .pending
        }
        let albumText = AppView.render({ var a = album; a.capabilities.unicode = false; return a }(), raster: nil).text
        for seen in ["|*", " downloading", "x download failed", "Downloading 7/10 ####", "#--"] {
            XCTAssertTrue(albumText.contains(seen), "\(seen) in\n\(albumText)")
        }
        assertASCIIIsTheTablesReading(album, rows: Array(0..<24))

        var map = Sample.mapState()
        map.pins.append(Pin(id: 3, coordinate: GeoPoint(latitude: 40.80, longitude: 14.40), name: "East"))
        assertASCIIIsTheTablesReading(map, rows: Array(0..<23))  // the status line names keys and degrees in words
        map.screen = .map(MapScreen(mode: .goTo(GoToPrompt(text: "Na"))))
        assertASCIIIsTheTablesReading(map, rows: Array(0..<23).filter { $0 != 3 })  // row 3 names the arrows in words
        map.screen = .map(MapScreen(mode: .dragging(pin: 1, from: Sample.naples)))
        assertASCIIIsTheTablesReading(map, rows: Array(0..<23))
        map.screen = .map(MapScreen(mode: .confirmDelete(pin: 1)))
        assertASCIIIsTheTablesReading(map, rows: Array(0..<23))
        map.screen = .map(MapScreen())
        map.overlay = .help
        assertASCIIIsTheTablesReading(map, rows: Array(0..<3))  // help names the arrows in words below
    }

    func testTheAlbumInASCII() {
        var s = Sample.albumState()
        s.capabilities = TerminalCapabilities(unicode: false, colors: .none)
        let buffer = AppView.render(s, raster: nil)
        XCTAssertTrue(buffer.cells.allSatisfy { $0.symbol.isASCII })
        XCTAssertTrue(buffer.rowText(0).hasPrefix(" Naples  40.8500, 14.2700 . Flickr"), buffer.rowText(0))
    }
}

final class CoordinateFormatTests: XCTestCase {
    func testDecimal() {
        XCTAssertEqual(GeoPoint(latitude: 40.85224, longitude: 14.26806).formatted(), "40.8522, 14.2681")
        XCTAssertEqual(GeoPoint(latitude: -33.9, longitude: -151.2).formatted(.decimal), "-33.9000, -151.2000")
    }

    func testHemispheres() {
        XCTAssertEqual(GeoPoint(latitude: 40.8522, longitude: 14.2681).formatted(.hemispheres(degreeSign: true)),
                       "40.8522\u{00B0}N 14.2681\u{00B0}E")
        XCTAssertEqual(GeoPoint(latitude: -33.9, longitude: -151.2).formatted(.hemispheres(degreeSign: false)),
                       "33.9000S 151.2000W")
        XCTAssertEqual(GeoPoint(latitude: 0, longitude: 0).formatted(.hemispheres(degreeSign: false)), "0.0000N 0.0000E")
    }

    func testEveryScreenWritesCoordinatesTheSameWay() {
        var s = Sample.mapState()
        s.pins = [Pin(id: 9, coordinate: GeoPoint(latitude: -33.9, longitude: 151.2), name: nil)]
        XCTAssertEqual(s.pins[0].displayName, "Pin at -33.9000, 151.2000")
        s.screen = .map(MapScreen(mode: .confirmDelete(pin: 9)))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Delete \u{201C}Pin at -33.9000, 151.2000\u{201D}?"))
        s.screen = .album(AlbumScreen(pinID: 9))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(0).contains("-33.9000, 151.2000"))
    }

    func testEveryScreenNamesAPinTheSameWay() {
        var s = Sample.mapState()
        s.settings.confirmDelete = true
        for name in ["Naples", nil] {
            s.pins[0].name = name
            let shown = s.pins[0].displayName
            XCTAssertEqual(shown, name ?? "Pin at " + s.pins[0].coordinate.formatted())
            s.screen = .map(MapScreen(mode: .confirmDelete(pin: s.pins[0].id)))
            XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Delete \u{201C}\(shown)\u{201D}?"), shown)
            s.screen = .album(AlbumScreen(pinID: s.pins[0].id))
            XCTAssertTrue(AppView.render(s, raster: nil).rowText(0).contains(" " + shown), shown)
            var deleted = s
            deleted.screen = .map(MapScreen())
            AppReducer(places: .none).commit(deleted.deletePin(s.pins[0].id), &deleted)
            XCTAssertEqual(deleted.message?.text, "Deleted pin \u{201C}\(shown)\u{201D}.")
        }
    }
}
