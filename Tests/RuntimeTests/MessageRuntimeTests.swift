import Foundation
import Terminal
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
