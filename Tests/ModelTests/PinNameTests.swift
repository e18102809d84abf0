import Model
import XCTest

/// The one rule for a pin's own name.
final class PinNameTests: XCTestCase {
    func testANameIsTrimmedAndEmptyMeansNone() throws {
        XCTAssertEqual(try PinName.checked("  Hotel Bellevue "), "Hotel Bellevue")
        XCTAssertNil(try PinName.checked(""))
        XCTAssertNil(try PinName.checked("    "))
        // A name written in any script stays as written.
        XCTAssertEqual(try PinName.checked("京都の宿"), "京都の宿")
    }

    func testAHundredCharactersAreTakenAndMoreAreRefusedWithTheCount() throws {
        let hundred = String(repeating: "é", count: 100)
        XCTAssertEqual(try PinName.checked(hundred), hundred)
        XCTAssertThrowsError(try PinName.checked(hundred + "x")) { error in
            XCTAssertEqual(error as? PinNameProblem, .tooLong(101))
            XCTAssertEqual("\(error)", "a pin's name has at most 100 characters (this one has 101)")
        }
        XCTAssertThrowsError(try PinName.checked(String(repeating: "a", count: 10_000))) { error in
            XCTAssertEqual(error as? PinNameProblem, .tooLong(10_000))
        }
        // Characters as the user sees them: a flag of two scalars counts once.
        XCTAssertNoThrow(try PinName.checked(String(repeating: "🇳🇴", count: 100)))
    }

    func testControlCharactersAreRefused() {
        for text in ["a\u{1B}[31mred", "tab\there", "line\nbreak", "bell\u{07}", "del\u{7F}", "c1\u{9B}x",
                     "over\u{202E}ride", "nul\u{0}"] {
            XCTAssertThrowsError(try PinName.checked(text), text.debugDescription) { error in
                XCTAssertEqual(error as? PinNameProblem, .controlCharacters)
                XCTAssertEqual("\(error)", "a pin's name cannot hold control characters")
            }
        }
    }

    func testTheNearestPlacesOwnNameIsNoNameOfItsOwn() throws {
        XCTAssertNil(try PinName.own("Oslo", nearestPlace: "Oslo"))
        XCTAssertNil(try PinName.own(" Oslo ", nearestPlace: "Oslo"))
        XCTAssertEqual(try PinName.own("Oslo harbour", nearestPlace: "Oslo"), "Oslo harbour")
        XCTAssertEqual(try PinName.own("Oslo", nearestPlace: nil), "Oslo")
        XCTAssertNil(try PinName.own("", nearestPlace: "Oslo"))
    }

    func testThePinIsShownByItsOwnNameElseItsPlaceElseWhereItIs() {
        var pin = Pin(id: 1, coordinate: .init(latitude: 59.91, longitude: 10.75), name: "Oslo")
        XCTAssertEqual(pin.displayName, "Oslo")
        XCTAssertEqual(pin.shownName, "Oslo")
        pin.ownName = "Our flat"
        XCTAssertEqual(pin.displayName, "Our flat")
        XCTAssertEqual(pin.shownName, "Our flat")
        pin.ownName = nil
        pin.name = nil
        XCTAssertNil(pin.shownName)
        XCTAssertTrue(pin.displayName.hasPrefix("Pin at "), pin.displayName)
    }
}
