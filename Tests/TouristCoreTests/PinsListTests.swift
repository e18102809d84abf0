import Foundation
import Geo
import Model
import Terminal
@testable import TouristCore
import WorldMap
import XCTest

/// The pins list: `P` on the map, the filter as you type, the order, the album and back, `g`, `x`, the
/// mouse, and the rows following the pins as they are reloaded. Each step's state is asserted exactly.
final class PinsListTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)
    static let start = Date(timeIntervalSince1970: 1_790_000_000)  // noon UTC: the same day in every time zone

    /// Five pins dropped a minute apart, Naples first; Oslo has the most photos.
    static func pins() -> [Pin] {
        [Pin(id: 1, coordinate: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples", createdAt: start,
             albumStatus: .ready, photoCount: 12, downloadedCount: 12),
         Pin(id: 2, coordinate: GeoPoint(latitude: 59.91, longitude: 10.75), name: "Oslo", createdAt: start + 60,
             albumStatus: .ready, photoCount: 21, downloadedCount: 20),
         Pin(id: 3, coordinate: GeoPoint(latitude: -23.55, longitude: -46.63), name: "São Paulo", createdAt: start + 120,
             albumStatus: .downloading, photoCount: 4, downloadedCount: 1),
         Pin(id: 4, coordinate: GeoPoint(latitude: 47.37, longitude: 8.54), name: "Zürich", createdAt: start + 180,
             albumStatus: .failed(reason: "HTTP 500"), filter: AlbumFilter(text: "lake", sort: .recent)),
         Pin(id: 5, coordinate: GeoPoint(latitude: 0.5, longitude: -160.25), name: nil, createdAt: start + 240,
             albumStatus: .empty)]
    }

    func mapState(width: Int = 80, height: Int = 24) -> AppState {
        var s = Sample.mapState()
        s.width = width
        s.height = height
        s.pins = PinsListTests.pins()
        return s
    }

    @discardableResult
    func press(_ s: inout AppState, _ keys: Key..., time: Double = 0) -> [AppEffect] {
        keys.flatMap { reducer.reduce(&s, .event(.key($0), time: time)) }
    }

    func type(_ s: inout AppState, _ text: String) {
        for c in text { press(&s, .char(c)) }
    }

    func listState() -> AppState {
        var s = mapState()
        press(&s, .char("P"))
        return s
    }

    func ids(_ s: AppState) -> [Pin.ID] { s.pinsList.map { $0.shown.map(\.id) } ?? [] }

    // MARK: - Opening and closing

    func testPOnTheMapListsEveryPinNewestFirst() throws {
        var s = mapState()
        let effects = press(&s, .char("P"))
        XCTAssertEqual(effects, [])
        let list = try XCTUnwrap(s.pinsList)
        XCTAssertEqual(list, PinsList(pins: PinsListTests.pins(), centre: s.mapCentre))
        XCTAssertEqual(ids(s), [5, 4, 3, 2, 1])
        XCTAssertEqual(list.selectedID, 5)
        XCTAssertEqual(list.sort, .dropped)
        XCTAssertFalse(list.typing)
        press(&s, .escape)
        XCTAssertEqual(s.screen, .map(MapScreen()))
    }

    func testQClosesTheListLikeEsc() {
        var s = listState()
        press(&s, .char("q"))
        XCTAssertEqual(s.screen, .map(MapScreen()))
    }

    // MARK: - The filter

    func testTypingFiltersAsYouGoIgnoringAccentsAndCase() throws {
        var s = listState()
        press(&s, .char("/"))
        XCTAssertEqual(s.pinsList?.typing, true)
        type(&s, "osl")
        XCTAssertEqual(ids(s), [2])
        XCTAssertEqual(s.pinsList?.selectedID, 2)
        press(&s, .backspace, .backspace, .backspace)
        XCTAssertEqual(ids(s), [5, 4, 3, 2, 1])
        type(&s, "SAO")
        XCTAssertEqual(ids(s), [3], "São Paulo found by sao")
        press(&s, .control("u"))
        type(&s, "zur")
        XCTAssertEqual(ids(s), [4], "Zürich found by zur")
        press(&s, .control("u"))
        type(&s, "a")
        XCTAssertEqual(ids(s), [5, 3, 1], "every name holding an a, in order; the unnamed pin by its words")
        XCTAssertEqual(s.pinsList?.selectedID, 5, "the first match is selected as the rows narrow")
    }

    /// While typing, letters are text: `g`, `x`, `q` and `?` type themselves.
    func testLettersAreTextInTheFieldAndCommandsOutside() throws {
        var s = listState()
        press(&s, .char("/"))
        type(&s, "gxq?")
        XCTAssertEqual(s.pinsList?.filter.text, "gxq?")
        XCTAssertNotNil(s.pinsList)
        XCTAssertNil(s.overlay)
        XCTAssertEqual(ids(s), [])
    }

    func testEnterInTheFieldOpensTheFirstMatchsAlbum() throws {
        var s = listState()
        press(&s, .char("/"))
        type(&s, "o")
        XCTAssertEqual(ids(s), [3, 2])
        var before = try XCTUnwrap(s.pinsList)
        let effects = press(&s, .enter)
        XCTAssertEqual(effects, [.openAlbum(3)])
        let album = try XCTUnwrap(s.album)
        XCTAssertEqual(album.pinID, 3)
        before.typing = false  // back from the album, letters are commands again
        XCTAssertEqual(album.returnTo, PluggedScreen(PinsFeature(list: before)))
    }

    func testEscInTheFieldClearsItAndLeavesIt() throws {
        var s = listState()
        press(&s, .char("/"))
        type(&s, "osl")
        press(&s, .escape)
        let list = try XCTUnwrap(s.pinsList, "Esc in the field does not close the list")
        XCTAssertEqual(list.filter.text, "")
        XCTAssertFalse(list.typing)
        XCTAssertEqual(ids(s), [5, 4, 3, 2, 1])
        press(&s, .escape)
        XCTAssertEqual(s.screen, .map(MapScreen()))
    }

    func testUpAndDownMoveTheSelectionWhileTyping() throws {
        var s = listState()
        press(&s, .char("/"))
        type(&s, "a")
        press(&s, .down)
        XCTAssertEqual(s.pinsList?.selectedID, 3)
        XCTAssertEqual(s.pinsList?.filter.text, "a")
        XCTAssertEqual(press(&s, .enter), [.openAlbum(3)])
    }

    func testNoMatchSaysSoAndEnterOpensNothing() throws {
        var s = listState()
        press(&s, .char("/"))
        type(&s, "xyz")
        XCTAssertEqual(ids(s), [])
        let text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.contains("No pin matches \u{201C}xyz\u{201D}."), text)
        XCTAssertEqual(press(&s, .enter), [])
        XCTAssertNotNil(s.pinsList)
        XCTAssertEqual(s.message, StatusMessage("No pin matches \u{201C}xyz\u{201D}."))
    }

    func testNoPinsYetSaysHowToDropOne() throws {
        var s = mapState()
        s.pins = []
        press(&s, .char("P"))
        XCTAssertEqual(s.pinsList?.count, 0)
        let text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.contains("No pins yet: on the map, p drops one at the cursor."), text)
        XCTAssertEqual(press(&s, .char("x")), [])
        XCTAssertEqual(s.message, StatusMessage("No pin to delete."))
    }

    func testAPasteIsTypedIntoTheFieldOnly() throws {
        var s = listState()
        _ = reducer.reduce(&s, .event(.paste("Osl"), time: 0))
        XCTAssertEqual(s.pinsList?.filter.text, "", "no paste while the rows have the keyboard")
        press(&s, .char("/"))
        _ = reducer.reduce(&s, .event(.paste("Osl\u{1B}[31m"), time: 0))
        XCTAssertEqual(s.pinsList?.filter.text, "Osl")
        XCTAssertEqual(ids(s), [2])
    }

    func testAFilterLongerThanTheFieldIsCutAndSaid() throws {
        var s = listState()
        press(&s, .char("/"))
        _ = reducer.reduce(&s, .event(.paste(String(repeating: "o", count: 150)), time: 0))
        XCTAssertEqual(s.pinsList?.filter.text.count, PinsList.maxFilterLength)
        XCTAssertEqual(s.message, StatusMessage("At most \(PinsList.maxFilterLength) characters.", kind: .error))
    }

    // MARK: - The album and back

    /// Esc, Backspace and q from an album opened from the list come back to the list as it was:
    /// its filter, its order, its selection.
    func testTheAlbumGoesBackToTheListWithItsFilterSortAndSelection() throws {
        for back in [Key.escape, .backspace, .char("q")] {
            var s = listState()
            press(&s, .tab)  // by name
            press(&s, .char("/"))
            type(&s, "o")
            press(&s, .down)
            var before = try XCTUnwrap(s.pinsList)
            XCTAssertEqual(before.sort, .name)
            XCTAssertEqual(before.selectedID, 3)
            XCTAssertEqual(before.filter.text, "o")
            XCTAssertEqual(press(&s, .enter), [.openAlbum(3)])
            XCTAssertEqual(s.album?.pinID, 3)
            press(&s, back)
            before.typing = false
            XCTAssertEqual(s.pinsList, before, "\(back)")
        }
    }

    /// The way back survives the photo view and the filter editor: they keep the album underneath.
    func testTheWayBackSurvivesThePhotoView() throws {
        var s = listState()
        press(&s, .down)
        let before = try XCTUnwrap(s.pinsList)
        press(&s, .enter)
        var album = try XCTUnwrap(s.album)
        album.apply(AlbumSnapshot(pinID: 4, photos: [Sample.photo(1)], status: .ready, source: "flickr"))
        s.screen = .album(album)
        press(&s, .enter)
        XCTAssertNotNil(s.photo)
        press(&s, .escape)
        XCTAssertEqual(s.album?.pinID, 4)
        press(&s, .escape)
        XCTAssertEqual(s.pinsList, before)
    }

    func testAnAlbumOpenedFromTheMapStillGoesBackToTheMap() {
        var s = mapState()
        press(&s, .enter)
        XCTAssertEqual(s.album?.pinID, 1)
        XCTAssertNil(s.album?.returnTo)
        press(&s, .escape)
        XCTAssertEqual(s.screen, .map(MapScreen()))
    }

    /// The album's pin deleted elsewhere: back to the list, the selection on its neighbour.
    func testAnAlbumWhosePinIsDeletedElsewhereGoesBackToTheList() throws {
        var s = listState()
        press(&s, .down)  // Zürich
        press(&s, .enter)
        XCTAssertEqual(s.album?.pinID, 4)
        _ = reducer.reduce(&s, .pinsLoaded(PinsListTests.pins().filter { $0.id != 4 }))
        XCTAssertEqual(ids(s), [5, 3, 2, 1])
        XCTAssertEqual(s.pinsList?.selectedID, 3)
        XCTAssertEqual(s.message, StatusMessage("That pin was deleted elsewhere.", kind: .error))
    }

    func testCountsChangedWhileInTheAlbumShowOnReturn() throws {
        var s = listState()
        press(&s, .enter)
        var pins = PinsListTests.pins()
        pins[4].photoCount = 21
        pins[4].downloadedCount = 21
        _ = reducer.reduce(&s, .pinsLoaded(pins))
        press(&s, .escape)
        XCTAssertEqual(s.pinsList?.selectedPin?.photoCount, 21)
    }

    // MARK: - Order

    func testTabCyclesTheOrderAndTheHeaderSaysIt() throws {
        var s = listState()
        // The map's centre is Naples: nearest first is Naples, Zürich, Oslo, the Pacific, São Paulo.
        let orders: [(PinsSort, [Pin.ID])] = [(.name, [1, 2, 5, 3, 4]), (.photos, [2, 1, 3, 4, 5]),
                                              (.distance, [1, 4, 2, 3, 5]), (.dropped, [5, 4, 3, 2, 1])]
        for (sort, expected) in orders {
            press(&s, .tab)
            XCTAssertEqual(s.pinsList?.sort, sort)
            XCTAssertEqual(ids(s), expected, "\(sort)")
            XCTAssertEqual(s.pinsList?.selectedID, 5, "the selection stays on its pin")
            XCTAssertTrue(AppView.render(s, raster: nil).rowText(0).contains(sort.label), "\(sort)")
        }
    }

    // MARK: - Moving

    func testArrowsPagesHomeAndEndMoveTheSelection() throws {
        var s = mapState(width: 80, height: 12)  // 12 rows: 7 rows of pins
        s.pins = (1...30).map { Pin(id: Int64($0), coordinate: GeoPoint(latitude: Double($0), longitude: 0),
                                     name: "Pin \($0)", createdAt: PinsListTests.start + Double($0)) }
        press(&s, .char("P"))
        XCTAssertEqual(PinsView.visibleRows(s.layout), 7)
        press(&s, .down, .down)
        XCTAssertEqual(s.pinsList?.selectedID, 28)
        press(&s, .pageDown)
        XCTAssertEqual(s.pinsList?.selected, 9)
        XCTAssertEqual(s.pinsList?.topRow, 7)
        press(&s, .end)
        XCTAssertEqual(s.pinsList?.selectedID, 1)
        XCTAssertEqual(s.pinsList?.topRow, 23)
        press(&s, .home)
        XCTAssertEqual(s.pinsList?.selectedID, 30)
        XCTAssertEqual(s.pinsList?.topRow, 0)
        press(&s, .up)
        XCTAssertEqual(s.pinsList?.selected, 0, "the top holds")
    }

    func testAResizeKeepsTheSelectionInView() throws {
        var s = mapState(width: 80, height: 40)
        s.pins = (1...30).map { Pin(id: Int64($0), coordinate: GeoPoint(latitude: Double($0), longitude: 0),
                                     name: "Pin \($0)", createdAt: PinsListTests.start + Double($0)) }
        press(&s, .char("P"))
        press(&s, .end)
        XCTAssertEqual(s.pinsList?.topRow, 0)
        _ = reducer.reduce(&s, .event(.resize(width: 60, height: 12), time: 0))
        XCTAssertEqual(s.pinsList?.topRow, 23)
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Pin 1 "))
    }

    // MARK: - The mouse

    func testAClickSelectsADoubleClickOpensTheWheelScrolls() throws {
        var s = listState()
        let body = PinsView.body(s.layout)
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.click, x: 5, y: body.y + 2)), time: 1))
        XCTAssertEqual(s.pinsList?.selectedID, 3)
        let effects = reducer.reduce(&s, .event(.mouse(MouseEvent(.click, x: 9, y: body.y + 2)), time: 1.2))
        XCTAssertEqual(effects, [.openAlbum(3)])
        XCTAssertEqual(s.album?.pinID, 3)
        press(&s, .escape)
        XCTAssertEqual(s.pinsList?.selectedID, 3)
        // Two clicks far apart in time are two single clicks.
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.click, x: 5, y: body.y)), time: 5))
        XCTAssertEqual(reducer.reduce(&s, .event(.mouse(MouseEvent(.click, x: 5, y: body.y)), time: 6)), [])
        XCTAssertEqual(s.pinsList?.selectedID, 5)
        // A click below the last row does nothing.
        let before = s
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.click, x: 5, y: body.y + 9)), time: 9))
        XCTAssertEqual(s, before)
    }

    func testTheWheelScrollsAndTheSelectionFollows() throws {
        var s = mapState(width: 80, height: 12)
        s.pins = (1...30).map { Pin(id: Int64($0), coordinate: GeoPoint(latitude: Double($0), longitude: 0),
                                     name: "Pin \($0)", createdAt: PinsListTests.start + Double($0)) }
        press(&s, .char("P"))
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.wheelDown, x: 5, y: 5)), time: 0))
        XCTAssertEqual(s.pinsList?.topRow, 3)
        XCTAssertEqual(s.pinsList?.selected, 3, "the selection comes along into the rows shown")
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.wheelUp, x: 5, y: 5)), time: 0))
        XCTAssertEqual(s.pinsList?.topRow, 0)
        XCTAssertEqual(s.pinsList?.selected, 3)
    }

    // MARK: - Show on the map

    func testGShowsThePinAloneOnTheMap() throws {
        var s = listState()
        let naples = GeoPoint(latitude: 40.85, longitude: 14.27)
        // A second pin some 300 m away: the two stand apart only close in.
        s.pins.append(Pin(id: 6, coordinate: GeoPoint(latitude: 40.853, longitude: 14.273), name: "Naples port",
                          createdAt: PinsListTests.start))
        _ = reducer.reduce(&s, .pinsLoaded(s.pins))
        press(&s, .end)  // Naples: the oldest
        XCTAssertEqual(s.pinsList?.selectedID, 1)
        press(&s, .char("g"))
        XCTAssertNotNil(s.map)
        let zoom = s.camera.zoom
        XCTAssertEqual(zoom, AppState.aloneZoom(PinsListTests.pins()[0], among: s.pins))
        XCTAssertEqual(s.camera.cursor.latitude, naples.latitude, accuracy: 1e-9)
        XCTAssertEqual(s.camera.cursor.longitude, naples.longitude, accuracy: 1e-9)
        XCTAssertEqual(s.pinUnderCursor?.id, 1)
        XCTAssertEqual(Double(s.cursorCell.col), Double(s.width / 2), accuracy: 1, "centred")
        XCTAssertEqual(s.message, StatusMessage("Naples"))
        // Drawn alone at this zoom; one zoom wider, the other pin is within three columns and two rows.
        let cell = s.cursorCell
        XCTAssertEqual(PinLayout(pins: s.pins, viewport: s.viewport).marker(atCol: cell.col, row: cell.row)?.pins, [1])
        let a = Mercator.project(naples), b = Mercator.project(s.pins[5].coordinate)
        let wider = Viewport.baseWorldDots * Double(1 << (zoom - 1))
        XCTAssertLessThan(abs(a.x - b.x) * wider / Double(Viewport.dotsPerCellX), 3)
        XCTAssertLessThan(abs(a.y - b.y) * wider / Double(Viewport.dotsPerCellY), 2)
    }

    func testGOnALonePinShowsItsCountryAndOnTwinsTheClosestZoom() {
        let naples = PinsListTests.pins()[0]
        XCTAssertEqual(AppState.aloneZoom(naples, among: [naples]), PinsView.showZoomFloor)
        var twin = naples
        twin.id = 9
        XCTAssertEqual(AppState.aloneZoom(naples, among: [naples, twin]), Viewport.maxZoom)
    }

    // MARK: - Deleting

    func testXAsksThenDeletesAndTheSelectionGoesToTheNeighbour() throws {
        var s = listState()
        s.settings.confirmDelete = true
        press(&s, .down)  // Zürich
        XCTAssertEqual(press(&s, .char("x")), [])
        XCTAssertEqual(s.pinsList?.mode, .confirmDelete(4))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Delete \u{201C}Zürich\u{201D}?"))
        XCTAssertEqual(press(&s, .char("n")), [])
        XCTAssertEqual(s.pinsList?.mode, .browsing)
        XCTAssertEqual(s.pins.count, 5)
        press(&s, .delete)
        let effects = press(&s, .char("y"))
        XCTAssertEqual(effects, [.deletePin(4), .album(4, .pinDeleted)])
        XCTAssertEqual(s.pinsList?.mode, .browsing)
        XCTAssertEqual(ids(s), [5, 3, 2, 1])
        XCTAssertEqual(s.pinsList?.selectedID, 3)
        XCTAssertEqual(s.message, StatusMessage("Deleting pin \u{201C}Zürich\u{201D}\u{2026}"), "said deleted once the store has it")
        reducer.commit(effects, &s)
        XCTAssertEqual(s.message, StatusMessage("Deleted pin \u{201C}Zürich\u{201D}."))
    }

    func testWithoutConfirmXDeletesAtOnceAndTheLastRowsNeighbourIsAbove() throws {
        var s = listState()
        s.settings.confirmDelete = false
        press(&s, .end)
        XCTAssertEqual(press(&s, .char("x")), [.deletePin(1), .album(1, .pinDeleted)])
        XCTAssertEqual(s.pinsList?.selectedID, 2)
    }

    // MARK: - Renaming

    func testERenamesTheSelectedPinAndTheRowsFollowTheName() throws {
        var s = listState()
        press(&s, .down)  // Zürich
        XCTAssertEqual(press(&s, .char("e")), [])
        let zurich = try XCTUnwrap(s.pin(4))
        XCTAssertEqual(s.pinsList?.mode, .rename(RenamePrompt(pin: zurich)))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Rename pin"))
        press(&s, .control("u"))
        type(&s, "Lake house")
        let effects = press(&s, .enter)
        XCTAssertEqual(effects, [.renamePin(4, name: "Lake house")])
        XCTAssertEqual(s.pinsList?.mode, .browsing)
        XCTAssertEqual(s.pin(4)?.ownName, "Lake house")
        XCTAssertEqual(s.message, StatusMessage("Renaming \u{201C}Zürich\u{201D} to \u{201C}Lake house\u{201D}\u{2026}"))
        reducer.commit(effects, &s)
        XCTAssertEqual(s.message, StatusMessage("Renamed \u{201C}Zürich\u{201D} to \u{201C}Lake house\u{201D}."))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Lake house (Zürich)"))
        XCTAssertEqual(s.pinsList?.selectedID, 4)
        // Found by its own name and by its place.
        press(&s, .char("/"))
        type(&s, "lake h")
        XCTAssertEqual(ids(s), [4])
        press(&s, .control("u"))
        type(&s, "zur")
        XCTAssertEqual(ids(s), [4])
        // By name, it sorts under its own name.
        press(&s, .escape, .tab)
        XCTAssertEqual(ids(s), [4, 1, 2, 5, 3])
    }

    func testEscCancelsTheRenameAndAnEmptyNameGoesBackToThePlace() throws {
        var s = listState()
        press(&s, .down)
        press(&s, .char("e"), .control("u"))
        type(&s, "Nothing")
        XCTAssertEqual(press(&s, .escape), [])
        XCTAssertEqual(s.pinsList?.mode, .browsing)
        XCTAssertNil(s.pin(4)?.ownName)
        XCTAssertNotNil(s.pinsList, "Esc leaves the prompt, not the list")
        s.pins[3].ownName = "Lake house"
        press(&s, .char("e"), .control("u"), .enter)
        XCTAssertNil(s.pin(4)?.ownName)
        XCTAssertEqual(s.pin(4)?.displayName, "Zürich")
    }

    func testAPasteGoesIntoTheRenamePromptAndAControlCharacterIsRefused() throws {
        var s = listState()
        press(&s, .char("e"), .control("u"))
        _ = reducer.reduce(&s, .event(.paste("Atoll"), time: 0))
        guard case let .rename(prompt)? = s.pinsList?.mode else { return XCTFail("no prompt") }
        XCTAssertEqual(prompt.field.text, "Atoll")
        XCTAssertEqual(s.pinsList?.filter.text, "", "the filter is not typed into")
        XCTAssertEqual(press(&s, .enter), [.renamePin(5, name: "Atoll")])
    }

    func testThePinBeingRenamedDeletedElsewhereEndsThePrompt() throws {
        var s = listState()
        press(&s, .char("e"))
        _ = reducer.reduce(&s, .pinsLoaded(PinsListTests.pins().filter { $0.id != 5 }))
        XCTAssertEqual(s.pinsList?.mode, .browsing)
        XCTAssertEqual(s.message, StatusMessage("The pin being renamed was deleted elsewhere.", kind: .error))
        XCTAssertEqual(s.pinsList?.selectedID, 4)
    }

    // MARK: - Keeping up with other windows

    func testAPinDroppedElsewhereAppearsAndADeletedSelectedPinGivesWayToItsNeighbour() throws {
        var s = listState()
        press(&s, .down, .down)  // São Paulo
        var pins = PinsListTests.pins()
        pins.append(Pin(id: 7, coordinate: GeoPoint(latitude: 64.15, longitude: -21.94), name: "Reykjavík",
                        createdAt: PinsListTests.start + 300))
        _ = reducer.reduce(&s, .pinsLoaded(pins))
        XCTAssertEqual(ids(s), [7, 5, 4, 3, 2, 1])
        XCTAssertEqual(s.pinsList?.selectedID, 3, "the selection stays on its pin")
        _ = reducer.reduce(&s, .pinsLoaded(pins.filter { $0.id != 3 }))
        XCTAssertEqual(ids(s), [7, 5, 4, 2, 1])
        XCTAssertEqual(s.pinsList?.selectedID, 2, "the row below takes the deleted pin's place")
        // A question about a pin deleted elsewhere is dropped.
        s.settings.confirmDelete = true
        press(&s, .char("x"))
        XCTAssertEqual(s.pinsList?.mode, .confirmDelete(2))
        _ = reducer.reduce(&s, .pinsLoaded(pins.filter { $0.id != 3 && $0.id != 2 }))
        XCTAssertEqual(s.pinsList?.mode, .browsing)
        XCTAssertEqual(s.pinsList?.selectedID, 1)
    }

    /// A pin saved while the list is shown (no hook refreshes it) is drawn all the same.
    func testTheViewDrawsThePinsAsTheyAreNow() throws {
        var s = listState()
        _ = reducer.reduce(&s, .pinSaved(Pin(id: 8, coordinate: GeoPoint(latitude: 1, longitude: 1), name: "Fresh",
                                             createdAt: PinsListTests.start + 900)))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Fresh"))
    }

    // MARK: - Layout

    func testColumnsDropOutAsTheWidthShrinks() {
        func shown(_ width: Int) -> [PinsView.Column] { PinsView.columns(width: width).map(\.column) }
        XCTAssertEqual(shown(120), [.name, .coordinates, .state, .photos, .dropped, .filter])
        XCTAssertEqual(shown(100), [.name, .coordinates, .state, .photos, .dropped])
        XCTAssertEqual(shown(80), [.name, .coordinates, .state, .photos])
        XCTAssertEqual(shown(60), [.name, .state, .photos])
        XCTAssertEqual(shown(40), [.name, .photos])
        for width in 40...200 {
            let columns = PinsView.columns(width: width)
            XCTAssertLessThanOrEqual((columns.last.map { $0.x + $0.width }) ?? 0, width, "\(width)")
        }
    }

    func testTheListInATerminalWithoutUTF8IsAllASCII() throws {
        var s = listState()
        s.capabilities = TerminalCapabilities(unicode: false, colors: .none)
        let buffer = AppView.render(s, raster: nil)
        XCTAssertTrue(buffer.cells.allSatisfy { $0.symbol.isASCII }, buffer.text)
        XCTAssertTrue(buffer.rowText(0).contains("5 pins - newest first"), buffer.rowText(0))
        XCTAssertTrue(buffer.text.contains("Zurich"), buffer.text)
    }

    /// Every mode at the smallest size and a few others: drawn whole, the selected row on screen.
    func testEveryModeDrawsAtEverySize() throws {
        for (width, height) in [(40, 12), (41, 13), (60, 16), (80, 24), (200, 60)] {
            var s = mapState(width: width, height: height)
            s.settings.confirmDelete = true
            press(&s, .char("P"), .end)
            var states = [s]
            var typing = s
            press(&typing, .char("/"))
            type(&typing, "a")
            states.append(typing)
            var asking = s
            press(&asking, .char("x"))
            states.append(asking)
            var renaming = s
            press(&renaming, .char("e"))
            states.append(renaming)
            for state in states {
                let buffer = AppView.render(state, raster: nil)
                XCTAssertTrue(buffer.rowText(0).hasPrefix(" Pins"), "\(width)x\(height)")
                let list = try XCTUnwrap(state.pinsList)
                let row = list.selected - list.topRow
                XCTAssertTrue((0..<PinsView.visibleRows(state.layout)).contains(row), "\(width)x\(height)")
            }
        }
    }

    func testTheListAt80x24() throws {
        var s = listState()
        press(&s, .down)
        try assertGolden(AppView.render(s, raster: nil), "pins-list-80x24")
    }

    func testTheListAt120x16WithTheFilterTyped() throws {
        var s = mapState(width: 120, height: 16)
        press(&s, .char("P"), .char("/"))
        type(&s, "a")
        let buffer = AppView.render(s, raster: nil)
        try assertGolden(buffer, "pins-list-120x16-filter")
        let theme = Theme.forDepth(.indexed256)
        let body = PinsView.body(s.layout)
        XCTAssertEqual(buffer[2, body.y].style, theme.selection, "the first match is selected")
        XCTAssertEqual(buffer[2, body.y + 1].style, theme.dialog)
    }
}
