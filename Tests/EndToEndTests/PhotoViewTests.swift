import Foundation
import TestSupport
import XCTest

/// The photo view through the real binary in tmux, against the local Flickr stand-in.
final class PhotoViewTests: EndToEndTestCase {
    struct AlbumJSON: Decodable {
        struct Large: Decodable { var bytes: Int }
        struct Photo: Decodable { var id: Int64; var title: String?; var bytes: Int; var large: Large? }
        var photos: [Photo]
    }

    func album(_ id: String, db: String) throws -> AlbumJSON {
        let r = try cli(["album", id, "--json", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONDecoder().decode(AlbumJSON.self, from: Data(r.stdout.utf8))
    }

    func testEnterOpensAPhotoRightGoesOnWSavesItAndXDeletesIt() throws {
        let dir = try temporaryDirectory()
        let db = dir.appendingPathComponent("photos.sqlite").path
        let pictures = dir.appendingPathComponent("My Pictures").path
        let env: [String: String?] = ["FLICKR_API_KEY": "good-key", "XDG_PICTURES_DIR": pictures]
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: env)
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let before = try album("1", db: db)
        XCTAssertEqual(before.photos.count, 21)
        let first = try XCTUnwrap(before.photos[0].title), second = try XCTUnwrap(before.photos[1].title)

        let t = try app(db, width: 110, height: 32, environment: env)
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")
        try t.keys("Enter")
        var screen = t.wait(for: "the first photo") { $0.contains(first) && $0.contains("1 of 21") && $0.contains("Licence") }
        XCTAssertTrue(screen.contains("Flickr"), screen)
        try t.keys("Right")
        // Its large image stored (the stand-in's second is the upright fixture): `w` saves that one.
        screen = t.wait(for: "the second photo, sharp") {
            $0.contains(second) && $0.contains("2 of 21") && $0.contains("large 768\u{00D7}1024")
        }
        let large = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images/large_768x1024_exif.jpg")
        // Shown from memory first; stored a moment later.
        _ = try waitFor("the large image to be stored") { try album("1", db: db).photos[1].large }

        try t.keys("w")
        let saved = pictures + "/vtourist/" + second + ".jpg"
        t.wait(forText: "Saved to \(pictures)/vtourist/")
        XCTAssertEqual(FileManager.default.contents(atPath: saved), try Data(contentsOf: large))
        // Saved again: the file is there with the same bytes; no copy is made.
        try t.keys("w")
        t.wait(forText: "Already saved as \(pictures)/vtourist/")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pictures + "/vtourist"), [second + ".jpg"])

        try t.keys("x")
        t.wait(for: "the album one photo fewer") {
            $0.contains("20 photos") && !$0.contains("2 of 21") && $0.contains("Deleted \u{201C}\(second.prefix(12))")
        }
        let after = try waitFor("the deletion to be saved") { () -> AlbumJSON? in
            let a = try album("1", db: db)
            return a.photos.count == 20 ? a : nil
        }
        XCTAssertEqual(after.photos.map(\.id), before.photos.map(\.id).filter { $0 != before.photos[1].id })
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testPageKeysAndTheEndsStepThroughThePhotos() throws {
        let db = try temporaryDirectory().appendingPathComponent("pages.sqlite").path
        let env: [String: String?] = ["FLICKR_API_KEY": "good-key"]
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: env)
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let t = try app(db, width: 110, height: 32, environment: env)
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")
        // The album: End and G go to the last photo, Home and g to the first.
        for (key, back) in [("End", "Home"), ("G", "g")] {
            try t.keys(key, "Enter")
            t.wait(forText: "21 of 21")
            // Back to the album first: an Esc read together with the next key is Alt+key, ignored.
            try t.keys("Escape")
            t.wait(forText: "21 photos")
            try t.keys(back, "Enter")
            t.wait(forText: "1 of 21")
            try t.keys("Escape")
            t.wait(forText: "21 photos")
        }
        // PgDn moves a screen of rows down: a photo further on than the first row.
        try t.keys("NPage", "Enter")
        let paged = t.wait(for: "a photo a screen further") { $0.contains(" of 21") && !$0.contains("1 of 21") }
        XCTAssertFalse(paged.contains("2 of 21") || paged.contains("3 of 21") || paged.contains("4 of 21"), paged)
        try t.keys("Escape")
        t.wait(forText: "21 photos")
        try t.keys("PPage", "Enter")
        t.wait(forText: "1 of 21")
        // The photo view: PgDn/PgUp step, End/Home go to the ends.
        try t.keys("NPage")
        t.wait(forText: "2 of 21")
        try t.keys("End")
        t.wait(forText: "21 of 21")
        try t.keys("PPage")
        t.wait(forText: "20 of 21")
        try t.keys("Home")
        t.wait(forText: "1 of 21")
        try t.keys("q", "q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testPlusZoomsTheLargeImageArrowsPanZeroFitsAndSpacePlaysTheSlideshow() throws {
        let db = try temporaryDirectory().appendingPathComponent("zoom.sqlite").path
        let env: [String: String?] = ["FLICKR_API_KEY": "good-key"]
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: env)
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        XCTAssertEqual(try cli(["config", "set", "slideshow_seconds", "1", "--db", db], environment: env).status, 0)
        let t = try app(db, width: 110, height: 32, environment: env)
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")
        try t.keys("Enter")
        // The large image (1024x768) fetched: at 110x32 it zooms once, to one image pixel a screen pixel.
        t.wait(forText: "large 1024\u{00D7}768")
        try t.keys("+")
        var screen = t.wait(for: "zoomed in") { $0.contains("2\u{00D7}  1 of 21") && $0.contains("arrows pan") }
        XCTAssertTrue(screen.contains("0 fit"), screen)
        try t.keys("+")
        t.wait(forText: "Zoomed in all the way")
        // The arrows pan: the photo stays.
        try t.keys("Right", "Down")
        try t.keys("0")
        screen = t.wait(for: "fitted again") { !$0.contains("\u{00D7}  1 of 21") && $0.contains("\u{2192} next") }
        XCTAssertTrue(screen.contains("1 of 21"), "panning never stepped: \(screen)")

        // The slideshow: a photo a second, any key pauses it and does its own action.
        try t.keys("Space")
        t.wait(forText: "\u{25B6} slideshow")
        t.wait(forText: "2 of 21")
        t.wait(forText: "3 of 21")
        try t.keys("Escape")
        t.wait(for: "back in the album") { $0.contains("21 photos") && !$0.contains("slideshow") }
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
