import Foundation
import XCTest

/// The settings screen in the real app: changes are kept across a restart, the key never shows.
final class SettingsScreenEndToEndTests: EndToEndTestCase {
    func testChangedSettingsAreKeptAcrossARestartAndTheKeyNeverShows() throws {
        let db = try temporaryDirectory().appendingPathComponent("settings.sqlite").path
        let key = "feedfacecafebeef0123456789abcdef"
        var t = try app(db, environment: ["FLICKR_API_KEY": nil], recording: true)
        t.wait(forText: "? help")
        try t.keys("s")
        t.wait(forText: "No Flickr key is set.")
        try t.keys("Enter")
        try t.type(key)
        try t.keys("Enter")
        t.wait(forText: "Saved: Flickr API key")
        try t.keys("Down", "Enter")  // source: automatic → Flickr
        t.wait(forText: "Saved: photo source Flickr.")
        try t.keys("Down", "Enter", "BSpace", "BSpace", "BSpace")
        try t.type("0.2")
        try t.keys("Enter")
        t.wait(forText: "Saved: search area 0.2")
        try t.keys("Down", "Enter", "BSpace", "BSpace")
        try t.type("99")
        try t.keys("Enter")
        t.wait(forText: "Not saved: photos per collection must be a whole number from 1 to 60")
        try t.keys("BSpace", "BSpace")
        try t.type("7")
        try t.keys("Enter")
        t.wait(forText: "Saved: photos per collection 7.")
        try t.keys("Down", "Enter", "Down", "Enter")
        t.wait(forText: "Saved: allow dragging off.")
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)
        let output = String(decoding: t.recordedOutput(), as: UTF8.self)
        XCTAssertFalse(output.contains(key), "the key reached the terminal")
        XCTAssertFalse(output.contains(String(key.prefix(12))), "part of the key reached the terminal")

        t = try app(db, environment: ["FLICKR_API_KEY": nil])
        t.wait(forText: "? help")
        try t.keys("s")
        let screen = t.wait(forText: "Allow dragging")
        for kept in ["\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}cdef", "Flickr", "0.2\u{00B0} either way",
                     "Photos per collection   7", "Confirm delete          off", "Allow dragging          off"] {
            XCTAssertTrue(screen.contains(kept), "\(kept) in\n\(screen)")
        }
        // Dragging is off: m on a pin says so.
        try t.keys("Escape", "p")
        t.wait(forText: "1 pin ")
        try t.keys("m")
        t.wait(forText: "Moving pins is turned off in the settings.")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}

/// The settings are shared with other processes: the app writes only what its user changed.
final class SharedSettingsEndToEndTests: EndToEndTestCase {
    func testTheMessageSaysWhatTheRowShows() throws {
        let db = try temporaryDirectory().appendingPathComponent("messages.sqlite").path
        XCTAssertEqual(try cli(["config", "set", "source", "commons", "--db", db]).status, 0)
        var t = try app(db, environment: ["FLICKR_API_KEY": "feedfacecafebeef0123456789abcdef"])
        t.wait(forText: "? help")
        try t.keys("s", "Down", "Enter")  // Wikimedia Commons → automatic, which the environment's key makes Flickr
        let screen = t.wait(forText: "Saved: photo source automatic: Flickr.")
        XCTAssertTrue(screen.contains("Photo source            automatic: Flickr"), screen)
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)

        XCTAssertEqual(try cli(["config", "set", "flickr_api_key", "feedfacecafebeef0123456789abcdef", "--db", db]).status, 0)
        t = try app(db, environment: ["FLICKR_API_KEY": nil])
        t.wait(forText: "? help")
        try t.keys("s", "Enter", "Enter")  // an empty key removes it
        t.wait(forText: "Removed the Flickr API key.")
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)
        let got = try cli(["config", "get", "flickr_api_key", "--db", db])
        XCTAssertFalse(got.stdout.contains("cdef"), got.stdout)
    }

    func testAConfigSetWhileTheAppIsOpenIsShownAndKept() throws {
        let db = try temporaryDirectory().appendingPathComponent("shared.sqlite").path
        let t = try app(db, environment: ["FLICKR_API_KEY": nil])
        t.wait(forText: "? help")
        try t.keys("s")
        t.wait(forText: "Photos per collection   21")
        XCTAssertEqual(try cli(["config", "set", "photos_per_collection", "12", "--db", db]).status, 0)
        XCTAssertEqual(try cli(["config", "set", "allow_drag", "off", "--db", db]).status, 0)
        // The open screen shows what the shell set.
        t.wait(forText: "Photos per collection   12")
        t.wait(forText: "Allow dragging          off")
        try t.keys("Down", "Down", "Down", "Down", "Enter")  // Confirm delete: on → off
        t.wait(forText: "Saved: confirm delete off.")
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)
        for (name, value) in [("photos_per_collection", "12"), ("allow_drag", "off"), ("confirm_delete", "off")] {
            let got = try cli(["config", "get", name, "--db", db])
            XCTAssertEqual(got.status, 0, got.stderr)
            XCTAssertTrue(got.stdout.contains(value), "\(name): \(got.stdout)")
        }
    }
}
