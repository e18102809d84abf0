import Foundation
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
