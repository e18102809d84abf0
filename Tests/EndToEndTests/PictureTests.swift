import Foundation
import TestSupport
import XCTest

/// The album's and the photo screen's pictures as a real terminal shows them:
/// the release binary in tmux, its screen read back into cells with their
/// colours (`capture-pane -e`), against the local Flickr stand-in. The
/// stand-in serves three pictures in turn (photo n is fixture n mod 3:
/// 320×240, 240×320, 400×300), so photos 0 and 3 look the same and 0, 1 and 2 do not.
final class AlbumPictureEndToEndTests: EndToEndTestCase {
    struct AlbumJSON: Decodable {
        struct Photo: Decodable { var id: Int64; var title: String?; var downloaded: Bool }
        var photos: [Photo]
    }

    /// The album grid on a 120×40 screen: 4 columns of cells 28 wide and 11 tall
    /// (one column and one row apart) under the 3 header rows, 3 rows of them
    /// shown; a 26×8 picture in each cell's frame, the title on the row under it.
    enum Grid {
        static let width = 120, height = 40
        static let columns = 4, visibleRows = 3
        static let visible = columns * visibleRows
        static let pictureWidth = 26, pictureHeight = 8

        static func frame(_ index: Int) -> (x: Int, y: Int) {
            (1 + (index % columns) * 29, 3 + (index / columns) * 12)
        }

        static func picture(_ index: Int, in screen: CapturedScreen) -> [ScreenCell] {
            let (x, y) = frame(index)
            return screen.cells(x: x + 1, y: y + 1, width: pictureWidth, height: pictureHeight)
        }

        static func title(_ index: Int, in screen: CapturedScreen) -> String {
            let (x, y) = frame(index)
            return screen.text(x: x + 2, y: y + 9, width: 24)
        }
    }

    /// The photo screen's picture area on the same screen: every row but the
    /// title, the 5 detail rows, the message and the key rows, less a column either side.
    enum PhotoArea {
        static let x = 1, y = 1, width = 118, height = 32
        static let detailsRow = 33

        static func cells(in screen: CapturedScreen) -> [ScreenCell] {
            screen.cells(x: x, y: y, width: width, height: height)
        }
    }

    /// The dialog panel's colour at each depth: not part of any picture.
    static let panel: Set<Pen> = [.rgb(38, 38, 38), .indexed(235)]

    /// A cell a picture painted: a colour of its own behind it.
    static func isPainted(_ cell: ScreenCell) -> Bool {
        cell.bg != .standard && !panel.contains(cell.bg)
    }

    /// Block elements (halves, quadrants, eighths, shades) and box-drawing lines.
    static func isBlockSymbol(_ cell: ScreenCell) -> Bool {
        cell.character.unicodeScalars.allSatisfy { (0x2500...0x259F).contains($0.value) }
    }

    static let spinner: Set<Character> = ["\u{280B}", "\u{2819}", "\u{2839}", "\u{2838}", "\u{283C}",
                                          "\u{2834}", "\u{2826}", "\u{2827}", "\u{2807}", "\u{280F}"]

    /// A flat album of 21 photos, all stored, from `drop --wait`; their titles in album order.
    func storedAlbum(file: StaticString = #filePath, line: UInt = #line) throws -> (db: String, album: AlbumJSON) {
        let db = try temporaryDirectory().appendingPathComponent("pictures.sqlite").path
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(dropped.status, 0, dropped.stderr, file: file, line: line)
        let a = try album(db: db)
        XCTAssertEqual(a.photos.count, 21, file: file, line: line)
        XCTAssertTrue(a.photos.allSatisfy(\.downloaded), file: file, line: line)
        return (db, a)
    }

    func album(db: String) throws -> AlbumJSON {
        let r = try cli(["album", "1", "--json", "--db", db], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONDecoder().decode(AlbumJSON.self, from: Data(r.stdout.utf8))
    }

    /// The app at 120×40 with this terminal's variables, its first pin's album open.
    func openAlbum(_ db: String, terminal: [String: String?]) throws -> TmuxSession {
        var overrides = terminal
        overrides["FLICKR_API_KEY"] = "good-key"
        let t = try app(db, width: Grid.width, height: Grid.height, environment: overrides)
        t.wait(forText: "1 pin")
        try t.keys("Tab", "Enter")
        return t
    }

    /// Whether every shown cell has its picture: a painted block in its picture area
    /// at least as large as the narrowest photo's (12×8 for the 3:4 one).
    static func everyCellPainted(_ screen: CapturedScreen) -> Bool {
        // The album's own screen: the map under it (in ASCII, painted too) does not count.
        screen.plain.contains("New Collection")
            && (0..<Grid.visible).allSatisfy { Grid.picture($0, in: screen).filter(isPainted).count >= 90 }
    }

    /// What every album screen shows whatever the terminal: each shown cell's title under
    /// its picture, and the pictures of the same photo alike, of different photos not.
    func assertGridShowsTheAlbum(_ screen: CapturedScreen, _ album: AlbumJSON, file: StaticString = #filePath,
                                 line: UInt = #line) {
        for i in 0..<Grid.visible {
            let expected = String((album.photos[i].title ?? "").prefix(14))
            XCTAssertTrue(Grid.title(i, in: screen).hasPrefix(expected),
                          "cell \(i)'s title is \u{201C}\(Grid.title(i, in: screen))\u{201D}, not \(expected)…\n\(screen.plain)",
                          file: file, line: line)
        }
        XCTAssertEqual(Grid.picture(0, in: screen), Grid.picture(3, in: screen),
                       "photos 0 and 3 are the same picture\n\(screen.plain)", file: file, line: line)
        XCTAssertEqual(Grid.picture(1, in: screen), Grid.picture(4, in: screen), file: file, line: line)
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let differing = zip(Grid.picture(a, in: screen), Grid.picture(b, in: screen)).filter { $0 != $1 }.count
            XCTAssertGreaterThan(differing, Grid.pictureWidth * Grid.pictureHeight / 3,
                                 "photos \(a) and \(b) look alike\n\(screen.plain)", file: file, line: line)
        }
    }

    /// The colours of the shown pictures: many distinct backgrounds over the grid, a few in
    /// each picture, symbols with a colour of their own on them; every pen as `allowed` says.
    func assertColouredPictures(_ screen: CapturedScreen, allowed: (Pen) -> Bool, file: StaticString = #filePath,
                                line: UInt = #line) {
        let pictures = (0..<Grid.visible).map { Grid.picture($0, in: screen) }
        let painted = pictures.joined().filter(Self.isPainted)
        let backgrounds = Set(painted.map(\.bg))
        XCTAssertGreaterThanOrEqual(backgrounds.count, 20, "distinct backgrounds over the grid", file: file, line: line)
        for (i, picture) in pictures.enumerated() {
            XCTAssertGreaterThanOrEqual(Set(picture.filter(Self.isPainted).map(\.bg)).count, 5,
                                        "distinct backgrounds in cell \(i)", file: file, line: line)
        }
        let symbols = painted.filter(Self.isBlockSymbol)
        XCTAssertGreaterThanOrEqual(symbols.count, painted.count / 4, "block symbols over the pictures", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Set(symbols.map(\.character)).count, 4, "kinds of block symbol", file: file, line: line)
        let twoColoured = symbols.filter { $0.fg != .standard && $0.fg != $0.bg }
        XCTAssertGreaterThanOrEqual(twoColoured.count, symbols.count * 9 / 10, "symbols in one colour on another",
                                    file: file, line: line)
        let pens = screen.rows.joined().flatMap { [$0.fg, $0.bg] }.filter { $0 != .standard }
        let wrong = Set(pens.filter { !allowed($0) })
        XCTAssertTrue(wrong.isEmpty, "pens of the wrong kind: \(Array(wrong.prefix(5)))", file: file, line: line)
    }

    /// The photo screen's picture: painted cells filling a box `columns` wide over
    /// every row of the picture area, many colours.
    func assertLargePicture(_ screen: CapturedScreen, columns: Int, file: StaticString = #filePath, line: UInt = #line) {
        let area = PhotoArea.cells(in: screen)
        let painted = area.filter(Self.isPainted)
        XCTAssertGreaterThanOrEqual(painted.count, columns * PhotoArea.height * 9 / 10, "painted cells", file: file, line: line)
        for row in 0..<PhotoArea.height {
            let cells = screen.cells(x: PhotoArea.x, y: PhotoArea.y + row, width: PhotoArea.width, height: 1)
            XCTAssertGreaterThanOrEqual(cells.filter(Self.isPainted).count, columns * 8 / 10, "painted cells in row \(row)",
                                        file: file, line: line)
        }
        XCTAssertGreaterThanOrEqual(Set(painted.map(\.bg)).count, 50, "distinct backgrounds", file: file, line: line)
    }

    /// A mouse report as xterm-256color's terminal sends it (SGR encoding, 1-based cells): `M` for a
    /// press or the wheel, `m` for a release.
    static func mouse(_ button: Int, x: Int, y: Int, release: Bool = false) -> String {
        "\u{1B}[<\(button);\(x + 1);\(y + 1)" + (release ? "m" : "M")
    }

    static func click(x: Int, y: Int) -> String {
        mouse(0, x: x, y: y) + mouse(0, x: x, y: y, release: true)
    }

    func testTheMouseSelectsOpensAndScrollsTheAlbum() throws {
        let (db, before) = try storedAlbum()
        let t = try openAlbum(db, terminal: ["TERM": "xterm-256color"])
        t.wait(forText: " 21 photos")
        // One click on the third photo: selected, its title in the highlight colour.
        let (x, y) = Grid.frame(2)
        try t.type(Self.click(x: x + 5, y: y + 3))
        let selected = t.waitForCells("the third photo selected") { $0[x + 2, y + 9].bg == .indexed(220) }
        XCTAssertNotEqual(selected[Grid.frame(0).x + 2, Grid.frame(0).y + 9].bg, Pen.indexed(220))
        // A click on the first photo moves the selection there.
        let (x0, y0) = Grid.frame(0)
        try t.type(Self.click(x: x0 + 5, y: y0 + 3))
        t.waitForCells("the first photo selected") { $0[x0 + 2, y0 + 9].bg == .indexed(220) && $0[x + 2, y + 9].bg != .indexed(220) }
        // A double click on the third opens it: two clicks written one right after the other, as a
        // hand makes them, not with a look at the screen between (which can take the harness longer
        // than the 0.4 s of a double click, under a sanitizer or on busy cores).
        try t.type(Self.click(x: x + 5, y: y + 3))
        try t.type(Self.click(x: x + 5, y: y + 3))
        let photo = t.wait(forText: "3 of 21")
        XCTAssertTrue(photo.contains(before.photos[2].title ?? "?"), photo)
        // Once the large image is there (its size in the details), the wheel over the picture zooms
        // in at the pointer (up) and back out (down).
        t.wait(forText: "\u{00B7} large ")
        try t.type(Self.mouse(64, x: 50, y: 10))
        // The hint row says which: zoomed, the arrows pan; fitted, they step.
        t.wait(forText: "arrows pan")
        try t.type(Self.mouse(65, x: 50, y: 10))
        t.waitForCells("fitted again") { $0.plain.contains("3 of 21") && $0.plain.contains("previous") }
        // → steps to the next photo; Esc goes back with it selected.
        try t.keys("Right")
        t.wait(forText: "4 of 21")
        try t.keys("Escape")
        t.wait(forText: " 21 photos")
        // The wheel scrolls the grid.
        try t.type(Self.mouse(65, x: 50, y: 10))
        t.wait(forText: "rows 2-4 of 6")
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testTrueColourPicturesInTheAlbumThenThePhotoScreenStepsAndDeletes() throws {
        let (db, before) = try storedAlbum()
        // What most true-colour terminals say: a 256-colour type, and COLORTERM.
        let t = try openAlbum(db, terminal: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        var screen = t.waitForCells("a picture in every cell", Self.everyCellPainted)
        XCTAssertTrue(screen.plain.contains(" 21 photos"), screen.plain)
        assertGridShowsTheAlbum(screen, before)
        assertColouredPictures(screen) { if case .rgb = $0 { return true } else { return false } }
        XCTAssertTrue(screen.sequences.contains { $0.contains("48;2;") }, "true-colour backgrounds")

        // Enter: the first photo large, its details under it.
        try t.keys("Enter")
        screen = t.waitForCells("the first photo large") {
            $0.plain.contains("1 of 21") && PhotoArea.cells(in: $0).filter(Self.isPainted).count > 2000
        }
        XCTAssertTrue(screen.text(x: 0, y: 0, width: Grid.width).hasPrefix(" " + (before.photos[0].title ?? "?")), screen.plain)
        // 320×240 in 118×32 cells twice as tall as wide: 85 columns, every row.
        assertLargePicture(screen, columns: 85)
        for (row, label) in ["Author", "Taken", "Licence", "Page", "Source"].enumerated() {
            XCTAssertEqual(screen.text(x: 1, y: PhotoArea.detailsRow + row, width: label.count), label, screen.plain)
        }
        XCTAssertTrue(screen.text(x: 11, y: PhotoArea.detailsRow, width: 20).hasPrefix("Photographer 0"), screen.plain)
        let first = PhotoArea.cells(in: screen)

        // →: the second photo, another picture (240×320: 48 columns).
        try t.keys("Right")
        screen = t.waitForCells("the second photo large") {
            $0.plain.contains("2 of 21") && PhotoArea.cells(in: $0).filter(Self.isPainted).count > 1300
        }
        XCTAssertTrue(screen.text(x: 0, y: 0, width: Grid.width).hasPrefix(" " + (before.photos[1].title ?? "?")), screen.plain)
        assertLargePicture(screen, columns: 48)
        let second = PhotoArea.cells(in: screen)
        XCTAssertGreaterThan(zip(first, second).filter { $0 != $1 }.count, first.count / 2, "the picture did not change")

        // x: the photo goes, the album shows one fewer and the grid flows up.
        try t.keys("x")
        screen = t.waitForCells("the album without it") {
            $0.plain.contains(" 20 photos") && Grid.title(1, in: $0).hasPrefix(String((before.photos[2].title ?? "").prefix(14)))
                && Self.everyCellPainted($0)
        }
        // Gone from the grid; the message line names what went.
        let gone = String((before.photos[1].title ?? "?").prefix(14))
        XCTAssertFalse((0..<Grid.visible).contains { Grid.title($0, in: screen).hasPrefix(gone) }, screen.plain)
        XCTAssertTrue(screen.plain.contains("Deleted “\(before.photos[1].title ?? "?")”"), screen.plain)
        // Photo 2 now sits where photo 1 was, its picture with it.
        XCTAssertEqual(Grid.picture(1, in: screen), Grid.picture(4, in: screen), "photos 2 and 5 are the same picture")
        let after = try album(db: db)
        XCTAssertEqual(after.photos.map(\.id), before.photos.map(\.id).filter { $0 != before.photos[1].id })
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testTwoHundredFiftySixColours() throws {
        let (db, before) = try storedAlbum()
        let t = try openAlbum(db, terminal: ["TERM": "xterm-256color"])
        var screen = t.waitForCells("a picture in every cell", Self.everyCellPainted)
        assertGridShowsTheAlbum(screen, before)
        // The cube and the grey ramp only: terminals theme pens 0–15.
        assertColouredPictures(screen) { if case let .indexed(n) = $0 { return n >= 16 } else { return false } }
        XCTAssertTrue(screen.sequences.contains { $0.contains("48;5;") }, "256-colour backgrounds")

        try t.keys("Enter")
        screen = t.waitForCells("the first photo large") {
            $0.plain.contains("1 of 21") && PhotoArea.cells(in: $0).filter(Self.isPainted).count > 2000
        }
        assertLargePicture(screen, columns: 85)
        XCTAssertFalse(screen.sequences.contains { $0.contains("8;2;") }, "true colour on a 256-colour terminal")
        try t.keys("Escape", "q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testWithoutColourThePicturesAreShapes() throws {
        let (db, before) = try storedAlbum()
        let t = try openAlbum(db, terminal: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        // No colour to wait for: wait for the shapes, as many as a picture has.
        let screen = t.waitForCells("a shape in every cell") { screen in
            (0..<Grid.visible).allSatisfy { i in Grid.picture(i, in: screen).filter { $0.character != " " }.count >= 40 }
        }
        XCTAssertTrue(screen.plain.contains(" 21 photos"), screen.plain)
        assertGridShowsTheAlbum(screen, before)
        XCTAssertEqual(colourSGRs(t.screenWithEscapes()), [], "colour with NO_COLOR set")
        XCTAssertTrue(screen.rows.joined().allSatisfy { $0.fg == .standard && $0.bg == .standard })
        for i in 0..<Grid.visible {
            let shapes = Grid.picture(i, in: screen).filter { $0.character != " " }
            XCTAssertTrue(shapes.allSatisfy(Self.isBlockSymbol), "cell \(i): \(Set(shapes.map(\.character)))")
            XCTAssertGreaterThanOrEqual(Set(shapes.map(\.character)).count, 3, "cell \(i): kinds of symbol")
        }

        // The photo screen: the picture large in shapes alone (320×240: 85 columns).
        try t.keys("Enter")
        let photo = t.waitForCells("the first photo large") { screen in
            screen.plain.contains("1 of 21") && PhotoArea.cells(in: screen).filter { $0.character != " " }.count > 1000
        }
        XCTAssertEqual(colourSGRs(t.screenWithEscapes()), [], "colour with NO_COLOR set")
        let shapes = PhotoArea.cells(in: photo).filter { $0.character != " " }
        XCTAssertTrue(shapes.allSatisfy(Self.isBlockSymbol), "\(Set(shapes.map(\.character)))")
        let columns = Set((0..<PhotoArea.height).flatMap { row in
            (0..<PhotoArea.width).filter { photo[PhotoArea.x + $0, PhotoArea.y + row].character != " " }
        })
        XCTAssertGreaterThanOrEqual((columns.max() ?? 0) - (columns.min() ?? 0) + 1, 80, "the picture's width in columns")
        try t.keys("Escape", "q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testWithoutAUTF8LocaleThePicturesAreASCII() throws {
        let (db, before) = try storedAlbum()
        let t = try openAlbum(db, terminal: ["TERM": "xterm-256color", "LANG": "C", "LC_ALL": "C"])
        let screen = t.waitForCells("a picture in every cell", Self.everyCellPainted)
        assertGridShowsTheAlbum(screen, before)
        assertOnlyASCII(screen)
        for i in 0..<Grid.visible {
            let shapes = Set(Grid.picture(i, in: screen).filter { $0.character != " " }.map(\.character))
            XCTAssertGreaterThanOrEqual(shapes.count, 3, "cell \(i): kinds of ASCII symbol \(shapes)")
        }

        // The photo screen too: the picture large, the details and the keys in ASCII.
        try t.keys("Enter")
        let photo = t.waitForCells("the first photo large") {
            $0.plain.contains("1 of 21") && PhotoArea.cells(in: $0).filter(Self.isPainted).count > 2000
        }
        assertLargePicture(photo, columns: 85)
        assertOnlyASCII(photo)
        XCTAssertGreaterThanOrEqual(Set(PhotoArea.cells(in: photo).map(\.character)).count, 5, "kinds of ASCII symbol")
        try t.keys("Escape", "q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func assertOnlyASCII(_ screen: CapturedScreen, file: StaticString = #filePath, line: UInt = #line) {
        let cells = Array(screen.rows.joined())
        let foreign = Set(cells.filter { !$0.character.isASCII }.map(\.character))
        XCTAssertTrue(foreign.isEmpty, "characters beyond ASCII: \(foreign)\n\(screen.plain)", file: file, line: line)
        XCTAssertFalse(cells.contains(where: \.alternateCharset), "line drawing from the alternate character set",
                       file: file, line: line)
    }

    func testPlaceholdersSpinWhileImagesAreHeldThenPicturesReplaceThem() throws {
        server = try PhotoServer(switchedOn: [.holdImages])
        let db = try temporaryDirectory().appendingPathComponent("held.sqlite").path
        let t = try app(db, width: Grid.width, height: Grid.height,
                        environment: ["FLICKR_API_KEY": "good-key", "TERM": "xterm-256color"])
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Enter")
        try waitFor("the image requests to be held") { () -> Bool? in (server.stats()["images_in_flight"] ?? 0) > 0 ? true : nil }
        /// The spinner glyph before "downloading" in each shown cell (nil where there is none).
        func spinners(_ screen: CapturedScreen) -> [Character?] {
            (0..<Grid.visible).map { i in
                let (x, y) = Grid.frame(i)
                let row = screen.text(x: x + 1, y: y + 5, width: Grid.pictureWidth)
                guard let range = row.range(of: " downloading") else { return nil }
                return row[..<range.lowerBound].last.flatMap { Self.spinner.contains($0) ? $0 : nil }
            }
        }
        let first = t.waitForCells("a placeholder in every cell") { spinners($0).allSatisfy { $0 != nil } }
        XCTAssertTrue(first.plain.contains("Downloading 0/21"), first.plain)
        XCTAssertFalse((0..<Grid.visible).contains { Grid.picture($0, in: first).contains(where: Self.isBlockSymbol) },
                       "a picture while every image is held\n\(first.plain)")
        let turned = t.waitForCells("the spinner to turn") { spinners($0) != spinners(first) && spinners($0).allSatisfy { $0 != nil } }
        XCTAssertNotEqual(spinners(turned), spinners(first))
        XCTAssertEqual(server.stats()["image_requests"].map { $0 > 0 }, true)

        server.set(.holdImages, false)
        let done = t.waitForCells("pictures in place of the placeholders") {
            Self.everyCellPainted($0) && $0.plain.contains(" 21 photos")
        }
        XCTAssertFalse(done.plain.contains("downloading"), done.plain)
        XCTAssertTrue(spinners(done).allSatisfy { $0 == nil })
        assertColouredPictures(done) { if case let .indexed(n) = $0 { return n >= 16 } else { return false } }
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
