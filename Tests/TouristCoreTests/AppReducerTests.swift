import AlbumMachine
import Terminal
import TestSupport
@testable import TouristCore
import Geo
import Model
import WorldMap
import XCTest

/// Places the tests control: Naples and Rome only.
let testPlaces: PlaceLookup = {
    let naples = PlaceSuggestion(name: "Naples", displayName: "Naples, Campania, IT",
                                 coordinate: GeoPoint(latitude: 40.8522, longitude: 14.2681), population: 909_048)
    let rome = PlaceSuggestion(name: "Rome", displayName: "Rome, Lazio, IT",
                               coordinate: GeoPoint(latitude: 41.8919, longitude: 12.5113), population: 2_318_895)
    let all = [rome, naples]
    return PlaceLookup(
        nearest: { p in
            all.map { (name: $0.displayName, distanceKm: distanceKm($0.coordinate, p)) }.min { $0.distanceKm < $1.distanceKm }
        },
        complete: { text, limit in
            Array(all.filter { $0.name.lowercased().hasPrefix(text.lowercased()) }.prefix(limit))
        },
        named: { text in all.first { $0.name.lowercased() == text.lowercased() } })
}()

final class AppReducerTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    func makeState(at point: GeoPoint = GeoPoint(latitude: 40.85, longitude: 14.27), zoom: Int = 10,
                   width: Int = 80, height: Int = 24) -> AppState {
        let p = Mercator.project(point)
        return AppState(camera: MapCamera(centerX: p.x, centerY: p.y, zoom: zoom, cursorX: p.x, cursorY: p.y),
                        width: width, height: height)
    }

    @discardableResult
    func send(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        reducer.reduce(&state, .event(.key(key), time: 0))
    }

    func type(_ state: inout AppState, _ text: String) {
        for c in text { send(&state, .char(c)) }
    }

    func testArrowMovesCursorOneCellAndSavesTheView() {
        var state = makeState()
        let before = state.cursorCell
        let effects = send(&state, .right)
        XCTAssertEqual(state.cursorCell.col, before.col + 1)
        XCTAssertEqual(state.cursorCell.row, before.row)
        XCTAssertEqual(effects, [.saveMapView(state.camera.state)])
        send(&state, .char("j"))
        XCTAssertEqual(state.cursorCell.row, before.row + 1)
        XCTAssertEqual(state.cursorPlace?.name, "Naples, Campania, IT")
    }

    func testCursorScrollsTheMapAtTheEdge() {
        var state = makeState()
        let center = state.camera.centerX
        for _ in 0..<60 { send(&state, .right) }
        XCTAssertEqual(state.cursorCell.col, state.width - 1)
        XCTAssertGreaterThan(state.camera.centerX, center)
    }

    func testZoomKeepsTheCursorsPlace() {
        var state = makeState()
        for _ in 0..<5 { send(&state, .left) }
        let cell = state.cursorCell
        let cursor = state.camera.cursor
        send(&state, .char("+"))
        XCTAssertEqual(state.camera.zoom, 11)
        XCTAssertEqual(state.cursorCell.col, cell.col)
        XCTAssertEqual(state.cursorCell.row, cell.row)
        XCTAssertEqual(state.camera.cursor.latitude, cursor.latitude, accuracy: 1e-9)
        send(&state, .char("-"))
        send(&state, .char("-"))
        XCTAssertEqual(state.camera.zoom, 9)
        XCTAssertEqual(state.cursorCell.col, cell.col)
    }

    func testZoomStopsAtTheLimits() {
        var state = makeState(zoom: Viewport.maxZoom)
        send(&state, .char("="))
        XCTAssertEqual(state.camera.zoom, Viewport.maxZoom)
        XCTAssertEqual(state.message?.text, "Closest zoom reached.")
    }

    func testDropPinNamesItAfterTheNearestPlace() {
        var state = makeState()
        XCTAssertEqual(send(&state, .char("p")), [.insertPin(state.camera.cursor, name: "Naples, Campania, IT")])
        var far = makeState(at: GeoPoint(latitude: 0, longitude: -30))
        XCTAssertEqual(send(&far, .char(" ")), [.insertPin(far.camera.cursor, name: nil)])
    }

    func testDroppingOnAPinSelectsItInsteadOfStackingAnother() {
        var state = makeState()
        let pin = Pin(id: 3, coordinate: state.camera.cursor, name: "Naples")
        state.pins = [pin]
        for key in [Key.char("p"), .char(" ")] {
            XCTAssertEqual(send(&state, key), [], "no second pin under the same glyph")
            XCTAssertEqual(state.message?.text, "A pin is already here: Enter opens its album.")
            XCTAssertEqual(state.pinUnderCursor, pin)
        }
        // A mouse hold on it says the same.
        let cell = state.cursorCell
        _ = reducer.reduce(&state, .event(.mouse(MouseEvent(.press, x: cell.col, y: cell.row)), time: 0))
        let held = reducer.reduce(&state, .event(.mouse(MouseEvent(.release, x: cell.col, y: cell.row)), time: 1))
        XCTAssertFalse(held.contains { if case .insertPin = $0 { return true } else { return false } })
        XCTAssertEqual(state.pins, [pin])
    }

    func testEnterRightAfterADropOpensTheAlbumOnceTheStoreHasThePin() {
        var state = makeState()
        let at = state.camera.cursor
        // Sent in one burst: p, then Enter before the store has answered.
        XCTAssertEqual(send(&state, .char("p")), [.insertPin(at, name: "Naples, Campania, IT")])
        XCTAssertEqual(send(&state, .enter), [], "nothing to open yet")
        XCTAssertNotEqual(state.message?.text, "No pin here. Press p to drop one.")
        XCTAssertEqual(send(&state, .char("p")), [], "the drop on its way is not dropped twice")
        // The store answers: the album opens.
        let pin = Pin(id: 9, coordinate: at, name: "Naples, Campania, IT", albumStatus: .downloading)
        XCTAssertEqual(reducer.reduce(&state, .pinSaved(pin)), [.openAlbum(9)])
        XCTAssertEqual(state.album?.pinID, 9)
        XCTAssertEqual(state.pendingDrops, [])
    }

    func testADropTheStoreAnsweredWithoutEnterOpensNothing() {
        var state = makeState()
        let at = state.camera.cursor
        send(&state, .char("p"))
        XCTAssertEqual(reducer.reduce(&state, .pinSaved(Pin(id: 9, coordinate: at, name: nil))), [])
        XCTAssertNotNil(state.map)
        XCTAssertEqual(state.pendingDrops, [])
        // A drop whose write failed is forgotten with the store's pins.
        for _ in 0..<4 { send(&state, .right) }
        send(&state, .char("p"))
        XCTAssertEqual(state.pendingDrops.count, 1)
        _ = reducer.reduce(&state, .pinsLoaded(state.pins))
        XCTAssertEqual(state.pendingDrops, [])
    }

    func testSavedPinAppearsAndIsUnderTheCursor() {
        var state = makeState()
        let pin = Pin(id: 7, coordinate: state.camera.cursor, name: "Naples, Campania, IT")
        _ = reducer.reduce(&state, .pinSaved(pin))
        XCTAssertEqual(state.pins, [pin])
        XCTAssertEqual(state.pinUnderCursor, pin)
    }

    func testDeleteAsksFirstThenDeletes() {
        var state = makeState()
        let pin = Pin(id: 3, coordinate: state.camera.cursor, name: "Naples")
        state.pins = [pin]
        XCTAssertEqual(send(&state, .char("x")), [])
        XCTAssertEqual(state.map?.mode, .confirmDelete(pin: 3))
        XCTAssertEqual(send(&state, .char("n")), [])
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.pins, [pin])
        send(&state, .delete)
        XCTAssertEqual(send(&state, .char("y")), [.deletePin(3), .album(3, .pinDeleted)])
        XCTAssertEqual(state.pins, [])
    }

    func testDeleteWithoutConfirmation() {
        var state = makeState()
        state.settings.confirmDelete = false
        let other = Pin(id: 4, coordinate: GeoPoint(latitude: 41.89, longitude: 12.51), name: "Rome")
        state.pins = [Pin(id: 3, coordinate: state.camera.cursor, name: nil), other]
        XCTAssertEqual(send(&state, .char("x")), [.deletePin(3), .album(3, .pinDeleted)])
        XCTAssertEqual(state.pins, [other], "the pin leaves the map at once, as it does after the dialog")
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertNil(state.pinUnderCursor)
    }

    func testDeleteWithNoPinSaysSo() {
        var state = makeState()
        XCTAssertEqual(send(&state, .char("x")), [])
        XCTAssertEqual(state.message?.text, "No pin here to delete.")
    }

    func testDragMovesThePinAndEscPutsItBack() {
        var state = makeState()
        let start = state.camera.cursor
        state.pins = [Pin(id: 5, coordinate: start, name: "Naples")]
        send(&state, .char("m"))
        XCTAssertEqual(state.map?.mode, .dragging(pin: 5, from: start))
        send(&state, .right)
        send(&state, .right)
        XCTAssertEqual(send(&state, .escape), [.saveMapView(state.camera.state)])
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.pins[0].coordinate, start)
        XCTAssertEqual(state.camera.cursor.latitude, start.latitude, accuracy: 1e-9)

        send(&state, .char("m"))
        send(&state, .down)
        let target = state.camera.cursor
        XCTAssertEqual(send(&state, .enter), [.movePin(5, to: target, name: "Naples, Campania, IT"),
                                              .album(5, .pinMoved(target))])
        XCTAssertEqual(state.pins[0].coordinate, target)
        XCTAssertEqual(state.map?.mode, .browsing)
    }

    func testDraggingCanBeTurnedOff() {
        var state = makeState()
        state.settings.allowDrag = false
        state.pins = [Pin(id: 5, coordinate: state.camera.cursor, name: nil)]
        send(&state, .char("m"))
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.message?.text, "Moving pins is turned off in the settings.")
    }

    func testTabCyclesPinsInOrder() {
        var state = makeState(at: GeoPoint(latitude: 0, longitude: 0), zoom: 5)
        let a = Pin(id: 1, coordinate: GeoPoint(latitude: 40.85, longitude: 14.27), name: "A")
        let b = Pin(id: 2, coordinate: GeoPoint(latitude: 41.89, longitude: 12.51), name: "B")
        state.pins = [b, a]
        send(&state, .tab)
        XCTAssertEqual(state.pinUnderCursor?.id, 1)
        send(&state, .tab)
        XCTAssertEqual(state.pinUnderCursor?.id, 2)
        send(&state, .tab)
        XCTAssertEqual(state.pinUnderCursor?.id, 1)
        send(&state, .backTab)
        XCTAssertEqual(state.pinUnderCursor?.id, 2)
    }

    func testGoToCompletesAndMoves() {
        var state = makeState(at: GeoPoint(latitude: 0, longitude: 0), zoom: 3)
        send(&state, .char("g"))
        type(&state, "nap")
        guard case let .goTo(prompt)? = state.map?.mode else { return XCTFail("prompt not open") }
        XCTAssertEqual(prompt.suggestions.map(\.name), ["Naples"])
        send(&state, .tab)
        guard case let .goTo(completed)? = state.map?.mode else { return XCTFail("prompt closed") }
        XCTAssertEqual(completed.text, "Naples")
        send(&state, .enter)
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.camera.zoom, GoToReducer.goToZoom)
        XCTAssertEqual(state.camera.cursor.latitude, 40.8522, accuracy: 1e-6)
        XCTAssertEqual(state.message?.text, "Went to Naples, Campania, IT.")
    }

    func testGoToCoordinates() {
        var state = makeState(zoom: 3)
        send(&state, .char("/"))
        type(&state, "48.8566, 2.3522")
        send(&state, .enter)
        XCTAssertEqual(state.camera.cursor.latitude, 48.8566, accuracy: 1e-6)
        XCTAssertEqual(state.camera.cursor.longitude, 2.3522, accuracy: 1e-6)
    }

    func testGoToOutOfRangeKeepsThePromptAndTheMap() {
        var state = makeState()
        let camera = state.camera
        send(&state, .char("g"))
        type(&state, "91, 10")
        XCTAssertEqual(send(&state, .enter), [])
        guard case let .goTo(prompt)? = state.map?.mode else { return XCTFail("prompt closed") }
        XCTAssertNotNil(prompt.error)
        XCTAssertTrue(prompt.error?.contains("90") ?? false, prompt.error ?? "")
        XCTAssertEqual(state.camera, camera)
        send(&state, .escape)
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.camera, camera)
    }

    func testGoToUnknownPlace() {
        var state = makeState()
        send(&state, .char("g"))
        type(&state, "Atlantis")
        send(&state, .enter)
        guard case let .goTo(prompt)? = state.map?.mode else { return XCTFail("prompt closed") }
        XCTAssertEqual(prompt.error, "No place called \u{201C}Atlantis\u{201D}.")
    }

    func testTooSmallTerminalIgnoresKeysAndRecovers() {
        var state = makeState()
        _ = reducer.reduce(&state, .event(.resize(width: 30, height: 10), time: 0))
        XCTAssertTrue(state.isTooSmall)
        let camera = state.camera
        XCTAssertEqual(send(&state, .char("p")), [])
        XCTAssertEqual(state.camera, camera)
        _ = reducer.reduce(&state, .event(.resize(width: 100, height: 30), time: 0))
        XCTAssertFalse(state.isTooSmall)
        XCTAssertEqual(send(&state, .char("q")), [.quit])
    }

    func testAResizeStormLeavesTheMapWhereItWas() {
        var state = makeState(at: GeoPoint(latitude: 20, longitude: 0), zoom: 1, width: 100, height: 30)
        state.camera.jump(to: GeoPoint(latitude: 40.85, longitude: 14.27), width: 100, height: state.mapHeight)
        _ = reducer.reduce(&state, .event(.resize(width: 100, height: 30), time: 0))
        let before = state.camera
        var random = SeededRandom(seed: 7)
        for size in [(1, 1), (1, 60), (200, 1), (40, 12)] + (0..<200).map({ _ in
            (Int(random.next() % 200) + 1, Int(random.next() % 60) + 1)
        }) {
            _ = reducer.reduce(&state, .event(.resize(width: size.0, height: size.1), time: 0))
            let cell = state.cursorCell
            if !state.isTooSmall { XCTAssertTrue(cell.row >= 0 && cell.row < state.mapHeight, "cursor off the map at \(size)") }
        }
        _ = reducer.reduce(&state, .event(.resize(width: 100, height: 30), time: 0))
        XCTAssertEqual(state.camera, before)
        // A key makes the fitted view the user's: the next sizes start from it.
        _ = reducer.reduce(&state, .event(.resize(width: 50, height: 12), time: 0))
        let fitted = state.camera
        send(&state, .char("?"))
        send(&state, .escape)
        _ = reducer.reduce(&state, .event(.resize(width: 100, height: 30), time: 0))
        XCTAssertEqual(state.cameraBeforeResize, fitted)
    }

    func testResizeDuringADragKeepsDragging() {
        var state = makeState()
        state.pins = [Pin(id: 5, coordinate: state.camera.cursor, name: nil)]
        send(&state, .char("m"))
        _ = reducer.reduce(&state, .event(.resize(width: 50, height: 14), time: 0))
        guard case .dragging(pin: 5, _)? = state.map?.mode else { return XCTFail("drag lost") }
        let cell = state.cursorCell
        XCTAssertTrue(cell.col >= 0 && cell.col < 50 && cell.row >= 0 && cell.row < state.mapHeight)
    }

    func testMouseHoldDropsAPinAndWheelZooms() {
        var state = makeState()
        _ = reducer.reduce(&state, .event(.mouse(MouseEvent(.press, x: 10, y: 5)), time: 100))
        XCTAssertEqual(state.cursorCell.col, 10)
        XCTAssertEqual(state.cursorCell.row, 5)
        let effects = reducer.reduce(&state, .event(.mouse(MouseEvent(.release, x: 10, y: 5)), time: 100.7))
        XCTAssertTrue(effects.contains { if case .insertPin = $0 { return true } else { return false } })
        // A quick click only moves the cursor.
        _ = reducer.reduce(&state, .event(.mouse(MouseEvent(.press, x: 12, y: 6)), time: 200))
        let click = reducer.reduce(&state, .event(.mouse(MouseEvent(.release, x: 12, y: 6)), time: 200.1))
        XCTAssertFalse(click.contains { if case .insertPin = $0 { return true } else { return false } })
        _ = reducer.reduce(&state, .event(.mouse(MouseEvent(.wheelUp, x: 12, y: 6)), time: 201))
        XCTAssertEqual(state.camera.zoom, 11)
        XCTAssertEqual(state.cursorCell.col, 12)
    }

    func testHelpOpensOverTheMapAndAnyKeyClosesIt() {
        var state = makeState()
        send(&state, .char("?"))
        XCTAssertEqual(state.overlay, .help)
        XCTAssertEqual(state.screen, .map(MapScreen()))
        XCTAssertEqual(send(&state, .char("z")), [])
        XCTAssertNil(state.overlay)
        XCTAssertEqual(state.screen, .map(MapScreen()))
    }

    func testPinsLoadedElsewhereEndADragOfADeletedPin() {
        var state = makeState()
        state.pins = [Pin(id: 5, coordinate: state.camera.cursor, name: nil)]
        send(&state, .char("m"))
        _ = reducer.reduce(&state, .pinsLoaded([]))
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.message?.kind, .error)
    }
}

final class PinLayoutTests: XCTestCase {
    func testPinsSharingACellCluster() {
        // Centred away from the pins: the centre lies on a cell boundary.
        let vp = Viewport(center: GeoPoint(latitude: 40, longitude: 13), zoom: 3, width: 40, height: 12)
        let pins = [
            Pin(id: 1, coordinate: GeoPoint(latitude: 40.85, longitude: 14.27), name: nil),
            Pin(id: 2, coordinate: GeoPoint(latitude: 40.8530, longitude: 14.2730), name: nil),
            Pin(id: 3, coordinate: GeoPoint(latitude: -33.9, longitude: 151.2), name: nil),  // off screen
        ]
        let layout = PinLayout(pins: pins, viewport: vp)
        XCTAssertEqual(layout.markers.count, 1)
        XCTAssertEqual(layout.markers[0].pins, [1, 2])
        XCTAssertEqual(layout.markers[0].width, 1)
        let zoomed = PinLayout(pins: pins, viewport: Viewport(center: GeoPoint(latitude: 40.85, longitude: 14.27), zoom: 15, width: 40, height: 12))
        XCTAssertEqual(zoomed.markers.count, 2)
    }

    /// Two pins a cell apart in one slot make a one-character cluster drawn on the first one's cell;
    /// Tab to the second put the cursor beside the count, where Enter said "No pin here".
    func testTheCursorOnAnyPinOfAClusterIsOnTheCluster() throws {
        let oslo = GeoPoint(latitude: 59.9127, longitude: 10.7461), bergen = GeoPoint(latitude: 60.3913, longitude: 5.3221)
        let p = Mercator.project(oslo)
        var state = AppState(camera: MapCamera(centerX: p.x, centerY: p.y, zoom: 2, cursorX: p.x, cursorY: p.y),
                             width: 100, height: 30)
        state.pins = [Pin(id: 1, coordinate: oslo, name: "Oslo"), Pin(id: 2, coordinate: bergen, name: "Bergen")]
        let layout = PinLayout(pins: state.pins, viewport: state.viewport)
        XCTAssertEqual(layout.markers.count, 1)
        let cluster = try XCTUnwrap(layout.markers.first)
        XCTAssertEqual(cluster.width, 1)
        XCTAssertNotEqual(cluster.col, state.cursorCell.col, "the count is drawn off the cursor's cell")
        XCTAssertEqual(state.pinUnderCursor?.id, 1)
        XCTAssertEqual(layout.marker(atCol: cluster.slotCol + PinLayout.slotWidth, row: cluster.row), nil)
    }

    func testCountLabels() {
        XCTAssertEqual(PinLayout.countLabel(7), "7")
        XCTAssertEqual(PinLayout.countLabel(999), "999")
        XCTAssertEqual(PinLayout.countLabel(1500), "1k")
        XCTAssertEqual(PinLayout.countLabel(250_000), "99k")
    }
}
