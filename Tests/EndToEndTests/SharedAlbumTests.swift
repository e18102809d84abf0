import Foundation
import XCTest

/// Albums shared between processes: a pin dropped from a shell is fetched by the open app.
final class SharedAlbumEndToEndTests: EndToEndTestCase {
    func testAPinDroppedFromTheShellIsDownloadedByTheOpenApp() throws {
        let db = try temporaryDirectory().appendingPathComponent("shared.sqlite").path
        let t = try app(db, environment: ["FLICKR_API_KEY": nil])
        t.wait(forText: "? help")
        let dropped = try cli(["drop", "-33.9", "151.2", "--db", db])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let id = try XCTUnwrap(Int64(dropped.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        t.wait(forText: "1 pin ")
        // No key pressed: the app takes the album up and fetches every photo.
        let pin = try waitFor("the app to fetch the dropped pin's album", timeout: 30) { () -> PinRow? in
            try pins(db: db).first { $0.id == id && $0.state == "ready" }
        }
        XCTAssertEqual(pin.photos, 21)
        XCTAssertEqual(pin.downloaded, 21)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}

/// Dropping pins in the real app: never two under one glyph, and Enter right after `p` opens the new one.
final class DropOnTheMapEndToEndTests: EndToEndTestCase {
    func testPOnAPinSelectsItAndPThenEnterInOneBurstOpensTheNewAlbum() throws {
        let db = try temporaryDirectory().appendingPathComponent("drops.sqlite").path
        let t = try app(db, environment: ["FLICKR_API_KEY": nil])
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Space")
        t.wait(forText: "A pin is already here: Enter opens its album.")
        XCTAssertEqual(try pins(db: db).count, 1, "no second pin under the same glyph")
        // Elsewhere, p and Enter sent together: the new pin's album opens, not "No pin here".
        try t.keys("L")
        t.wait(for: "the map to pan") { !$0.contains("A pin is already here") }
        try t.tmux(["send-keys", "-t", t.name, "p", "Enter"])
        let album = t.wait(for: "the album or a refusal") { $0.contains("New Collection") || $0.contains("No pin here") }
        XCTAssertFalse(album.contains("No pin here"), album)
        XCTAssertEqual(try pins(db: db).count, 2)
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
