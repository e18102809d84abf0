import AlbumMachine
import Model
import Terminal
@testable import TouristCore
import XCTest

/// The filter editor over the album: `f` opens it, its fields are typed with the shared text field,
/// `s` saves (checked against a fixed today, asked first as New Collection is), Esc leaves; `F` clears.
final class FilterEditorTests: XCTestCase {
    static let today = CalendarDay(year: 2026, month: 11, day: 26)
    let reducer = AppReducer(places: .none, today: { FilterEditorTests.today })

    @discardableResult
    func press(_ s: inout AppState, _ keys: Key...) -> [AppEffect] {
        keys.flatMap { reducer.reduce(&s, .event(.key($0), time: 0)) }
    }

    /// Types `text` into the focused field: Enter, the characters, Enter.
    @discardableResult
    func type(_ s: inout AppState, _ text: String) -> [AppEffect] {
        press(&s, .enter) + text.flatMap { press(&s, .char($0)) } + press(&s, .enter)
    }

    func editor(_ s: AppState) -> FilterFeature? {
        guard case let .plugged(plugged) = s.screen else { return nil }
        return plugged.feature as? FilterFeature
    }

    /// The sample album (ten photos, ready) with a filter stored.
    func album(filter: AlbumFilter = .none, status: AlbumStatus = .ready, source: String = "flickr") -> AppState {
        var s = Sample.albumState()
        s.updateAlbum { album in
            album.snapshot?.filter = filter
            album.snapshot?.status = status
            album.snapshot?.source = source
            if status == .downloading { album.snapshot?.photos[0].state = .pending }
        }
        return s
    }

    func screenText(_ s: AppState) -> String { AppView.render(s, raster: nil).text }

    func testFOpensTheEditorOverTheAlbumWithTheStoredFilter() throws {
        let stored = AlbumFilter(text: "food", tags: ["market", "fish"], taken: try TakenRange.parse("2019..2023"), sort: .recent)
        var s = album(filter: stored)
        XCTAssertEqual(press(&s, .char("f")), [])
        let shown = try XCTUnwrap(editor(s))
        XCTAssertEqual(shown.editor.text, "food")
        XCTAssertEqual(shown.editor.tags, "market,fish")
        XCTAssertEqual(shown.editor.taken, "2019..2023")
        XCTAssertEqual(shown.editor.sort, .recent)
        XCTAssertEqual(shown.editor.focused, .text)
        XCTAssertEqual(s.openAlbum?.pinID, 1, "the album stays underneath")
        let text = screenText(s)
        XCTAssertTrue(text.contains("\u{250C} Filter"), text)
        XCTAssertTrue(text.contains(" text   food"), text)
        XCTAssertTrue(text.contains(" tags   market,fish"), text)
        XCTAssertTrue(text.contains(" taken  2019..2023"), text)
        XCTAssertTrue(text.contains(" sort   recent"), text)
        XCTAssertTrue(text.contains("Naples"), "the album's header shows around the panel: \(text)")
        XCTAssertTrue(text.contains("s save"), text)
    }

    func testTypingSavingAndConfirmingSendsTheFilterToTheAlbum() {
        var s = album()
        press(&s, .char("f"))
        XCTAssertEqual(type(&s, "food"), [])
        press(&s, .down, .down)
        type(&s, "2019..2023")
        press(&s, .tab)
        XCTAssertEqual(editor(s)?.editor.sort, .recent)
        XCTAssertEqual(press(&s, .char("s")), [], "asked first: ten photos would go")
        let wanted = AlbumFilter(text: "food", taken: TakenRange(from: FilterDate(year: 2019), to: FilterDate(year: 2023)), sort: .recent)
        XCTAssertEqual(editor(s)?.editor.confirming, wanted)
        let text = screenText(s)
        XCTAssertTrue(text.contains("Replace the 10 photos with a new collection?"), text)
        XCTAssertTrue(text.contains("For \u{201C}food \u{00B7} 2019\u{2013}2023 \u{00B7} recent\u{201D}."), text)
        let effects = press(&s, .char("y"))
        XCTAssertEqual(effects, [.album(1, .setFilter(wanted))])
        XCTAssertNotNil(s.album, "back on the album")
        XCTAssertEqual(s.message?.text, "Saving the filter \u{201C}food \u{00B7} 2019\u{2013}2023 \u{00B7} recent\u{201D}\u{2026}")
        reducer.commit(effects, &s)
        XCTAssertEqual(s.message?.text, "Fetching a new collection for \u{201C}food \u{00B7} 2019\u{2013}2023 \u{00B7} recent\u{201D}\u{2026}")
    }

    func testNoAtTheQuestionKeepsTheFieldsAndEscLeavesWithoutSaving() {
        var s = album()
        press(&s, .char("f"))
        type(&s, "food")
        press(&s, .char("s"))
        XCTAssertEqual(press(&s, .char("n")), [])
        XCTAssertNil(editor(s)?.editor.confirming)
        XCTAssertEqual(editor(s)?.editor.text, "food", "the fields stay as typed")
        XCTAssertEqual(press(&s, .escape), [])
        XCTAssertNotNil(s.album)
        XCTAssertEqual(s.album?.snapshot?.filter, AlbumFilter.none, "nothing saved")
    }

    func testWithConfirmationsOffOrNoPhotosTheFilterIsSentAtOnce() {
        var s = album()
        s.settings.confirmDelete = false
        press(&s, .char("f"))
        type(&s, "food")
        XCTAssertEqual(press(&s, .char("s")), [.album(1, .setFilter(AlbumFilter(text: "food")))])

        var empty = album(status: .empty)
        empty.updateAlbum { $0.snapshot?.photos = [] }
        press(&empty, .char("f"))
        type(&empty, "food")
        XCTAssertEqual(press(&empty, .char("s")), [.album(1, .setFilter(AlbumFilter(text: "food")))], "no photo to lose: not asked")
    }

    func testEnterEndsTypingAndEscGivesTheTextUp() {
        var s = album()
        press(&s, .char("f"), .enter, .char("a"), .char("b"))
        XCTAssertEqual(editor(s)?.editor.editing?.text, "ab")
        XCTAssertTrue(screenText(s).contains("Enter keeps the text, Esc gives it up"))
        XCTAssertEqual(press(&s, .char("s")), [], "s is typed while a field is open")
        XCTAssertEqual(editor(s)?.editor.editing?.text, "abs")
        press(&s, .backspace, .escape)
        XCTAssertNil(editor(s)?.editor.editing)
        XCTAssertEqual(editor(s)?.editor.text, "", "Esc gave up the typing")
        XCTAssertNotNil(editor(s), "and the editor stays")
        press(&s, .enter, .char("x"), .enter)
        XCTAssertEqual(editor(s)?.editor.text, "x")
    }

    func testArrowsMoveBetweenTheRowsAndEnterOnTheOrderStepsIt() {
        var s = album()
        press(&s, .char("f"), .up)
        XCTAssertEqual(editor(s)?.editor.focused, .text, "stays on the first row")
        press(&s, .down, .down, .down, .down)
        XCTAssertEqual(editor(s)?.editor.focused, .sort, "stops at the last")
        press(&s, .enter)
        XCTAssertEqual(editor(s)?.editor.sort, .recent)
        XCTAssertNil(editor(s)?.editor.editing, "the order is not typed")
        press(&s, .tab, .tab)
        XCTAssertEqual(editor(s)?.editor.sort, .interesting, "Tab cycles back round")
    }

    func testPasteGoesIntoTheFieldBeingTypedOnlyAndItsControlsAreTakenOut() {
        var s = album()
        press(&s, .char("f"))
        _ = reducer.reduce(&s, .event(.paste("ignored"), time: 0))
        XCTAssertEqual(editor(s)?.editor.text, "")
        XCTAssertNil(editor(s)?.editor.editing)
        press(&s, .enter)
        _ = reducer.reduce(&s, .event(.paste("street\u{1B}[31m food\u{7}"), time: 0))
        press(&s, .enter)
        XCTAssertEqual(editor(s)?.editor.text, "street food", "the shared field's one cleaning rule")
        s.settings.confirmDelete = false
        XCTAssertEqual(press(&s, .char("s")), [.album(1, .setFilter(AlbumFilter(text: "street food")))])
    }

    /// Every bad input of the filter through the editor: one line naming the field, nothing sent,
    /// the editor still open with what was typed.
    func testEveryBadInputIsRefusedWithOneLineNamingTheField() {
        let cases: [(row: FilterEditor.Row, typed: String, sort: AlbumSort?, line: String)] = [
            (.text, String(repeating: "a", count: 101), nil, "text: 101 characters, at most 100"),
            (.text, "   ", nil, "text: only spaces: type some words, or leave it empty"),
            (.tags, ",", nil, "tags: empty: give tags separated by commas"),
            (.tags, "a,,b", nil, "tags: an empty tag (two commas in a row?)"),
            (.tags, (1...21).map { "t\($0)" }.joined(separator: ","), nil, "tags: 21 tags, at most 20"),
            (.taken, "2023..2019", nil, "taken: from 2023 comes after to 2019: swap them"),
            (.taken, "2023-02-30", nil, "taken: date 2023-02-30 is not a day of the calendar"),
            (.taken, "2026-12..", nil, "taken: from 2026-12 is in the future (today is 2026-11-26)"),
            (.taken, "1800..1900", nil, "taken: from 1800 is before 1826, the first photograph"),
            (.taken, "last year", nil, "taken: date \u{201C}last year\u{201D} is not a date: write YYYY, YYYY-MM or YYYY-MM-DD"),
            (.text, "", .relevant, "sort: relevant orders by the text: give some text, or choose interesting or recent"),
        ]
        for c in cases {
            var s = album()
            press(&s, .char("f"))
            for _ in 0..<c.row.rawValue { press(&s, .down) }
            if !c.typed.isEmpty { type(&s, c.typed) }
            if let sort = c.sort { while editor(s)?.editor.sort != sort { press(&s, .tab) } }
            XCTAssertEqual(press(&s, .char("s")), [], c.line)
            XCTAssertEqual(editor(s)?.editor.problem?.description, c.line)
            XCTAssertEqual(editor(s)?.editor.value(c.sort == nil ? c.row : .sort), c.sort?.rawValue ?? c.typed,
                           "what was typed stays")
            XCTAssertNil(editor(s)?.editor.confirming)
            XCTAssertEqual(editor(s)?.editor.focused, c.sort == nil ? c.row : .sort, "the focus is on the field refused")
            let text = screenText(s)
            XCTAssertTrue(text.contains(String(c.line.prefix(60))), "\(c.line)\n\(text)")
        }
    }

    func testTheRefusalGoesWhenTheFieldChangesAndTheFocusGoesToTheFieldRefused() {
        var s = album()
        press(&s, .char("f"), .down, .down)
        type(&s, "2023..2019")
        press(&s, .up, .up)
        XCTAssertEqual(editor(s)?.editor.focused, .text)
        press(&s, .char("s"))
        XCTAssertEqual(editor(s)?.editor.problem?.field, .taken)
        XCTAssertEqual(editor(s)?.editor.focused, .taken)
        press(&s, .enter, .enter)
        XCTAssertNotNil(editor(s)?.editor.problem, "the same text: the line stays")
        press(&s, .enter, .control("u"), .char("2"), .char("0"), .char("1"), .char("9"), .enter)
        XCTAssertEqual(editor(s)?.editor.taken, "2019")
        XCTAssertNil(editor(s)?.editor.problem, "a changed field takes the line away")

        press(&s, .tab, .tab, .char("s"))
        XCTAssertEqual(editor(s)?.editor.problem?.field, .sort, "relevant without text")
        press(&s, .tab)
        XCTAssertNil(editor(s)?.editor.problem, "another order takes the line away")
    }

    func testAToBeyondTodayIsTakenAsToday() {
        var s = album()
        s.settings.confirmDelete = false
        press(&s, .char("f"), .down, .down)
        type(&s, "2020..2030")
        let today = FilterDate(FilterEditorTests.today)
        XCTAssertEqual(press(&s, .char("s")),
                       [.album(1, .setFilter(AlbumFilter(taken: TakenRange(from: FilterDate(year: 2020), to: today))))])
    }

    func testTheDayIsTheReducersToday() {
        // The same typing, accepted on a later day: the check reads the context's today.
        let later = AppReducer(places: .none, today: { CalendarDay(year: 2027, month: 1, day: 2) })
        var s = album()
        s.settings.confirmDelete = false
        for key: Key in [.char("f"), .down, .down, .enter, .char("2"), .char("0"), .char("2"), .char("6"), .char("-"),
                         .char("1"), .char("2"), .char("."), .char("."), .enter] {
            _ = later.reduce(&s, .event(.key(key), time: 0))
        }
        XCTAssertEqual(later.reduce(&s, .event(.key(.char("s")), time: 0)),
                       [.album(1, .setFilter(AlbumFilter(taken: TakenRange(from: FilterDate(year: 2026, month: 12)))))])
    }

    func testTheSameFilterAsStoredJustCloses() {
        var s = album(filter: AlbumFilter(text: "food"))
        press(&s, .char("f"))
        XCTAssertEqual(press(&s, .char("s")), [])
        XCTAssertNotNil(s.album)
        XCTAssertEqual(s.message?.text, "The album already shows \u{201C}food\u{201D}.")

        var plain = album()
        press(&plain, .char("f"), .char("s"))
        XCTAssertNotNil(plain.album)
        XCTAssertEqual(plain.message?.text, "No filter: the album is unchanged.")
    }

    func testCapitalFClearsTheFilterAskingFirst() {
        var s = album(filter: AlbumFilter(text: "food"))
        XCTAssertEqual(press(&s, .char("F")), [])
        XCTAssertEqual(s.album?.confirming, .setFilter(.none, photos: 10))
        let text = screenText(s)
        XCTAssertTrue(text.contains("Replace the 10 photos with a new collection?"), text)
        XCTAssertTrue(text.contains("Without the filter."), text)
        XCTAssertEqual(press(&s, .char("n")), [])
        XCTAssertNil(s.album?.confirming)
        press(&s, .char("F"))
        let effects = press(&s, .char("y"))
        XCTAssertEqual(effects, [.album(1, .setFilter(.none))])
        XCTAssertEqual(s.message?.text, "Clearing the filter\u{2026}")
        reducer.commit(effects, &s)
        XCTAssertEqual(s.message?.text, "Filter cleared: fetching a new collection\u{2026}")

        var off = album(filter: AlbumFilter(text: "food"))
        off.settings.confirmDelete = false
        XCTAssertEqual(press(&off, .char("F")), [.album(1, .setFilter(.none))])
    }

    func testCapitalFWithoutAFilterSaysSo() {
        var s = album()
        XCTAssertEqual(press(&s, .char("F")), [])
        XCTAssertNil(s.album?.confirming)
        XCTAssertEqual(s.message?.text, "No filter to clear.")
    }

    func testFAndCapitalFAreRefusedWhileTheAlbumDownloads() {
        var s = album(filter: AlbumFilter(text: "food"), status: .downloading)
        XCTAssertEqual(press(&s, .char("f")), [])
        XCTAssertNotNil(s.album, "no editor")
        XCTAssertEqual(s.message?.text, Album.filterRefusal)
        XCTAssertEqual(press(&s, .char("F")), [])
        XCTAssertNil(s.album?.confirming)
        XCTAssertEqual(s.message?.text, Album.filterRefusal)
    }

    func testADownloadStartedElsewhereWhileEditingRefusesTheSave() {
        var s = album()
        press(&s, .char("f"))
        type(&s, "food")
        var downloading = s.openAlbum?.snapshot
        downloading?.status = .downloading
        downloading?.photos[0].state = .pending
        _ = reducer.reduce(&s, .albumLoaded(try! XCTUnwrap(downloading)))
        XCTAssertEqual(editor(s)?.album.snapshot?.status, .downloading, "reloads reach the album under the editor")
        XCTAssertEqual(press(&s, .char("s")), [])
        XCTAssertNotNil(editor(s))
        XCTAssertEqual(s.message?.text, Album.filterRefusal)
    }

    func testTheHeaderNamesTheFilterAndAnEmptyFilteredAlbumSaysNothingMatches() throws {
        let filter = AlbumFilter(text: "food", taken: try TakenRange.parse("2019..2023"), sort: .recent)
        var s = album(filter: filter)
        XCTAssertTrue(screenText(s).contains("Flickr \u{00B7} food \u{00B7} 2019\u{2013}2023 \u{00B7} recent"), screenText(s))
        var wide = s
        wide.width = 120
        XCTAssertTrue(screenText(wide).contains("f filter"), "where it fits, the hint row offers the editor")
        s.updateAlbum { $0.snapshot?.photos = []; $0.snapshot?.status = .empty }
        let text = screenText(s)
        XCTAssertTrue(text.contains("No photos match \u{201C}food \u{00B7} 2019\u{2013}2023 \u{00B7} recent\u{201D} here \u{00B7} F clears the filter"), text)
        XCTAssertFalse(album().screenTextContainsFilter, "no filter: nothing after the source")
    }

    func testTheEditorShowsWhatTheAlbumsSourceDoesWithTheFilter() {
        var s = album(source: "commons")
        press(&s, .char("f"), .down)
        type(&s, "market")
        XCTAssertTrue(screenText(s).contains("Commons has categories, not tags: the tags are searched as words."),
                      screenText(s))
        var flickr = album()
        press(&flickr, .char("f"), .down)
        type(&flickr, "market")
        XCTAssertFalse(screenText(flickr).contains("Commons"))
    }

    func testHelpOverTheEditorListsItsKeysAndClosesBackToIt() {
        var s = album()
        press(&s, .char("f"))
        let before = s
        press(&s, .char("?"))
        XCTAssertEqual(s.overlay, .help)
        let text = screenText(s)
        XCTAssertTrue(text.contains("the next sort: interesting, recent, relevant"), text)
        press(&s, .char("x"))
        XCTAssertEqual(s, before)
    }

    func testTheAlbumsPinDeletedElsewhereLeavesTheEditor() {
        var s = album()
        press(&s, .char("f"))
        _ = reducer.reduce(&s, .pinsLoaded([]))
        XCTAssertNotNil(s.map)
        XCTAssertEqual(s.message?.text, "That pin was deleted elsewhere.")
    }

    func testAtTheSmallestSizeThePanelStaysAboveTheMessageLine() {
        var s = album(filter: AlbumFilter(tags: ["market"], sort: .recent), source: "commons")
        s.width = AppState.minimumWidth
        s.height = AppState.minimumHeight
        press(&s, .char("f"))
        type(&s, "street food")
        let buffer = AppView.render(s, raster: nil)
        let rows = (0..<buffer.height).map(buffer.rowText)
        XCTAssertTrue(rows.contains { $0.contains("text   street food") }, buffer.text)
        XCTAssertTrue(rows[s.height - 3].contains("\u{2518}"), "the panel ends above the message line:\n\(buffer.text)")
        XCTAssertTrue(rows.allSatisfy { $0.count <= s.width })
    }

    func testGolden() throws {
        var s = album(filter: AlbumFilter(text: "food", tags: ["market"]), source: "commons")
        press(&s, .char("f"), .down, .down)
        type(&s, "2019..2023")
        press(&s, .char("s"), .char("n"))
        try assertGolden(AppView.render(s, raster: nil), "filter-editor")
    }
}

private extension AppState {
    /// Whether the album's title row shows anything after the source.
    var screenTextContainsFilter: Bool {
        AppView.render(self, raster: nil).rowText(0).contains("Flickr \u{00B7} ")
    }
}
