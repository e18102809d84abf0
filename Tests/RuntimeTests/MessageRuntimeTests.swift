import Foundation
import Terminal
import Geo
import Model
import TouristCore
import XCTest

/// The message line's timeout, on the loop's clock.
extension RuntimeTests {
    func testANoteGoesAfterItsLifetime() throws {
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        var mark = terminal.frameCount
        terminal.press(.char("-"), .char("-"), .char("-"), .char("-"), .char("-"), .char("-"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "The whole world is in view."))
        terminal.waitUntilEventsAreTaken()
        // Not yet: a moment before its lifetime.
        clock.advance(by: StatusMessage.lifetime - 1)
        terminal.nudge()
        // Its lifetime is up: it goes with no key pressed.
        mark = terminal.frameCount
        clock.advance(by: 1)
        terminal.nudge()
        let cleared = try XCTUnwrap(terminal.frame(after: mark) { !$0.text.contains("The whole world is in view.") })
        XCTAssertTrue(cleared.text.contains("0 pins"), cleared.text)
    }
}

extension RuntimeTests {
    func testAFirstStartSaysHowToBeginAndOpensWhereCountriesAreNamed() throws {
        try start()
        let first = try XCTUnwrap(terminal.frame(showing: "0 pins"))
        let hint = "g: go to a place \u{00B7} p: drop a pin \u{00B7} ? help"
        XCTAssertTrue(first.text.contains(hint), first.text)
        XCTAssertEqual(MapKeys.firstStartHint(), hint)
        // 100 columns show the whole world at z1; a first start opens one closer.
        XCTAssertTrue(first.rowText(first.height - 1).contains(" z2 "), first.rowText(first.height - 1))
        // The hint stays until a key acts (it is not a note that times out).
        clock.advance(by: StatusMessage.lifetime * 2)
        terminal.nudge()
        let mark = terminal.frameCount
        terminal.press(.right)
        let moved = try XCTUnwrap(terminal.frame(after: mark) { !$0.text.contains(hint) })
        XCTAssertTrue(moved.text.contains("0 pins"))
    }

    func testAStoredViewWinsAndPinsMeanNoHint() throws {
        let home = GeoPoint(latitude: 41.9, longitude: 12.5)
        _ = try store.insertPin(at: home, name: "Rome")
        try start(view: MapViewState(center: home, zoom: 8, cursor: home))
        let first = try XCTUnwrap(terminal.frame(showing: "1 pin "))
        XCTAssertFalse(first.text.contains("go to a place"), first.text)
        XCTAssertTrue(first.rowText(first.height - 1).contains(" z8 "), first.rowText(first.height - 1))
    }
}

extension RuntimeTests {
    func testPThenEnterInOneBurstOpensTheNewPinsAlbum() throws {
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        let mark = terminal.frameCount
        // Both keys reach the loop before the store has saved the pin.
        terminal.send(.key(.char("p")), .key(.enter))
        let album = try XCTUnwrap(terminal.frame(after: mark) { $0.text.contains("No pin here") || $0.text.contains("New Collection") })
        XCTAssertFalse(album.text.contains("No pin here"), album.text)
        XCTAssertTrue(album.text.contains("New Collection"), "the album screen: \(album.text)")
        XCTAssertEqual(try store.pins().count, 1)
    }

    func testPTwiceInOneBurstDropsOnePin() throws {
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        let mark = terminal.frameCount
        terminal.send(.key(.char("p")), .key(.char(" ")))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "A pin is already here: Enter opens its album."))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "1 pin "))
        XCTAssertEqual(try store.pins().count, 1)
    }
}
