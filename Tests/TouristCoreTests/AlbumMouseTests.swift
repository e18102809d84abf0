import Terminal
@testable import TouristCore
import XCTest

/// The mouse on the album and the photo screen: click, double click, wheel, the hints.
final class AlbumMouseTests: XCTestCase {
    let reducer = AppReducer(places: .none)

    @discardableResult
    func mouse(_ s: inout AppState, _ kind: MouseEvent.Kind, x: Int, y: Int, at time: Double = 0) -> [AppEffect] {
        reducer.reduce(&s, .event(.mouse(MouseEvent(kind, x: x, y: y)), time: time))
    }

    /// The middle of photo `index`'s cell as drawn.
    func centre(of index: Int, in s: AppState) throws -> (x: Int, y: Int) {
        let main = s.layout.main
        let grid = AlbumGrid(area: main)
        let cell = try XCTUnwrap(grid.cell(index, topRow: s.album?.topRow ?? 0, in: main.splitTop(AlbumGrid.top).rest))
        return (cell.x + cell.width / 2, cell.y + cell.height / 2)
    }

    func testAClickSelectsAndADoubleClickOpensThePhoto() throws {
        var s = Sample.albumState()  // photo 5 (index 4) selected
        let p = try centre(of: 1, in: s)
        mouse(&s, .press, x: p.x, y: p.y, at: 10)
        XCTAssertEqual(s.album?.selected, 4, "a press alone does nothing")
        mouse(&s, .release, x: p.x, y: p.y, at: 10.05)
        XCTAssertEqual(s.album?.selected, 1)
        XCTAssertNotNil(s.album, "one click only selects")
        // Too slow for a double click: selects again.
        mouse(&s, .click, x: p.x, y: p.y, at: 11)
        XCTAssertNotNil(s.album)
        mouse(&s, .click, x: p.x, y: p.y, at: 11.2)
        XCTAssertEqual(s.photo?.photoID, 2, "the second click within the double-click time opens it")
    }

    func testTwoClicksOnDifferentPhotosDoNotOpen() throws {
        var s = Sample.albumState()
        let a = try centre(of: 0, in: s), b = try centre(of: 1, in: s)
        mouse(&s, .click, x: a.x, y: a.y, at: 1)
        mouse(&s, .click, x: b.x, y: b.y, at: 1.1)
        XCTAssertEqual(s.album?.selected, 1)
        XCTAssertNil(s.photo)
    }

    func testTheWheelScrollsTheGridAndTheSelectionStaysShown() throws {
        var s = Sample.albumState()  // 10 photos, 3 columns, 2 rows shown of 4
        mouse(&s, .wheelDown, x: 10, y: 10)
        XCTAssertEqual(s.album?.topRow, 1)
        XCTAssertEqual(s.album?.selected, 4, "photo 5 is on row 1, still shown")
        mouse(&s, .wheelDown, x: 10, y: 10)
        mouse(&s, .wheelDown, x: 10, y: 10)
        XCTAssertEqual(s.album?.topRow, 2, "no further than the last row")
        XCTAssertEqual(s.album?.selected, 7, "the selection came along, in its column")
        mouse(&s, .wheelUp, x: 10, y: 10)
        mouse(&s, .wheelUp, x: 10, y: 10)
        mouse(&s, .wheelUp, x: 10, y: 10)
        XCTAssertEqual(s.album?.topRow, 0)
        XCTAssertEqual(s.album?.selected, 4)
    }

    func testAClickOnAHeaderHintDoesWhatItsKeyDoes() throws {
        var s = Sample.albumState()
        let header = s.layout.main.splitTop(AlbumGrid.top).top
        let hints = AlbumView.hints(for: s.album?.snapshot, in: header, unicode: true)
        let add = try XCTUnwrap(hints.first { $0.hint.command == .addMore })
        XCTAssertEqual(mouse(&s, .click, x: add.columns.lowerBound + 1, y: header.y + 2), [.album(1, .addMore)])
        // The text drawn there is the hint's key.
        let buffer = AppView.render(s, raster: nil)
        XCTAssertTrue(buffer.rowText(header.y + 2).dropFirst(add.columns.lowerBound).hasPrefix("a Add more"))
        // The gap between hints is nothing.
        XCTAssertEqual(mouse(&s, .click, x: add.columns.upperBound, y: header.y + 2), [])
        let map = try XCTUnwrap(hints.first { $0.hint.command == .back })
        mouse(&s, .click, x: map.columns.lowerBound, y: header.y + 2)
        XCTAssertEqual(s.album?.confirming, .leave(marks: 1), "a photo is marked: asked first, as Esc does")
        _ = reducer.reduce(&s, .event(.key(.char("y")), time: 0))
        XCTAssertEqual(s.screen, .map(MapScreen()))
    }

    func testClicksOutsideAnyWidgetAreIgnored() throws {
        var s = Sample.albumState()
        let before = s
        let grid = AlbumGrid(area: s.layout.main)
        // The gap between cells, the title row, the message line, the status line, off the screen.
        let gapX = 1 + grid.cellWidth
        for (x, y) in [(gapX, 8), (5, 0), (5, 1), (70, 2), (5, s.height - 2), (5, s.height - 1), (-1, 5), (500, 5)] {
            XCTAssertEqual(mouse(&s, .click, x: x, y: y, at: 3), [], "(\(x), \(y))")
        }
        XCTAssertEqual(s.screen, before.screen)
    }

    func testOnThePhotoScreenTheWheelZoomsAndHintsAreClickable() throws {
        var s = Sample.photoState()  // photo 5 of 10
        mouse(&s, .wheelUp, x: 10, y: 5)
        XCTAssertEqual(s.photo?.photoID, 5, "the wheel no longer steps")
        XCTAssertEqual(s.photo?.zoom.level, 1)
        mouse(&s, .wheelDown, x: 10, y: 5)
        XCTAssertEqual(s.photo?.zoom, .fit)
        let status = s.layout.status
        let hints = KeyHints.placed(PhotoKeys.table.hints(unicode: true), in: status)
        let next = try XCTUnwrap(hints.first { $0.hint.command == .next })
        mouse(&s, .click, x: next.columns.lowerBound, y: status.y)
        XCTAssertEqual(s.photo?.photoID, 6)
        let save = try XCTUnwrap(hints.first { $0.hint.command == .save })
        XCTAssertEqual(mouse(&s, .click, x: save.columns.lowerBound, y: status.y), [.savePhoto(6, title: "Photo 6")])
        XCTAssertEqual(mouse(&s, .click, x: 5, y: 5), [], "the picture itself does nothing")
        let back = try XCTUnwrap(hints.first { $0.hint.command == .back })
        mouse(&s, .click, x: back.columns.lowerBound, y: status.y)
        XCTAssertEqual(s.album?.selected, 5, "back to the album on the photo last shown")
    }
}
