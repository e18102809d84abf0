import Terminal
import TestSupport
@testable import TouristCore
import Geo
import Model
import XCTest

/// The message line: what it says, how long, and on which screen.
final class MessageLineTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    func mapState() -> AppState {
        var s = Sample.mapState()
        s.message = StatusMessage("Pin dropped at Naples.")
        return s
    }

    func testAnUnboundKeySaysNothingAndDoesNothing() {
        for key in [Key.function(5), .char("Z"), .control("t"), .pageDown] {
            var s = mapState()
            let before = s
            XCTAssertEqual(reducer.reduce(&s, .event(.key(key), time: 0)), [], "\(key)")
            XCTAssertEqual(s, before, "\(key): nothing changes, the message stays")
        }
        // A key that acts clears it.
        var s = mapState()
        _ = reducer.reduce(&s, .event(.key(.right), time: 0))
        XCTAssertNil(s.message)
    }

    func testAMessageDoesNotFollowTheUserToAnotherScreen() {
        var s = mapState()
        // An answer arrives while the map is shown, then the user opens the settings.
        _ = reducer.reduce(&s, .message(StatusMessage("Saved to /tmp/x.jpg")))
        s.screen = .settings(SettingsScreen())
        var screens = s
        screens.screen = .map(MapScreen())
        // The screen changes by an action that says nothing itself: the old message goes.
        _ = reducer.reduce(&screens, .pinsLoaded(screens.pins))
        XCTAssertNotNil(screens.message, "same screen: kept")
        var album = Sample.albumState()
        album.message = StatusMessage("Deleted 2 photos.")
        _ = reducer.reduce(&album, .pinsLoaded([]))  // the pin is gone: back to the map
        XCTAssertEqual(album.message, StatusMessage("That pin was deleted elsewhere.", kind: .error),
                       "the new screen's own message is kept, the old one is not")
        var settings = s
        _ = reducer.reduce(&settings, .event(.key(.escape), time: 0))
        XCTAssertNotNil(settings.map)
        XCTAssertNil(settings.message)
    }

    func testANoteExpiresButOnlyItself() {
        var s = mapState()
        let note = s.message!
        XCTAssertTrue(note.expires)
        XCTAssertFalse(StatusMessage("Could not save", kind: .error).expires, "errors wait for a key")
        _ = reducer.reduce(&s, .messageExpired(StatusMessage("an older one")))
        XCTAssertEqual(s.message, note, "a newer message is not cleared by an older one's timeout")
        _ = reducer.reduce(&s, .messageExpired(note))
        XCTAssertNil(s.message)
    }

    func testALongMessageWrapsOntoTheRowsAboveAndIsCutOnlyPastThem() {
        var s = Sample.mapState()
        s.message = StatusMessage("Could not save: " + String(repeating: "disk full ", count: 20), kind: .error)
        var screen = AppView.render(s, raster: nil)
        // 216 characters at 80 columns: three rows, counted up from the status line, the reason's end on the last.
        let rows = (20...22).map { screen.rowText($0) }
        XCTAssertTrue(rows[0].hasPrefix(" Could not save: disk full"), rows[0])
        XCTAssertTrue(rows[2].trimmingCharacters(in: .whitespaces).hasSuffix("disk full"), rows[2])
        XCTAssertFalse(screen.rowText(19).contains("disk full"), "no more rows than it needs")
        s.message = StatusMessage("Could not save: " + String(repeating: "disk full ", count: 40), kind: .error)
        screen = AppView.render(s, raster: nil)
        let line = screen.rowText(22)
        XCTAssertTrue(line.hasSuffix("\u{2026}"), line)
        XCTAssertEqual(line.count, s.width)
        XCTAssertFalse(screen.rowText(19).contains("disk full"), "at most \(MessageLine.maxRows) rows")
        XCTAssertTrue(screen.rowText(23).contains("? help"), "the status line stays")
        // A short one takes the one row.
        s.message = StatusMessage("Pin dropped at Naples.")
        screen = AppView.render(s, raster: nil)
        XCTAssertEqual(screen.rowText(22).trimmingCharacters(in: .whitespaces), "Pin dropped at Naples.")
        XCTAssertFalse(screen.rowText(21).contains("Naples."))
        // The same cut wherever a widget fits text: one function.
        var buffer = CellBuffer(width: 10, height: 1)
        XCTAssertEqual(buffer.put(fitting: "Naples, Campania", x: 2, y: 0, width: 20), 8, "the buffer's edge counts")
        XCTAssertEqual(buffer.rowText(0), "  Naples,\u{2026}")
        var framed = CellBuffer(width: 12, height: 3)
        framed.drawFrame(x: 0, y: 0, width: 12, height: 3, title: "A long title")
        XCTAssertTrue(framed.rowText(0).contains("A long \u{2026}"), framed.rowText(0))
    }

    func testDeletingAPinSaysWhichWent() {
        var s = Sample.mapState()
        s.settings.confirmDelete = false
        let effects = reducer.reduce(&s, .event(.key(.char("x")), time: 0))
        XCTAssertEqual(effects.first, .deletePin(1))
        XCTAssertEqual(s.message?.text, "Deleting pin \u{201C}Naples\u{201D}\u{2026}", "said deleted only once the store has it")
        reducer.commit(effects, &s)
        XCTAssertEqual(s.message?.text, "Deleted pin \u{201C}Naples\u{201D}.")
        // Through the dialog, an unnamed pin.
        var d = Sample.mapState()
        d.pins[0].name = nil
        let shown = d.pins[0].displayName
        _ = reducer.reduce(&d, .event(.key(.char("x")), time: 0))
        reducer.commit(reducer.reduce(&d, .event(.key(.char("y")), time: 0)), &d)
        XCTAssertEqual(d.message?.text, "Deleted pin \u{201C}\(shown)\u{201D}.")
    }
}
