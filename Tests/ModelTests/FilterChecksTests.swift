import Foundation
import Model
import XCTest

/// The filter's checks and formats: every bad input the editor and `drop` can be given, named by field.
final class FilterChecksTests: XCTestCase {
    let today = CalendarDay(year: 2026, month: 11, day: 26)

    func make(text: String? = nil, tags: String? = nil, taken: String? = nil, sort: String? = nil) throws -> AlbumFilter {
        try AlbumFilter.make(text: text, tags: tags, taken: taken, sort: sort, today: today)
    }

    func problem(text: String? = nil, tags: String? = nil, taken: String? = nil, sort: String? = nil,
                 file: StaticString = #filePath, line: UInt = #line) -> FilterProblem? {
        do {
            let filter = try make(text: text, tags: tags, taken: taken, sort: sort)
            XCTFail("accepted \(filter)", file: file, line: line)
            return nil
        } catch let problem as FilterProblem {
            XCTAssertFalse(problem.description.contains("\n"), "one line: \(problem)", file: file, line: line)
            XCTAssertTrue(problem.description.hasPrefix(problem.field.rawValue + ": "), "names the field: \(problem)",
                          file: file, line: line)
            return problem
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func testNothingGivenIsThePlainAlbum() throws {
        XCTAssertEqual(try make(), .none)
        XCTAssertEqual(try make(text: "", tags: nil, taken: "", sort: ""), .none)
        XCTAssertTrue(AlbumFilter.none.isEmpty)
        XCTAssertEqual(AlbumFilter.none.summary, "")
    }

    func testAGoodFilterIsTrimmedAndNamedInTheHeader() throws {
        let filter = try make(text: "  street food ", tags: "market, Naples ,market", taken: "2019..2023", sort: "recent")
        XCTAssertEqual(filter.text, "street food")
        XCTAssertEqual(filter.tags, ["market", "Naples"])
        XCTAssertEqual(filter.taken.description, "2019..2023")
        XCTAssertEqual(filter.sort, .recent)
        XCTAssertEqual(filter.summary, "street food \u{00B7} #market #Naples \u{00B7} 2019\u{2013}2023 \u{00B7} recent")
        XCTAssertEqual(try make(text: "food").noMatchMessage, "No photos match \u{201C}food\u{201D} here")
    }

    func testTextOverAHundredCharactersControlsOrOnlySpacesAreRefused() {
        XCTAssertEqual(problem(text: String(repeating: "a", count: 101))?.field, .text)
        XCTAssertNoThrow(try make(text: String(repeating: "a", count: 100)))
        XCTAssertEqual(problem(text: "food\u{1B}[31m")?.field, .text)
        XCTAssertEqual(problem(text: "a\tb")?.field, .text)
        let spaces = problem(text: "   ")
        XCTAssertEqual(spaces?.field, .text)
        XCTAssertEqual(spaces?.description.hasPrefix("text: "), true)
    }

    func testEmptyTagsOrOverTwentyAreRefused() {
        XCTAssertEqual(problem(tags: "")?.field, .tags)
        XCTAssertEqual(problem(tags: " , ")?.field, .tags)
        XCTAssertEqual(problem(tags: "a,,b")?.field, .tags)
        XCTAssertEqual(problem(tags: (1...21).map { "t\($0)" }.joined(separator: ","))?.field, .tags)
        XCTAssertNoThrow(try make(tags: (1...20).map { "t\($0)" }.joined(separator: ",")))
        XCTAssertEqual(problem(tags: "a,b\u{7}")?.field, .tags)
    }

    func testDatesReversedImpossibleFutureOrBeforePhotographyAreRefused() {
        XCTAssertEqual(problem(taken: "2023..2019")?.description, "taken: from 2023 comes after to 2019: swap them")
        XCTAssertEqual(problem(taken: "2023-02-30")?.field, .taken)
        XCTAssertEqual(problem(taken: "2023-13")?.field, .taken)
        XCTAssertEqual(problem(taken: "2027..")?.field, .taken)
        XCTAssertEqual(problem(taken: "2026-11-27..")?.field, .taken)
        XCTAssertEqual(problem(taken: "1825..1900")?.field, .taken)
        XCTAssertEqual(problem(taken: "..1825-12-31")?.field, .taken)
        XCTAssertEqual(problem(taken: "yesterday")?.field, .taken)
        XCTAssertEqual(problem(taken: "23-01-01")?.field, .taken)
        XCTAssertEqual(problem(taken: "..")?.field, .taken)
        XCTAssertNoThrow(try make(taken: "2024-02-29"))
        XCTAssertNotNil(problem(taken: "2023-02-29"))
        XCTAssertNoThrow(try make(taken: "1826..1830"))
    }

    func testAToBeyondTodayIsTakenAsToday() throws {
        XCTAssertEqual(try make(taken: "2020..2030").taken, TakenRange(from: FilterDate(year: 2020), to: FilterDate(today)))
        // A "to" that includes today stays as written.
        XCTAssertEqual(try make(taken: "..2026").taken.to, FilterDate(year: 2026))
    }

    func testTheEndOfARangeIsInclusive() throws {
        let range = try make(taken: "2019..2023").taken
        XCTAssertEqual(range.to?.lastDay, CalendarDay(year: 2023, month: 12, day: 31))
        XCTAssertTrue(range.contains(CalendarDay(year: 2023, month: 12, day: 31)))
        XCTAssertFalse(range.contains(CalendarDay(year: 2024, month: 1, day: 1)))
        XCTAssertFalse(range.contains(CalendarDay(year: 2018, month: 12, day: 31)))
        XCTAssertEqual(FilterDate(year: 2024, month: 2).lastDay, CalendarDay(year: 2024, month: 2, day: 29))
        XCTAssertEqual(try TakenRange.parse("2023-07").summary, "2023-07")
        XCTAssertEqual(try TakenRange.parse("2019..").summary, "since 2019")
        XCTAssertEqual(try TakenRange.parse("..2019").summary, "until 2019")
    }

    func testAnUnknownSortOrRelevantWithoutTextIsRefused() {
        XCTAssertEqual(problem(sort: "random")?.field, .sort)
        XCTAssertEqual(problem(tags: "a", sort: "relevant")?.field, .sort)
        XCTAssertNoThrow(try make(text: "food", sort: "relevant"))
        XCTAssertEqual(AlbumSort.interesting.next, .recent)
        XCTAssertEqual(AlbumSort.relevant.next, .interesting)
    }

    func testPhotoDatesAreReadAsSourcesWriteThem() {
        XCTAssertEqual(CalendarDay.leading("2019:07:04 12:00:00"), CalendarDay(year: 2019, month: 7, day: 4))
        XCTAssertEqual(CalendarDay.leading("2019-07-04T12:00"), CalendarDay(year: 2019, month: 7, day: 4))
        XCTAssertNil(CalendarDay.leading("2019"))
        XCTAssertNil(CalendarDay.leading("2019-02-30"))
        XCTAssertNil(CalendarDay.leading("circa 1900"))
    }

    func testTheJSONShapeRoundTrips() throws {
        let filter = try make(text: "food", tags: "a,b", taken: "2019-05..", sort: "recent")
        let data = try JSONEncoder().encode(filter)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["text"] as? String, "food")
        XCTAssertEqual(object["tags"] as? [String], ["a", "b"])
        XCTAssertEqual((object["taken"] as? [String: Any])?["from"] as? String, "2019-05")
        XCTAssertTrue((object["taken"] as? [String: Any])?["to"] is NSNull)
        XCTAssertEqual(object["sort"] as? String, "recent")
        XCTAssertEqual(try JSONDecoder().decode(AlbumFilter.self, from: data), filter)
        XCTAssertThrowsError(try JSONDecoder().decode(AlbumFilter.self, from: Data(#"{"sort":"random"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(AlbumFilter.self, from: Data(#"{"taken":{"from":"2023-02-30"}}"#.utf8)))
    }

    func testCommonsSaysWhatItDoesDifferently() throws {
        XCTAssertEqual(PhotoSourceChoice.flickr.filterNotes(try make(text: "a", tags: "b", taken: "2020", sort: "recent")), [])
        XCTAssertEqual(PhotoSourceChoice.commons.filterNotes(.none), [])
        let notes = PhotoSourceChoice.commons.filterNotes(try make(tags: "b", taken: "2020"))
        XCTAssertTrue(notes.contains { $0.contains("tags are searched as words") })
        XCTAssertTrue(notes.contains { $0.contains("date taken") })
    }
}
