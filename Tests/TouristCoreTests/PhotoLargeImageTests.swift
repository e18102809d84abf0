import Terminal
@testable import TouristCore
import Model
import XCTest

/// The photo view's large image: which picture it draws while the large one comes, and its note.
final class PhotoLargeImageTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    /// The sample album's fifth photo shown.
    func photoState() -> AppState {
        var s = Sample.mapState()
        var album = Sample.albumState().album!
        // A thumbnail smaller than the picture's box at 8×8 pixels a cell: the large image is sharper in cells.
        var photos = album.photos
        photos[4].found.width = 100
        photos[4].found.height = 75
        album.apply(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "flickr"))
        album.selected = 4
        s.screen = .photo(PhotoScreen(album: album, photoID: 5))
        return s
    }

    func picture(_ size: PictureSize, _ color: Color) -> Picture {
        .cells(CellBuffer(width: size.columns, height: size.rows, fill: Cell(" ", style: Style(bg: color))))
    }

    func testTheThumbnailIsDrawnUntilTheLargePictureIsRenderedThenTheLargeOne() throws {
        var s = photoState()
        let size = PhotoView.pictureSize(s.layout)
        let area = PhotoView.pictureArea(s.layout)
        let middle = (area.x + area.width / 2, area.y + area.height / 2)
        let thumbnail = PictureKey(photoID: 5, size: size), large = PictureKey(photoID: 5, size: size, image: .large)
        var shelf = PictureShelf()
        shelf[thumbnail] = picture(size, .rgb(255, 0, 0))
        // Rows: what is known of the large image, whether its picture is on the shelf, the colour drawn.
        let cases: [(status: LargeImageStatus?, largeRendered: Bool, color: Color)] = [
            (nil, false, .rgb(255, 0, 0)),
            (.ready(width: 1024, height: 768), false, .rgb(255, 0, 0)),  // never a blank frame meanwhile
            (.ready(width: 1024, height: 768), true, .rgb(0, 0, 255)),
            (.failed("HTTP 404"), false, .rgb(255, 0, 0)),
        ]
        for c in cases {
            var screen = try XCTUnwrap(s.photo)
            screen.large = c.status.map { [5: $0] } ?? [:]
            s.screen = .photo(screen)
            var pictures = shelf
            if c.largeRendered { pictures[large] = picture(size, .rgb(0, 0, 255)) }
            let buffer = AppView.render(s, raster: nil, pictures: pictures)
            XCTAssertEqual(buffer[middle.0, middle.1].style.bg, c.color, "\(c)")
        }
        // A large picture that could not be drawn leaves the thumbnail.
        var screen = try XCTUnwrap(s.photo)
        screen.large = [5: .ready(width: 1024, height: 768)]
        s.screen = .photo(screen)
        var pictures = shelf
        pictures[large] = .failed("not a JPEG")
        XCTAssertEqual(AppView.render(s, raster: nil, pictures: pictures)[middle.0, middle.1].style.bg, .rgb(255, 0, 0))
    }

    func testTheDetailsSayTheLargeImagesSizeOrWhyItFailed() throws {
        var s = photoState()
        XCTAssertFalse(AppView.render(s, raster: nil).text.contains("large"))
        _ = reducer.reduce(&s, .largeImage(5, .failed("HTTP 404")))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("\u{00B7} large image failed: HTTP 404"))
        _ = reducer.reduce(&s, .largeImage(5, .ready(width: 1024, height: 768)))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("\u{00B7} large 1024\u{00D7}768"))
    }

    func testCellsUseTheLargeImageOnlyWhereItIsSharper() {
        func photo(_ width: Int?, _ height: Int?) -> PhotoRecord {
            PhotoRecord(id: 1, pinID: 1, position: 0,
                        found: NewPhoto(source: "flickr", sourceID: "1", url: "https://x.example/1.jpg", width: width, height: height))
        }
        let cases: [(thumb: (Int?, Int?), large: (Int, Int), box: PictureSize, sharper: Bool)] = [
            ((320, 240), (1024, 768), PictureSize(columns: 78, rows: 12), true),  // 624 px across the box
            ((640, 480), (1024, 768), PictureSize(columns: 40, rows: 20), false),  // 320×160 px: the thumbnail has more
            ((640, 480), (640, 480), PictureSize(columns: 198, rows: 50), false),  // the large image is no larger
            ((nil, nil), (1024, 768), PictureSize(columns: 10, rows: 5), true),  // the thumbnail's size unknown
        ]
        for c in cases {
            XCTAssertEqual(PhotoView.largeIsSharper(photo(c.thumb.0, c.thumb.1), large: (c.large.0, c.large.1), size: c.box),
                           c.sharper, "\(c)")
        }
    }
}
