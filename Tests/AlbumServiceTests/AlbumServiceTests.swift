import AlbumMachine
import AlbumService
import Foundation
import HTTP
import PhotoSources
@testable import Store
import TestSupport
import Model
import Synchronization
import Geo
import Imaging
import XCTest

/// Albums end to end below the UI: the real photo-source clients over real
/// libcurl against the local stand-in server, and a real SQLite file.
final class AlbumServiceTests: AlbumServiceTestCase {
    func testFlickrAlbumDownloadsEveryPhotoInParallel() throws {
        let s = service()
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        let album = try XCTUnwrap(settle(s, pin.id))
        XCTAssertEqual(album.status, .ready)
        XCTAssertEqual(s.album(pin.id)?.progress, AlbumProgress(stored: 21, total: 21))
        let photos = try store.photos(pinID: pin.id)
        XCTAssertEqual(photos.count, 21)
        XCTAssertTrue(photos.allSatisfy { $0.state == .stored && $0.byteCount > 1000 })
        XCTAssertEqual(try store.pin(id: pin.id)?.albumState, .ready)
        let first = try XCTUnwrap(store.imageBytes(photoID: photos[0].id))
        XCTAssertEqual(Array(first.prefix(3)), [0xFF, 0xD8, 0xFF])
        XCTAssertGreaterThanOrEqual(server.stats()["max_images_in_flight"] ?? 0, 8)
        XCTAssertTrue(try store.integrityCheck())
    }

    func testCommonsAlbumWithoutAKey() throws {
        let s = service(key: nil, commons: true)
        defer { s.shutdown() }
        XCTAssertEqual(s.sourceName, "commons")
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        let photos = try store.photos(pinID: pin.id)
        XCTAssertEqual(photos.count, 21)
        XCTAssertEqual(photos.first?.author, "Artist 0")
    }

    func testSearchFailuresShowWhyAndRetryAsksAgain() throws {
        for key in ["bad-key", "unavailable", "malformed", "wrong-shape", "http500", "hang"] {
            let word = try XCTUnwrap(FaultMatrixTests.searchReasons[key], key)
            // Passing ones too fail at once here: their waiting is RetryServiceTests'.
            let s = service(key: key, retryPolicy: Self.noRetryWindow)
            let pin = try dropPin()
            s.start(pin)
            let album = settle(s, pin.id)
            guard case let .failed(reason)? = album?.status else {
                XCTFail("\(key): \(String(describing: album?.status))")
                s.shutdown()
                continue
            }
            XCTAssertTrue(reason.contains(word), "\(key): \(reason)")
            XCTAssertEqual(try store.pin(id: pin.id)?.albumState, .failed, key)
            let before = server.stats()["requests"] ?? 0
            s.send(.retry(photo: nil), to: pin.id)
            guard case .failed? = settle(s, pin.id)?.status else { XCTFail("\(key): retry"); s.shutdown(); continue }
            XCTAssertGreaterThan(server.stats()["requests"] ?? 0, before, "\(key): retry sent nothing")
            s.shutdown()
        }
        XCTAssertTrue(try store.integrityCheck())
    }

    func testNoPhotosMeansEmpty() throws {
        let s = service(key: "empty")
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.status, .empty)
        XCTAssertEqual(try store.pin(id: pin.id)?.albumState, .empty)
    }

    func testBrokenImagesFailAloneAndKeepTheRest() throws {
        for fault in ["html", "random", "trunc", "endless", "404"] {
            // A body cut short passes; here it fails at once like the others (its retries: RetryServiceTests).
            let s = service(key: "img-" + fault, retryPolicy: Self.noRetryWindow)
            let pin = try dropPin()
            s.start(pin)
            XCTAssertEqual(settle(s, pin.id)?.status, .ready, fault)
            let photos = try store.photos(pinID: pin.id)
            XCTAssertEqual(photos.filter { $0.state == .stored }.count, 20, fault)
            let broken = try XCTUnwrap(photos.first { $0.state.isFailed }, fault)
            XCTAssertNotNil(broken.error, fault)
            XCTAssertNil(try store.imageBytes(photoID: broken.id), fault)
            s.shutdown()
        }
        XCTAssertTrue(try store.integrityCheck())
    }

    func testTheImageCheckTheCallerGivesDecidesWhatIsStored() throws {
        // The service knows no picture format: a check that refuses every body fails every download with its word.
        let s = service(imageCheck: ImageCheck { _ in "refused by the check" })
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        let photos = try store.photos(pinID: pin.id)
        XCTAssertEqual(photos.count, 21)
        XCTAssertTrue(photos.allSatisfy { $0.state.isFailed && $0.error == "refused by the check" })
        XCTAssertTrue(try photos.allSatisfy { try store.imageBytes(photoID: $0.id) == nil })
    }

    func testTitlesNeverCarryControlCharacters() throws {
        let s = service(key: "escapes")
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        settle(s, pin.id)
        let titles = try store.photos(pinID: pin.id).compactMap(\.title)
        XCTAssertEqual(titles.count, 21)
        for t in titles {
            XCTAssertFalse(t.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }, t)
        }
    }

    /// A search whose server refuses the connection fails the album, once its retry window is over
    /// (none here: the waiting, offline and back, is RetryServiceTests'). The port is a closed one on
    /// loopback: nothing is looked up, and no proxy the test process inherited is asked.
    func testConnectionRefusedFailsTheAlbum() throws {
        let closed = try ClosedPort()
        let settings = PhotoSourceSettings.resolve(
            environment: ["FLICKR_API_KEY": "k", "VTOURIST_FLICKR_ENDPOINT": "http://127.0.0.1:\(closed.port)/rest"], stored: [:])
        let s = AlbumService(store: store, http: HTTPClient(userAgent: "t", connectTimeout: 3), settings: settings,
                             imageCheck: ImageCheck(JPEGDecoder.downloadProblem), retryPolicy: Self.noRetryWindow,
                             userAgent: "t") { [events] in events.record($0) }
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        guard case let .failed(reason)? = settle(s, pin.id)?.status else { return XCTFail("the album did not fail") }
        XCTAssertTrue(reason.contains("could not connect to 127.0.0.1"), reason)
    }

    func testNewCollectionBringsADifferentPage() throws {
        let events = Events()
        let s = service(events: events)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        settle(s, pin.id)
        let first = Set(try store.photos(pinID: pin.id).map(\.sourceID))
        s.send(.newCollection, to: pin.id)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        let second = Set(try store.photos(pinID: pin.id).map(\.sourceID))
        XCTAssertEqual(second.count, 21)
        XCTAssertTrue(first.isDisjoint(with: second))
        // Add more appends the next page.
        s.send(.addMore, to: pin.id)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        XCTAssertEqual(try store.photos(pinID: pin.id).count, 42)
    }

    /// Settings as the settings screen hands them to the service: the stand-in's endpoints, and a key or not.
    func settings(key: String?, source: String) -> PhotoSourceSettings {
        var env = ["VTOURIST_FLICKR_ENDPOINT": server.flickrEndpoint, "VTOURIST_COMMONS_ENDPOINT": server.commonsEndpoint,
                   "VTOURIST_SOURCE": source]
        if let key { env["FLICKR_API_KEY"] = key }
        return PhotoSourceSettings.resolve(environment: env, stored: [:])
    }

    func testAddMoreAsksTheAlbumsOwnSourceAfterTheSettingChanged() throws {
        let events = Events()
        let s = service(events: events)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.source, "flickr")
        s.use(settings(key: "good-key", source: "commons"))
        s.send(.addMore, to: pin.id)
        let album = settle(s, pin.id)
        XCTAssertEqual(album?.status, .ready)
        XCTAssertEqual(album?.photos.count, 42)
        XCTAssertEqual(Set(album?.photos.map(\.source) ?? []), ["flickr"], "one album, one source")
        XCTAssertEqual(album?.source, "flickr", "the album keeps its source")
        // A New Collection takes today's source, from its first page: Flickr's page count says nothing of Commons'.
        s.send(.newCollection, to: pin.id)
        let fresh = settle(s, pin.id)
        XCTAssertEqual(fresh?.source, "commons")
        XCTAssertEqual(Set(fresh?.photos.map(\.source) ?? []), ["commons"])
        XCTAssertEqual(fresh?.photos.count, 21)
        XCTAssertEqual(fresh?.page, 1)
    }

    /// A new filter (or clearing it) begins a collection from the album's own source, the one the
    /// filter editor describes, whatever the settings now say; only New Collection switches.
    func testANewFilterKeepsTheAlbumsSourceOnlyNewCollectionSwitches() throws {
        let s = service(key: nil, commons: true)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.source, "commons")
        s.use(settings(key: "good-key", source: "flickr"))
        let market = AlbumFilter(text: "market", sort: .relevant)
        for filter in [market, .none] {
            let asked = server.searchRequests().count
            s.send(.setFilter(filter), to: pin.id)
            let album = try XCTUnwrap(settle(s, pin.id))
            XCTAssertEqual(album.status, .ready, "\(filter)")
            XCTAssertEqual(album.pin.filter, filter)
            XCTAssertEqual(album.source, "commons", "the album keeps its source with \(filter)")
            XCTAssertEqual(Set(album.photos.map(\.source)), ["commons"])
            XCTAssertFalse(album.photos.isEmpty)
            let searches = server.searchRequests().dropFirst(asked).map(PhotoServer.parameters)
            XCTAssertFalse(searches.isEmpty)
            XCTAssertFalse(searches.contains { $0["method"] == "flickr.photos.search" }, "Flickr was asked: \(searches)")
        }
        // New Collection takes today's source, the filter with it.
        s.send(.setFilter(market), to: pin.id)
        settle(s, pin.id)
        s.send(.newCollection, to: pin.id)
        let fresh = try XCTUnwrap(settle(s, pin.id))
        XCTAssertEqual(fresh.source, "flickr")
        XCTAssertEqual(Set(fresh.photos.map(\.source)), ["flickr"])
        XCTAssertEqual(fresh.pin.filter, market)
        XCTAssertEqual(server.searchRequests().last.map(PhotoServer.parameters)?["text"], "market")
    }

    func testAddMoreToAFlickrAlbumWithoutAKeyNowSaysWhyAndAddsNothing() throws {
        let events = Events()
        let s = service(events: events)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        settle(s, pin.id)
        s.use(settings(key: nil, source: "flickr"))
        s.send(.addMore, to: pin.id)
        events.wait { events.notices.contains { $0.hasPrefix("Could not add photos") } }
        let album = settle(s, pin.id)
        XCTAssertEqual(album?.status, .ready)
        XCTAssertEqual(album?.source, "flickr")
        XCTAssertEqual(Set(album?.photos.map(\.source) ?? []), ["flickr"])
        XCTAssertEqual(album?.photos.count, 21)
        XCTAssertEqual(events.notices.last, "Could not add photos: its photos come from Flickr, and there is no Flickr key now"
                       + " (New Collection takes them from Wikimedia Commons)")
    }

    func testAMovedPinGetsAFreshAlbumForItsNewPlace() throws {
        let s = service()
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        settle(s, pin.id)
        let before = try store.photos(pinID: pin.id)
        XCTAssertEqual(before.count, 21)
        // As the app does when a dragged pin is dropped: move it in the store, then tell its album.
        let rome = GeoPoint(latitude: 41.89, longitude: 12.51)
        XCTAssertNotNil(try store.movePin(id: pin.id, to: rome, name: "Rome"))
        s.send(.pinMoved(rome), to: pin.id)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        let after = try store.photos(pinID: pin.id)
        XCTAssertEqual(after.count, 21)
        XCTAssertTrue(Set(after.map(\.id)).isDisjoint(with: before.map(\.id)), "old photos survived the move")
        // The stand-in puts the searched box in each title: the new search was around Rome.
        XCTAssertTrue(after.allSatisfy { $0.title?.contains("12.01,41.39,13.01,42.39") == true }, "\(after.first?.title ?? "")")
    }

    func testADeletedPinGetsNoPhotosBackAndItsDownloadsAreCancelled() throws {
        // Two connections and slow answers: most downloads wait in line when the pin goes.
        let slow = try PhotoServer(delayMs: 150)
        let s = service(server: slow, maxConnectionsPerHost: 2)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        try events.wait { try store.photos(pinID: pin.id).count == 21 }  // the search has answered
        XCTAssertTrue(try store.deletePin(id: pin.id))
        s.send(.pinDeleted, to: pin.id)
        _ = s.album(pin.id)  // the service has taken up pinDeleted: its cancellations are issued
        let startedBeforeDelete = slow.stats()["image_requests"] ?? 0
        XCTAssertLessThan(startedBeforeDelete, 17, "most downloads were still waiting in line")
        // Another album on the same connections: had the deleted pin's downloads gone on, they would come first.
        let other = try dropPin()
        s.start(other)
        XCTAssertEqual(settle(s, other.id)?.status, .ready)
        let images = slow.stats()["image_requests"] ?? 0
        // The other album's 21, plus at most two more that curl started before it took up the cancellations.
        XCTAssertLessThanOrEqual(images, startedBeforeDelete + 2 + 21, "the deleted pin's downloads were not cancelled")
        XCTAssertEqual(try store.photos(pinID: pin.id).count, 0)
        XCTAssertNil(try store.pin(id: pin.id))
        XCTAssertTrue(try store.integrityCheck())
    }

    func testInterruptedDownloadsResume() throws {
        let slow = try PhotoServer(delayMs: 100)
        let first = service(server: slow, maxConnectionsPerHost: 2)
        let pin = try dropPin()
        first.start(pin)
        try events.wait { try store.photos(pinID: pin.id).contains { $0.state == .stored } }
        first.shutdown()  // as if the app stopped mid-download
        let partial = try store.photos(pinID: pin.id)
        XCTAssertEqual(partial.count, 21)
        XCTAssertLessThan(partial.filter { $0.state == .stored }.count, 21)
        XCTAssertEqual(try store.interruptedAlbums(), [pin.id])

        let second = service(server: slow)
        defer { second.shutdown() }
        second.resumeInterrupted()
        XCTAssertEqual(settle(second, pin.id)?.status, .ready)
        XCTAssertEqual(try store.photos(pinID: pin.id).filter { $0.state == .stored }.count, 21)
        XCTAssertEqual(try store.interruptedAlbums(), [])
    }

    /// Found by the crash soak: a second window whose copy of an album was settled saved it `ready`
    /// over the photos the first window's Add more had just added, so once the first window was
    /// killed they were never downloaded (a start resumes only albums saved `downloading`).
    func testASecondWindowNeverSettlesAnAlbumOverPhotosStillToDownload() throws {
        let first = service()
        let pin = try dropPin()
        first.start(pin)
        XCTAssertEqual(settle(first, pin.id)?.status, .ready)
        let second = service()
        defer { second.shutdown() }
        second.resume(pin.id)
        XCTAssertEqual(second.album(pin.id)?.status, .ready)

        // The first window adds a page whose pictures are held, so they stay pending.
        server.holdImages(from: 21)
        first.send(.addMore, to: pin.id)
        try events.wait { try store.photos(pinID: pin.id).count == 42 }
        // The second window opens the album: its copy knows only the first 21 photos.
        second.resume(pin.id)
        _ = second.album(pin.id)
        XCTAssertEqual(try store.pin(id: pin.id)?.albumState, .downloading, "21 photos are still to download")
        XCTAssertEqual(try store.interruptedAlbums(), [pin.id])

        first.shutdown()  // as if the first window was killed
        server.set(.holdImages, false)
        // The album was the first window's (its lease): the second takes it up once it is let go.
        second.resumeInterrupted()
        XCTAssertEqual(settle(second, pin.id)?.status, .ready)
        XCTAssertEqual(try store.photos(pinID: pin.id).filter { $0.state == .stored }.count, 42)
        XCTAssertEqual(events.storeFailures, [])
    }

    /// Found by the crash soak: images a server held took every turn of the queue, and the album on
    /// screen's search waited behind them until the low-speed limit ended one (20 s in the app). It
    /// goes on a reserved turn at once; the held images never time out here.
    func testTheAlbumOnScreenSearchesAtOnceWhileOtherAlbumsHoldEveryTurn() throws {
        let http = HTTPClient(userAgent: "vtourist-tests", maxConnectionsPerHost: AlbumService.connectionsPerHost, lowSpeedTime: 600)
        let s = service(http: http, transfersAtOnce: 2)
        defer { s.shutdown() }
        server.set(.holdImages, true)
        let busy = try dropPin()
        s.start(busy)
        try events.wait { (server.stats()["images_in_flight"] ?? 0) == 2 }
        let onScreen = try store.insertPin(at: GeoPoint(latitude: 48.85, longitude: 2.35), name: "Paris")
        s.focus(onScreen.id)
        s.start(onScreen)
        try events.wait { try store.photos(pinID: onScreen.id).count == 21 }
        XCTAssertEqual(server.stats()["image_requests"], 2, "the busy album's two held, none ended; the new photos wait for a turn")
        server.set(.holdImages, false)
        XCTAssertEqual(settle(s, onScreen.id)?.status, .ready)
        XCTAssertEqual(settle(s, busy.id)?.status, .ready)
    }

    /// A process whose first transfers to the host are images the server holds (albums resumed at
    /// start, before any search has answered): the album on screen's search still goes out at once, and
    /// so does every held download. libcurl, asked to wait for a connection that might multiplex, waited
    /// for the first held one to answer (never, or the low-speed limit 20 s later) before it opened another.
    func testTheAlbumOnScreenSearchesAtOnceWhenTheFirstTransfersOfTheProcessAreHeldImages() throws {
        server.set(.holdImages, true)
        let busy = try dropPin()
        let before = service()
        before.start(busy)
        try events.wait { try store.photos(pinID: busy.id).count == 21 }
        before.shutdown()
        let requests = server.stats()["image_requests"] ?? 0
        let http = HTTPClient(userAgent: "vtourist-tests", maxConnectionsPerHost: AlbumService.connectionsPerHost, lowSpeedTime: 600)
        let s = service(http: http)
        defer { s.shutdown() }
        s.resume(busy.id)
        try events.wait { (server.stats()["image_requests"] ?? 0) > requests }
        let onScreen = try store.insertPin(at: GeoPoint(latitude: 48.85, longitude: 2.35), name: "Paris")
        s.focus(onScreen.id)
        s.start(onScreen)
        try events.wait { try store.photos(pinID: onScreen.id).count == 21 }
        // Every turn's download reached the server, each held there (the first process's may still land
        // after `requests` was read: at most 21, so 24 more are this one's).
        try events.wait { (server.stats()["image_requests"] ?? 0) >= requests + AlbumService.transfersAtOnce }
        server.set(.holdImages, false)
        XCTAssertEqual(settle(s, onScreen.id)?.status, .ready)
        XCTAssertEqual(settle(s, busy.id)?.status, .ready)
    }

    /// The other side of the test above: photos the store keeps pending only because it could not
    /// record their outcome are this album's own, and do not start its downloads over and over.
    func testPhotosTheStoreCouldNotSettleDoNotRestartTheDownloads() throws {
        let s = service()
        defer { s.shutdown() }
        let pin = try dropPin()
        try store.executeForTesting("CREATE TRIGGER no_images BEFORE INSERT ON photoImage BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
        try store.executeForTesting("""
            CREATE TRIGGER no_failures BEFORE UPDATE OF state ON photo WHEN NEW.state = 'failed'
            BEGIN SELECT RAISE(ABORT, 'disk says no'); END
            """)
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        XCTAssertEqual(try store.pendingPhotos(pinID: pin.id).count, 21)
        XCTAssertEqual(server.stats()["image_requests"], 21, "each picture asked for once")
        XCTAssertTrue(events.storeFailures.contains { $0.contains("disk says no") }, "\(events.storeFailures)")
    }

    /// Issue 6, bug 1: a retried photo that fails again must not leave the album downloading for ever.
    func testARetriedPhotoThatFailsAgainLeavesTheAlbumReady() throws {
        let s = service(key: "img-404")  // the first photo answers 404 every time
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        let broken = try XCTUnwrap(try store.photos(pinID: pin.id).first { $0.state.isFailed })
        let before = slowStats(server)
        s.send(.retry(photo: broken.id), to: pin.id)
        let album = try XCTUnwrap(settle(s, pin.id))
        XCTAssertEqual(album.status, .ready)
        XCTAssertGreaterThan(slowStats(server), before, "the retry asked the server again")
        XCTAssertEqual(album.photos.first { $0.id == broken.id }?.state, .failed(reason: "HTTP 404"))
        XCTAssertEqual(s.album(pin.id)?.isNewCollectionEnabled, true)
        XCTAssertEqual(try store.interruptedAlbums(), [], "nothing is left to resume at the next start")
        XCTAssertEqual(events.storeFailures, [])
    }

    private func slowStats(_ server: PhotoServer) -> Int { server.stats()["image_requests"] ?? 0 }

    /// A store that refuses writes is reported, not swallowed: the album says why.
    func testAStoreFailureIsReported() throws {
        let s = service()
        defer { s.shutdown() }
        let pin = try dropPin()
        // Photos can no longer be saved: the search's answer cannot be stored.
        try store.executeForTesting("CREATE TRIGGER no_photos BEFORE INSERT ON photo BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
        s.start(pin)
        let album = try XCTUnwrap(settle(s, pin.id))
        guard case let .failed(reason) = album.status else { return XCTFail("\(album.status)") }
        XCTAssertTrue(reason.contains("Could not save"), reason)
        XCTAssertTrue(events.storeFailures.contains { $0.contains("disk says no") }, "\(events.storeFailures)")
    }

    /// Quitting while a search is under way leaves the album waiting for it, not failed: the next start sends it again.
    func testQuittingDuringASearchLeavesItToResume() throws {
        let slow = try PhotoServer(delayMs: 10_000)
        let s = service(server: slow)
        let pin = try dropPin()
        s.start(pin)
        // The server has the search (the limit only ends a hang).
        let deadline = Date().addingTimeInterval(30)
        while (slow.stats()["in_flight"] ?? 0) == 0, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(slow.stats()["in_flight"], 1, "the search never reached the server")
        s.shutdown()
        XCTAssertEqual(try store.pin(id: pin.id)?.albumStatus, .downloading)
        XCTAssertEqual(try store.interruptedAlbums(), [pin.id])

        let next = service()
        defer { next.shutdown() }
        next.resumeInterrupted()
        XCTAssertEqual(settle(next, pin.id)?.status, .ready)
    }
}
