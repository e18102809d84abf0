import ArgumentParser
import Foundation
import Model
import Store
import XCTest
@testable import vtourist

/// `drop`'s filter options as the parser hands them over: checked with the album's own rules, one
/// line naming the field; a word after an option's value is refused, never taken for the place.
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

    /// Every bad input of a filter, one line naming the field.
    func testEveryBadFilterNamesItsField() throws {
        let cases: [(words: [String], says: String)] = [
            (["--text", String(repeating: "a", count: 101)], "text: 101 characters, at most 100"),
            (["--text", "a\u{1B}[2Jb"], "text: control characters are not allowed"),
            (["--text", "   "], "text: only spaces: type some words, or leave it empty"),
            (["--tags", ""], "tags: empty: give tags separated by commas"),
            (["--tags", "a,,b"], "tags: an empty tag (two commas in a row?)"),
            (["--tags", (1...21).map { "t\($0)" }.joined(separator: ",")], "tags: 21 tags, at most 20"),
            (["--taken", "2023..2019"], "taken: from 2023 comes after to 2019: swap them"),
            (["--taken", "2023-02-30"], "taken: date 2023-02-30 is not a day of the calendar"),
            (["--taken", "2027.."], "taken: from 2027 is in the future (today is 2026-11-26)"),
            (["--taken", "1800..1900"], "taken: from 1800 is before 1826, the first photograph"),
            (["--sort", "newest"], "sort: unknown order \u{201C}newest\u{201D}: use interesting, recent, relevant"),
            (["--sort", "relevant"], "sort: relevant orders by the text: give some text, or choose interesting or recent"),
        ]
        for c in cases {
            XCTAssertEqual(try refusal(["Naples"] + c.words), c.says, "\(c.words)")
        }
    }
}
