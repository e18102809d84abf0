import Gazetteer
import Terminal
import TestSupport
@testable import TouristCore
import Geo
import WorldMap
import XCTest

/// The go-to prompt over the real places and the sample destinations: suggestions name the
/// kind, Enter on a destination with an extent shows all of it, a point goes as a place does.
final class GoToDestinationTests: XCTestCase {
    static let gazetteer = Result {
        try Gazetteer.load(from: SampleDestinations.placesURL, destinations: SampleDestinations.url)
    }

    func reducer() throws -> AppReducer { AppReducer(places: .live(try Self.gazetteer.get())) }

    func go(_ reducer: AppReducer, _ state: inout AppState, typing text: String, keys: [Key] = [.enter]) {
        _ = reducer.reduce(&state, .event(.key(.char("g")), time: 0))
        for c in text { _ = reducer.reduce(&state, .event(.key(.char(c)), time: 0)) }
        for key in keys { _ = reducer.reduce(&state, .event(.key(key), time: 0)) }
    }

    func suggestions(_ reducer: AppReducer, typing text: String) -> [String] {
        var state = Sample.mapState()
        go(reducer, &state, typing: text, keys: [])
        guard case let .goTo(prompt)? = state.map?.mode else { return [] }
        return prompt.suggestions.map(\.displayName)
    }

    /// Does the whole box lie on the map area, its corners on cells of the map?
    func fits(_ box: GeoBox, _ state: AppState) -> Bool {
        let vp = state.viewport
        return [GeoPoint(latitude: box.north, longitude: box.west), GeoPoint(latitude: box.south, longitude: box.east)]
            .allSatisfy { p in
                let cell = vp.cell(for: p)
                return cell.col >= 0 && cell.col < vp.width && cell.row >= 0 && cell.row < vp.height
            }
    }

    func testSuggestionsShowTheKindAndPlacesTheirRegion() throws {
        let reducer = try reducer()
        XCTAssertEqual(suggestions(reducer, typing: "Santorini").first, "Santorini \u{2014} island, GR")
        XCTAssertEqual(suggestions(reducer, typing: "Mount Fuji").first, "Mount Fuji \u{2014} mountain, JP")
        XCTAssertEqual(suggestions(reducer, typing: "Himalaya").first, "Himalayas \u{2014} mountain range, NP")
        XCTAssertEqual(suggestions(reducer, typing: "Naples").first, "Naples, Campania, IT")
        // The panel draws them.
        var state = Sample.mapState()
        go(reducer, &state, typing: "Santorini", keys: [])
        let screen = AppView.render(state, raster: nil)
        XCTAssertTrue((0..<screen.height).contains { screen.rowText($0).contains("Santorini \u{2014} island, GR") })
    }

    func testGoingToAnIslandZoomsToFitIt() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        go(reducer, &state, typing: "Santorini")
        let santorini = GeoBox(south: 36.33, west: 25.33, north: 36.48, east: 25.49)
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.message?.text, "Went to Santorini \u{2014} island, GR.")
        XCTAssertTrue(fits(santorini, state), "zoom \(state.camera.zoom)")
        // The largest such zoom: one closer and it no longer fits.
        var closer = state
        closer.camera.zoom += 1
        XCTAssertFalse(fits(santorini, closer))
        XCTAssertEqual(state.camera.zoom, MapCamera.zoomToFit(santorini, width: state.width, height: state.mapHeight))
        XCTAssertEqual(state.camera.cursor.latitude, 36.4, accuracy: 0.01)
        XCTAssertEqual(state.camera.cursor.longitude, 25.43, accuracy: 0.01)
    }

    func testGoingToARegionZoomsOutToFitIt() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        state.camera.zoom = 12
        go(reducer, &state, typing: "Tuscany")
        let tuscany = GeoBox(south: 42.24, west: 9.69, north: 44.47, east: 12.37)
        XCTAssertLessThan(state.camera.zoom, 12)
        XCTAssertTrue(fits(tuscany, state))
        var closer = state
        closer.camera.zoom += 1
        XCTAssertFalse(fits(tuscany, closer))
    }

    func testAnExtentAcrossTheAntimeridianFits() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        go(reducer, &state, typing: "Fiji Islands")
        let fiji = GeoBox(south: -21.0, west: 176.8, north: -12.4, east: -178.2)
        XCTAssertTrue(fits(fiji, state), "zoom \(state.camera.zoom)")
        // Centred on the islands, not on the far side of the world.
        XCTAssertGreaterThan(abs(state.viewport.center.longitude), 175)
        var closer = state
        closer.camera.zoom += 1
        XCTAssertFalse(fits(fiji, closer))
    }

    func testAPointDestinationGoesAsAPlaceDoes() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        state.camera.zoom = 3
        go(reducer, &state, typing: "the Eiffel Tower")
        XCTAssertEqual(state.message?.text, "Went to Eiffel Tower \u{2014} landmark, FR.")
        XCTAssertEqual(state.camera.zoom, GoToReducer.goToZoom)
        XCTAssertEqual(state.camera.cursor.latitude, 48.85826, accuracy: 0.001)
        XCTAssertEqual(state.camera.cursor.longitude, 2.2945, accuracy: 0.001)
    }

    /// The prompt's first suggestion and its Enter rank as `vtourist drop` does: an English or former
    /// name of a big city is the city, a qualifier without a comma qualifies, and 東京 is Tokyo.
    func testFamousCitiesComeFirstAsOnTheCommandLine() throws {
        let reducer = try reducer()
        for (typed, first) in [("Cologne", "K\u{F6}ln, North Rhine-Westphalia, DE"), ("Seville", "Sevilla, Andalusia, ES"),
                               ("Calcutta", "Kolkata, West Bengal, IN"), ("St Petersburg", "Saint Petersburg, St.-Petersburg, RU"),
                               ("Oslo Norway", "Oslo, Oslo, NO"), ("\u{6771}\u{4EAC}", "Tokyo, Tokyo, JP")] {
            XCTAssertEqual(suggestions(reducer, typing: typed).first, first, typed)
            var state = Sample.mapState()
            go(reducer, &state, typing: typed)
            XCTAssertEqual(state.message?.text, "Went to \(first).", typed)
        }
        // Prefixes and typos still complete as before: the user sees what Enter does.
        XCTAssertEqual(suggestions(reducer, typing: "Lond").first, "London, England, GB")
        XCTAssertEqual(suggestions(reducer, typing: "Barcelnoa").first, "Barcelona, Catalonia, ES")
    }

    func testATypoStillGoesThere() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        go(reducer, &state, typing: "Santorni")
        XCTAssertEqual(state.message?.text, "Went to Santorini \u{2014} island, GR.")
    }

    /// The history keeps the suggestion's text, and that text finds the destination again,
    /// a comma in its name or not.
    func testARememberedDestinationGoesThereAgain() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        go(reducer, &state, typing: "Bali")
        XCTAssertEqual(state.goToHistory.first, "Bali \u{2014} island, ID")
        state.camera = Sample.mapState().camera
        go(reducer, &state, typing: "", keys: [.up, .enter])
        XCTAssertEqual(state.message?.text, "Went to Bali \u{2014} island, ID.")
        XCTAssertEqual(state.camera.cursor.latitude, -8.4, accuracy: 0.01)
        go(reducer, &state, typing: "Arles, Roman and")
        XCTAssertEqual(state.goToHistory.first, "Arles, Roman and Romanesque Monuments \u{2014} landmark, FR")
        state.camera = Sample.mapState().camera
        go(reducer, &state, typing: "", keys: [.up, .enter])
        XCTAssertEqual(state.message?.text, "Went to Arles, Roman and Romanesque Monuments \u{2014} landmark, FR.")
        XCTAssertEqual(state.camera.cursor.latitude, 43.6766, accuracy: 0.001)
    }

    /// A damaged destinations file is named in the prompt; places are still suggested.
    func testADamagedDestinationsFileIsSaidInThePrompt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("goto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("destinations.tsv")
        try Data("# destinations\nBali\tisland\tID\t-8.4\t115.1\t\tlots\t\n".utf8).write(to: url)
        let reducer = AppReducer(places: .live(try Gazetteer.load(from: SampleDestinations.placesURL, destinations: url)))
        var state = Sample.mapState()
        go(reducer, &state, typing: "Bali", keys: [])
        guard case let .goTo(prompt)? = state.map?.mode else { return XCTFail("prompt not open") }
        XCTAssertEqual(prompt.error,
                       "Destinations left aside: destinations.tsv line 2: weight \u{201C}lots\u{201D} is not a whole number of at least 0")
        XCTAssertEqual(prompt.suggestions.first?.displayName, "B\u{101}li, West Bengal, IN")
    }

    /// Opening the prompt gets the search ready before the first letter.
    func testOpeningThePromptPreparesTheSearch() {
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var value = 0
            func add() { lock.lock(); value += 1; lock.unlock() }
        }
        let count = Count()
        var lookup = PlaceLookup.none
        lookup.prepare = { count.add() }
        let reducer = AppReducer(places: lookup)
        var state = Sample.mapState()
        XCTAssertEqual(count.value, 0)
        _ = reducer.reduce(&state, .event(.key(.char("g")), time: 0))
        XCTAssertEqual(count.value, 1)
    }
}

extension GoToDestinationTests {
    func testAPinDroppedOnTheDestinationGoneToTakesItsName() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        go(reducer, &state, typing: "Mount Fuji")
        var effects = reducer.reduce(&state, .event(.key(.char("p")), time: 0))
        guard case let .insertPin(_, name)? = effects.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(name, "Mount Fuji")
        XCTAssertEqual(state.message?.text, "Dropping a pin at Mount Fuji\u{2026}")
        reducer.commit(effects, &state)
        XCTAssertEqual(state.message?.text, "Pin dropped at Mount Fuji.")
        // Moved off it, the nearest place names the pin again.
        state = Sample.mapState()
        go(reducer, &state, typing: "Mount Fuji")
        for _ in 0..<6 { _ = reducer.reduce(&state, .event(.key(.right), time: 0)) }
        effects = reducer.reduce(&state, .event(.key(.char("p")), time: 0))
        guard case let .insertPin(_, other)? = effects.first else { return XCTFail("\(effects)") }
        XCTAssertNotEqual(other, "Mount Fuji")
        // A place gone to is named as before, by the nearest place.
        state = Sample.mapState()
        go(reducer, &state, typing: "Naples")
        XCTAssertNil(state.wentToDestination)
    }
}
