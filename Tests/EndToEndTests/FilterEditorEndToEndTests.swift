import Foundation
import TestSupport
import XCTest

/// The album's filter editor through the real binary in tmux, against the stand-in: the filter typed
/// in the editor is what the search asks for, the header names it, and a filter that finds nothing
/// ends `empty` with the no-match line, never `failed`.
final class FilterEditorEndToEndTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try PhotoServer(delayMs: 10)
    }

    struct AlbumState: Decodable {
        var state: String
    }

    func testAFilterTypedInTheEditorIsSearchedAndShownAndANoMatchFilterEndsEmpty() throws {
        let env: [String: String?] = ["FLICKR_API_KEY": "good-key"]
        let db = try temporaryDirectory().appendingPathComponent("filter.sqlite").path
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: env)
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let t = try app(db, width: 110, height: 36, environment: env)
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")

        try t.keys("f")
        t.wait(forText: "Filter")
        try t.keys("Enter")
        try t.type("street food")
        try t.keys("Enter", "Down", "Down", "Enter")
        try t.type("2023..2019")
        try t.keys("Enter", "s")
        // Refused in the editor, one line naming the field; nothing asked, nothing searched.
        t.wait(forText: "taken: from 2023 comes after to 2019: swap them")
        XCTAssertFalse(server.searchRequests().contains { $0.contains("text=") })
        try t.keys("Enter", "C-u")
        try t.type("2019..")
        try t.keys("Enter", "s")
        t.wait(forText: "Replace the 21 photos with a new collection?")
        try t.keys("y")
        var screen = t.wait(for: "the filtered album") {
            $0.contains("Flickr \u{00B7} street food \u{00B7} since 2019") && $0.contains("21 photos")
        }
        XCTAssertFalse(screen.contains("\u{250C} Filter"), screen)
        let asked = try waitFor("the filtered search") {
            self.server.searchRequests().map(PhotoServer.parameters).first { $0["text"] == "street food" }
        }
        XCTAssertEqual(asked["min_taken_date"], "2019-01-01 00:00:00")

        // A filter that matches nothing: the album ends empty and says so, with F offered.
        try t.keys("f")
        t.wait(forText: "street food")
        try t.keys("Enter", "C-u")
        try t.type("nomatch")
        try t.keys("Enter", "s")
        t.wait(forText: "Replace the 21 photos with a new collection?")
        try t.keys("y")
        screen = t.wait(forText: "No photos match \u{201C}nomatch \u{00B7} since 2019\u{201D} here \u{00B7} F clears the filter")
        XCTAssertFalse(screen.contains("failed"), screen)
        let stored = try cli(["album", "1", "--json", "--db", db])
        XCTAssertEqual(try JSONDecoder().decode(AlbumState.self, from: Data(stored.stdout.utf8)).state, "empty")

        // F clears it (no photo to lose: not asked) and the plain album comes back.
        try t.keys("F")
        t.wait(for: "the plain album") { $0.contains("21 photos") && !$0.contains("nomatch") }
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
