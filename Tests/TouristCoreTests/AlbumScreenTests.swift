import AlbumMachine
import Terminal
import TouristCore
import Geo
import Model
import WorldMap
import XCTest

final class AlbumScreenTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    func photo(_ id: Int64, _ state: PhotoState = .stored, title: String? = nil) -> PhotoRecord {
        Sample.photo(id, state, title: title)
    }

    func openState(_ photos: [PhotoRecord], status: AlbumStatus = .ready, name: String = "Naples, Campania, IT") -> AppState {
        let p = Mercator.project(GeoPoint(latitude: 40.85, longitude: 14.27))
        var s = AppState(camera: MapCamera(centerX: p.x, centerY: p.y, zoom: 10, cursorX: p.x, cursorY: p.y), width: 80, height: 24)
        let pin = Pin(id: 1, coordinate: GeoPoint(latitude: 40.85, longitude: 14.27), name: name)
        s.pins = [pin]
        XCTAssertEqual(reducer.reduce(&s, .event(.key(.enter), time: 0)), [.openAlbum(1)])
        XCTAssertEqual(s.screen, .album(AlbumScreen(pinID: 1)))
        _ = reducer.reduce(&s, .albumLoaded(AlbumSnapshot(pinID: 1, photos: photos, status: status, source: "flickr")))
        return s
    }

    @discardableResult
    func send(_ s: inout AppState, _ key: Key) -> [AppEffect] {
        reducer.reduce(&s, .event(.key(key), time: 0))
    }

    func testDeleteFlowsTheGridUp() {
        var s = openState((1...5).map { photo($0) })
        send(&s, .right)
        XCTAssertEqual(s.album?.selectedPhoto?.id, 2)
        XCTAssertEqual(send(&s, .char("x")), [.album(1, .deletePhotos([2]))])
        XCTAssertEqual(s.album?.photos.map(\.id), [1, 3, 4, 5])
        XCTAssertEqual(s.album?.selectedPhoto?.id, 3)
    }

    func testMarkAndDeleteMarked() {
        var s = openState((1...5).map { photo($0) })
        send(&s, .char(" "))
        send(&s, .right)
        send(&s, .char(" "))
        XCTAssertEqual(s.album?.marked, [1, 3])
        XCTAssertEqual(send(&s, .char("X")), [], "asked first (the confirm-delete setting)")
        XCTAssertEqual(send(&s, .char("y")), [.album(1, .deletePhotos([1, 3]))])
        XCTAssertEqual(s.album?.photos.map(\.id), [2, 4, 5])
        XCTAssertEqual(s.album?.marked, [])
    }

    /// Park #1 … Park #15: a title is what the user sees of a photo.
    func parks(_ count: Int = 15) -> [PhotoRecord] {
        (1...Int64(count)).map { photo($0, title: "Park #\($0)") }
    }

    func select(_ s: inout AppState, _ id: PhotoRecord.ID) {
        while s.album?.selectedPhoto?.id ?? id < id { send(&s, .right) }
        XCTAssertEqual(s.album?.selectedPhoto?.id, id)
    }

    func testDeletingMarkedPhotosLeavesTheSelectionOnItsPhoto() {
        var s = openState(parks())
        send(&s, .char(" "))  // marks #1, moves on to #2
        send(&s, .char(" "))  // marks #2, moves on to #3
        select(&s, 9)
        send(&s, .char("X"))
        XCTAssertEqual(send(&s, .char("y")), [.album(1, .deletePhotos([1, 2]))])
        XCTAssertEqual(s.album?.selectedPhoto?.title, "Park #9", "the highlight stays on the photo the user chose")
        XCTAssertEqual(send(&s, .char("x")), [.album(1, .deletePhotos([9]))], "x deletes that photo, not another")
        XCTAssertEqual(s.album?.selectedPhoto?.title, "Park #10", "then its next survivor")
    }

    func testASelectedMarkedPhotoGoesToItsNearestSurvivor() {
        var s = openState(parks(6))
        select(&s, 3)
        send(&s, .char(" "))  // marks #3, moves on to #4
        send(&s, .char(" "))  // marks #4, moves on to #5
        send(&s, .left)
        send(&s, .left)       // back on #3, marked
        send(&s, .char("X"))
        send(&s, .char("y"))
        XCTAssertEqual(s.album?.selectedPhoto?.id, 5, "the next photo that is left")
        // The last photo deleted: the one before it.
        select(&s, 6)
        send(&s, .char("x"))
        XCTAssertEqual(s.album?.selectedPhoto?.id, 5)
    }

    func testAReloadKeepsTheSelectionOnItsPhotoOrItsNearestSurvivor() {
        var s = openState(parks(8))
        select(&s, 5)
        // Another window deleted photos before the selected one.
        _ = reducer.reduce(&s, .albumLoaded(AlbumSnapshot(pinID: 1, photos: parks(8).filter { $0.id > 2 },
                                                          status: .ready, source: "flickr")))
        XCTAssertEqual(s.album?.selectedPhoto?.id, 5)
        // …and then the selected one and its neighbour before it.
        _ = reducer.reduce(&s, .albumLoaded(AlbumSnapshot(pinID: 1, photos: parks(8).filter { ![1, 2, 4, 5].contains($0.id) },
                                                          status: .ready, source: "flickr")))
        XCTAssertEqual(s.album?.selectedPhoto?.id, 6, "the next photo still there")
        // …and every photo after it: the one before.
        _ = reducer.reduce(&s, .albumLoaded(AlbumSnapshot(pinID: 1, photos: parks(8).filter { [3, 4].contains($0.id) },
                                                          status: .ready, source: "flickr")))
        XCTAssertEqual(s.album?.selectedPhoto?.id, 3)
    }

    func testTheHeaderCountsTheMarksAndNamesTheKeyThatDeletesThem() {
        var s = openState(parks(6))
        XCTAssertFalse(AppView.render(s, raster: nil).rowText(1).contains("marked"))
        send(&s, .char(" "))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).contains("1 marked \u{00B7} X deletes it"))
        XCTAssertEqual(s.album?.selectedPhoto?.id, 2, "space moves on to the next photo")
        send(&s, .char(" "))
        send(&s, .char(" "))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).contains("3 marked \u{00B7} X deletes them"))
        XCTAssertTrue(AlbumKeys.table.helpRows().contains(HelpRow("space", "mark / unmark the photo and move on to the next")))
    }

    func testMarksSurviveScrollingAndLeavingWithMarksAsksFirst() {
        var s = openState(parks(40))
        send(&s, .char(" "))
        send(&s, .char(" "))
        send(&s, .pageDown)
        send(&s, .pageDown)
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.wheelUp, x: 10, y: 10)), time: 0))
        send(&s, .char("G"))
        send(&s, .home)
        XCTAssertEqual(s.album?.marked, [1, 2], "scrolling and paging keep the marks")
        send(&s, .escape)
        XCTAssertEqual(s.album?.confirming, .leave(marks: 2))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Drop the 2 marks?"))
        send(&s, .char("n"))
        XCTAssertNil(s.album?.confirming)
        XCTAssertEqual(s.album?.marked, [1, 2], "no: the album and its marks stay")
        send(&s, .char("q"))
        XCTAssertEqual(send(&s, .char("y")), [])
        XCTAssertEqual(s.screen, .map(MapScreen()))
        // Without marks, Esc leaves at once.
        var plain = openState(parks(3))
        send(&plain, .escape)
        XCTAssertEqual(plain.screen, .map(MapScreen()))
    }

    func testEveryDeleteSaysWhatWentAndOnePhotoIsNeverAsked() {
        var s = openState(parks(6))
        XCTAssertTrue(s.settings.confirmDelete)
        select(&s, 4)
        var effects = send(&s, .char("x"))
        XCTAssertEqual(effects, [.album(1, .deletePhotos([4]))], "deleted at once, confirm delete or not")
        XCTAssertNil(s.album?.confirming)
        XCTAssertEqual(s.message?.text, "Deleting \u{201C}Park #4\u{201D}\u{2026}", "said deleted only once the store has it")
        reducer.commit(effects, &s)
        XCTAssertEqual(s.message?.text, "Deleted \u{201C}Park #4\u{201D}.")
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(22).contains("Deleted \u{201C}Park #4\u{201D}."))
        send(&s, .char(" "))
        send(&s, .char(" "))
        send(&s, .char("X"))
        effects = send(&s, .char("y"))
        XCTAssertEqual(effects, [.album(1, .deletePhotos([5, 6]))])
        XCTAssertEqual(s.message?.text, "Deleting 2 photos\u{2026}")
        reducer.commit(effects, &s)
        XCTAssertEqual(s.message?.text, "Deleted 2 photos.")
        send(&s, .home)
        send(&s, .char(" "))
        send(&s, .char("X"))
        reducer.commit(send(&s, .char("y")), &s)
        XCTAssertEqual(s.message?.text, "Deleted \u{201C}Park #1\u{201D}.", "one marked photo is named too")
        XCTAssertEqual(send(&s, .char("X")), [])
        XCTAssertEqual(s.message?.text, "Mark photos with space first.")
    }

    func testNoImagesShowsNoDeleteMarkOrSaveHints() {
        let s = openState([], status: .empty)
        let screen = AppView.render(s, raster: nil)
        XCTAssertTrue(screen.text.contains("No Images"))
        let hints = screen.rowText(2)
        XCTAssertTrue(hints.contains("a Add more"), hints)
        for word in ["delete", "mark", "W save"] { XCTAssertFalse(screen.text.contains(word), screen.text) }
        let full = AppView.render(openState(parks(3)), raster: nil).rowText(2)
        XCTAssertTrue(full.contains("x delete") && full.contains("space mark"), full)
    }

    func testPagingAndTheEndsOfTheGrid() {
        var s = openState(parks(60))
        let grid = AlbumGrid(area: Rect(x: 0, y: 0, width: 80, height: 23))
        let page = grid.visibleRows * grid.columns
        send(&s, .right)
        send(&s, .pageDown)
        XCTAssertEqual(s.album?.selected, 1 + page, "a screen of rows down, in the same column")
        XCTAssertEqual(s.album?.topRow, grid.visibleRows, "the grid scrolls by a screen too")
        send(&s, .pageUp)
        XCTAssertEqual(s.album?.selected, 1)
        XCTAssertEqual(s.album?.topRow, 0)
        send(&s, .pageUp)
        XCTAssertEqual(s.album?.selected, 1, "on the first screen PgUp stays in the first row")
        for key: Key in [.char("G"), .end] {
            send(&s, .char("g"))
            XCTAssertEqual(s.album?.selected, 0)
            send(&s, key)
            XCTAssertEqual(s.album?.selectedPhoto?.id, 60)
        }
        send(&s, .pageDown)
        XCTAssertEqual(s.album?.selectedPhoto?.id, 60, "PgDn on the last screen stays on the last photo")
        send(&s, .home)
        XCTAssertEqual(s.album?.selected, 0)
        XCTAssertEqual(s.album?.topRow, 0)
    }

    func testTheHeaderSaysWhatRRetries() {
        var s = openState([photo(1), photo(2, .failed(reason: "HTTP 404")), photo(3, .failed(reason: "HTTP 500"))])
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).contains("3 photos, 2 failed \u{00B7} r retries 2 failed"))
        XCTAssertEqual(send(&s, .char("r")), [.album(1, .retry(photo: nil))])
        send(&s, .right)
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).contains("3 photos, 2 failed \u{00B7} r retries this photo"))
        XCTAssertEqual(send(&s, .char("r")), [.album(1, .retry(photo: 2))])
    }

    /// What the album machine says to an action on an album read back with these photos.
    func machineNotice(_ action: AlbumAction, status: AlbumStatus, _ photos: [AlbumPhoto]) -> String? {
        var album = Album(pin: 1, place: GeoPoint(latitude: 40.85, longitude: 14.27), status: status, page: 1,
                          pageCount: 1, photos: photos)
        let effects = AlbumMachine.reduce(&album, action, AlbumEnvironment(perPage: 21, pickPage: { _, _ in 1 }))
        for case let .notify(text) in effects { return text }
        return nil
    }

    func testNewCollectionIsTheMachinesToRefuse() {
        var s = openState([photo(1), photo(2, .pending)], status: .downloading)
        XCTAssertEqual(send(&s, .char("n")), [.album(1, .newCollection)], "the screen asks; the album machine decides")
        XCTAssertNil(s.message)
        // The hint stays dimmed while the album is downloading.
        let theme = Theme.forDepth(s.capabilities.colors)
        let screen = AppView.render(s, raster: nil)
        XCTAssertEqual(screen[1, 2].symbol, "n")
        XCTAssertEqual(screen[1, 2].style, theme.dim)
        // The machine's refusal reaches the message line.
        let notice = machineNotice(.newCollection, status: .downloading,
                                   [AlbumPhoto(id: 1, url: "u1", state: .stored), AlbumPhoto(id: 2, url: "u2")])
        XCTAssertEqual(notice, "Still downloading: New Collection is available once every photo is in")
        _ = reducer.reduce(&s, .albumNotice(1, notice ?? ""))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(22).contains("Still downloading: New Collection"))
        // Another album's notice is not this one's.
        _ = reducer.reduce(&s, .albumNotice(2, "Nothing to retry"))
        XCTAssertEqual(s.message?.text, notice)

        var ready = openState([photo(1)])
        XCTAssertEqual(send(&ready, .char("n")), [], "asked first (the confirm-delete setting)")
        XCTAssertEqual(send(&ready, .char("y")), [.album(1, .newCollection)])
        XCTAssertEqual(send(&ready, .char("a")), [.album(1, .addMore)])
    }

    func testWSavesTheWholeAlbumAndSaysItIsSaving() {
        var s = openState([photo(1), photo(2)])
        XCTAssertEqual(send(&s, .char("W")), [.saveAlbum(1)])
        XCTAssertEqual(s.message?.text, "Saving the album\u{2026}")
        XCTAssertNotNil(s.album, "the album stays shown")
        // The saver answers through the message line.
        _ = reducer.reduce(&s, .message(StatusMessage("Saved 2 photos to /p/vtourist/Naples")))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(22).contains("Saved 2 photos to /p/vtourist/Naples"))
    }

    func testRetryNamesTheSelectedFailedPhotoAndTheMachineDecidesTheRest() {
        var s = openState([photo(1), photo(2, .failed(reason: "HTTP 404"))])
        XCTAssertEqual(send(&s, .char("r")), [.album(1, .retry(photo: nil))])
        send(&s, .right)
        XCTAssertEqual(send(&s, .char("r")), [.album(1, .retry(photo: 2))])
        var failed = openState([], status: .failed(reason: "HTTP 500"))
        XCTAssertEqual(send(&failed, .char("r")), [.album(1, .retry(photo: nil))])
        var fine = openState([photo(1)])
        XCTAssertEqual(send(&fine, .char("r")), [.album(1, .retry(photo: nil))])
        XCTAssertNil(fine.message)
        let notice = machineNotice(.retry(photo: nil), status: .ready, [AlbumPhoto(id: 1, url: "u1", state: .stored)])
        XCTAssertEqual(notice, "Nothing to retry")
        _ = reducer.reduce(&fine, .albumNotice(1, notice ?? ""))
        XCTAssertTrue(AppView.render(fine, raster: nil).rowText(22).hasPrefix(" Nothing to retry"))
    }

    func testGridMovesByRowsAndEscGoesBack() {
        var s = openState((1...10).map { photo($0) })
        let columns = AlbumGrid(area: Rect(x: 0, y: 0, width: 80, height: 23)).columns
        send(&s, .down)
        XCTAssertEqual(s.album?.selected, columns)
        send(&s, .up)
        XCTAssertEqual(s.album?.selected, 0)
        send(&s, .escape)
        XCTAssertEqual(s.screen, .map(MapScreen()))
        XCTAssertNil(s.album)
    }

    func testMovingAndDeletingAPinTellTheAlbum() {
        var s = openState([])
        send(&s, .escape)
        s.settings.confirmDelete = false
        XCTAssertEqual(send(&s, .char("x")), [.deletePin(1), .album(1, .pinDeleted)])
    }

    func testAStoreFailureStaysInTheAlbumHeaderUntilTheAlbumIsLeft() {
        var s = openState([photo(1), photo(2)])
        _ = reducer.reduce(&s, .storeFailed("Could not save the map view: disk full"))
        XCTAssertNil(s.album?.storeProblem, "another thing's failure is not this album's")
        XCTAssertEqual(s.message?.text, "Could not save the map view: disk full")
        _ = reducer.reduce(&s, .storeFailed("Could not save a photo: database is read-only", pin: 1))
        XCTAssertEqual(s.album?.storeProblem, "Could not save a photo: database is read-only")
        send(&s, .right)  // a key clears the message line, not the header
        let header = AppView.render(s, raster: nil).rowText(1)
        XCTAssertTrue(header.contains("Not saved \u{2014} Could not save a photo: database is read-only"), header)
        send(&s, .escape)
        XCTAssertNil(s.album)
    }

    func testTheScrollPositionNeverCoversTheProgress() {
        var s = openState((1...21).map { photo($0, $0 == 1 ? .failed(reason: "HTTP 404") : .stored) })
        _ = reducer.reduce(&s, .event(.resize(width: 40, height: 12), time: 0))
        let narrow = AppView.render(s, raster: nil).rowText(1)
        XCTAssertTrue(narrow.hasPrefix(" 21 photos, 1 failed \u{00B7} r retries"), narrow)
        XCTAssertFalse(narrow.contains("rows"), narrow)
        _ = reducer.reduce(&s, .event(.resize(width: 80, height: 24), time: 0))
        let wide = AppView.render(s, raster: nil).rowText(1)
        XCTAssertTrue(wide.hasPrefix(" 21 photos, 1 failed \u{00B7} r retries this photo"), wide)
        XCTAssertTrue(wide.hasSuffix("rows 1-2 of 7 "), wide)
    }

    func testAResizeStormLeavesTheGridScrolledWhereItWas() {
        var s = openState((1...21).map { photo($0) })
        _ = reducer.reduce(&s, .event(.resize(width: 100, height: 30), time: 0))
        send(&s, .down)
        let before = AppView.render(s, raster: nil)
        XCTAssertEqual(s.album?.topRow, 0)
        for size in [(1, 1), (100, 12), (40, 13), (200, 1), (100, 14)] {
            _ = reducer.reduce(&s, .event(.resize(width: size.0, height: size.1), time: 0))
        }
        _ = reducer.reduce(&s, .event(.resize(width: 100, height: 30), time: 0))
        XCTAssertEqual(AppView.render(s, raster: nil), before)
        // A key makes the scroll the last size needed the user's.
        _ = reducer.reduce(&s, .event(.resize(width: 100, height: 14), time: 0))
        let scrolled = s.album?.topRow
        XCTAssertNotEqual(scrolled, 0)
        send(&s, .char("?"))
        send(&s, .escape)
        _ = reducer.reduce(&s, .event(.resize(width: 100, height: 30), time: 0))
        XCTAssertEqual(s.album?.topRow, scrolled)
    }

    func testAlbumScreenRendering() throws {
        let s = openState([photo(1), photo(2, .pending), photo(3, .failed(reason: "HTTP 404"), title: "Evil\u{1B}[2Jtitle")], status: .downloading)
        XCTAssertEqual(s.album?.snapshot?.isNewCollectionEnabled, false)
        let buffer = AppView.render(s, raster: nil)
        let text = buffer.text
        XCTAssertTrue(buffer.rowText(0).contains("Naples, Campania, IT"), text)
        XCTAssertTrue(buffer.rowText(1).contains("Downloading 1/3"), text)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B }, text)
        // Each photo's cell, left to right: what is inside its frame, row by row, and its title.
        let rows = (0..<buffer.height).map(buffer.rowText).filter { $0.hasPrefix(" \u{2502}") }
        let cells = (0..<3).map { i in rows.map { $0.components(separatedBy: "\u{2502}")[1 + 2 * i] } }
        XCTAssertEqual(cells.map(\.count), [7, 7, 7], text)
        XCTAssertEqual(cells.map { $0.last?.trimmingCharacters(in: .whitespaces) }, ["Photo 1", "Photo 2", "Eviltitle"],
                       "titles under their pictures, the escape sequence gone: \(text)")
        let inside = cells.map { $0.dropLast().joined(separator: "\n") }
        XCTAssertTrue(inside[0].contains("\u{2026}"), "the stored photo waits for its picture: \(text)")
        XCTAssertTrue(inside[1].contains("downloading"), "the pending photo is downloading: \(text)")
        XCTAssertTrue(inside[2].contains("download failed") && inside[2].contains("HTTP 404") && inside[2].contains("r retries"),
                      "the failed photo says why: \(text)")
        XCTAssertFalse(inside[0].contains("failed") || inside[1].contains("failed"), text)
        XCTAssertFalse(inside[0].contains("downloading") || inside[2].contains("downloading"), text)
        let empty = AppView.render(openState([], status: .empty), raster: nil).text
        XCTAssertTrue(empty.contains("No Images"), empty)
        XCTAssertFalse(empty.contains("\u{250C}"), "no cells when there are no photos: \(empty)")
    }

    /// Each cell title on a row that begins with `start`, up to its cell's frame.
    func cellTitles(_ row: String, from start: String) -> [String] {
        row.components(separatedBy: start).dropFirst().map {
            (start + $0.prefix { $0 != "\u{2502}" }).trimmingCharacters(in: .whitespaces)
        }
    }

    func testAPhotoTitleTooLongForItsCellEndsInAnEllipsis() throws {
        let long = "The harbour of Naples at dawn with Vesuvius behind the fishing boats"
        for selected in [false, true] {
            var s = openState([photo(1), photo(2, title: long), photo(3, .pending, title: long)])
            if selected { send(&s, .right) }
            let buffer = AppView.render(s, raster: nil)
            let rows = (0..<buffer.height).map(buffer.rowText).filter { $0.contains("The harbour") }
            XCTAssertEqual(rows.count, 1, buffer.text)
            let row = try XCTUnwrap(rows.first)
            let titles = cellTitles(row, from: "The harbour")
            XCTAssertEqual(titles.count, 2, "the stored and the downloading photo: \(row)")
            for shown in titles {
                XCTAssertTrue(shown.hasSuffix("\u{2026}"), "cut with an ellipsis: \(row)")
                XCTAssertTrue(long.hasPrefix(String(shown.dropLast())), shown)
            }
            XCTAssertFalse(row.contains("boats"), row)
            XCTAssertTrue(row.contains("Photo 1 "), "a short title is whole: \(row)")
        }
    }

    func testALongPlaceNameEndsInAnEllipsisAndTheCoordinatesFollowIt() {
        let name = "Napoli, Città Metropolitana di Napoli, Campania, Italia, Europa, Terra"
        let s = openState([photo(1)], name: name)
        let header = AppView.render(s, raster: nil).rowText(0)
        let nameShown = header.prefix { $0 != "\u{2026}" }
        XCTAssertTrue(header.contains("\u{2026}"), header)
        XCTAssertTrue(name.hasPrefix(nameShown.dropFirst()), "the name's start, then the cut: \(header)")
        XCTAssertLessThanOrEqual(nameShown.count + 1, 1 + 80 / 2, "the name takes at most half the row")
        let afterName = header.dropFirst(nameShown.count + 1)
        XCTAssertTrue(afterName.hasPrefix("  40."), "the coordinates right after the cut name: \(header)")
        XCTAssertTrue(afterName.contains("Flickr"), header)
        // A short name is whole, no ellipsis.
        let short = AppView.render(openState([photo(1)]), raster: nil).rowText(0)
        XCTAssertTrue(short.hasPrefix(" Naples, Campania, IT  40."), short)
        XCTAssertFalse(short.contains("\u{2026}"), short)
    }

    func testANarrowHeaderCutsItsCoordinatesAndProgressWithAnEllipsis() {
        var s = openState([photo(1), photo(2), photo(3, .failed(reason: "HTTP 404"))])
        _ = reducer.reduce(&s, .event(.resize(width: AppState.minimumWidth, height: 24), time: 0))
        send(&s, .right)
        send(&s, .right)
        XCTAssertEqual(s.album?.selectedPhoto?.id, 3, "on the failed photo, which r retries")
        let buffer = AppView.render(s, raster: nil)
        let title = buffer.rowText(0).trimmingCharacters(in: .whitespaces)
        XCTAssertTrue(title.hasSuffix("\u{2026}"), "coordinates and source cut: \(title)")
        let progress = buffer.rowText(1).trimmingCharacters(in: .whitespaces)
        XCTAssertTrue(progress.hasPrefix("3 photos, 1 failed \u{00B7} r retries th"), progress)
        XCTAssertTrue(progress.hasSuffix("\u{2026}"), "the retry hint cut: \(progress)")
    }
}
