import Foundation
import TestSupport
import XCTest

/// The C library's `wcwidth`: how a terminal measures a character (tmux and ncurses use it).
@_silgen_name("wcwidth") private func cWidth(_ c: Int32) -> Int32

/// Hostile text from the network, the database and file names, through the real binary in tmux:
/// none of it reaches the terminal raw, and the screen's grid holds.
final class TerminalSafetyTests: EndToEndTestCase {
    /// What must never appear in the bytes the app writes: the attacks of photo_server.py's
    /// HOSTILE and of the pin name and folder below, and the characters a terminal would count
    /// otherwise than the cell buffer (wide characters and combining marks are drawn: they
    /// take the columns the buffer gave them).
    static let forbidden: [(String, String)] = [
        ("OSC", "\u{1B}]"), ("DCS", "\u{1B}P"), ("APC", "\u{1B}_"), ("PM", "\u{1B}^"), ("SOS", "\u{1B}X"),
        ("clear screen from a title", "\u{1B}[2J"), ("SGR from a title", "\u{1B}[31;7;5m"),
        ("an attack's payload", "pwned"), ("BEL", "\u{07}"),
        ("a pile of combining marks", "\u{0301}\u{0301}\u{0301}"), ("a zero-width space", "\u{200B}"),
        ("a zero-width joiner", "\u{200D}"), ("a word joiner", "\u{2060}"), ("a byte-order mark", "\u{FEFF}"),
        ("a variation selector", "\u{FE0F}"), ("a skin tone", "\u{1F3FD}"),
        ("a regional indicator", "\u{1F1EB}"),
    ]

    /// Direction controls (U+061C, U+200E/F, U+202A–202E, U+2066–2069) and C1 controls.
    static func isForbiddenScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    func testHostileTitlesAuthorsLicencesNamesAndPathsNeverReachTheTerminalRaw() throws {
        try showHostileAlbum(source: [:])
    }

    func testHostileFlickrTitlesAndAuthorsNeverReachTheTerminalRaw() throws {
        try showHostileAlbum(source: ["FLICKR_API_KEY": "good-key"])
    }

    /// Imports a pin with a hostile name, opens its album of hostile photos and 13 of them in the
    /// photo view, saves one to a hostile folder; checks every byte written and every screen seen.
    func showHostileAlbum(source: [String: String?], file: StaticString = #filePath, line: UInt = #line) throws {
        server = try PhotoServer(switchedOn: [.hostileText])
        let dir = try temporaryDirectory()
        let db = dir.appendingPathComponent("hostile.sqlite").path
        let pinName = "Pin\u{1B}]0;pwned\u{07}\u{202E}evil\u{1B}[2J \u{540D}e\u{0301}\u{0301}\u{200D}\u{9B}31m"
        let pinFile = dir.appendingPathComponent("hostile.geojson")
        let feature: [String: Any] = ["type": "Feature", "properties": ["name": pinName],
                                      "geometry": ["type": "Point", "coordinates": [14.27, 40.85]]]
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": [feature]])
            .write(to: pinFile)
        let imported = try cli(["import", pinFile.path, "--wait", "--db", db], environment: source)
        XCTAssertEqual(imported.status, 0, imported.stderr, file: file, line: line)
        let pictures = dir.appendingPathComponent("pics\u{1B}]0;pwned\u{07}\u{202E}\u{6771}").path

        let t = try app(db, environment: source.merging(["XDG_PICTURES_DIR": pictures]) { $1 }, recording: true)
        var screens: [String] = []
        screens.append(t.wait(forText: "1 pin "))
        try t.keys("Tab")
        screens.append(t.wait(forText: "evil"))
        try t.keys("Enter")
        let album = t.wait(forText: "21 photos")
        screens.append(album)
        XCTAssertTrue(album.contains("OSC title") && album.contains("Clearscreen SGR"), album, file: file, line: line)
        try t.keys("Enter")
        for n in 1...13 {
            let screen = t.wait(for: "photo \(n)") { $0.contains(" \(n) of 21") && $0.contains("Licence") }
            screens.append(screen)
            try t.keys("Right")
        }
        // The wide title (photo 10, its author the zero-width one) at sizes from narrow to wide.
        try t.keys("Left", "Left", "Left", "Left")
        t.wait(forText: "10 of 21")
        var random = SeededRandom(seed: 10)
        for _ in 0..<Self.hostileSizes {
            let width = Int(random.next() % 150) + 20, height = Int(random.next() % 45) + 8
            try t.resize(width: width, height: height)
            let tooSmall = width < 40 || height < 12
            // Drawn for this size: the counter ends one cell from the right edge.
            let screen = t.wait(for: "the photo view at \(width)×\(height)") { screen in
                tooSmall ? screen.contains("too small")
                    : screen.split(separator: "\n").first.map { $0.hasSuffix("10 of 21") && Self.columns(of: $0) == width - 1 } == true
            }
            assertGrid(screen, width: width, file: file, line: line)
        }
        try t.resize(width: 100, height: 30)
        let wide = t.wait(for: "the photo view at 100×30") { $0.contains("10 of 21") && $0.split(separator: "\n").first.map(Self.columns) == 99 }
        // The wide title is drawn: CJK, an emoji (its skin tone and the emoji joined to it left out), a full-width letter.
        XCTAssertTrue(wide.contains("\u{6771}\u{4EAC} \u{1F44D} \u{1F468} "), wide, file: file, line: line)
        XCTAssertTrue(wide.contains("\u{FF37}ide"), wide, file: file, line: line)
        try t.keys("w")
        screens.append(t.wait(forText: "Saved to"))
        try t.keys("Escape")
        screens.append(t.wait(forText: "21 photos"))
        try t.keys("Escape")
        screens.append(t.wait(forText: "1 pin "))
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0, file: file, line: line)

        let raw = String(decoding: t.recordedOutput(), as: UTF8.self)
        XCTAssertTrue(raw.contains("OSC title"), "the recording holds the album's titles", file: file, line: line)
        for (what, sequence) in Self.forbidden {
            var around = ""
            if let found = raw.range(of: sequence) {
                let start = raw.index(found.lowerBound, offsetBy: -40, limitedBy: raw.startIndex) ?? raw.startIndex
                around = String(raw[start..<found.upperBound])
            }
            XCTAssertTrue(around.isEmpty, "\(what) reached the terminal: \(around.debugDescription)", file: file, line: line)
        }
        let bad = raw.unicodeScalars.filter(Self.isForbiddenScalar)
        XCTAssertTrue(bad.isEmpty, "controls reached the terminal: \(bad.prefix(10).map { String($0.value, radix: 16) })",
                      file: file, line: line)
        for screen in screens { assertGrid(screen, width: 100, file: file, line: line) }
        assertPhotoCountersLineUp(screens, file: file, line: line)
    }

    func testAHostilePathInACommandLineErrorNeverReachesTheTerminalRaw() throws {
        let dir = try temporaryDirectory()
        let notAFolder = dir.appendingPathComponent("file").path
        XCTAssertTrue(FileManager.default.createFile(atPath: notAFolder, contents: Data()))
        let db = notAFolder + "/a\u{1B}]0;pwned\u{07}b\u{202E}c\u{9B}2J\nd/x.sqlite"
        let r = try cli(["drop", "1", "1", "--db", db])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("vtourist: cannot open database"), r.stderr)
        XCTAssertTrue(r.stderr.contains("/file/abc d/x.sqlite"), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "one line: \(r.stderr.debugDescription)")
        for (what, sequence) in Self.forbidden {
            XCTAssertFalse(r.stderr.contains(sequence), "\(what) reached the terminal")
        }
        XCTAssertFalse(r.stderr.unicodeScalars.contains(where: Self.isForbiddenScalar), r.stderr.debugDescription)
    }

    func testHostileTitlesInTheCommandLinesAlbumTableObeyNothingAndKeepTheirWords() throws {
        server = try PhotoServer(switchedOn: [.hostileText])
        let db = try temporaryDirectory().appendingPathComponent("table.sqlite").path
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let table = try cli(["album", "1", "--db", db])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("OSC title") && table.stdout.contains("Clearscreen SGR"), table.stdout)
        // Not a grid of cells: a Japanese title stays Japanese.
        XCTAssertTrue(table.stdout.contains("\u{6771}\u{4EAC}"), table.stdout)
        for (what, sequence) in Self.forbidden.prefix(9) {
            XCTAssertFalse(table.stdout.contains(sequence), "\(what) reached the terminal")
        }
        XCTAssertFalse(table.stdout.unicodeScalars.contains(where: Self.isForbiddenScalar), table.stdout.debugDescription)
    }

    /// Columns a row of the screen takes as the terminal counts them (the C library's `wcwidth`).
    static func columns(of row: Substring) -> Int {
        let previous = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        defer { _ = setlocale(LC_CTYPE, previous) }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
        return row.unicodeScalars.reduce(0) { $0 + max(0, Int(cWidth(Int32(bitPattern: $1.value)))) }
    }

    /// Every character on the screen takes the columns the terminal gives it (one, two for a
    /// wide one, none for a mark on a character), never a measure it lacks; frames of the album's
    /// cells stand in the same columns on every row.
    func assertGrid(_ screen: String, width: Int, file: StaticString = #filePath, line: UInt = #line) {
        let previous = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        defer { _ = setlocale(LC_CTYPE, previous) }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
        var frameColumns: [[Int]] = []
        for row in screen.split(separator: "\n", omittingEmptySubsequences: false) {
            var column = 0, bars: [Int] = [], wrong: [Unicode.Scalar] = []
            for (i, scalar) in row.unicodeScalars.enumerated() {
                let w = Int(cWidth(Int32(bitPattern: scalar.value)))
                // No column: only a combining mark, on a character.
                if w < 0 || (w == 0 && (i == 0 || scalar.properties.generalCategory != .nonspacingMark)) { wrong.append(scalar) }
                if scalar == "\u{2502}" { bars.append(column) }
                column += max(0, w)
            }
            XCTAssertTrue(wrong.isEmpty, "characters without a column of their own \(wrong.map { String($0.value, radix: 16) }) in \(row)",
                          file: file, line: line)
            XCTAssertLessThanOrEqual(column, width, "\(row)", file: file, line: line)
            if !bars.isEmpty { frameColumns.append(bars) }
        }
        guard let widest = frameColumns.max(by: { $0.count < $1.count }) else { return }
        for columns in frameColumns {
            // A row of the grid holds as many cells as there are photos left: a prefix of the full row.
            XCTAssertEqual(columns, Array(widest.prefix(columns.count)), "frames out of line:\n\(screen)", file: file, line: line)
        }
    }

    /// The photo view's `n of 21` ends in the same column whatever the title before it.
    func assertPhotoCountersLineUp(_ screens: [String], file: StaticString = #filePath, line: UInt = #line) {
        let ends = screens.flatMap { screen in
            screen.split(separator: "\n").filter { $0.hasSuffix(" of 21") }.map(Self.columns)
        }
        XCTAssertGreaterThan(ends.count, 10, file: file, line: line)
        XCTAssertEqual(Set(ends).count, 1, "the counter moved: \(ends)", file: file, line: line)
    }

    // MARK: - Resize storm

    /// Hundreds of random sizes, down to 1×1, while an album downloads, in every screen: the app
    /// never dies, and back at 100×30 each screen is exactly what it was before the storm.
    func testResizeStormInEveryScreenWhileAnAlbumDownloads() throws {
        let seed = ProcessInfo.processInfo.environment["VTOURIST_TEST_SEED"].flatMap { UInt64($0) } ?? 20261123
        var random = SeededRandom(testNamed: "TerminalSafetyTests.resizeStorm", fallback: seed)
        // Photos 0–4 arrive; the rest stay downloading for the whole test, so the album keeps still.
        server.holdImages(from: 5)
        let dir = try temporaryDirectory()
        let db = dir.appendingPathComponent("storm.sqlite").path
        let dropped = try cli(["drop", "40.85", "14.27", "--db", db])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)

        let t = try app(db, width: 100, height: 30)
        t.wait(forText: "1 pin ")
        let started = Date()
        var resizes = 0
        func storm(_ screen: String, _ ready: String, settled: (String) -> Bool = { _ in true }) throws {
            // Before: the screen once every stored photo on it is drawn, not while one still waits for
            // its picture (a slow build draws them after the text is up).
            let before = t.wait(for: "\(screen) with every picture drawn") {
                $0.contains(ready) && !Self.waitsForAPicture($0) && settled($0)
            }
            for _ in 0..<Self.resizesPerScreen {
                let (width, height) = Self.randomSize(using: &random)
                try t.resize(width: width, height: height)
                resizes += 1
                // Now and then a pause, so the app draws some of the sizes it is given.
                if random.next() % 8 == 0 { usleep(UInt32(random.next() % 5_000)) }
            }
            try t.resize(width: 100, height: 30)
            XCTAssertNil(t.exitStatus, "the app died in \(screen) (seed \(seed))")
            let after = t.wait(for: "\(screen) as it was before the storm (seed \(seed))", timeout: 10) { $0 == before }
            XCTAssertEqual(after, before, "\(screen) after the storm (seed \(seed))")
        }
        try t.keys("Tab", "Enter")
        t.wait(forText: "Downloading 5/21")
        // The second row selected: a short window scrolls the grid, and back at 100×30 it must not stay so.
        try t.keys("Down")
        try storm("the album while downloading", "rows 1-2 of 7")
        // Space marks the photo and moves on to the next one (still downloaded: the fifth).
        try t.keys("Space", "X")
        try storm("the album's delete dialog", "Delete the 1 marked photo?")
        try t.keys("n", "Enter")
        // The photo view fetches the large picture too: before is the screen once it is shown.
        try storm("the photo view", "5 of 21", settled: { $0.contains(" \u{00B7} large ") })
        try t.keys("Escape")
        t.wait(forText: "Downloading 5/21")
        // The photo marked above is still marked: leaving asks first.
        try t.keys("Escape")
        try storm("the album's leave dialog", "Drop the 1 mark?")
        try t.keys("y")
        try storm("the map", "1 pin ")
        try t.keys("g")
        try t.type("Napl")
        try storm("the go-to prompt", "Go to")
        try t.keys("Escape", "Tab", "x")
        try storm("the delete dialog", "Delete pin")
        try t.keys("n", "s")
        try storm("the settings screen", "Allow dragging")
        try t.keys("Escape")
        t.wait(forText: "1 pin ")
        try t.keys("?")
        try storm("the help", "delete the pin under the cursor")
        try t.keys("Escape")
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "m")
        try storm("a pin being moved", "Moving")
        try t.keys("Escape")
        t.wait(for: "the pin put back") { !$0.contains("Moving") }
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0, "seed \(seed)")
        let stored = try pins(db: db)
        XCTAssertEqual(stored.count, 1)
        // The pin moved through the storm was put back where it was.
        XCTAssertEqual(stored.first?.latitude ?? 0, 40.85, accuracy: 1e-6)
        XCTAssertEqual(stored.first?.longitude ?? 0, 14.27, accuracy: 1e-6)
        print("TerminalSafetyTests.resizeStorm: \(resizes) resizes in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    /// Whether a stored photo on the screen still waits for its picture: a cell (or the photo view)
    /// holding nothing but `…` (AlbumView, PhotoView).
    static func waitsForAPicture(_ screen: String) -> Bool {
        screen.split(separator: "\n").contains { row in
            row.split(separator: "\u{2502}").contains { $0.trimmingCharacters(in: .whitespaces) == "\u{2026}" }
        }
    }

    /// Sizes the photo view with hostile text is checked at, one capture each.
    static let hostileSizes = 30

    static let resizesPerScreen = 100

    /// Mostly anything up to 200×60, often a degenerate one (1 wide, 1 high or 1×1).
    static func randomSize(using random: inout SeededRandom) -> (Int, Int) {
        switch random.next() % 10 {
        case 0: return (1, 1)
        case 1: return (1, Int(random.next() % 60) + 1)
        case 2: return (Int(random.next() % 200) + 1, 1)
        case 3: return (Int(random.next() % 40) + 1, Int(random.next() % 12) + 1)
        default: return (Int(random.next() % 200) + 1, Int(random.next() % 60) + 1)
        }
    }
}
