import Foundation
import Model
import XCTest

/// `Model.AlbumFilter`, the one place of every limit, check and format of a filter: what the store,
/// the machine and the service take as given.
final class AlbumFilterModelTests: XCTestCase {
    let today = CalendarDay(year: 2024, month: 5, day: 17)

    private func problem(text: String? = nil, tags: String? = nil, taken: String? = nil, sort: String? = nil,
                         file: StaticString = #filePath, line: UInt = #line) -> FilterProblem? {
        do {
            _ = try AlbumFilter.make(text: text, tags: tags, taken: taken, sort: sort, today: today)
            XCTFail("accepted", file: file, line: line)
            return nil
        } catch {
            XCTAssertFalse(error.description.contains("\n"), "one line: \(error)", file: file, line: line)
            XCTAssertTrue(error.description.hasPrefix(error.field.rawValue + ": "), "names the field: \(error)",
                          file: file, line: line)
            return error
        }
    }

    func testEveryBadInputOfTheIssueNamesItsField() {
        XCTAssertEqual(problem(text: String(repeating: "a", count: 101))?.field, .text)
        XCTAssertEqual(problem(text: "food\u{1B}[31m")?.field, .text)
        XCTAssertEqual(problem(text: "street\nfood")?.field, .text)
        XCTAssertEqual(problem(text: "    ")?.field, .text)
        XCTAssertEqual(problem(tags: "market,,pizza")?.field, .tags)
        XCTAssertEqual(problem(tags: " , ")?.field, .tags)
        XCTAssertEqual(problem(tags: "")?.field, .tags, "tags given empty, unlike a text or a range given empty")
        XCTAssertEqual(problem(tags: (1...21).map { "t\($0)" }.joined(separator: ","))?.field, .tags)
        XCTAssertEqual(problem(taken: "2023..2019")?.field, .taken)
        XCTAssertEqual(problem(taken: "2023-02-30")?.field, .taken)
        XCTAssertEqual(problem(taken: "2023-13")?.field, .taken)
        XCTAssertEqual(problem(taken: "2025..")?.field, .taken, "a from in the future")
        XCTAssertEqual(problem(taken: "2024-06..")?.field, .taken, "a from next month")
        XCTAssertEqual(problem(taken: "1825..1900")?.field, .taken)
        XCTAssertEqual(problem(taken: "..")?.field, .taken)
        XCTAssertEqual(problem(taken: "19..20")?.field, .taken)
        XCTAssertEqual(problem(sort: "newest")?.field, .sort)
        XCTAssertEqual(problem(sort: "relevant")?.field, .sort, "relevant without text")
    }

    func testGoodInputIsTidiedAndAToPastTodayIsToday() throws {
        let filter = try AlbumFilter.make(text: "  street food ", tags: " market, Pizza ,pizza", taken: "2019..2030",
                                          sort: " Recent", today: today)
        XCTAssertEqual(filter.text, "street food")
        XCTAssertEqual(filter.tags, ["market", "Pizza"], "trimmed, the same tag once")
        XCTAssertEqual(filter.taken, TakenRange(from: FilterDate(year: 2019), to: FilterDate(today)))
        XCTAssertEqual(filter.sort, .recent)
        XCTAssertEqual(try AlbumFilter.make(text: "", tags: nil, taken: "", sort: "", today: today), .none)
        XCTAssertTrue(AlbumFilter.none.isEmpty)
        // The edges: 100 characters, 20 tags, 1826, today.
        XCTAssertNoThrow(try AlbumFilter.make(text: String(repeating: "a", count: 100), tags: nil, taken: nil, sort: nil, today: today))
        XCTAssertNoThrow(try AlbumFilter.make(text: nil, tags: (1...20).map { "t\($0)" }.joined(separator: ","), taken: nil,
                                              sort: nil, today: today))
        XCTAssertNoThrow(try AlbumFilter.make(text: nil, tags: nil, taken: "1826..2024-05-17", sort: nil, today: today))
        XCTAssertNoThrow(try AlbumFilter.make(text: "food", tags: nil, taken: "2024-05-17", sort: "relevant", today: today))
    }

    func testTheWordsOfAFilter() throws {
        let filter = try AlbumFilter.make(text: "food", tags: "market,night", taken: "2019..2023", sort: "recent", today: today)
        XCTAssertEqual(filter.summary, "food \u{00B7} #market #night \u{00B7} 2019\u{2013}2023 \u{00B7} recent")
        XCTAssertEqual(filter.noMatchMessage, "No photos match \u{201C}\(filter.summary)\u{201D} here")
        XCTAssertEqual(filter.tagList, "market,night")
        XCTAssertEqual(filter.taken.description, "2019..2023")
        XCTAssertEqual(AlbumFilter.none.summary, "")
        XCTAssertEqual(try TakenRange.parse("2019-07").summary, "2019-07")
        XCTAssertEqual(try TakenRange.parse("2019..").summary, "since 2019")
        XCTAssertEqual(try TakenRange.parse("..2023").description, "..2023")
        XCTAssertEqual(FilterDate(year: 2024, month: 2).lastDay, CalendarDay(year: 2024, month: 2, day: 29))
        XCTAssertEqual(FilterDate(year: 2023).lastDay, CalendarDay(year: 2023, month: 12, day: 31))
        XCTAssertEqual(AlbumSort.relevant.next, .interesting)
    }

    func testTheJSONShapeRoundTrips() throws {
        let filter = try AlbumFilter.make(text: "food", tags: "market", taken: "2019-06..", sort: "relevant", today: today)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(filter), as: UTF8.self)
        XCTAssertEqual(json, #"{"sort":"relevant","tags":["market"],"taken":{"from":"2019-06","to":null},"text":"food"}"#)
        XCTAssertEqual(try JSONDecoder().decode(AlbumFilter.self, from: Data(json.utf8)), filter)
        XCTAssertEqual(try JSONDecoder().decode(AlbumFilter.self, from: Data("{}".utf8)), .none)
        XCTAssertThrowsError(try JSONDecoder().decode(AlbumFilter.self, from: Data(#"{"sort":"newest"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(AlbumFilter.self, from: Data(#"{"taken":{"from":"2019-13"}}"#.utf8)))
    }

    func testTheDayAPhotoWasTaken() {
        XCTAssertEqual(CalendarDay.leading("2019:07:04 12:00:00"), CalendarDay(year: 2019, month: 7, day: 4))
        XCTAssertEqual(CalendarDay.leading("2019-07-04T12:00"), CalendarDay(year: 2019, month: 7, day: 4))
        XCTAssertNil(CalendarDay.leading("2019-02-30"))
        XCTAssertNil(CalendarDay.leading("2019-07"))
        XCTAssertNil(CalendarDay.leading("2019-07:04"))
        let range = TakenRange(from: FilterDate(year: 2019, month: 7), to: FilterDate(year: 2019, month: 7))
        XCTAssertTrue(range.contains(CalendarDay(year: 2019, month: 7, day: 31)))
        XCTAssertFalse(range.contains(CalendarDay(year: 2019, month: 8, day: 1)))
    }
}
