import AlbumMachine
import Terminal
@testable import TouristCore
import Geo
import Model
import XCTest

/// The photo screen's keys, each stepped through exact states and effects.
final class PhotoScreenTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    /// The sample album (ten photos, the fifth selected, the second marked), scrolled, with a photo opened.
    func album(selected: Int = 4) -> AlbumScreen {
        var album = Sample.albumState().album!
        album.selected = selected
        album.topRow = 1
        return album
    }

    func state(_ album: AlbumScreen) -> AppState {
        var s = Sample.mapState()
        s.screen = .album(album)
        return s
    }

    @discardableResult
    func send(_ s: inout AppState, _ key: Key) -> [AppEffect] {
        reducer.reduce(&s, .event(.key(key), time: 0))
    }

    func testEnterOpensTheSelectedPhotoWithTheAlbumUnderneath() {
        let album = album()
        var s = state(album)
        XCTAssertEqual(send(&s, .enter), [])
        XCTAssertEqual(s.screen, .photo(PhotoScreen(album: album, photoID: 5)))
        XCTAssertNil(s.message)
    }

    func testEnterOnAnEmptyAlbumSaysThereIsNoPhoto() {
        var empty = AlbumScreen(pinID: 1)
        empty.apply(AlbumSnapshot(pinID: 1, photos: [], status: .empty, source: "flickr"))
        var s = state(empty)
        XCTAssertEqual(send(&s, .enter), [])
        XCTAssertEqual(s.screen, .album(empty))
        XCTAssertEqual(s.message, StatusMessage("No photo to open."))
    }

    func testEscBackspaceAndQReturnToExactlyTheSameAlbum() {
        let album = album()
        for key in [Key.escape, .backspace, .char("q")] {
            var s = state(album)
            send(&s, .enter)
            XCTAssertEqual(send(&s, key), [], "\(key)")
            XCTAssertEqual(s.screen, .album(album), "\(key)")
            XCTAssertNil(s.message)
        }
    }

    func testRightAndLeftStepThroughThePhotosAndTheAlbumSelectionFollows() {
        var s = state(album())
        send(&s, .enter)
        XCTAssertEqual(send(&s, .right), [])
        var expected = album(selected: 5)
        XCTAssertEqual(s.screen, .photo(PhotoScreen(album: expected, photoID: 6)))
        XCTAssertEqual(send(&s, .char("l")), [])
        expected.selected = 6
        XCTAssertEqual(s.screen, .photo(PhotoScreen(album: expected, photoID: 7)))
        XCTAssertEqual(send(&s, .left), [])
        XCTAssertEqual(send(&s, .char("h")), [])
        XCTAssertEqual(send(&s, .char("h")), [])
        expected.selected = 3
        XCTAssertEqual(s.screen, .photo(PhotoScreen(album: expected, photoID: 4)))
        // Back in the album, the photo last shown is selected.
        send(&s, .escape)
        XCTAssertEqual(s.screen, .album(expected))
    }

    func testTheEndsStopWithAMessage() {
        var s = state(album(selected: 0))
        send(&s, .enter)
        let first = s.screen
        XCTAssertEqual(send(&s, .left), [])
        XCTAssertEqual(s.screen, first)
        XCTAssertEqual(s.message, StatusMessage("First photo."))

        s = state(album(selected: 9))
        send(&s, .enter)
        let last = s.screen
        XCTAssertEqual(send(&s, .right), [])
        XCTAssertEqual(s.screen, last)
        XCTAssertEqual(s.message, StatusMessage("Last photo."))
        // The next key clears the message.
        send(&s, .left)
        XCTAssertNil(s.message)
    }

    func testDeleteRemovesThePhotoAndReturnsToTheAlbumWithoutIt() {
        for key in [Key.char("x"), .delete] {
            var s = state(album())
            send(&s, .enter)
            send(&s, .right)
            let effects = send(&s, key)
            XCTAssertEqual(effects, [.album(1, .deletePhotos([6]))], "\(key)")
            var expected = album(selected: 5)
            expected.remove([6])
            expected.pendingDeletions = [PendingPhotoDeletion(ids: [6], ack: .photosDeleted(["Photo 6"]))]
            XCTAssertEqual(s.screen, .album(expected), "\(key)")
            XCTAssertEqual(s.album?.photos.count, 9)
            XCTAssertFalse(s.album?.photos.contains { $0.id == 6 } ?? true)
            XCTAssertEqual(s.album?.selectedPhoto?.id, 7, "the next photo is selected")
            XCTAssertEqual(s.album?.marked, [2])
            XCTAssertEqual(s.message?.text, "Deleting \u{201C}Photo 6\u{201D}\u{2026}", "said deleted only once the store has it")
            reducer.commit(effects, &s)
            XCTAssertEqual(s.album?.pendingDeletions, [])
            XCTAssertEqual(s.message?.text, "Deleted \u{201C}Photo 6\u{201D}.", "never asked; the message line names it")
            XCTAssertNil(s.album?.confirming)
        }
    }

    func testDeletingTheLastPhotoSelectsTheOneBefore() {
        var s = state(album(selected: 9))
        send(&s, .enter)
        XCTAssertEqual(send(&s, .char("x")), [.album(1, .deletePhotos([10]))])
        XCTAssertEqual(s.album?.selectedPhoto?.id, 9)
    }

    func testPageKeysStepAndHomeEndGoToTheEnds() {
        var s = state(album())
        send(&s, .enter)
        send(&s, .pageDown)
        XCTAssertEqual(s.photo?.photoID, 6)
        send(&s, .pageUp)
        send(&s, .pageUp)
        XCTAssertEqual(s.photo?.photoID, 4)
        send(&s, .end)
        XCTAssertEqual(s.photo?.photoID, 10)
        XCTAssertEqual(s.photo?.album.selected, 9, "the album's selection follows")
        send(&s, .home)
        XCTAssertEqual(s.photo?.photoID, 1)
        XCTAssertEqual(send(&s, .char(" ")), [])
        XCTAssertEqual(s.photo?.photoID, 1, "space plays the slideshow: no step until its interval passed")
        XCTAssertNotNil(s.photo?.slideshow)
    }

    func testRRetriesTheShownPhotoWhenItFailed() {
        var s = state(album(selected: 6))  // photo 7 failed
        send(&s, .enter)
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("the download failed \u{2014} r retries"))
        XCTAssertEqual(send(&s, .char("r")), [.album(1, .retry(photo: 7))])
        send(&s, .right)
        XCTAssertEqual(send(&s, .char("r")), [.album(1, .retry(photo: 8))], "the album machine says there is nothing to retry")
    }

    func testOOpensTheWebPage() {
        var s = state(album())
        send(&s, .enter)
        let before = s
        XCTAssertEqual(send(&s, .char("o")), [.openPage("https://example.org/photos/5")])
        XCTAssertEqual(s, before)
    }

    func testOWithoutAWebPageSaysSo() {
        for page in [nil, "ftp://example.org/5", "javascript:alert(1)", "file:///etc/passwd"] {
            var album = album()
            var photos = album.photos
            photos[4].found.pageURL = page
            album.apply(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "flickr"))
            var s = state(album)
            send(&s, .enter)
            XCTAssertEqual(send(&s, .char("o")), [], "\(page ?? "nil")")
            XCTAssertEqual(s.message, StatusMessage("This photo has no web page."))
        }
    }

    func testWSavesAStoredPhotoUnderItsTitle() {
        var s = state(album())
        send(&s, .enter)
        let before = s
        XCTAssertEqual(send(&s, .char("w")), [.savePhoto(5, title: "Photo 5")])
        XCTAssertEqual(s, before)
    }

    func testWOnAPhotoNotStoredSaysSo() {
        var s = state(album(selected: 6))  // the seventh photo failed to download
        send(&s, .enter)
        XCTAssertEqual(send(&s, .char("w")), [])
        XCTAssertEqual(s.message, StatusMessage("The photo is not stored yet."))
    }

    func testQuestionMarkShowsThePhotoScreensHelp() {
        var s = state(album())
        send(&s, .enter)
        let screen = s.screen
        XCTAssertEqual(send(&s, .char("?")), [])
        XCTAssertEqual(s.overlay, .help)
        XCTAssertEqual(s.screen, screen)
        let text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.contains("open its page in the browser"), text)
        XCTAssertTrue(text.contains("save the image file"), text)
    }

    func testAReloadKeepsThePhotoAndOneDeletedElsewhereGoesBackToTheAlbum() {
        var s = state(album())
        send(&s, .enter)
        var photos = s.photo!.album.photos
        photos.removeFirst()  // photo 1 deleted elsewhere: photo 5 is now the fourth
        _ = reducer.reduce(&s, .albumLoaded(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "flickr")))
        XCTAssertEqual(s.photo?.photoID, 5)
        XCTAssertEqual(s.photo?.album.selected, 3)
        XCTAssertEqual(s.photo?.album.photos.count, 9)

        photos.removeAll { $0.id == 5 }
        _ = reducer.reduce(&s, .albumLoaded(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "flickr")))
        XCTAssertEqual(s.album?.photos.map(\.id), [2, 3, 4, 6, 7, 8, 9, 10])
        XCTAssertEqual(s.message, StatusMessage("That photo was deleted elsewhere.", kind: .error))
    }

    func testTheRuntimesAnswerIsShownOnTheMessageLine() {
        var s = state(album())
        send(&s, .enter)
        XCTAssertEqual(reducer.reduce(&s, .message(StatusMessage("Opened the photo's page."))), [])
        XCTAssertEqual(s.message, StatusMessage("Opened the photo's page."))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(22).contains("Opened the photo's page."))
    }

    func testAPinDeletedElsewhereLeavesThePhotoForTheMap() {
        var s = state(album())
        send(&s, .enter)
        _ = reducer.reduce(&s, .pinsLoaded([]))
        XCTAssertEqual(s.screen, .map(MapScreen()))
        XCTAssertEqual(s.message, StatusMessage("That pin was deleted elsewhere.", kind: .error))
    }

    func testWithoutUTF8ThePhotoScreenIsPlainASCII() {
        var s = Sample.photoState()
        s.capabilities = TerminalCapabilities(unicode: false, colors: .none)
        let text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.unicodeScalars.allSatisfy(\.isASCII), text)
        XCTAssertTrue(text.contains("Left previous"), text)
        XCTAssertTrue(text.contains("~") && text.contains("+---"), "the picture's place while it is rendered: \(text)")
    }

    func testASmallTerminalStillShowsTheTitleDetailsAndKeys() {
        var s = Sample.photoState()
        s.width = AppState.minimumWidth
        s.height = AppState.minimumHeight
        let buffer = AppView.render(s, raster: nil)
        XCTAssertTrue(buffer.rowText(0).hasPrefix(" Photo 5"), buffer.rowText(0))
        XCTAssertTrue(buffer.text.contains("Source    Flickr"), buffer.text)
        XCTAssertTrue(buffer.rowText(11).contains("? help"), buffer.rowText(11))
    }

    func testDetailsTooLongForTheirRowEndInAnEllipsis() throws {
        var s = Sample.photoState()
        s.width = AppState.minimumWidth
        guard case var .photo(screen) = s.screen else { return XCTFail("no photo screen") }
        var photos = screen.album.photos
        photos[4].found = NewPhoto(source: "flickr", sourceID: "s5", title: "A title far too long for forty columns of screen",
                                   author: "An author whose name is longer than the row", url: "http://127.0.0.1/5.jpg",
                                   pageURL: "https://example.org/photos/a/very/long/page/address", license: "Creative Commons Attribution-ShareAlike 4.0")
        photos[4].state = .failed(reason: "the server answered with something that was not a picture")
        screen.album.apply(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "flickr"))
        s.screen = .photo(screen)
        let buffer = AppView.render(s, raster: nil)
        let rows = (0..<buffer.height).map(buffer.rowText)
        XCTAssertTrue(rows[0].hasPrefix(" A title far too long"), rows[0])
        XCTAssertTrue(rows[0].contains("\u{2026}"), "the title is cut: \(rows[0])")
        XCTAssertTrue(rows[0].hasSuffix("5 of 10 "), "and its position still shows: \(rows[0])")
        for label in ["Author", "Licence", "Page", "Source"] {
            let row = try XCTUnwrap(rows.first { $0.hasPrefix(" " + label + " ") }, label)
            XCTAssertEqual(row.displayWidth, 40)
            XCTAssertTrue(row.hasSuffix("\u{2026} "), "\(label) is cut with an ellipsis, the last column blank: \(row)")
        }
        let taken = try XCTUnwrap(rows.first { $0.hasPrefix(" Taken ") })
        XCTAssertFalse(taken.contains("\u{2026}"), "a value that fits is whole: \(taken)")
    }
}
