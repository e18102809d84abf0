import Model
import Terminal
import TouristCore
@testable import TouristRuntime
import XCTest

/// Which large images the loop asks for, as pure decisions: tables of screens and what arrives.
extension LoopStateTests {
    /// The photo view of pin 1's album of `count` photos, on photo `shown`.
    func photoState(count: Int = 5, shown: Int64 = 1) -> AppState {
        var s = albumState(count: count)
        var album = s.openAlbum!
        album.selected = Int(shown) - 1
        s.go(to: .photo(of: album))
        return s
    }

    func reduce(_ state: AppState, _ actions: AppAction...) -> AppState {
        var s = state
        for action in actions { _ = AppReducer(places: .none).reduce(&s, action) }
        return s
    }

    func largeRequests(_ work: [Work]) -> [LargeImageRequest] {
        work.compactMap { if case let .wantLargeImages(request) = $0 { request } else { nil } }
    }

    func testThePhotoViewAsksForTheShownThenTheNextThenThePrevious() {
        let cases: [(shown: Int64, count: Int, fetch: [PhotoRecord.ID])] = [
            (3, 5, [3, 4, 2]),
            (1, 5, [1, 2]),  // no previous
            (5, 5, [5, 4]),  // no next
            (1, 1, [1]),
        ]
        for c in cases {
            var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
            let state = photoState(count: c.count, shown: c.shown)
            let asked = largeRequests(loop.started(state, now: 0, terminal: noInline))
            XCTAssertEqual(asked.map { $0.fetch.map(\.photoID) }, [c.fetch], "\(c)")
            XCTAssertEqual(asked.first?.keep, Set(c.fetch))
            XCTAssertEqual(asked.first?.fetch.map(\.shown), c.fetch.map { $0 == c.shown })
            XCTAssertEqual(asked.first?.budgetBytes, Settings.defaultLargeCacheMB * 1_048_576)
        }
        // Nothing on the other screens.
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        XCTAssertEqual(largeRequests(loop.started(albumState(), now: 0, terminal: noInline)), [])
    }

    func testTheWidthAskedIsTheTerminalsInPixels() {
        let cases: [(facts: TerminalFacts, width: Int)] = [
            (TerminalFacts(inlineImages: nil, cellPixelSize: nil), 800),  // 80 columns of an assumed 10 px
            (TerminalFacts(inlineImages: .kitty, cellPixelSize: (8, 16)), 640),
            (TerminalFacts(inlineImages: .iterm2, cellPixelSize: (20, 40)), 1600),
        ]
        for c in cases {
            var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
            XCTAssertEqual(largeRequests(loop.started(photoState(), now: 0, terminal: c.facts)).first?.screenWidth, c.width)
        }
    }

    func testWhatArrivesIsNotAskedAgainAndAFailureWaitsForTheNextOpening() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let opened = photoState(shown: 3)
        _ = loop.started(opened, now: 0, terminal: noInline)
        let ready = reduce(opened, .largeImage(3, .ready(width: 1024, height: 768)), .largeImage(4, .failed("HTTP 404")))
        XCTAssertEqual(ready.photo?.large, [3: .ready(width: 1024, height: 768), 4: .failed("HTTP 404")])
        let asked = largeRequests(loop.settled(from: opened, to: ready, now: 0, terminal: noInline))
        XCTAssertEqual(asked.map { $0.fetch.map(\.photoID) }, [[2]])
        XCTAssertEqual(asked.first?.keep, [2, 3, 4], "the ready one's copy and the failed one stay")
        // A photo outside the window, or any other screen, takes no word.
        XCTAssertEqual(reduce(ready, .largeImage(1, .ready(width: 9, height: 9))), ready)
        let album0 = albumState()
        XCTAssertEqual(reduce(album0, .largeImage(1, .ready(width: 9, height: 9))), album0)

        // Back to the album, then the photo again: the failed one is asked again.
        var album = ready
        album.go(to: .backToAlbum(ready.photo!.album))
        XCTAssertEqual(largeRequests(loop.settled(from: ready, to: album, now: 0, terminal: noInline)), [.none],
                       "leaving cancels everything")
        var again = album
        again.go(to: .photo(of: album.openAlbum!))
        XCTAssertEqual(largeRequests(loop.settled(from: album, to: again, now: 0, terminal: noInline))
            .map { $0.fetch.map(\.photoID) }, [[3, 4, 2]])
    }

    func testSteppingMovesTheWindowAndForgetsWhatLeftIt() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let opened = reduce(photoState(shown: 2), .largeImage(2, .ready(width: 1024, height: 768)),
                            .largeImage(1, .ready(width: 1024, height: 768)), .largeImage(3, .failed("slow")))
        _ = loop.started(opened, now: 0, terminal: noInline)
        let stepped = reduce(opened, .event(.key(.right), time: 0))
        XCTAssertEqual(stepped.photo?.photoID, 3)
        XCTAssertEqual(stepped.photo?.large, [2: .ready(width: 1024, height: 768), 3: .failed("slow")],
                       "photo 1 left the window")
        let asked = largeRequests(loop.settled(from: opened, to: stepped, now: 0, terminal: noInline))
        XCTAssertEqual(asked.map { $0.fetch.map(\.photoID) }, [[4]])
        XCTAssertEqual(asked.first?.keep, [2, 3, 4], "photo 1's download or copy goes")
        // Back twice: photo 1 is asked again (from the store at once when it was stored).
        let back = reduce(stepped, .event(.key(.left), time: 0), .event(.key(.left), time: 0))
        XCTAssertEqual(largeRequests(loop.settled(from: stepped, to: back, now: 0, terminal: noInline))
            .map { $0.fetch.map(\.photoID) }, [[1]])
    }

    func testTheBudgetFollowsTheSetting() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let opened = photoState()
        _ = loop.started(opened, now: 0, terminal: noInline)
        let none = reduce(opened, .settingsLoaded(Settings(largeCacheMB: 0)))
        XCTAssertEqual(largeRequests(loop.settled(from: opened, to: none, now: 0, terminal: noInline)).map(\.budgetBytes), [0])
    }

    func testTheViewWantsTheLargePictureOnceReadyThenTheThumbnail() {
        let opened = photoState(shown: 2)
        guard let size = opened.wantedPictures.first?.size else { return XCTFail("no picture wanted") }
        XCTAssertEqual(opened.wantedPictures, [2, 3, 1].map { PictureKey(photoID: $0, size: size) })
        let ready = reduce(opened, .largeImage(2, .ready(width: 1024, height: 768)), .largeImage(1, .failed("HTTP 500")))
        XCTAssertEqual(ready.wantedPictures, [PictureKey(photoID: 2, size: size, image: .large)]
            + [2, 3, 1].map { PictureKey(photoID: $0, size: size) }, "the thumbnail stays until the large one is drawn")
    }

    func testTheInlinePictureIsTheLargeImageOnceReady() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let kitty = TerminalFacts(inlineImages: .kitty, cellPixelSize: (8, 16))
        let opened = photoState(shown: 2)
        guard case let .encodeInline(first)? = loop.started(opened, now: 0, terminal: kitty).first else {
            return XCTFail("no inline picture")
        }
        XCTAssertEqual(first.image, .thumbnail)
        let ready = reduce(opened, .largeImage(2, .ready(width: 1024, height: 768)))
        let work = loop.settled(from: opened, to: ready, now: 0, terminal: kitty)
        let requests = work.compactMap { if case let .encodeInline(request) = $0 { request } else { nil } }
        XCTAssertEqual(requests.map(\.image), [.large])
    }
}
