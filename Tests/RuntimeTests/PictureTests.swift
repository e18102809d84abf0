import Locking
import Foundation
import TestSupport
import Terminal
import TouristCore
import TouristRuntime
import Model
import Geo
import XCTest

/// The album's and the photo screen's pictures through the real runtime: real JPEG bytes from the
/// local photo server, decoded and rendered by the album's renderer on the picture threads.
extension RuntimeTests {
    /// The album's renderer, counting what it is asked to render.
    final class CountingPainter: Sendable {
        private let counts = Locked<[PictureSize: Int]>([:])
        let live: PicturePainter

        init(capabilities: TerminalCapabilities) {
            live = .live(capabilities: capabilities)
        }

        var painter: PicturePainter {
            PicturePainter { [self] data, key in
                counts.withLock { $0[key.size, default: 0] += 1 }
                return live.paint(data, key)
            }
        }

        func count(_ size: PictureSize) -> Int { counts.withLock { $0[size] ?? 0 } }
        var total: Int { counts.withLock { $0.values.reduce(0, +) } }
        var sizes: Set<PictureSize> { counts.withLock { Set($0.keys) } }
    }

    /// A picture cell: any colour that is neither the default nor the album's panel.
    static func isPicture(_ cell: Cell) -> Bool {
        let panel = Theme.forDepth(.trueColor).dialog.bg
        return cell.style.bg != .default && cell.style.bg != panel && cell.style.bg != Theme.forDepth(.trueColor).dim.bg
    }

    /// Starts the app against the photo server, drops a pin and presses Enter on it; the frame
    /// count just before Enter.
    @discardableResult
    func dropPinAndOpenItsAlbum(server: PhotoServer, painter: PicturePainter? = nil, key: String = "good-key",
                                opener: @escaping @Sendable (String) -> Result<Void, PageOpenFailure> = { _ in
                                    .failure(PageOpenFailure("no browser in tests"))
                                }) throws -> Int {
        try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint, key: key,
                  painter: painter, opener: opener)
        let mark = terminal.frameCount
        terminal.press(.char("p"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "1 pin "))
        defer { terminal.press(.enter) }
        return terminal.frameCount
    }

    /// Opens a fresh pin's album with all 21 photos stored.
    func openFullAlbum(server: PhotoServer, painter: PicturePainter? = nil, key: String = "good-key",
                       opener: @escaping @Sendable (String) -> Result<Void, PageOpenFailure> = { _ in
                           .failure(PageOpenFailure("no browser in tests"))
                       }) throws {
        let mark = try dropPinAndOpenItsAlbum(server: server, painter: painter, key: key, opener: opener)
        XCTAssertNotNil(terminal.frame(after: mark, showing: " 21 photos"))
    }

    /// The grid the album is drawn with at the test terminal's size.
    var grid: AlbumGrid {
        let size = terminal.size
        return AlbumGrid(area: Rect(x: 0, y: 0, width: size.width, height: size.height - 1))
    }

    func testAlbumCellsShowTheirPicturesAndMovingOrScrollingNeverRendersAgain() throws {
        let server = try PhotoServer()
        let counter = CountingPainter(capabilities: terminal.capabilities)
        try openFullAlbum(server: server, painter: counter.painter)
        let grid = self.grid
        let body = Rect(x: 0, y: AlbumGrid.top, width: terminal.size.width, height: terminal.size.height - 1 - AlbumGrid.top)
        let shown = grid.columns * grid.visibleRows
        // Every cell on screen gets its picture: its middle is the photo's colours.
        let frame = try XCTUnwrap(terminal.frame { buffer in
            buffer.text.contains(" 21 photos") && (0..<shown).allSatisfy { i in
                guard let cell = grid.cell(i, topRow: 0, in: body) else { return false }
                return RuntimeTests.isPicture(buffer[cell.x + cell.width / 2, cell.y + 1 + grid.pictureSize.rows / 2])
            }
        })
        XCTAssertTrue(frame.text.contains("Photo 0 near"), "the title is under the picture:\n\(frame.text)")
        // On screen and a row below: rendered once each, at the grid's size.
        let ready = grid.columns * (grid.visibleRows + 1)
        let rendered = try XCTUnwrap(waitFor { counter.count(grid.pictureSize) >= ready ? counter.count(grid.pictureSize) : nil })
        XCTAssertEqual(rendered, ready, "only what is on screen and one row either side")
        XCTAssertEqual(counter.sizes, [grid.pictureSize])

        // Moving the selection along the row renders nothing.
        var mark = terminal.frameCount
        terminal.press(.right, .right, .left)
        XCTAssertNotNil(terminal.frame(after: mark) { $0.text.contains("Photo 1 near") })
        terminal.waitUntilEventsAreTaken()
        // Down a row and back: the row below was ready; one more row is rendered ahead, then nothing.
        mark = terminal.frameCount
        terminal.press(.down, .down, .down)
        terminal.waitUntilEventsAreTaken()
        let afterScroll = try XCTUnwrap(waitFor { () -> Int? in
            let n = counter.count(grid.pictureSize)
            return n >= min(21, grid.columns * (grid.visibleRows + 3)) ? n : nil
        })
        terminal.press(.home)
        XCTAssertNotNil(terminal.frame(after: mark) { $0.rowText(1).contains("rows 1-") })
        terminal.press(.char("?"), .escape)
        terminal.waitUntilEventsAreTaken()
        XCTAssertNotNil(terminal.frame(after: mark) { !$0.text.contains("Any key closes") && $0.rowText(1).contains("rows 1-") })
        XCTAssertEqual(counter.count(grid.pictureSize), afterScroll, "scrolling back and a repaint render nothing again")
    }

    func testAResizeRendersEachPictureOnceAtTheNewSize() throws {
        let server = try PhotoServer()
        let counter = CountingPainter(capabilities: terminal.capabilities)
        try openFullAlbum(server: server, painter: counter.painter)
        let before = grid.pictureSize
        XCTAssertNotNil(waitFor { counter.count(before) > 0 ? true : nil })
        terminal.resize(width: 160, height: 50)
        let after = grid.pictureSize
        XCTAssertNotEqual(before, after)
        let wanted = min(21, grid.columns * (grid.visibleRows + 1))
        XCTAssertNotNil(waitFor { counter.count(after) >= wanted ? true : nil })
        terminal.press(.right)
        terminal.waitUntilEventsAreTaken()
        XCTAssertNotNil(terminal.frame { $0.width == 160 && $0.text.contains("Photo 1 near") })
        XCTAssertEqual(counter.count(after), wanted, "each picture rendered once at the new size")
    }

    /// The picture files made by scripts/make_image_fixtures.py.
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images/\(name)"))
    }

    func testEveryBadImageSaysWhatIsWrongInItsCellAndTheRestShow() throws {
        // Stored as if downloaded: whatever the bytes, the album shows every cell and never falls over.
        let files: [(file: String, expected: String?)] = [
            ("truncated_128x128.jpg", nil), ("random.bin", "not a picture"), ("page.html", "not a JPEG (a web page)"), ("picture.png", "not a JPEG (a PNG picture)"),
            ("huge_header_60000x60000.jpg", "too large (60000\u{00D7}60000)"), ("pixel_1x1.jpg", nil),
            ("panorama_10000x200.jpg", nil), ("cmyk_64x48.jpg", nil), ("orientation6_48x32.jpg", nil),
        ]
        let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
        let photos = try store.replaceAlbum(pinID: pin.id, generation: 1, photos: files.map { file in
            NewPhoto(source: "flickr", sourceID: file.file, title: file.file, author: nil, dateTaken: nil,
                     url: "http://127.0.0.1:9/\(file.file)", largeURL: nil, pageURL: nil, license: nil, width: nil, height: nil)
        })
        for (photo, file) in zip(photos, files) {
            XCTAssertTrue(try store.storeImage(photoID: photo.id, generation: 1, bytes: try RuntimeTests.fixture(file.file)))
        }
        _ = try store.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr")
        terminal = TestTerminal(width: 280, height: 40)  // every photo on one screen (no empty file: the store refuses one)
        try start()
        XCTAssertNotNil(terminal.frame(showing: "1 pin "))
        let mark = terminal.frameCount
        terminal.press(.tab, .enter)
        let grid = self.grid
        let body = Rect(x: 0, y: AlbumGrid.top, width: 280, height: 39 - AlbumGrid.top)
        XCTAssertGreaterThanOrEqual(grid.columns * grid.visibleRows, files.count)
        let frame = try XCTUnwrap(terminal.frame(after: mark) { buffer in
            files.indices.allSatisfy { i in
                guard let cell = grid.cell(i, topRow: 0, in: body) else { return false }
                // The cell's words in reading order, however they wrapped.
                let text = (cell.y + 1..<cell.bottom - 2)
                    .map { String(buffer.rowText($0).dropFirst(cell.x + 1).prefix(cell.width - 2)) }
                    .joined(separator: " ").split(separator: " ").joined(separator: " ")
                if let expected = files[i].expected { return text.contains(expected) && text.contains("cannot show") }
                // A picture: some cell of the picture area in the photo's colours.
                return (cell.y + 1..<cell.bottom - 2).contains { y in
                    (cell.x + 1..<cell.right - 1).contains { x in RuntimeTests.isPicture(buffer[x, y]) }
                }
            }
        }, "every cell shows its picture or says what is wrong:\n\(terminal.lastFrame?.text ?? "")")
        XCTAssertTrue(frame.text.contains(" \(files.count) photos"), frame.rowText(1))
    }

    func testThePhotoScreenShowsThePictureLarge() throws {
        let server = try PhotoServer()
        _ = try openFirstPhoto(server: server)
        let area = Rect(x: 1, y: 1, width: terminal.size.width - 2, height: terminal.size.height - 1 - 1 - 5 - 1)
        let frame = try XCTUnwrap(terminal.frame { buffer in
            buffer.text.contains("1 of 21") && RuntimeTests.isPicture(buffer[area.x + area.width / 2, area.y + area.height / 2])
        })
        // Fitted keeping its aspect: the picture is as tall as the area (the fixtures are 4:3 or 3:4).
        let column = area.x + area.width / 2
        XCTAssertTrue(RuntimeTests.isPicture(frame[column, area.y]) || RuntimeTests.isPicture(frame[column, area.y + 1]))
    }

    func testZoomingInOnAStoredPhotoRendersOnlyItsPartInCellsAndFittingDrawsTheWholeAgain() throws {
        let server = try PhotoServer()
        let painted = Locked<[PictureKey]>([])
        let live = PicturePainter.live(capabilities: terminal.capabilities)
        let painter = PicturePainter { data, key in
            painted.withLock { $0.append(key) }
            return live.paint(data, key)
        }
        largeImageServer = server
        try openFullAlbum(server: server, painter: painter)
        let pin = try XCTUnwrap(store.pins().first)
        let photo = try XCTUnwrap(store.photos(pinID: pin.id).first)
        terminal.press(.enter)
        // The large image (1024x768) is fetched and stored: the zoom counts in it.
        XCTAssertNotNil(terminal.frame { $0.text.contains("large 1024\u{00D7}768") })
        let size = terminal.size
        let area = Rect(x: 1, y: 1, width: size.width - 2, height: size.height - 1 - 1 - 5 - 1)
        let middle = area.y + area.height / 2
        // Fitted, a 4:3 photo leaves the area's sides blank.
        let fitted = try XCTUnwrap(terminal.frame { buffer in
            buffer.text.contains("1 of 21") && RuntimeTests.isPicture(buffer[area.x + area.width / 2, middle])
        })
        XCTAssertFalse(RuntimeTests.isPicture(fitted[area.x + 2, middle]))
        XCTAssertFalse(fitted.rowText(0).contains("\u{00D7}"))

        let mark = terminal.frameCount
        terminal.press(.char("+"))
        // Zoomed in (as far as this photo goes in this box: one step): the part shown fills the area's
        // width, and the title says how far.
        let found = terminal.frame(after: mark) { buffer in
            buffer.rowText(0).contains("\u{00D7}  1 of 21") && RuntimeTests.isPicture(buffer[area.x + 2, middle])
        }
        let zoomed = try XCTUnwrap(found, "the cropped picture drawn")
        XCTAssertTrue(RuntimeTests.isPicture(zoomed[area.right - 3, middle]))
        let crops = painted.withLock { $0 }.filter { $0.photoID == photo.id && !$0.crop.isWhole }
        let crop = try XCTUnwrap(crops.last, "a picture of a part of the photo was painted")
        XCTAssertEqual(crop.size, PictureSize(columns: area.width, rows: area.height))
        XCTAssertLessThan(crop.crop.height, 10_000, "a part of the photo's height")
        XCTAssertTrue(zoomed.text.contains("arrows pan"), "the zoomed table's hints")

        // Panning paints the next part; 0 draws the whole again, already on the shelf.
        terminal.press(.char("l"))
        XCTAssertNotNil(waitFor { painted.withLock { $0 }.filter { $0.photoID == photo.id && !$0.crop.isWhole && $0.crop.x > crop.crop.x }.last })
        let before = painted.withLock { $0.count }
        let fitMark = terminal.frameCount
        terminal.press(.char("0"))
        XCTAssertNotNil(terminal.frame(after: fitMark) { buffer in
            !buffer.rowText(0).contains("\u{00D7}") && !RuntimeTests.isPicture(buffer[area.x + 2, middle])
                && RuntimeTests.isPicture(buffer[area.x + area.width / 2, middle])
        })
        terminal.waitUntilEventsAreTaken()
        XCTAssertFalse(painted.withLock { Array($0[before...]) }.contains { $0.photoID == photo.id && $0.crop.isWhole },
                       "the whole picture was kept: not painted again")
    }

    func testWhereTheTerminalShowsRealPicturesThePhotoScreenSendsOneAndTakesItAwayAfter() throws {
        let server = try PhotoServer()
        terminal = TestTerminal(width: 120, height: 40,
                                capabilities: TerminalCapabilities(unicode: true, colors: .trueColor, inlineImages: .kitty))
        try openFullAlbum(server: server, painter: .live(capabilities: terminal.capabilities))
        let pin = try XCTUnwrap(store.pins().first)
        let photos = try store.photos(pinID: pin.id)
        terminal.press(.enter)
        func shown() -> InlinePicture?? { terminal.inlineShown.last }
        let first = try XCTUnwrap(waitFor { shown().flatMap { $0 } }, "a real picture for the photo shown")
        XCTAssertTrue(first.key.hasPrefix("\(photos[0].id)@"), first.key)
        XCTAssertEqual(Array(first.sequence.prefix(3)), [0x1B, 0x5F, 0x47], "a kitty graphics command")
        // Inside the picture's area, below the title and above the details.
        XCTAssertGreaterThanOrEqual(first.y, 1)
        XCTAssertLessThanOrEqual(first.y + first.rows, 40 - 1 - 5 - 1)
        XCTAssertLessThanOrEqual(first.x + first.columns, 119)

        terminal.press(.right)
        let second = try XCTUnwrap(waitFor { shown().flatMap { $0 }.flatMap { $0.key.hasPrefix("\(photos[1].id)@") ? $0 : nil } })
        XCTAssertNotEqual(second.sequence, first.sequence)

        terminal.press(.char("?"))
        XCTAssertNotNil(waitFor { shown().map { $0 == nil } == true ? true : nil }, "help covers the picture")
        terminal.press(.escape)
        XCTAssertNotNil(waitFor { shown().flatMap { $0 }?.key == second.key ? true : nil }, "back when help closes")
        terminal.press(.escape)
        XCTAssertNotNil(terminal.frame { $0.text.contains(" 21 photos") })
        XCTAssertNotNil(waitFor { shown().map { $0 == nil } == true ? true : nil }, "the album shows cells only")
    }

    func testInsideTmuxThePhotosPlaceholderCellsAreDrawnIntoTheFrame() throws {
        let server = try PhotoServer()
        terminal = TestTerminal(width: 120, height: 40,
                                capabilities: TerminalCapabilities(unicode: true, colors: .indexed256, inlineImages: .kittyUnicode))
        try openFullAlbum(server: server, painter: .live(capabilities: terminal.capabilities))
        terminal.press(.enter)
        let picture = try XCTUnwrap(waitFor { terminal.inlineShown.last.flatMap { $0 } }, "a picture for the photo shown")
        let cells = try XCTUnwrap(picture.cells)
        let id = try XCTUnwrap(PlaceholderID.imageID(cells[0, 0].style.fg, depth: .indexed256))
        XCTAssertEqual(picture.imageID, id, "the cells' colour carries the id the image is sent under")
        // The frame holds the placeholders where the picture goes, each with its row and column.
        let frame = try XCTUnwrap(terminal.lastFrame)
        for (x, y) in [(0, 0), (picture.columns - 1, 0), (3, picture.rows - 1)] {
            let cell = frame[picture.x + x, picture.y + y]
            XCTAssertEqual(cell.symbol, ImagePlaceholder.character)
            XCTAssertEqual(cell.placeholder, ImagePlaceholder(row: y, column: x))
            XCTAssertEqual(cell.style.fg, cells[0, 0].style.fg)
        }
        XCTAssertNil(frame[picture.x - 1, picture.y].placeholder, "only over the picture")
    }

    func testWhereAKittyPictureIsShownTheCellsUnderItAreNotWrittenForNothing() throws {
        let server = try PhotoServer()
        terminal = TestTerminal(width: 120, height: 40,
                                capabilities: TerminalCapabilities(unicode: true, colors: .trueColor, inlineImages: .kitty))
        try openFullAlbum(server: server, painter: .live(capabilities: terminal.capabilities))
        terminal.press(.enter)
        let picture = try XCTUnwrap(waitFor { terminal.inlineShown.last.flatMap { $0 } })
        // The frame drawn with the picture (and every one after it): blanks under it and around it
        // in the picture's area, in the panel's background; no cell picture.
        let frame = try XCTUnwrap(terminal.lastFrame)
        let area = Rect(x: 1, y: 1, width: 118, height: 40 - 1 - 1 - 5 - 1)
        XCTAssertTrue(area.contains(x: picture.x, y: picture.y))
        let blank = Cell(" ", style: Style(bg: frame[area.x - 1, area.y].style.bg))
        for y in area.y..<area.bottom {
            for x in area.x..<area.right where frame[x, y] != blank {
                return XCTFail("\(frame[x, y]) at \(x),\(y) under the picture")
            }
        }
    }

    func testPlaceholdersMoveOnlyWhileSomethingDownloads() throws {
        let server = try PhotoServer()
        terminal = TestTerminal(width: 280, height: 40)  // every photo on one screen
        server.holdImages(from: 0)
        var mark = try dropPinAndOpenItsAlbum(server: server)
        let waiting = try XCTUnwrap(terminal.frame(after: mark, showing: "Downloading 0/21", " downloading"))
        // A tick's worth of time later the spinner has moved on.
        mark = terminal.frameCount
        clock.advance(by: 0.2)
        terminal.press(.char("Z"))  // bound to nothing: only the loop going round
        let later = try XCTUnwrap(terminal.frame(after: mark) { $0.text.contains(" downloading") })
        XCTAssertNotEqual(later.text, waiting.text, "the placeholder moved")

        // Once every photo is in and drawn, time passing draws nothing. Every photo fits on this
        // screen, so a frame with all 21 pictures means no picture is still on its way.
        server.set(.holdImages, false)
        let grid = self.grid
        let body = Rect(x: 0, y: AlbumGrid.top, width: terminal.size.width, height: terminal.size.height - 1 - AlbumGrid.top)
        XCTAssertGreaterThanOrEqual(grid.columns * grid.visibleRows, 21)
        XCTAssertNotNil(terminal.frame(after: mark) { buffer in
            buffer.text.contains(" 21 photos") && !buffer.text.contains(" downloading") && (0..<21).allSatisfy { i in
                guard let cell = grid.cell(i, topRow: 0, in: body) else { return false }
                // A picture's symbols, not the "…" of one still being rendered nor a placeholder.
                let inside = (cell.y + 1..<cell.y + 1 + grid.pictureSize.rows)
                    .map { String(buffer.rowText($0).dropFirst(cell.x + 1).prefix(cell.width - 2)) }.joined()
                return !inside.contains("\u{2026}") && !inside.contains("downloading")
                    && inside.contains { $0 != " " }
            }
        }, "every picture drawn:\n\(terminal.lastFrame?.text ?? "")")
        terminal.waitUntilEventsAreTaken()
        let settled = terminal.frameCount
        let still = try XCTUnwrap(terminal.lastFrame)
        for _ in 0..<3 {
            clock.advance(by: 5)
            terminal.press(.char("Z"))
            terminal.waitUntilEventsAreTaken()
        }
        terminal.press(.right)
        // The first frame that differs from the still one is the key's: the selection moved from
        // the first photo to the second, and nothing else changed (a frame drawn meanwhile for
        // any other reason shows the same screen).
        let index = try XCTUnwrap(terminal.frameIndex(after: settled) { $0 != still })
        let moved = try XCTUnwrap(terminal.frame(after: index) { _ in true })
        // A tick would have drawn a frame for each of the three: at most one drawn for another
        // reason (the album's last message after its last picture).
        XCTAssertLessThanOrEqual(index - settled, 1, "time passing draws nothing")
        let first = try XCTUnwrap(grid.cell(0, topRow: 0, in: body)), second = try XCTUnwrap(grid.cell(1, topRow: 0, in: body))
        var changed = 0
        for y in 0..<still.height {
            for x in 0..<still.width where moved[x, y] != still[x, y] {
                changed += 1
                XCTAssertTrue(first.contains(x: x, y: y) || second.contains(x: x, y: y),
                              "only the selection moved, yet (\(x), \(y)) changed: nothing animates")
            }
        }
        XCTAssertGreaterThan(changed, 0)
    }

    /// Polls `probe` until it gives a value (the work it waits for runs on other threads).
    func waitFor<T>(_ probe: () -> T?) -> T? {
        let giveUp = Date().addingTimeInterval(TestTerminal.hangLimit)
        while Date() < giveUp {
            if let value = probe() { return value }
            terminal.nudge()
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }
}
