import AlbumMachine
import Terminal
@testable import TouristCore
import Model
import XCTest

/// Zoom, pan and the slideshow on the photo screen: every key and the wheel, stepped through exact
/// states, and what the view shows of them.
final class PhotoZoomTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    @discardableResult
    func send(_ s: inout AppState, _ key: Key, time: Double = 0) -> [AppEffect] {
        reducer.reduce(&s, .event(.key(key), time: time))
    }

    @discardableResult
    func wheel(_ s: inout AppState, up: Bool, x: Int, y: Int) -> [AppEffect] {
        reducer.reduce(&s, .event(.mouse(MouseEvent(up ? .wheelUp : .wheelDown, x: x, y: y)), time: 0))
    }

    /// The geometry the screen zooms in: the sample photo's size in the picture's box.
    func view(_ s: AppState) throws -> ZoomView {
        try XCTUnwrap(ZoomView(imageWidth: Sample.imageSize.width, imageHeight: Sample.imageSize.height,
                               box: PhotoView.pictureSize(s.layout)))
    }

    /// The crop the screen wants its photo's picture at.
    func wantedCrop(_ s: AppState) throws -> PictureCrop {
        let key = try XCTUnwrap(s.wantedPictures.first)
        XCTAssertEqual(key.photoID, s.photo?.photoID)
        return key.crop
    }

    // MARK: - Keys

    func testPlusAndEqualsZoomInByTwoAtTheMiddleAndTheTitleSaysHowFar() throws {
        for key in [Key.char("+"), .char("=")] {
            var s = Sample.photoState()
            XCTAssertEqual(try wantedCrop(s), .whole)
            XCTAssertEqual(send(&s, key), [])
            XCTAssertEqual(s.photo?.zoom, PhotoZoom(level: 1))
            let crop = try wantedCrop(s)
            XCTAssertEqual(crop.x + crop.width / 2, 5000, accuracy: 1, "centred: \(crop)")
            XCTAssertEqual(crop.y + crop.height / 2, 5000, accuracy: 1, "centred: \(crop)")
            // Twice as large: half the image's height shows (the height is what fits the box).
            XCTAssertEqual(crop.height, 5000, accuracy: 1)
            let title = AppView.render(s, raster: nil).rowText(0)
            XCTAssertTrue(title.hasSuffix("2\u{00D7}  5 of 10 "), title)
            XCTAssertNil(s.message)
        }
    }

    func testZoomingGoesByDoublesUpToOneImagePixelAScreenPixelAndSaysSo() throws {
        var s = Sample.photoState()
        let view = try view(s)
        XCTAssertEqual(view.maxLevel, 3, "2048x1536 in 78x16 cells (624x256 px): 2x, 4x, then 1:1 (6x)")
        var factors: [String] = []
        for _ in 1...view.maxLevel {
            send(&s, .char("+"))
            factors.append(String(AppView.render(s, raster: nil).rowText(0).split(separator: " ").suffix(4).first ?? ""))
        }
        XCTAssertEqual(factors, ["2\u{00D7}", "4\u{00D7}", "6\u{00D7}"])
        // At the last level one image pixel is one screen pixel: the crop is as wide as the box's pixels.
        let crop = try wantedCrop(s)
        let box = PhotoView.pictureSize(s.layout)
        XCTAssertEqual(Double(crop.width) / 10_000 * Double(Sample.imageSize.width), Double(box.columns * 8), accuracy: 1)
        XCTAssertEqual(Double(crop.height) / 10_000 * Double(Sample.imageSize.height), Double(box.rows * 16), accuracy: 1)
        let deepest = s.photo?.zoom
        send(&s, .char("+"))
        XCTAssertEqual(s.photo?.zoom, deepest)
        XCTAssertEqual(s.message, StatusMessage("Zoomed in all the way: one image pixel a screen pixel."))
    }

    func testMinusZoomsOutAndZeroFits() throws {
        var s = Sample.photoState()
        let fitted = s
        XCTAssertEqual(send(&s, .char("-")), [])
        XCTAssertEqual(s, fitted, "fitted already: nothing")
        send(&s, .char("+"))
        send(&s, .char("+"))
        send(&s, .right)
        let panned = try XCTUnwrap(s.photo?.zoom)
        XCTAssertEqual(panned.level, 2)
        XCTAssertGreaterThan(panned.centerX, 5000)
        send(&s, .char("-"))
        XCTAssertEqual(s.photo?.zoom, try view(s).clamped(PhotoZoom(level: 1, centerX: panned.centerX, centerY: panned.centerY)),
                       "zooming out keeps the middle where the pan left it, as far as the image allows")
        XCTAssertGreaterThan(s.photo?.zoom.centerX ?? 0, 5000)
        send(&s, .char("+"))
        send(&s, .char("0"))
        XCTAssertEqual(s.photo?.zoom, .fit)
        XCTAssertEqual(try wantedCrop(s), .whole)
        XCTAssertEqual(send(&s, .char("0")), [])
        XCTAssertEqual(s.photo?.zoom, .fit, "0 on a fitted photo is not a key of its table: nothing")
        send(&s, .char("+"))
        send(&s, .char("-"))
        XCTAssertEqual(s.photo?.zoom, .fit, "back at fit, the middle again")
    }

    func testWhenZoomedArrowsAndHJKLPanByAQuarterAndStopAtTheEdges() throws {
        var s = Sample.photoState()
        send(&s, .char("+"))
        send(&s, .char("+"))
        let seen = try view(s).visible(2)
        let start = try XCTUnwrap(s.photo?.zoom)
        for (key, dx, dy) in [(Key.right, 1, 0), (.char("l"), 1, 0), (.left, -1, 0), (.char("h"), -1, 0),
                              (.down, 0, 1), (.char("j"), 0, 1), (.up, 0, -1), (.char("k"), 0, -1)] {
            var moved = s
            XCTAssertEqual(send(&moved, key), [], "\(key)")
            XCTAssertEqual(moved.photo?.photoID, 5, "\(key) pans, never steps")
            XCTAssertEqual(moved.photo?.zoom, PhotoZoom(level: 2, centerX: start.centerX + dx * (seen.width / 4),
                                                        centerY: start.centerY + dy * (seen.height / 4)), "\(key)")
        }
        for _ in 0..<20 { send(&s, .left) }
        for _ in 0..<20 { send(&s, .up) }
        XCTAssertEqual(try wantedCrop(s).x, 0, "stopped at the left edge")
        XCTAssertEqual(try wantedCrop(s).y, 0, "stopped at the top edge")
        let corner = s
        send(&s, .left)
        XCTAssertEqual(s, corner, "at the edge, nothing moves")
        for _ in 0..<20 { send(&s, .char("l")) }
        for _ in 0..<20 { send(&s, .char("j")) }
        let crop = try wantedCrop(s)
        XCTAssertEqual(crop.x + crop.width, 10_000, accuracy: 1, "stopped at the right edge")
        XCTAssertEqual(crop.y + crop.height, 10_000, accuracy: 1, "stopped at the bottom edge")
    }

    func testNotZoomedArrowsStillStepAndUpDownDoNothing() {
        var s = Sample.photoState()
        send(&s, .right)
        XCTAssertEqual(s.photo?.photoID, 6)
        let before = s
        send(&s, .up)
        send(&s, .char("j"))
        XCTAssertEqual(s, before)
    }

    func testSteppingToAnotherPhotoFitsIt() throws {
        for key in [Key.pageDown, .pageUp, .home, .end] {
            var s = Sample.photoState()
            send(&s, .char("+"))
            send(&s, .right)
            XCTAssertEqual(send(&s, key), [], "\(key)")
            XCTAssertNotEqual(s.photo?.photoID, 5, "\(key) steps while zoomed")
            XCTAssertEqual(s.photo?.zoom, .fit, "\(key)")
            XCTAssertEqual(try wantedCrop(s), .whole, "\(key)")
        }
    }

    func testTheNeighboursAreWantedWholeBehindTheZoomedPart() throws {
        var s = Sample.photoState()
        send(&s, .char("+"))
        let wanted = s.wantedPictures
        XCTAssertEqual(wanted.map(\.photoID), [5, 6, 4, 5])
        XCTAssertFalse(wanted[0].crop.isWhole)
        XCTAssertEqual(wanted[1].crop, .whole)
        XCTAssertEqual(wanted[2].crop, .whole)
        XCTAssertEqual(wanted[3].crop, .whole, "the whole photo last, for fitting back at once")
    }

    func testAPhotoNotStoredOrOfUnknownSizeIsNotZoomedAndSaysWhy() {
        var pending = Sample.albumState()
        guard var album = pending.album else { return XCTFail("no album") }
        album.selected = 6  // photo 7 failed
        pending.go(to: .photo(of: album))
        send(&pending, .char("+"))
        XCTAssertEqual(pending.photo?.zoom, .fit)
        XCTAssertEqual(pending.message, StatusMessage("The photo is not stored yet."))

        var unknown = Sample.photoState()
        guard case var .photo(screen) = unknown.screen else { return XCTFail("no photo screen") }
        var photos = screen.album.photos
        photos[4].found.width = nil
        screen.album.apply(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "flickr"))
        unknown.screen = .photo(screen)
        send(&unknown, .char("+"))
        XCTAssertEqual(unknown.photo?.zoom, .fit)
        XCTAssertEqual(unknown.message, StatusMessage("This photo cannot be zoomed: its size is not known."))

        var small = Sample.photoState()
        guard case var .photo(smallScreen) = small.screen else { return XCTFail("no photo screen") }
        photos = smallScreen.album.photos
        photos[4].found.width = 200
        photos[4].found.height = 150
        smallScreen.album.apply(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "flickr"))
        small.screen = .photo(smallScreen)
        send(&small, .char("+"))
        XCTAssertEqual(small.photo?.zoom, .fit)
        XCTAssertEqual(small.message, StatusMessage("The photo is shown as sharp as it is."))
    }

    func testAResizeKeepsTheMiddleAndTheLevelWithinTheNewBox() throws {
        var s = Sample.photoState()
        for _ in 0..<3 { send(&s, .char("+")) }
        for _ in 0..<3 { send(&s, .right) }
        XCTAssertEqual(s.photo?.zoom.level, 3)
        // Larger: the photo fitted is sharper, so fewer levels remain.
        _ = reducer.reduce(&s, .event(.resize(width: 200, height: 60), time: 0))
        let small = try view(s)
        XCTAssertLessThan(small.maxLevel, 3)
        XCTAssertEqual(s.photo?.zoom.level, small.maxLevel)
        XCTAssertEqual(s.photo?.zoom, small.clamped(try XCTUnwrap(s.photo?.zoom)), "the middle stays on the image")
        let crop = try wantedCrop(s)
        XCTAssertGreaterThanOrEqual(crop.x, 0)
        XCTAssertLessThanOrEqual(crop.x + crop.width, 10_000)
    }

    func testOnceTheLargeImageIsReadyTheZoomCountsInItAndWantsItsPart() throws {
        var s = Sample.photoState()
        send(&s, .char("+"))
        let crop = try wantedCrop(s)
        _ = reducer.reduce(&s, .largeImage(5, .ready(width: 4096, height: 3072)))
        XCTAssertEqual(s.photo?.zoom.level, 1)
        let size = PhotoView.pictureSize(s.layout)
        // The same part, of the large image first (sharper zoomed in), the thumbnail's until it is rendered.
        XCTAssertEqual(Array(s.wantedPictures.prefix(2)), [PictureKey(photoID: 5, size: size, image: .large, crop: crop),
                                                         PictureKey(photoID: 5, size: size, crop: crop)])
        // Twice the pixels: one more level before one image pixel a screen pixel.
        for _ in 0..<3 { send(&s, .char("+")) }
        XCTAssertEqual(s.photo?.zoom.level, 4)
        XCTAssertNil(s.message)
        send(&s, .char("+"))
        XCTAssertEqual(s.photo?.zoom.level, 4)
        XCTAssertEqual(s.message, StatusMessage("Zoomed in all the way: one image pixel a screen pixel."))
    }

    // MARK: - The wheel

    /// The image point (ten-thousandths) under the middle of a cell, from the crop the screen wants
    /// drawn fitted and centred in the picture's area (cells twice as tall as wide).
    func imagePoint(_ s: AppState, x: Int, y: Int) throws -> (x: Double, y: Double) {
        let crop = try wantedCrop(s)
        let area = PhotoView.pictureArea(s.layout)
        let w = Double(crop.width) / 10_000 * Double(Sample.imageSize.width)
        let h = Double(crop.height) / 10_000 * Double(Sample.imageSize.height)
        // The picture's cells, as the renderer fits them (before rounding).
        var columns = Double(area.width), rows = columns * h / w * 0.5
        if rows > Double(area.height) {
            rows = Double(area.height)
            columns = rows * w / h / 0.5
        }
        let u = (Double(x - area.x) + 0.5 - (Double(area.width) - columns) / 2) / columns
        let v = (Double(y - area.y) + 0.5 - (Double(area.height) - rows) / 2) / rows
        return (Double(crop.x) + u * Double(crop.width), Double(crop.y) + v * Double(crop.height))
    }

    func testTheWheelZoomsAtThePointerKeepingThePointUnderIt() throws {
        var s = Sample.photoState()
        let area = PhotoView.pictureArea(s.layout)
        let (x, y) = (area.x + area.width / 2 + 9, area.y + 3)
        send(&s, .char("+"))  // from here the crop fills the box both ways
        for up in [true, true, false] {
            let before = try imagePoint(s, x: x, y: y)
            XCTAssertEqual(wheel(&s, up: up, x: x, y: y), [])
            let after = try imagePoint(s, x: x, y: y)
            // Within a cell of the image at the finer level (rounding to whole cells and units).
            XCTAssertEqual(after.x, before.x, accuracy: 60, "wheel \(up ? "up" : "down")")
            XCTAssertEqual(after.y, before.y, accuracy: 120, "wheel \(up ? "up" : "down")")
        }
        XCTAssertEqual(s.photo?.zoom.level, 2)
        XCTAssertNotEqual(s.photo?.zoom.centerX, 5000, "not zoomed at the middle")
        XCTAssertEqual(s.photo?.photoID, 5)
    }

    func testTheWheelOutsideThePictureDoesNothingAndDownAtFitDoesNothing() {
        var s = Sample.photoState()
        let before = s
        let area = PhotoView.pictureArea(s.layout)
        wheel(&s, up: true, x: area.x, y: area.bottom + 1)
        wheel(&s, up: true, x: 0, y: area.y)
        wheel(&s, up: false, x: area.x + 3, y: area.y + 3)
        XCTAssertEqual(s, before)
    }

    // MARK: - The slideshow

    func testSpacePlaysFromNowAndSaysHow() {
        var s = Sample.photoState()
        s.settings.slideshowSeconds = 7
        XCTAssertEqual(send(&s, .char(" "), time: 42), [])
        XCTAssertEqual(s.photo?.slideshow, Slideshow(since: 42))
        XCTAssertEqual(s.message, StatusMessage("Slideshow: a photo every 7 s; any key pauses it."))
        let title = AppView.render(s, raster: nil).rowText(0)
        XCTAssertTrue(title.hasSuffix("\u{25B6} slideshow  5 of 10 "), title)
        // Space again only pauses.
        XCTAssertEqual(send(&s, .char(" "), time: 43), [])
        XCTAssertNil(s.photo?.slideshow)
        XCTAssertEqual(s.photo?.photoID, 5)
        XCTAssertEqual(s.message, StatusMessage("Slideshow paused."))
    }

    func testEachStepShowsTheNextPhotoFittedAndTheLastStopsAndSaysSo() {
        var s = Sample.photoState()
        send(&s, .char("+"))
        send(&s, .char(" "), time: 10)
        _ = reducer.reduce(&s, .slideshowStep(time: 14))
        XCTAssertEqual(s.photo?.photoID, 6)
        XCTAssertEqual(s.photo?.album.selected, 5)
        XCTAssertEqual(s.photo?.zoom, .fit)
        XCTAssertEqual(s.photo?.slideshow, Slideshow(since: 14))
        for time in [18.0, 22, 26] { _ = reducer.reduce(&s, .slideshowStep(time: time)) }
        XCTAssertEqual(s.photo?.photoID, 9)
        _ = reducer.reduce(&s, .slideshowStep(time: 30))
        XCTAssertEqual(s.photo?.photoID, 10)
        XCTAssertNil(s.photo?.slideshow, "stopped at the last photo")
        XCTAssertEqual(s.message, StatusMessage("Last photo: the slideshow stopped."))
        let stopped = s
        _ = reducer.reduce(&s, .slideshowStep(time: 34))
        XCTAssertEqual(s, stopped, "a step due before the pause was reduced does nothing")
        send(&s, .char(" "), time: 35)
        XCTAssertNil(s.photo?.slideshow)
        XCTAssertEqual(s.message, StatusMessage("Last photo: nothing to play."))
    }

    func testASlideshowThatCannotStepStopsOnce() {
        // The photos after the one shown were deleted elsewhere: it is the last now.
        var s = Sample.photoState()
        send(&s, .char(" "), time: 1)
        var photos = s.photo?.album.photos ?? []
        photos.removeLast(5)
        _ = reducer.reduce(&s, .albumLoaded(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "flickr")))
        XCTAssertNotNil(s.photo?.slideshow)
        _ = reducer.reduce(&s, .slideshowStep(time: 5))
        XCTAssertEqual(s.photo?.photoID, 5)
        XCTAssertNil(s.photo?.slideshow)
        XCTAssertEqual(s.message, StatusMessage("Last photo: the slideshow stopped."))

        // A photo no longer in its album (as a reload leaves it for a moment): the slideshow stops.
        var gone = Sample.photoState()
        send(&gone, .char(" "), time: 1)
        guard case var .photo(screen) = gone.screen else { return XCTFail("no photo screen") }
        screen.photoID = 99
        gone.screen = .photo(screen)
        _ = reducer.reduce(&gone, .slideshowStep(time: 5))
        XCTAssertNil(gone.photo?.slideshow)
    }

    func testAnyKeyPausesThenDoesItsOwnAction() {
        var s = Sample.photoState()
        send(&s, .char(" "), time: 1)
        send(&s, .right, time: 2)
        XCTAssertNil(s.photo?.slideshow)
        XCTAssertEqual(s.photo?.photoID, 6, "→ steps on")
        XCTAssertEqual(s.message, StatusMessage("Slideshow paused."))

        send(&s, .char(" "), time: 3)
        send(&s, .escape, time: 4)
        XCTAssertEqual(s.album?.selected, 5, "Esc leaves for the album")

        s = Sample.photoState()
        send(&s, .char(" "), time: 1)
        send(&s, .char("z"), time: 2)
        XCTAssertNil(s.photo?.slideshow, "even a key the screen ignores pauses it")
        XCTAssertEqual(s.photo?.photoID, 5)

        s = Sample.photoState()
        send(&s, .char(" "), time: 1)
        XCTAssertEqual(send(&s, .char("w"), time: 2), [.savePhoto(5, title: "Photo 5")])
        XCTAssertNil(s.photo?.slideshow)

        s = Sample.photoState()
        send(&s, .char(" "), time: 1)
        let area = PhotoView.pictureArea(s.layout)
        wheel(&s, up: true, x: area.x + area.width / 2, y: area.y + area.height / 2)
        XCTAssertNil(s.photo?.slideshow, "the wheel pauses too")
        XCTAssertEqual(s.photo?.zoom.level, 1)
    }

    func testWithoutUTF8TheMarksArePlainASCII() {
        var s = Sample.photoState()
        s.capabilities = TerminalCapabilities(unicode: false, colors: .none)
        send(&s, .char("+"))
        send(&s, .char(" "))
        let title = AppView.render(s, raster: nil).rowText(0)
        XCTAssertTrue(title.hasSuffix("2x  > slideshow  5 of 10 "), title)
    }
}
