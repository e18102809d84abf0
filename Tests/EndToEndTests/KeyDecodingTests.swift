import Foundation
import TestSupport
import XCTest

/// Keys as terminals send them, through tmux to the real binary: an Esc followed at once by more
/// bytes is one key (Alt+key or a sequence terminfo does not name), never Esc and then letters.
final class KeyDecodingTests: EndToEndTestCase {
    func testAltPAndUnnamedHomeAndEndLeaveTheAlbumAlone() throws {
        server = try PhotoServer(delayMs: 5)
        let db = try temporaryDirectory().appendingPathComponent("keys.sqlite").path
        let t = try app(db, width: 110, height: 32, environment: ["FLICKR_API_KEY": "good-key"])
        t.wait(forText: "? help")
        try t.keys("g")
        try t.type("Naples")
        try t.keys("Enter")
        t.wait(forText: "Went to Naples")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Enter")
        t.wait(for: "the album") { $0.contains("21 photos") && $0.contains("New Collection") }
        // Each a single write: Alt+p; End and Home as xterm sends them (ESC O F, ESC O H), which the
        // pane's tmux-256color terminfo does not name; Ctrl+Right (ESC [ 1 ; 5 C).
        for bytes in [["1b", "70"], ["1b", "4f", "46"], ["1b", "4f", "48"], ["1b", "5b", "31", "3b", "35", "43"]] {
            try t.tmux(["send-keys", "-t", t.name, "-H"] + bytes)
        }
        // Keys are handled in order: once the album's help shows, the bursts before it were handled.
        try t.keys("?")
        let help = t.wait(forText: "mark / unmark the photo")
        XCTAssertFalse(help.contains("drop a pin"), "the map's help:\n\(help)")
        XCTAssertEqual(try pins(db: db).count, 1, "Alt+p dropped a pin")
        try t.keys("Escape")
        t.wait(for: "the help to close") { !$0.contains("mark / unmark the photo") && $0.contains("New Collection") }
        // A lone Esc still leaves the album.
        try t.keys("Escape")
        t.wait(for: "the map") { $0.contains("? help") && !$0.contains("New Collection") }
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
        XCTAssertEqual(try pins(db: db).count, 1)
    }
}
