import Terminal
@testable import TouristCore
import Geo
import Model
import XCTest

/// `R` on the map: the rename prompt over the pin under the cursor, its editing, Enter and Esc.
final class RenamePromptTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    @discardableResult
    func press(_ state: inout AppState, _ keys: Key...) -> [AppEffect] {
        keys.flatMap { reducer.reduce(&state, .event(.key($0), time: 0)) }
    }

    func type(_ state: inout AppState, _ text: String) {
        for c in text { _ = reducer.reduce(&state, .event(.key(.char(c)), time: 0)) }
    }

    func prompt(_ state: AppState, file: StaticString = #filePath, line: UInt = #line) -> RenamePrompt? {
        guard case let .rename(prompt)? = state.map?.mode else {
            XCTFail("the rename prompt is not open", file: file, line: line)
            return nil
        }
        return prompt
    }

    func testRTypeEnterRenamesThePinUnderTheCursorAtOnceAndAsksTheStore() throws {
        var state = Sample.mapState()
        press(&state, .char("R"))
        let opened = try XCTUnwrap(prompt(state))
        XCTAssertEqual(opened.pinID, 1)
        XCTAssertEqual(opened.field.text, "Naples")
        XCTAssertTrue(AppView.render(state, raster: nil).text.contains("Rename pin"))
        press(&state, .control("u"))
        type(&state, "Hotel Parker's")
        XCTAssertEqual(prompt(state)?.field.text, "Hotel Parker's")
        let effects = press(&state, .enter)
        XCTAssertEqual(effects, [.renamePin(1, name: "Hotel Parker's")])
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.pin(1)?.displayName, "Hotel Parker's")
        XCTAssertEqual(state.pin(1)?.name, "Naples")
        XCTAssertEqual(state.message?.text, "Renaming \u{201C}Naples\u{201D} to \u{201C}Hotel Parker's\u{201D}\u{2026}",
                       "said renamed only once the store has it")
        reducer.commit(effects, &state)
        XCTAssertEqual(state.message?.text, "Renamed \u{201C}Naples\u{201D} to \u{201C}Hotel Parker's\u{201D}.")
    }

    func testAnEmptyNameOrThePlacesNameGoesBackToThePlace() throws {
        var state = Sample.mapState()
        state.pins[0].ownName = "Hotel"
        press(&state, .char("R"))
        XCTAssertEqual(prompt(state)?.field.text, "Hotel")
        press(&state, .control("u"))
        let effects = press(&state, .enter)
        XCTAssertEqual(effects, [.renamePin(1, name: nil)])
        XCTAssertEqual(state.pin(1)?.displayName, "Naples")
        XCTAssertEqual(state.message?.text, "Giving the pin its place's name, \u{201C}Naples\u{201D}\u{2026}")
        reducer.commit(effects, &state)
        XCTAssertEqual(state.message?.text, "\u{201C}Naples\u{201D} goes by its place's name again.")
        // Typing the place's own name is the same as no name.
        state.pins[0].ownName = "Hotel"
        press(&state, .char("R"), .control("u"))
        type(&state, "Naples")
        XCTAssertEqual(press(&state, .enter), [.renamePin(1, name: nil)])
    }

    func testEscCancelsAndNothingIsSaved() {
        var state = Sample.mapState()
        press(&state, .char("R"))
        type(&state, " more")
        XCTAssertEqual(press(&state, .escape), [])
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.pin(1)?.displayName, "Naples")
    }

    func testRWithNoPinHereSaysSo() {
        var state = Sample.mapState()
        state.pins = []
        press(&state, .char("R"))
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.message?.text, "No pin here to rename.")
    }

    /// 10,000 pasted characters: the first 100 stay and the prompt says why; control characters go.
    func testALongPasteIsCutWithTheReasonAndControlsAreCleaned() throws {
        var state = Sample.mapState()
        press(&state, .char("R"), .control("u"))
        _ = reducer.reduce(&state, .event(.paste(String(repeating: "x", count: 10_000)), time: 0))
        XCTAssertEqual(prompt(state)?.field.text.count, PinName.maxLength)
        XCTAssertEqual(prompt(state)?.error, "At most 100 characters.")
        XCTAssertTrue(AppView.render(state, raster: nil).text.contains("At most 100 characters."))
        press(&state, .control("u"))
        _ = reducer.reduce(&state, .event(.paste("red\u{1B}[31m\tpin\u{7}"), time: 0))
        XCTAssertEqual(prompt(state)?.field.text, "red pin")
        XCTAssertEqual(press(&state, .enter), [.renamePin(1, name: "red pin")])
    }

    func testThePromptGoesWhenItsPinIsDeletedElsewhere() {
        var state = Sample.mapState()
        press(&state, .char("R"))
        _ = reducer.reduce(&state, .pinsLoaded([state.pins[1]]))
        XCTAssertEqual(state.map?.mode, .browsing)
        XCTAssertEqual(state.message?.text, "The pin being renamed was deleted elsewhere.")
    }

    func testTheHintsComeFromTheKeyTable() {
        var state = Sample.mapState()
        press(&state, .char("R"))
        let text = AppView.render(state, raster: nil).text
        XCTAssertTrue(text.contains("Enter saves, Esc cancels; empty: \u{201C}Naples\u{201D} again"), text)
    }
}
