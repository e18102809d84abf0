import Foundation
import TestSupport
import XCTest

/// Albums through the real binary: `drop --wait`, `album --json`, and the
/// album screen in tmux, against the local Flickr/Commons stand-in.
final class AlbumTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try PhotoServer(delayMs: 30)
    }

    /// What the album screen says when Flickr answers every search with `stat: fail` 105 (the stand-in's `search-down`).
    static let searchDownReason = "Flickr is unavailable right now (105"

    /// Flickr with this key (the stand-in picks its behaviour by key), or Commons without one.
    func env(key: String? = "good-key") -> [String: String?] {
        key.map { ["FLICKR_API_KEY": $0] } ?? [:]
    }

    struct AlbumJSON: Decodable {
        struct Photo: Decodable {
            var id: Int64; var source: String; var title: String?; var url: String; var downloaded: Bool; var bytes: Int; var state: String
        }
        var pin: PinRow
        var state: String
        var source: String?
        var photos: [Photo]
    }

    func album(_ id: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws -> AlbumJSON {
        try XCTUnwrap(try peekAlbum(id, db: db), "no album \(id)", file: file, line: line)
    }

    /// The album, or nil while there is none yet (no assertion).
    func peekAlbum(_ id: String, db: String) throws -> AlbumJSON? {
        let r = try cli(["album", id, "--json", "--db", db])
        guard r.status == 0 else { return nil }
        return try JSONDecoder().decode(AlbumJSON.self, from: Data(r.stdout.utf8))
    }

    func testDropWaitStoresTheWholeAlbum() throws {
        let db = try temporaryDirectory().appendingPathComponent("drop.sqlite").path
        let r = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: env())
        XCTAssertEqual(r.status, 0, r.stderr)
        let id = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(id, "1")
        XCTAssertTrue(r.stderr.contains("Downloading 21/21"), r.stderr)
        let a = try album(id, db: db)
        XCTAssertEqual(a.state, "ready")
        XCTAssertEqual(a.photos.count, 21)
        XCTAssertTrue(a.photos.allSatisfy { $0.downloaded && $0.bytes > 1000 })
        XCTAssertEqual(a.source, "flickr")
        XCTAssertEqual(Set(a.photos.map(\.source)), ["flickr"], "each photo names its source")
        // Every photo object has the same keys: SPEC 4's and the rest of the photo's fields, nulls written.
        let raw = try cli(["album", id, "--json", "--db", db])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? [String: Any])
        let photos = try XCTUnwrap(object["photos"] as? [[String: Any]])
        XCTAssertEqual(Set(photos.map { Set($0.keys) }), [[
            "id", "source", "sourceId", "title", "author", "dateTaken", "url", "largeURL", "pageURL", "license",
            "width", "height", "state", "error", "downloaded", "bytes", "large",
        ]])
        XCTAssertTrue(photos.allSatisfy { $0["large"] is NSNull }, "no large image is stored before a photo is viewed")
        let listed = try pins(db: db)
        XCTAssertEqual(listed.first?.state, "ready")
        XCTAssertEqual(listed.first?.photos, 21)
        XCTAssertEqual(listed.first?.downloaded, 21)
        XCTAssertGreaterThanOrEqual(server.stats()["max_images_in_flight"] ?? 0, 8)
    }

    /// Marks photos 1 and 2, selects photo 9, deletes the marked ones: the selection stays on photo 9,
    /// so the next x deletes photo 9 and no other.
    func testAfterDeletingMarkedPhotosXDeletesTheSelectedPhoto() throws {
        let db = try temporaryDirectory().appendingPathComponent("select.sqlite").path
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: env())
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let before = try album("1", db: db).photos
        XCTAssertEqual(before.count, 21)
        let t = try app(db, width: 110, height: 40, environment: env())
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")
        try t.keys("Space", "Space")  // marks photos 1 and 2, the selection moves on to photo 3
        t.wait(forText: "2 marked \u{00B7} X deletes them")
        try t.keys("Right", "Right", "Right", "Right", "Right", "Right", "X")  // photo 9
        t.wait(forText: "Delete the 2 marked photos?")
        try t.keys("y")
        t.wait(for: "the marked photos to go") { $0.contains("19 photos") && $0.contains("Deleted 2 photos.") }
        try t.keys("x")
        t.wait(for: "the selected photo to go") { $0.contains("18 photos") && $0.contains("Deleted \u{201C}Photo 8 near") }
        let after = try waitFor("the deletions to be saved") { () -> [AlbumJSON.Photo]? in
            let photos = try album("1", db: db).photos
            return photos.count == 18 ? photos : nil
        }
        XCTAssertEqual(after.map(\.id), before.map(\.id).enumerated().filter { ![0, 1, 8].contains($0.offset) }.map(\.element))
        // Leaving with no marks left does not ask.
        try t.keys("Escape")
        t.wait(forText: "? help")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    /// A Flickr album after the source was switched to Commons in the settings: Add more brings Flickr
    /// photos, the header keeps saying Flickr, and only New Collection takes Commons.
    func testAddMoreKeepsTheAlbumsSourceAfterTheSettingChanged() throws {
        let db = try temporaryDirectory().appendingPathComponent("source.sqlite").path
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: env())
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let t = try app(db, width: 110, height: 32, environment: env())
        t.wait(forText: "1 pin ")
        try t.keys("s")
        t.wait(forText: "Allow dragging")
        try t.keys("Down", "Enter", "Enter")  // source: automatic → Flickr → Wikimedia Commons
        t.wait(forText: "Saved: photo source Wikimedia Commons.")
        try t.keys("Escape")
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(for: "the Flickr album") { $0.contains("21 photos") && $0.contains("\u{00B7} Flickr") }
        try t.keys("a")
        var screen = t.wait(forText: "42 photos")
        XCTAssertTrue(screen.contains("\u{00B7} Flickr") && !screen.contains("Wikimedia"), screen)
        try t.keys("End", "Enter")
        screen = t.wait(for: "the last photo added") { $0.contains("42 of 42") && $0.contains("Source") }
        XCTAssertTrue(screen.contains("Source    Flickr"), screen)
        try t.keys("Escape", "n")
        t.wait(forText: "Replace the 42 photos of this album?")
        try t.keys("y")
        t.wait(for: "a new collection from Commons") { $0.contains("\u{00B7} Wikimedia Commons") && $0.contains("21 photos") }
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testCommonsWithoutAKey() throws {
        let db = try temporaryDirectory().appendingPathComponent("commons.sqlite").path
        let r = try cli(["drop", "48.85", "2.35", "--wait", "--db", db], environment: env(key: nil))
        XCTAssertEqual(r.status, 0, r.stderr)
        let a = try album("1", db: db)
        XCTAssertEqual(a.photos.count, 21)
        XCTAssertEqual(a.source, "commons")
        XCTAssertEqual(Set(a.photos.map(\.source)), ["commons"], "each photo names its source")
    }

    func testBadInputOnTheCommandLine() throws {
        let db = try temporaryDirectory().appendingPathComponent("bad.sqlite").path
        // Each refusal is its own one line, with the status that says whose fault it was.
        func assertRefused(_ args: [String], _ message: String, status: Int32, line: UInt = #line) throws {
            let r = try cli(args + ["--db", db], environment: env())
            XCTAssertEqual(r.status, status, "\(args)", line: line)
            XCTAssertEqual(r.stdout, "", "\(args)", line: line)
            XCTAssertEqual(r.stderr, "vtourist: " + message + "\n", "\(args)", line: line)
        }
        try assertRefused(["drop", "95", "10"], "bad coordinates \u{201C}95 10\u{201D}: latitude must be between -90 and 90", status: 64)
        try assertRefused(["drop", "abc", "10"], "no place called \u{201C}abc 10\u{201D}, and not LAT LON either "
                          + "(e.g. -33.9 151.2, \"51.5, -0.12\", 51.5N 0.12W)", status: 64)
        try assertRefused(["drop", "10", "181"], "bad coordinates \u{201C}10 181\u{201D}: longitude must be between -180 and 180", status: 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "a refused drop made a database")
        try assertRefused(["album", "7"], "no database at \(db): nothing has been stored there yet", status: 1)
        let refused = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: env(key: "bad-key"))
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("API key"), refused.stderr)
        XCTAssertEqual(try pins(db: db).first?.state, "failed")
        try assertRefused(["album", "7"], "no pin 7 (see `vtourist pins`)", status: 1)
        try assertRefused(["album", "x"], "no pin called \u{201C}x\u{201D} (see `vtourist pins`)", status: 1)
    }

    func testAlbumScreenFillsInDeletesAndComesBackAfterARestart() throws {
        // The images are held until the test lets them go: placeholders and
        // "still downloading" are states to look at, not a race to win.
        server = try PhotoServer(delayMs: 30, switchedOn: [.holdImages])
        let db = try temporaryDirectory().appendingPathComponent("screen.sqlite").path
        let t = try app(db, width: 110, height: 32, environment: env())
        t.wait(forText: "? help")
        try t.keys("g")
        try t.type("Naples")
        try t.keys("Enter")
        t.wait(forText: "Went to Naples")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Enter")
        t.wait(forText: "New Collection")
        // Placeholders first, New Collection refused meanwhile.
        // (Two rows of four cells fit at 110×32.)
        var screen = t.wait(for: "placeholders while downloading") { placeholders(in: $0) == 8 }
        try waitFor("the image requests to be held") { () -> Bool? in (server.stats()["images_in_flight"] ?? 0) > 0 ? true : nil }
        try t.keys("n")
        screen = t.wait(forText: "Still downloading")
        XCTAssertEqual(placeholders(in: screen), 8, "the placeholders went:\n\(screen)")
        let stats = server.stats()
        XCTAssertEqual((stats["requests"] ?? 0) - (stats["image_requests"] ?? 0), 1, "New Collection searched while downloading")
        server.set(.holdImages, false)
        let done = t.wait(for: "every photo") { $0.contains("21 photos") }
        XCTAssertTrue(done.contains("Photo 0 "), done)
        XCTAssertEqual(placeholders(in: done), 0, done)
        // Delete the selected photo: the grid flows up.
        // (Wait for the whole screen: tmux may show a frame half drawn.)
        try t.keys("x")
        // (The message line names it: "Photo 0 " is left only there.)
        screen = t.wait(for: "the grid to flow up") {
            $0.contains("20 photos") && $0.contains("Deleted \u{201C}Photo 0 near")
                && $0.components(separatedBy: "Photo 0 ").count == 2 && $0.contains("Photo 1 ")
        }
        // Mark two and delete them together.
        try t.keys("Space", "Space", "X")
        screen = t.wait(forText: "Delete the 2 marked photos?")
        XCTAssertTrue(screen.contains("20 photos"), "nothing goes before the answer:\n\(screen)")
        try t.keys("y")
        screen = t.wait(for: "the marked photos to go") {
            $0.contains("18 photos") && !$0.contains("Photo 1 ") && !$0.contains("Photo 2 ") && $0.contains("Photo 3 ")
        }
        // New Collection, once confirmed, brings a different set.
        try t.keys("n")
        t.wait(forText: "Replace the 18 photos of this album?")
        try t.keys("Enter")
        // (The last result page may hold fewer than 21.)
        screen = t.wait(for: "a new collection") {
            !$0.contains("Photo 3 ") && $0.contains(" photos ") && placeholders(in: $0) == 0
                && !$0.contains("Searching")
        }
        let titles = screen.components(separatedBy: "Photo ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        XCTAssertFalse(titles.isEmpty)
        XCTAssertTrue(titles.allSatisfy { $0 >= 21 }, "\(titles)")
        try t.keys("Escape")
        t.wait(forText: "? help")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
        let stored = try album("1", db: db)
        XCTAssertTrue((1...21).contains(stored.photos.count))
        XCTAssertTrue(stored.photos.allSatisfy(\.downloaded))
        let firstTitle = try XCTUnwrap(stored.photos.first?.title?.split(separator: " ").prefix(2).joined(separator: " "))

        // After a restart the album shows at once, as it was.
        let again = try app(db, width: 110, height: 32, environment: env())
        again.wait(forText: "1 pin ")
        try again.keys("Tab", "Enter")
        screen = again.wait(for: "the stored album, \(firstTitle) first") {
            $0.contains(" \(stored.photos.count) photos") && $0.contains(firstTitle + " ")
        }
        XCTAssertEqual(placeholders(in: screen), 0, screen)
        try again.keys("q", "q")
        XCTAssertEqual(again.waitForExit(), 0)
    }

    func testEmptyPlaceShowsNoImages() throws {
        let db = try temporaryDirectory().appendingPathComponent("empty.sqlite").path
        let t = try app(db, width: 100, height: 30, environment: env(key: "empty"))
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Enter")
        t.wait(forText: "No Images")
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testKillDashNineMidDownloadThenTheAppResumes() throws {
        // Photos 0–4 come, the rest are held: the album is half downloaded until the test says otherwise.
        server.holdImages(from: 5)
        let db = try temporaryDirectory().appendingPathComponent("killed.sqlite").path
        let keyed = env()
        let drop = try session([try vtouristBinary(), "drop", "40.85", "14.27", "--wait", "--db", db],
                               width: 100, height: 10, environment: keyed)
        let half = try waitFor("five photos stored, the others held") { () -> AlbumJSON? in
            guard let a = try peekAlbum("1", db: db), a.photos.count == 21,
                  a.photos.filter(\.downloaded).count == 5, (server.stats()["images_in_flight"] ?? 0) > 0 else { return nil }
            return a
        }
        let pid = try XCTUnwrap(drop.appPID)
        XCTAssertEqual(kill(pid, SIGKILL), 0)
        XCTAssertEqual(drop.waitForExit(), 128 + SIGKILL)
        let check = try runProcess("/usr/bin/sqlite3", [db, "PRAGMA integrity_check;"])
        XCTAssertEqual(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "ok")
        let after = try album("1", db: db)
        XCTAssertEqual(after.state, "downloading")
        XCTAssertEqual(after.photos.filter(\.downloaded).map(\.id), half.photos.filter(\.downloaded).map(\.id))
        let storedBefore = half.photos.filter(\.downloaded).map(\.id)

        // The app picks the album up at start and finishes it.
        server.set(.holdImages, false)
        let t = try app(db, width: 100, height: 30, environment: keyed)
        t.wait(forText: "1 pin ")
        let done = try waitFor("the album to be finished") { () -> AlbumJSON? in
            let a = try album("1", db: db)
            return a.state == "ready" ? a : nil
        }
        XCTAssertTrue(done.photos.allSatisfy(\.downloaded))
        XCTAssertEqual(done.photos.count, 21)
        XCTAssertTrue(Set(storedBefore).isSubset(of: Set(done.photos.map(\.id))), "a stored photo was lost")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testTheAppShowsWhatTheCommandLineWrote() throws {
        let db = try temporaryDirectory().appendingPathComponent("shared.sqlite").path
        let t = try app(db, width: 100, height: 30, environment: env())
        t.wait(forText: "0 pins")
        let r = try cli(["drop", "41.89", "12.51", "--wait", "--db", db], environment: env())
        XCTAssertEqual(r.status, 0, r.stderr)
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testDraggingAPinReplacesItsAlbum() throws {
        let db = try temporaryDirectory().appendingPathComponent("drag.sqlite").path
        let t = try app(db, width: 100, height: 30, environment: env())
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        let before = try waitFor("the first album") { () -> AlbumJSON? in
            let a = try album("1", db: db)
            return a.state == "ready" ? a : nil
        }
        // The album looked at and one photo deleted, as a curated album is: the map knows its photos.
        try t.keys("Enter")
        t.wait(forText: "21 photos")
        try t.keys("x")
        t.wait(forText: "20 photos")
        try t.keys("Escape")
        t.wait(forText: "1 pin ")
        try t.keys("m", "l", "l", "l", "l", "l", "l", "Enter")
        // Confirm delete is on: the album is not replaced without a word.
        t.wait(forText: "Moving replaces the 20 photos of")
        let asked = try album("1", db: db)
        XCTAssertEqual(asked.pin.longitude, before.pin.longitude, "nothing moved while asked")
        XCTAssertEqual(asked.photos.count, 20)
        try t.keys("y")
        t.wait(forText: "Moved; a new album is on its way for")
        let after = try waitFor("the album of the new place") { () -> AlbumJSON? in
            let a = try album("1", db: db)
            return a.state == "ready" && !Set(a.photos.map(\.id)).isSubset(of: Set(before.photos.map(\.id))) ? a : nil
        }
        XCTAssertEqual(after.photos.count, 21)
        XCTAssertTrue(Set(after.photos.map(\.id)).isDisjoint(with: before.photos.map(\.id)), "old photos survived the move")
        XCTAssertNotEqual(after.pin.longitude, before.pin.longitude)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testAFailedSearchShowsWhyAndRetryFetchesTheAlbum() throws {
        server = try PhotoServer(delayMs: 30, switchedOn: [.searchDown])
        let db = try temporaryDirectory().appendingPathComponent("failed.sqlite").path
        // Flickr's 105 is a passing failure: tried again for the window (0.6 s at this scale), then failed.
        var quick = env()
        quick["VTOURIST_RETRY_SCALE"] = "0.001"
        let t = try app(db, width: 100, height: 30, environment: quick)
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Enter")
        // The reason is on screen with the heading, and the key that retries.
        let failed = t.wait(for: "the failed search with its reason") {
            $0.contains("The search failed: " + Self.searchDownReason) && $0.contains("Press r to retry")
        }
        XCTAssertEqual(placeholders(in: failed), 0, failed)
        XCTAssertEqual(try album("1", db: db).state, "failed")
        XCTAssertEqual(try album("1", db: db).photos.count, 0)
        // The service is back; only `r` can bring the album now.
        server.set(.searchDown, false)
        try t.keys("r")
        let screen = t.wait(for: "the retried album") { $0.contains("21 photos") && $0.contains("Photo 0 ") }
        XCTAssertFalse(screen.contains("The search failed"), screen)
        XCTAssertEqual(try album("1", db: db).photos.count, 21)
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}

/// How many album cells on a screen wait for their picture: a spinner (a braille
/// glyph) and "downloading" at their centre.
func placeholders(in screen: String) -> Int {
    let parts = screen.components(separatedBy: " downloading")
    return parts.dropLast().filter { part in part.unicodeScalars.last.map { (0x2801...0x28FF).contains($0.value) } ?? false }.count
}
