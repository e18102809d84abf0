import Foundation
import Model
import Store
import TestSupport
import Terminal
import TouristCore
import XCTest

/// The settings screen through the real runtime: saved in the store, in effect for the next search.
extension RuntimeTests {
    func testAChangedSettingIsStoredAndTheNextSearchUsesIt() throws {
        let server = try PhotoServer()
        try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint, key: "good-key")
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        // Photos per collection: 21 → 5.
        terminal.press(.char("s"), .down, .down, .down, .enter, .backspace, .backspace, .char("5"), .enter)
        XCTAssertNotNil(terminal.frame(showing: "Saved: photos per collection 5."))
        XCTAssertNotNil(waitFor { (try? store.settings())?.photosPerCollection == 5 ? true : nil }, "stored")
        // The next drop's album has 5 photos.
        terminal.press(.escape, .char("p"))
        XCTAssertNotNil(terminal.frame(showing: "1 pin "))
        terminal.press(.enter)
        XCTAssertNotNil(terminal.frame(showing: " 5 photos"))
        let pin = try XCTUnwrap(store.pins().first)
        XCTAssertEqual(try store.photos(pinID: pin.id).count, 5)
    }

    func testTestingTheKeySaysWhetherItWorks() throws {
        let server = try PhotoServer()
        try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint, key: "bad-key")
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        terminal.press(.char("s"), .char("t"))
        let frame = try XCTUnwrap(terminal.frame(showing: "The Flickr key does not work"))
        XCTAssertFalse(frame.text.contains("bad-key"), "the key itself is never shown")
    }
}

extension RuntimeTests {
    func testChangingThePhotoSourceOnTheScreenChangesWhereTheNextDropSearches() throws {
        let server = try PhotoServer()
        // A Flickr key in the store's settings would pick Flickr; the screen switches to Commons.
        try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint, key: "good-key")
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        terminal.press(.char("s"), .down, .enter)  // automatic → Flickr
        XCTAssertNotNil(terminal.frame(showing: "Saved: photo source Flickr."))
        terminal.press(.enter)  // Flickr → Wikimedia Commons
        XCTAssertNotNil(terminal.frame(showing: "Saved: photo source Wikimedia Commons."))
        terminal.press(.escape, .char("p"))
        XCTAssertNotNil(terminal.frame(showing: "1 pin "))
        terminal.press(.enter)
        let album = try XCTUnwrap(terminal.frame(showing: " 21 photos"))
        XCTAssertTrue(album.rowText(0).contains("Wikimedia Commons"), album.rowText(0))
        let pin = try XCTUnwrap(store.pins().first)
        XCTAssertTrue(try store.photos(pinID: pin.id).allSatisfy { $0.source == "commons" })
    }
}

extension RuntimeTests {
    func testAChangeOnTheScreenKeepsWhatAnotherProcessSetAndTheScreenShowsIt() throws {
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        terminal.press(.char("s"))
        XCTAssertNotNil(terminal.frame(showing: "Photos per collection   21"))
        // `vtourist config set photos_per_collection 12` and `allow_drag off` while the app is open.
        let other = try AppDatabase.open(path: path)
        defer { try? other.close() }
        try other.setSetting(.photosPerCollection, to: "12")
        try other.setSetting(.allowDrag, to: "off")
        var mark = terminal.frameCount
        clock.advance(by: 1)
        terminal.nudge()
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Photos per collection   12", "Allow dragging          off"),
                        "the screen shows what the other process set")
        // Toggling Confirm delete writes that setting alone.
        mark = terminal.frameCount
        terminal.press(.down, .down, .down, .down, .enter)
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Saved: confirm delete off."))
        XCTAssertNotNil(waitFor { (try? other.settings())?.confirmDelete == false ? true : nil }, "stored")
        let stored = try other.settings()
        XCTAssertEqual(stored.photosPerCollection, 12, "not written back with the app's old value")
        XCTAssertFalse(stored.allowDrag)
    }
}

extension RuntimeTests {
    func testLoweringTheLargeImageBudgetOnTheScreenTrimsTheStoreAtOnce() throws {
        let pin = try store.insertPin(at: .init(latitude: 40.85, longitude: 14.27), name: "Naples")
        let photos = try store.replaceAlbum(pinID: pin.id, generation: 1, photos: (0..<4).map {
            NewPhoto(source: "flickr", sourceID: "\($0)", url: "http://127.0.0.1:9/\($0).jpg")
        })
        for (i, photo) in photos.enumerated() {
            let image = LargeImage(bytes: LargeJPEG.copy(i), width: LargeJPEG.width, height: LargeJPEG.height)
            XCTAssertTrue(try store.storeLargeImage(photoID: photo.id, image, budgetBytes: Settings().largeCacheBytes, now: Double(i)))
        }
        try start()
        XCTAssertNotNil(terminal.frame(showing: "1 pin"))
        let row = try XCTUnwrap(SettingCatalog.standard.screenOrder.firstIndex(of: .largeCacheMB))
        terminal.press(.char("s"))
        for _ in 0..<row { terminal.press(.down) }
        // 256 → 1: room for the three most recently viewed of about 300 KB.
        terminal.press(.enter, .backspace, .backspace, .backspace, .char("1"), .enter)
        XCTAssertNotNil(terminal.frame(showing: "Saved: large-image budget 1 MB."))
        XCTAssertNotNil(waitFor { (try? store.largeImageInfos(pinID: pin.id).count) == 3 ? true : nil }, "trimmed")
        XCTAssertNil(try store.largeImage(photoID: photos[0].id), "the least recently viewed went")
        XCTAssertEqual(try store.settings().largeCacheMB, 1)
        XCTAssertLessThanOrEqual(try store.largeImagesTotalBytes(), 1_048_576)
    }
}
