import Gazetteer
import Terminal
@testable import TouristCore
import Geo
import XCTest

/// The go-to prompt over the bundled gazetteer: the highlighted suggestion is where Enter goes,
/// editing and pasting in the field, the history.
final class GoToPromptTests: XCTestCase {
    // Loaded once: the file is mapped, so sharing it between tests is free.
    static let gazetteer = Result { try Gazetteer.bundled() }

    func reducer() throws -> AppReducer { AppReducer(places: .live(try Self.gazetteer.get())) }

    func openPrompt(_ reducer: AppReducer, _ state: inout AppState) {
        _ = reducer.reduce(&state, .event(.key(.char("g")), time: 0))
    }

    func press(_ reducer: AppReducer, _ state: inout AppState, _ keys: Key...) {
        for key in keys { _ = reducer.reduce(&state, .event(.key(key), time: 0)) }
    }

    func type(_ reducer: AppReducer, _ state: inout AppState, _ text: String) {
        for c in text { _ = reducer.reduce(&state, .event(.key(.char(c)), time: 0)) }
    }

    func prompt(_ state: AppState, file: StaticString = #filePath, line: UInt = #line) -> GoToPrompt? {
        guard case let .goTo(prompt)? = state.map?.mode else {
            XCTFail("the prompt is not open", file: file, line: line)
            return nil
        }
        return prompt
    }

    /// The rows of the prompt's panel drawn in the selection style: the highlighted suggestion.
    func highlightedRows(_ state: AppState) -> [String] {
        let buffer = AppView.render(state, raster: nil)
        let selection = Theme.forDepth(state.capabilities.colors).selection
        return (0..<buffer.height).filter { y in
            (0..<buffer.width).contains { x in buffer[x, y].style == selection && buffer[x, y].symbol != " " }
        }.map { buffer.rowText($0) }
    }

    /// The list's first line is the best match, highlighted, and Enter goes there: "Bath" showed
    /// Bathinda first, unhighlighted, while Enter went to Bath; "Porto" showed Porto Alegre.
    func testTheHighlightStartsOnTheBestMatchAndEnterGoesThere() throws {
        let reducer = try reducer()
        for (typed, expected, latitude) in [("Bath", "Bath, England, GB", 51.3794), ("Porto", "Porto, Porto, PT", 41.1496),
                                            ("Venice", "Venice, Veneto, IT", 45.4386)] {
            var state = Sample.mapState()
            openPrompt(reducer, &state)
            type(reducer, &state, typed)
            let shown = try XCTUnwrap(prompt(state))
            XCTAssertEqual(shown.suggestions.first?.displayName, expected, typed)
            XCTAssertEqual(shown.highlighted, shown.suggestions.first, typed)
            let rows = highlightedRows(state)
            XCTAssertEqual(rows.count, 1, "\(typed): \(rows)")
            XCTAssertTrue(rows.first?.contains(expected) ?? false, "\(typed): \(rows)")
            press(reducer, &state, .enter)
            XCTAssertEqual(state.map?.mode, .browsing, typed)
            XCTAssertEqual(state.message?.text, "Went to \(expected).", typed)
            XCTAssertEqual(state.camera.cursor.latitude, latitude, accuracy: 0.01, typed)
        }
    }

    func testArrowsPickAnotherSuggestionAndEnterGoesToIt() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        openPrompt(reducer, &state)
        type(reducer, &state, "Bath")
        let suggestions = try XCTUnwrap(prompt(state)).suggestions
        XCTAssertEqual(suggestions.count, GoToReducer.suggestionCount)
        press(reducer, &state, .down, .down)
        XCTAssertEqual(prompt(state)?.highlighted, suggestions[2])
        XCTAssertTrue(highlightedRows(state).first?.contains(suggestions[2].displayName) ?? false)
        press(reducer, &state, .up)
        XCTAssertEqual(prompt(state)?.highlighted, suggestions[1])
        press(reducer, &state, .up, .up)
        XCTAssertEqual(prompt(state)?.highlighted, suggestions.last, "↑ on the first goes round to the last")
        press(reducer, &state, .down)
        XCTAssertEqual(prompt(state)?.highlighted, suggestions.first, "and ↓ on the last to the first")
        press(reducer, &state, .down)
        press(reducer, &state, .enter)
        XCTAssertEqual(state.message?.text, "Went to \(suggestions[1].displayName).")
        XCTAssertEqual(state.camera.cursor.latitude, suggestions[1].coordinate.latitude, accuracy: 1e-6)
    }

    func testTabCompletesTheHighlightedNameAndKeepsItHighlighted() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        openPrompt(reducer, &state)
        type(reducer, &state, "Bathi")
        XCTAssertEqual(prompt(state)?.highlighted?.name, "Bathinda")
        press(reducer, &state, .tab)
        XCTAssertEqual(prompt(state)?.text, "Bathinda")
        XCTAssertEqual(prompt(state)?.field.cursor, 8)
        // A second place of the same name stays the one highlighted.
        press(reducer, &state, .control("u"))
        type(reducer, &state, "bath")
        press(reducer, &state, .down)
        let maine = try XCTUnwrap(prompt(state)?.highlighted)
        XCTAssertEqual(maine.displayName, "Bath, Maine, US")
        press(reducer, &state, .tab)
        XCTAssertEqual(prompt(state)?.text, "Bath")
        XCTAssertEqual(prompt(state)?.highlighted, maine)
    }

    func testTheFieldEditsAtItsCursor() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        openPrompt(reducer, &state)
        type(reducer, &state, "Pars")
        press(reducer, &state, .left)
        type(reducer, &state, "i")
        XCTAssertEqual(prompt(state)?.text, "Paris")
        XCTAssertEqual(prompt(state)?.highlighted?.displayName, "Paris, Ile-de-France, FR")
        press(reducer, &state, .control("a"), .delete)
        XCTAssertEqual(prompt(state)?.text, "aris")
        press(reducer, &state, .end)
        type(reducer, &state, ", texas")
        // One letter short of Paris: the typo still finds it.
        XCTAssertEqual(prompt(state)?.highlighted?.displayName, "Paris, Texas, US")
        press(reducer, &state, .control("w"), .home, .char("P"))
        XCTAssertEqual(prompt(state)?.text, "Paris, ")
        XCTAssertEqual(prompt(state)?.highlighted?.displayName, "Paris, Ile-de-France, FR")
        press(reducer, &state, .control("k"))
        XCTAssertEqual(prompt(state)?.text, "P")
        press(reducer, &state, .backspace)
        XCTAssertEqual(prompt(state)?.suggestions, [])
        type(reducer, &state, "Rome")
        press(reducer, &state, .control("u"))
        XCTAssertEqual(prompt(state)?.text, "")
    }

    func testAPasteGoesInAtTheCursorAsOneEdit() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        openPrompt(reducer, &state)
        type(reducer, &state, "New City")
        for _ in 0..<4 { press(reducer, &state, .left) }
        _ = reducer.reduce(&state, .event(.paste("York\u{1B}[31m \n"), time: 0))
        XCTAssertEqual(prompt(state)?.text, "New York  City")
        XCTAssertEqual(prompt(state)?.field.cursor, 10)
        XCTAssertEqual(prompt(state)?.highlighted?.displayName, "New York City, New York, US")
        // Past the limit: what fits goes in, and the prompt says why the rest did not.
        _ = reducer.reduce(&state, .event(.paste(String(repeating: "x", count: 500)), time: 0))
        XCTAssertEqual(prompt(state)?.text.count, GoToPrompt.maxLength)
        XCTAssertEqual(prompt(state)?.error, "At most \(GoToPrompt.maxLength) characters.")
        XCTAssertTrue(AppView.render(state, raster: nil).text.contains("At most 80 characters."))
    }

    func testHistoryRecallsEarlierPlacesMostRecentFirst() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        for text in ["Bath", "41.15, -8.61", "napoli", "Bath"] {
            openPrompt(reducer, &state)
            type(reducer, &state, text)
            press(reducer, &state, .enter)
        }
        // The place as found (its full name finds it again), coordinates as typed; no repeats.
        XCTAssertEqual(state.goToHistory, ["Bath, England, GB", "Naples, Campania, IT", "41.15, -8.61"])
        openPrompt(reducer, &state)
        press(reducer, &state, .up)
        XCTAssertEqual(prompt(state)?.text, "Bath, England, GB")
        XCTAssertEqual(prompt(state)?.highlighted?.displayName, "Bath, England, GB")
        press(reducer, &state, .up)
        XCTAssertEqual(prompt(state)?.text, "Naples, Campania, IT")
        press(reducer, &state, .up, .up)
        XCTAssertEqual(prompt(state)?.text, "41.15, -8.61", "the oldest stays")
        press(reducer, &state, .down)
        XCTAssertEqual(prompt(state)?.text, "Naples, Campania, IT")
        press(reducer, &state, .down, .down)
        XCTAssertEqual(prompt(state)?.text, "", "↓ past the most recent: the empty line again")
        XCTAssertNil(prompt(state)?.historyIndex)
        // Once the recalled text is edited, ↑/↓ pick suggestions again.
        press(reducer, &state, .up, .up, .backspace)
        XCTAssertEqual(prompt(state)?.text, "Naples, Campania, I")
        let suggestions = try XCTUnwrap(prompt(state)).suggestions
        press(reducer, &state, .up)
        XCTAssertEqual(prompt(state)?.text, "Naples, Campania, I")
        XCTAssertEqual(prompt(state)?.highlighted, suggestions.last)
        // Enter on a recalled entry goes there.
        press(reducer, &state, .escape)
        openPrompt(reducer, &state)
        press(reducer, &state, .up, .up, .up, .enter)
        XCTAssertEqual(state.camera.cursor.latitude, 41.15, accuracy: 1e-6)
        XCTAssertEqual(state.goToHistory.first, "41.15, -8.61")
    }

    func testAnEmptyHistoryAndAnEmptyLineLeaveThePromptAsItIs() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        openPrompt(reducer, &state)
        let before = state
        press(reducer, &state, .up, .down, .left, .right, .backspace, .delete, .control("w"), .control("k"))
        XCTAssertEqual(state, before)
        press(reducer, &state, .enter)
        XCTAssertEqual(prompt(state)?.error, "Type a place name or LAT, LON.")
    }

    func testPastesOutsideATextFieldDoNothing() throws {
        let reducer = try reducer()
        var state = Sample.mapState()
        for base in [state, Sample.albumState(), Sample.photoState()] {
            var s = base
            XCTAssertEqual(reducer.reduce(&s, .event(.paste("gx"), time: 0)), [])
            XCTAssertEqual(s, base)
        }
        openPrompt(reducer, &state)
        state.overlay = .help
        let underHelp = state
        XCTAssertEqual(reducer.reduce(&state, .event(.paste("Rome"), time: 0)), [])
        XCTAssertEqual(state, underHelp, "help covers the prompt: the paste does not reach it")
    }
}
