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

    /// tmux brackets a paste when the app asked for it (`paste-buffer -p`): text pasted on the map
    /// drops no pin and quits nothing.
    func testAPasteIsNeverKeys() throws {
        let db = try temporaryDirectory().appendingPathComponent("paste.sqlite").path
        let t = try app(db)
        t.wait(forText: "? help")
        try t.tmux(["set-buffer", "-b", "pasted", "p p\rxq"])
        try t.tmux(["paste-buffer", "-p", "-b", "pasted", "-t", t.name])
        // Keys are handled in order: once the help shows, the paste before it was handled.
        try t.keys("?")
        t.wait(forText: "drop a pin at the cursor")
        XCTAssertNil(t.exitStatus, "the q in the paste quit the app")
        XCTAssertEqual(try pins(db: db).count, 0, "the p in the paste dropped a pin")
        try t.keys("Escape")
        t.wait(for: "the help to close") { !$0.contains("drop a pin at the cursor") }
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
