import Model
import Terminal
@testable import TouristCore
import XCTest

/// The album grid's geometry, the pictures the screen asks for and keeps, and how a cell draws its
/// picture, its selection, its mark, its placeholder and its errors.
final class AlbumPictureTests: XCTestCase {
    let reducer = AppReducer(places: .none)
    let theme = Theme.forDepth(.trueColor)

    /// A picture of four known colours in quadrants, as the renderer would give one.
    static func quadrants(_ size: PictureSize) -> CellBuffer {
        var cells = CellBuffer(width: size.columns, height: size.rows)
        for y in 0..<size.rows {
            for x in 0..<size.columns {
                let colour: Color = switch (x < size.columns / 2, y < size.rows / 2) {
                case (true, true): .rgb(255, 0, 0)
                case (false, true): .rgb(0, 255, 0)
                case (true, false): .rgb(0, 0, 255)
                case (false, false): .rgb(255, 255, 0)
                }
                cells[x, y] = Cell(" ", style: Style(fg: colour, bg: colour))
            }
        }
        return cells
    }

    // MARK: Geometry

    func testColumnsFollowTheWidthAndPicturesKeepAFourByThreeShape() {
        var previous = 0
        for width in stride(from: 40, through: 300, by: 10) {
            let grid = AlbumGrid(area: Rect(x: 0, y: 0, width: width, height: 59))
            XCTAssertGreaterThanOrEqual(grid.columns, previous, "wider never means fewer columns")
            previous = grid.columns
            XCTAssertLessThanOrEqual(grid.columns * (grid.cellWidth + AlbumGrid.gap) + 1, width, "the cells fit at \(width)")
            XCTAssertGreaterThanOrEqual(grid.cellWidth, AlbumGrid.minimumCellWidth - (width < 26 ? 10 : 0))
            // A 4:3 photo in cells twice as tall as wide wants 8 columns for 3 rows: never taller than
            // that, and only a little shorter where that makes the rows fill the screen.
            let shape = Double(grid.pictureSize.columns) / Double(grid.pictureSize.rows)
            XCTAssertGreaterThanOrEqual(shape, 8.0 / 3.0 - 0.2, "\(grid.pictureSize) at \(width)")
            XCTAssertLessThanOrEqual(shape, 3.5, "\(grid.pictureSize) at \(width)")
        }
        let big = AlbumGrid(area: Rect(x: 0, y: 0, width: 200, height: 59))
        XCTAssertEqual(big.columns, 7)
        XCTAssertEqual(big.columns * big.visibleRows >= 21, true, "21 photos on one 200x60 screen")
        let small = AlbumGrid(area: Rect(x: 0, y: 0, width: 80, height: 23))
        XCTAssertEqual(small.columns, 3)
        XCTAssertEqual(small.visibleRows, 2, "a low screen still shows two rows, with shorter pictures")
        XCTAssertGreaterThanOrEqual(small.pictureSize.rows, 3)
    }

    func testCellsAreWhereTheGridSaysAndOffScreenOnesAreNot() {
        let grid = AlbumGrid(area: Rect(x: 0, y: 0, width: 80, height: 23))
        let body = Rect(x: 0, y: 3, width: 80, height: 20)
        XCTAssertEqual(grid.cell(0, topRow: 0, in: body), Rect(x: 1, y: 3, width: grid.cellWidth, height: grid.cellHeight))
        XCTAssertEqual(grid.cell(4, topRow: 0, in: body)?.x, 1 + grid.cellWidth + AlbumGrid.gap)
        XCTAssertEqual(grid.cell(4, topRow: 0, in: body)?.y, 3 + grid.cellHeight + AlbumGrid.gap)
        XCTAssertNil(grid.cell(6, topRow: 0, in: body), "row 2 is below the screen")
        XCTAssertEqual(grid.cell(6, topRow: 1, in: body)?.y, 3 + grid.cellHeight + AlbumGrid.gap)
        XCTAssertNil(grid.cell(0, topRow: 1, in: body))
        XCTAssertEqual(grid.indices(topRow: 1, count: 10), 3..<9)
        XCTAssertEqual(grid.indices(topRow: 1, count: 10, margin: 1), 0..<10)
        XCTAssertEqual(grid.indices(topRow: 5, count: 10), 0..<0)
    }

    // MARK: Wanted and kept

    func testTheScreenWantsWhatItShowsFirstThenARowEitherSide() {
        var s = Sample.albumState()  // 80x24: 3 columns, 2 rows; photo 7 (index 6) failed
        let size = AlbumGrid(area: s.layout.main).pictureSize
        XCTAssertEqual(s.wantedPictures.map(\.photoID), [1, 2, 3, 4, 5, 6, 8, 9], "on screen, then the next row; not the failed one")
        XCTAssertTrue(s.wantedPictures.allSatisfy { $0.size == size })

        s.updateAlbum { $0.topRow = 1 }
        XCTAssertEqual(s.wantedPictures.map(\.photoID), [4, 5, 6, 8, 9, 1, 2, 3, 10])

        s.updateAlbum { $0.snapshot?.photos[3].state = .pending }
        XCTAssertFalse(s.wantedPictures.contains { $0.photoID == 4 }, "nothing to render before the image is stored")

        s.overlay = .help
        XCTAssertFalse(s.wantedPictures.isEmpty, "help covers the album, which stays ready underneath")
        s.screen = .map(MapScreen())
        XCTAssertEqual(s.wantedPictures, [])
    }

    func testThePhotoScreenWantsItsPhotoLargeThenItsNeighbours() {
        let s = Sample.photoState()  // photo 5 of 10
        let size = PhotoView.pictureSize(s.layout)
        XCTAssertEqual(s.wantedPictures, [5, 6, 4].map { PictureKey(photoID: $0, size: size) })
        XCTAssertEqual(size, PictureSize(columns: 78, rows: 16))
    }

    func testKeptPicturesAreTheOpenAlbumsAtTheGridsSize() {
        let s = Sample.albumState()
        let grid = AlbumGrid(area: s.layout.main).pictureSize
        let keep = s.picturesToKeep(wanted: s.wantedPictures)
        XCTAssertTrue(keep(PictureKey(photoID: 10, size: grid)), "off screen but in the album: scrolling back is free")
        XCTAssertFalse(keep(PictureKey(photoID: 99, size: grid)), "another album's photo")
        XCTAssertFalse(keep(PictureKey(photoID: 1, size: PictureSize(columns: grid.columns + 4, rows: grid.rows))),
                       "a size from before a resize")
        var map = s
        map.screen = .map(MapScreen())
        XCTAssertFalse(map.picturesToKeep(wanted: [])(PictureKey(photoID: 1, size: grid)), "leaving the album lets them go")

        var shelf = PictureShelf()
        shelf[PictureKey(photoID: 1, size: grid)] = .failed("x")
        shelf[PictureKey(photoID: 99, size: grid)] = .failed("y")
        shelf.prune(keeping: keep)
        XCTAssertEqual(Set(shelf.keys), [PictureKey(photoID: 1, size: grid)])
    }

    // MARK: Drawing

    func testACellShowsItsPictureWithTheSelectionAndTheMarkOnTop() throws {
        let s = Sample.albumState()  // photo 5 selected, photo 2 marked
        let grid = AlbumGrid(area: s.layout.main)
        var shelf = PictureShelf()
        for id in Int64(1)...10 { shelf[PictureKey(photoID: id, size: grid.pictureSize)] = .cells(Self.quadrants(grid.pictureSize)) }
        let buffer = AppView.render(s, raster: nil, pictures: shelf)
        let body = Rect(x: 0, y: AlbumGrid.top, width: s.width, height: s.height - 1 - AlbumGrid.top)

        // Photo 1: the picture's quadrants in their places inside the frame.
        let first = try XCTUnwrap(grid.cell(0, topRow: 0, in: body))
        let p = grid.pictureSize
        XCTAssertEqual(buffer[first.x + 1, first.y + 1].style.bg, .rgb(255, 0, 0))
        XCTAssertEqual(buffer[first.x + p.columns, first.y + 1].style.bg, .rgb(0, 255, 0))
        XCTAssertEqual(buffer[first.x + 1, first.y + p.rows].style.bg, .rgb(0, 0, 255))
        XCTAssertEqual(buffer[first.x + p.columns, first.y + p.rows].style.bg, .rgb(255, 255, 0))
        XCTAssertEqual(buffer[first.x, first.y].style, theme.dim, "an unselected frame is dim")
        XCTAssertTrue(buffer.rowText(first.y + first.height - 2).contains("Photo 1"), "the title under the picture")

        // Photo 5, selected: the frame and the title in the highlight, over any picture.
        let selected = try XCTUnwrap(grid.cell(4, topRow: 0, in: body))
        XCTAssertEqual(buffer[selected.x, selected.y].style, theme.highlight)
        XCTAssertEqual(buffer[selected.x + 1, selected.y + selected.height - 2].style, theme.highlight)
        XCTAssertEqual(buffer[selected.x + 1, selected.y + 1].style.bg, .rgb(255, 0, 0), "the picture itself is untouched")

        // Photo 2, marked: a tick on the picture's corner and before the title.
        let marked = try XCTUnwrap(grid.cell(1, topRow: 0, in: body))
        XCTAssertEqual(buffer[marked.x + 1, marked.y + 1], Cell("\u{2714}", style: theme.highlight))
        XCTAssertTrue(buffer.rowText(marked.y + marked.height - 2).contains("\u{2714} Photo 2"))
    }

    func testAPictureThatCannotBeShownAndAFailedDownloadSayWhy() throws {
        var s = Sample.albumState()
        s.width = 120
        let grid = AlbumGrid(area: s.layout.main)
        var shelf = PictureShelf()
        shelf[PictureKey(photoID: 1, size: grid.pictureSize)] = .failed("not a JPEG (a web page)")
        let buffer = AppView.render(s, raster: nil, pictures: shelf)
        let body = Rect(x: 0, y: AlbumGrid.top, width: s.width, height: s.height - 1 - AlbumGrid.top)
        func words(_ i: Int) -> String {
            guard let cell = grid.cell(i, topRow: 0, in: body) else { return "(off screen)" }
            return (cell.y..<cell.bottom).map { String(buffer.rowText($0).dropFirst(cell.x).prefix(cell.width)) }
                .joined(separator: " ").split(separator: " ").joined(separator: " ")
        }
        XCTAssertTrue(words(0).contains("\u{2717} cannot show"), words(0))
        XCTAssertTrue(words(0).contains("not a JPEG (a web page)"), words(0))
        XCTAssertTrue(words(6).contains("\u{2717} download failed"), words(6))
        XCTAssertTrue(words(6).contains("HTTP 404"), words(6))
        XCTAssertTrue(words(1).contains("\u{2026}"), "not rendered yet: a quiet ellipsis")
    }

    func testPlaceholdersShimmerOnlyWhileDownloadingAndShown() {
        var s = Sample.albumState()
        XCTAssertFalse(s.isAnimating, "everything is in")
        _ = reducer.reduce(&s, .tick)
        XCTAssertEqual(s.animationFrame, 0, "a tick with nothing to animate changes nothing")

        s.updateAlbum { $0.snapshot?.photos[0].state = .pending }
        XCTAssertTrue(s.isAnimating)
        let before = AppView.render(s, raster: nil)
        _ = reducer.reduce(&s, .tick)
        XCTAssertEqual(s.animationFrame, 1)
        let after = AppView.render(s, raster: nil)
        XCTAssertNotEqual(before, after, "the placeholder moved")
        XCTAssertTrue(after.text.contains(" downloading"))

        s.overlay = .help
        XCTAssertFalse(s.isAnimating, "help covers it")
        s.overlay = nil
        s.updateAlbum { $0.topRow = 1 }  // the pending photo is scrolled off
        XCTAssertFalse(s.isAnimating)
        s.screen = .map(MapScreen())
        XCTAssertFalse(s.isAnimating)
    }

    func testLongReasonsWrapAtSpaces() {
        XCTAssertEqual("not a JPEG (a web page)".wrapped(to: 12), ["not a JPEG", "(a web page)"])
        XCTAssertEqual("abcdefghij".wrapped(to: 4), ["abcd", "efgh", "ij"])
        XCTAssertEqual("one two three four".wrapped(to: 9, limit: 2), ["one two", "three fo\u{2026}"])
        XCTAssertEqual("".wrapped(to: 5), [])
        XCTAssertEqual("x".wrapped(to: 0), [])
    }

    func testTheGridNeverLeavesEmptyRowsBelowItsLastPhotos() {
        var s = Sample.albumState()  // 10 photos, 80x24: 3 columns, 2 rows shown, 4 rows in all
        _ = reducer.reduce(&s, .event(.key(.end), time: 0))
        XCTAssertEqual(s.album?.topRow, 2)
        // Deleting the last row's photo leaves 3 rows: the top goes back to fill the screen.
        _ = reducer.reduce(&s, .event(.key(.char("x")), time: 0))
        XCTAssertEqual(s.album?.photos.count, 9)
        XCTAssertEqual(s.album?.topRow, 1)
        // A taller screen shows every row from the first.
        _ = reducer.reduce(&s, .event(.resize(width: 80, height: 60), time: 0))
        XCTAssertEqual(s.album?.topRow, 0)
    }
}
