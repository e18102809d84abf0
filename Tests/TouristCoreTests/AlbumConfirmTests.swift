import Model
import Terminal
@testable import TouristCore
import XCTest

/// The album asks before New Collection and before deleting marked photos, as the confirm-delete
/// setting says.
final class AlbumConfirmTests: XCTestCase {
    let reducer = AppReducer(places: .none)

    @discardableResult
    func press(_ s: inout AppState, _ key: Key) -> [AppEffect] {
        reducer.reduce(&s, .event(.key(key), time: 0))
    }

    func testDeletingMarkedPhotosAsksFirstAndNoKeepsThem() {
        var s = Sample.albumState()  // photo 2 marked
        XCTAssertEqual(press(&s, .char("X")), [])
        XCTAssertEqual(s.album?.confirming, .deleteMarked([2]))
        let text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.contains("Delete the 1 marked photo?"), text)
        XCTAssertTrue(text.contains("[y] Delete"), text)
        XCTAssertEqual(press(&s, .right), [], "other keys wait for the answer")
        XCTAssertEqual(s.album?.selected, 4)
        XCTAssertEqual(press(&s, .char("n")), [])
        XCTAssertNil(s.album?.confirming)
        XCTAssertEqual(s.album?.photos.count, 10, "nothing deleted")
        XCTAssertEqual(s.album?.marked, [2])

        press(&s, .char("X"))
        let effects = press(&s, .char("y"))
        XCTAssertEqual(effects, [.album(1, .deletePhotos([2]))])
        XCTAssertEqual(s.album?.photos.count, 9)
        XCTAssertEqual(s.message, StatusMessage("Deleting \u{201C}Photo 2\u{201D}\u{2026}"), "not said deleted before the store has it")
        reducer.commit(effects, &s)
        XCTAssertEqual(s.message, StatusMessage("Deleted \u{201C}Photo 2\u{201D}."), "the one photo that went, by name")
    }

    func testNewCollectionAsksFirstWhenItWouldRun() {
        var s = Sample.albumState()  // ready: New Collection allowed
        XCTAssertEqual(press(&s, .char("n")), [])
        XCTAssertEqual(s.album?.confirming, .newCollection(10))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Replace the 10 photos of this album?"))
        XCTAssertEqual(press(&s, .escape), [])
        XCTAssertNotNil(s.album, "Esc answers no; the album stays")
        press(&s, .char("n"))
        XCTAssertEqual(press(&s, .enter), [.album(1, .newCollection)])

        // While downloading, the album machine refuses with a message: nothing to ask.
        s.updateAlbum { $0.snapshot?.status = .downloading; $0.snapshot?.photos[0].state = .pending }
        XCTAssertEqual(press(&s, .char("n")), [.album(1, .newCollection)])
        XCTAssertNil(s.album?.confirming)
    }

    func testWithConfirmationsOffBothHappenAtOnce() {
        var s = Sample.albumState()
        s.settings.confirmDelete = false
        XCTAssertEqual(press(&s, .char("X")), [.album(1, .deletePhotos([2]))])
        XCTAssertEqual(press(&s, .char("n")), [.album(1, .newCollection)])
        XCTAssertNil(s.album?.confirming)
    }

    func testTheMouseWaitsForTheAnswer() {
        var s = Sample.albumState()
        press(&s, .char("X"))
        let before = s
        _ = reducer.reduce(&s, .event(.mouse(MouseEvent(.wheelDown, x: 10, y: 10)), time: 0))
        XCTAssertEqual(s, before)
    }
}
