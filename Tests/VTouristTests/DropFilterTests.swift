import ArgumentParser
import Foundation
import Model
import Store
import XCTest
@testable import vtourist

/// `drop`'s filter options as the parser hands them over: a word after an option's value is refused,
/// never taken for the place. (Each bad filter's line: FilterCommandLineTests, through the binary.)
final class DropFilterTests: XCTestCase {
    let today = CalendarDay(year: 2026, month: 11, day: 26)

    func parse(_ words: [String]) throws -> Drop {
        try XCTUnwrap(try VTourist.parseAsRoot(["drop"] + words) as? Drop)
    }

    func refusal(_ words: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let drop = try parse(words)
        XCTAssertThrowsError(try drop.filter(today: today), "\(words)", file: file, line: line) { error in
            XCTAssertEqual((error as? CommandFailure)?.status, 64, "\(words)", file: file, line: line)
        }
        do { _ = try drop.filter(today: today) } catch { return "\(error)" }
        return ""
    }

    func testTheOptionsMakeTheFilterAndTheWordsBeforeThemThePlace() throws {
        let drop = try parse(["New", "York", "--text", "street food", "--tags", "market, night", "--taken", "2019..2030",
                              "--sort", "Recent", "--wait"])
        XCTAssertEqual(drop.placeWords, ["New", "York"])
        XCTAssertTrue(drop.wait)
        XCTAssertEqual(try drop.filter(today: today), AlbumFilter(
            text: "street food", tags: ["market", "night"],
            taken: TakenRange(from: FilterDate(year: 2019), to: FilterDate(today)), sort: .recent))
        // Negative coordinates after a value are coordinates, and `=` works too.
        let south = try parse(["--sort=relevant", "--text=café", "-33.9", "151.2"])
        XCTAssertEqual(south.placeWords, ["-33.9", "151.2"])
        XCTAssertEqual(try south.filter(today: today), AlbumFilter(text: "café", sort: .relevant))
        XCTAssertEqual(try parse(["40.85", "14.27"]).filter(today: today), .none)
    }

    func testAWordAfterAnOptionsValueIsRefused() throws {
        XCTAssertEqual(try refusal(["Naples", "--text", "street", "food"]),
                       "\u{201C}food\u{201D} follows --text street: quote text of several words (--text \"street food\"); "
                       + "the place words go before the filter options")
        XCTAssertEqual(try refusal(["--sort", "recent", "Naples"]),
                       "\u{201C}Naples\u{201D} follows --sort recent: --sort takes one value; the place words go before the filter options")
        XCTAssertEqual(try refusal(["Naples", "--tags", "a,", "b", "c"]),
                       "\u{201C}b\u{201D} \u{201C}c\u{201D} follow --tags a,: --tags takes one value; the place words go before the filter options")
        XCTAssertTrue(try refusal(["Naples", "--taken", "2019", "--taken", "2020"]).contains("--taken takes one value"))
    }
}
