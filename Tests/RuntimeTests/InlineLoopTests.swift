import Model
import Terminal
import TouristCore
@testable import TouristRuntime
import XCTest

/// Which inline picture the loop shows while another is being encoded.
extension LoopStateTests {
    private func requests(_ work: [Work]) -> [InlineRequest] {
        work.compactMap { if case let .encodeInline(request) = $0 { request } else { nil } }
    }

    private func encoded(_ request: InlineRequest) -> InlinePicture {
        InlinePicture(key: request.key, x: request.area.x, y: request.area.y, columns: 4, rows: 3, sequence: [1],
                      imageID: request.imageID)
    }

    func testTheThumbnailsPictureStaysUntilTheLargeOnesIsEncodedNeverCellsBetween() throws {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let kitty = TerminalFacts(inlineImages: .kitty, cellPixelSize: (8, 16))
        let opened = photoState(shown: 2)
        let thumbnail = try XCTUnwrap(requests(loop.started(opened, now: 0, terminal: kitty)).first)
        XCTAssertNil(loop.shownInline, "nothing encoded yet")
        _ = loop.receive(.inlineReady(encoded(thumbnail)), opened)
        XCTAssertEqual(loop.shownInline?.key, thumbnail.key)

        let ready = reduce(opened, .largeImage(2, .ready(width: 1024, height: 768)))
        let large = try XCTUnwrap(requests(loop.settled(from: opened, to: ready, now: 0, terminal: kitty)).first)
        XCTAssertEqual(large.image, .large)
        XCTAssertNotEqual(large.imageID, thumbnail.imageID, "an id of its own")
        XCTAssertEqual(loop.shownInline?.key, thumbnail.key, "the thumbnail's picture while the large one is encoded")
        _ = loop.receive(.inlineReady(encoded(thumbnail)), ready)
        XCTAssertEqual(loop.shownInline?.key, thumbnail.key, "a late one of what is no longer wanted is not taken")
        _ = loop.receive(.inlineReady(encoded(large)), ready)
        XCTAssertEqual(loop.shownInline?.key, large.key)

        // Another photo: the last one's picture is not shown in its place.
        let next = reduce(ready, .event(.key(.right), time: 0))
        let stepped = try XCTUnwrap(requests(loop.settled(from: ready, to: next, now: 0, terminal: kitty)).first)
        XCTAssertEqual(stepped.photoID, 3)
        XCTAssertNil(loop.shownInline)
        // Nor after a resize: the place is another.
        _ = loop.receive(.inlineReady(encoded(stepped)), next)
        var smaller = next
        _ = AppReducer(places: .none).reduce(&smaller, .event(.resize(width: 90, height: 28), time: 0))
        XCTAssertEqual(requests(loop.settled(from: next, to: smaller, now: 0, terminal: kitty)).count, 1)
        XCTAssertNil(loop.shownInline)
    }

    func testWhileTheFirstPictureIsOnItsWayItsAreaIsKeptBlankAndCellsComeBackIfItCannotBeMade() throws {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let iterm = TerminalFacts(inlineImages: .iterm2, cellPixelSize: nil)
        let opened = photoState(shown: 2)
        let first = try XCTUnwrap(requests(loop.started(opened, now: 0, terminal: iterm)).first)
        XCTAssertEqual(loop.inlineAwaited, first.area, "no cell picture written for nothing")
        _ = loop.receive(.inlineFailed("another key"), opened)
        XCTAssertEqual(loop.inlineAwaited, first.area, "what is not wanted changes nothing")
        _ = loop.receive(.inlineFailed(first.key), opened)
        XCTAssertNil(loop.inlineAwaited, "it cannot be made: the cells show the photo")
        XCTAssertTrue(loop.needsDraw)
        XCTAssertNil(loop.shownInline)

        // The next photo's picture arrives: shown, nothing awaited.
        let next = reduce(opened, .event(.key(.right), time: 0))
        let second = try XCTUnwrap(requests(loop.settled(from: opened, to: next, now: 0, terminal: iterm)).first)
        XCTAssertEqual(loop.inlineAwaited, second.area)
        _ = loop.receive(.inlineReady(encoded(second)), next)
        XCTAssertNil(loop.inlineAwaited)
        XCTAssertEqual(loop.shownInline?.key, second.key)
        // Off the photo view: nothing.
        _ = loop.settled(from: next, to: albumState(), now: 0, terminal: iterm)
        XCTAssertNil(loop.inlineAwaited)
        XCTAssertNil(loop.shownInline)

        // Placeholders whose colours cannot carry an id: cells at once.
        var eight = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        _ = eight.started(opened, now: 0, terminal: TerminalFacts(inlineImages: .kittyUnicode, cellPixelSize: nil, colors: .eight))
        XCTAssertNil(eight.inlineAwaited)
    }
}
