import Locking
import AlbumMachine
import AlbumService
import Dispatch
import Foundation
import GRDB
import HTTP
import PhotoSources
import Store
import TestSupport
import Terminal
import TouristCore
import TouristRuntime
import Geo
import Imaging
import Model
import WorldMap
import XCTest

/// The runtime driven through a scripted terminal and a hand-moved clock, over a
/// real SQLite file and a real album service (the local stand-in photo server, or
/// a closed loopback port when photos do not matter).
final class RuntimeTests: XCTestCase {
    static let geometry = Result { try WorldGeometry.bundled() }
    /// Nothing listens on the discard port of loopback: searches fail at once, never leaving the machine.
    static let nowhere = "http://127.0.0.1:9/"

    var folder: URL!
    var path: String!
    var store: AppDatabase!
    var terminal: TestTerminal!
    var clock: ManualClock!
    let finished = DispatchSemaphore(value: 0)
    var isRunning = false
    /// Where the photo view fetches large images (its Commons thumbnails asked of the server's
    /// endpoint); nil: it fetches none.
    var largeImageServer: PhotoServer?
    /// The settings the app starts with (as read from the store at start).
    var startSettings = Settings()

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("vtourist.sqlite").path
        store = try AppDatabase.open(path: path)
        terminal = TestTerminal()
        clock = ManualClock()
    }

    override func tearDownWithError() throws {
        if isRunning { stop() }
        try? store.close()
        try? FileManager.default.removeItem(at: folder)
        // Let go of what the test made: XCTest never frees a test case, so what it still holds at
        // exit would stay allocated (and be reported as leaked).
        (folder, path, store, terminal, clock, largeImageServer) = (nil, nil, nil, nil, nil, nil)
    }

    /// Starts the loop on a thread of its own, as the app's main thread runs it.
    /// Tests never start a browser: `opener` stands in for it.
    func start(flickrEndpoint: String = nowhere, commonsEndpoint: String = nowhere, key: String? = nil,
               retryPolicy: RetryPolicy? = nil, view: MapViewState? = nil, painter: PicturePainter? = nil, places: PlaceLookup = .none,
               opener: @escaping @Sendable (String) -> Result<Void, PageOpenFailure> = { _ in .failure(PageOpenFailure("no browser in tests")) }) throws {
        let geometry = try Self.geometry.get()
        var env = ["VTOURIST_FLICKR_ENDPOINT": flickrEndpoint, "VTOURIST_COMMONS_ENDPOINT": commonsEndpoint]
        if let key { env["FLICKR_API_KEY"] = key }
        let settings = PhotoSourceSettings.resolve(environment: env, stored: [:])
        let environment = env
        let begin = RuntimeStart(pins: try store.pins(), view: view, settings: startSettings)
        let largeImages: LargeImagePipeline = largeImageServer.map { server in
            .live(http: HTTPClient(userAgent: "vtourist-tests", lowSpeedTime: 1), commonsEndpoint: server.commonsEndpoint,
                  userAgent: "vtourist-tests")
        } ?? .none
        let (terminal, clock, store, finished, path) = (terminal!, clock!, store!, finished, path!)
        let pictures = picturesFolder
        isRunning = true
        Thread {
            let world = RuntimeWorld(terminal: terminal, clock: clock.clock, store: store, makeAlbums: { onEvent in
                .live(AlbumService(store: store, http: HTTPClient(userAgent: "vtourist-tests", lowSpeedTime: 1),
                                   settings: settings, imageCheck: ImageCheck(JPEGDecoder.downloadProblem),
                                   retryPolicy: retryPolicy, userAgent: "vtourist-tests", onEvent: onEvent),
                      photoSettings: { PhotoSourceSettings.resolve(environment: environment, settings: $0) })
            }, geometry: geometry, places: places, log: .beside(databasePath: path),
               photoSaver: .folder(pictures), pageOpener: .onItsOwnThread(opener), pictures: .live(painter: painter),
               largeImages: largeImages)
            AppRuntime(world: world, start: begin).run()
            finished.signal()
        }.start()
    }

    /// The pictures folder the app saves photos below, inside the test's folder.
    var picturesFolder: URL { folder.appendingPathComponent("Pictures", isDirectory: true) }

    /// Back to the map (Esc leaves a photo for its album, the album for the map, and the map ignores
    /// it), then quit; returns when the loop has ended.
    func stop() {
        terminal.press(.escape, .escape, .char("q"))
        waitForEnd()
    }

    func waitForEnd(file: StaticString = #filePath, line: UInt = #line) {
        // The limit only ends a hang, as TestTerminal's waits do.
        if finished.wait(timeout: .now() + TestTerminal.hangLimit) == .timedOut {
            return XCTFail("the loop did not end", file: file, line: line)
        }
        isRunning = false
    }

    /// A second connection to the same file, as another vtourist process has.
    func otherProcess() throws -> DatabaseQueue {
        var config = Configuration()
        config.busyMode = .timeout(600)  // waits for the app's writes, as vtourist does, rather than failing
        return try DatabaseQueue(path: path, configuration: config)
    }

    // MARK: - Labels

    func testMapLabelsAreAskedForOncePerView() throws {
        let asked = LockedCounter()
        let home = GeoPoint(latitude: 41.9, longitude: 12.5)
        let places = PlaceLookup(nearest: { _ in nil }, complete: { _, _ in [] }, named: { _ in nil }, labels: { viewport in
            asked.increment()
            return LabelCandidates(viewport: viewport, items: [
                LabelCandidate(name: "Testville", coordinate: GeoPoint(latitude: 41.7, longitude: 12.7), kind: .place,
                               isMajor: false, priority: 0),
            ])
        })
        try start(view: MapViewState(center: home, zoom: 8, cursor: home), places: places)
        let first = try XCTUnwrap(terminal.frame(showing: "Testville"))
        XCTAssertEqual(asked.value, 1)
        // Cursor moves keep the view: the candidates are not asked for again.
        var mark = terminal.frameCount
        terminal.press(.left, .left, .up)
        let status = first.height - 1
        let moved = try XCTUnwrap(terminal.frame(after: mark) { $0.rowText(status) != first.rowText(status) })
        XCTAssertTrue(moved.text.contains("Testville"))
        XCTAssertEqual(asked.value, 1)
        // A pan is a new view.
        mark = terminal.frameCount
        terminal.press(.char("L"))
        XCTAssertNotNil(terminal.frame(after: mark, where: { _ in asked.value == 2 }))
        XCTAssertEqual(asked.value, 2)
    }

    func testNamesStillBeingReadAreDrawnOnceTheyArriveWithoutAKey() throws {
        let asked = LockedCounter()
        let home = GeoPoint(latitude: 41.9, longitude: 12.5)
        // The first two asks find the names not read yet; the third has them.
        let places = PlaceLookup(nearest: { _ in nil }, complete: { _, _ in [] }, named: { _ in nil }, labels: { viewport in
            asked.increment()
            let ready = asked.value >= 3
            return LabelCandidates(viewport: viewport, items: ready ? [
                LabelCandidate(name: "Testville", coordinate: GeoPoint(latitude: 41.7, longitude: 12.7), kind: .place,
                               isMajor: false, priority: 0),
            ] : [], isComplete: ready)
        })
        try start(view: MapViewState(center: home, zoom: 8, cursor: home), places: places)
        let shown = try XCTUnwrap(terminal.frame(showing: "Testville"), "drawn with no key pressed")
        XCTAssertEqual(asked.value, 3)
        // Complete now: a cursor move draws again without asking.
        let mark = terminal.frameCount
        terminal.press(.left)
        let status = shown.height - 1
        XCTAssertNotNil(terminal.frame(after: mark) { $0.rowText(status) != shown.rowText(status) })
        XCTAssertEqual(asked.value, 3, "asked again only while incomplete")
    }

    // MARK: - Pins

    func testPDropsAPinThatIsSavedAndDrawn() throws {
        try start()
        let first = try XCTUnwrap(terminal.frame(showing: "0 pins"))
        XCTAssertFalse(first.text.contains("\u{25CF}"), "no pin marker before a pin is dropped")

        let mark = terminal.frameCount
        terminal.press(.char("p"))
        let frame = try XCTUnwrap(terminal.frame(after: mark, showing: "1 pin ", "\u{25CF}"))
        XCTAssertTrue(frame.text.contains("Pin dropped at"))
        let pins = try store.pins()
        XCTAssertEqual(pins.count, 1)
        // Dropped where the status line says the cursor is.
        let pin = try XCTUnwrap(pins.first)
        let status = first.rowText(29)
        XCTAssertTrue(status.contains(String(format: " %.4f\u{00B0}", abs(pin.coordinate.latitude))), status)
        XCTAssertTrue(status.contains(String(format: " %.4f\u{00B0}", abs(pin.coordinate.longitude))), status)
    }

    func testAFailedWriteShowsWhyAndTheMapKeepsWhatTheStoreHas() throws {
        try otherProcess().write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON pin BEGIN SELECT RAISE(ABORT, 'no room for pins'); END")
        }
        terminal = TestTerminal(width: 220)  // room for the whole message with the file's path
        try start()
        let mark = terminal.frameCount
        terminal.press(.char("p"))
        let frame = try XCTUnwrap(terminal.frame(after: mark, showing: "Could not save: database \(path!): no room for pins"))
        XCTAssertTrue(frame.text.contains("0 pins"), frame.text)
        XCTAssertEqual(try store.pins().count, 0)
        XCTAssertTrue(logText().contains("Could not save: database \(path!): no room for pins"), logText())
    }

    /// The log beside the database, as the app writes it.
    func logText() -> String {
        (try? String(contentsOfFile: folder.appendingPathComponent("vtourist.log").path, encoding: .utf8)) ?? ""
    }

    func testAnAlbumWhosePhotosCannotBeSavedSaysSoInItsHeaderAndTheLog() throws {
        // The first search fails (at once: no retry window), so the album is open before any answer could be saved.
        let server = try PhotoServer(switchedOn: [.searchDown])
        terminal = TestTerminal(width: 220)
        try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint, key: "good-key",
                  retryPolicy: RetryPolicy(giveUpAfter: 0))
        var mark = terminal.frameCount
        terminal.press(.char("p"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "1 pin "))
        mark = terminal.frameCount
        terminal.press(.enter)
        XCTAssertNotNil(terminal.frame(after: mark, showing: "The search failed"))
        // Now the search answers, but its photos cannot be saved.
        try otherProcess().write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON photo BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
        }
        server.set(.searchDown, false)
        mark = terminal.frameCount
        terminal.press(.char("r"))
        let frame = try XCTUnwrap(terminal.frame(after: mark, showing: "Not saved"))
        XCTAssertTrue(frame.rowText(1).contains("Could not save the photos found"), frame.rowText(1))
        XCTAssertTrue(frame.rowText(1).contains("disk says no"), frame.rowText(1))
        XCTAssertTrue(logText().contains("disk says no"), logText())
        // The album machine saves the failed status after telling the screen: wait for that write.
        let reason = waitFor { () -> String? in
            guard case let .failed(reason) = (try? store.pins().first)??.albumStatus else { return nil }
            return reason
        }
        XCTAssertTrue(reason?.contains("disk says no") == true, reason ?? "the album was never saved as failed")
    }

    func testAnotherProcessesPinIsPickedUpByThePoll() throws {
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        try otherProcess().write { db in
            try db.execute(sql: "INSERT INTO pin (latitude, longitude, name, createdAt) VALUES (10, 20, 'Elsewhere', CURRENT_TIMESTAMP)")
        }
        let mark = terminal.frameCount
        clock.advance(by: 1)
        terminal.wakeUp()
        let frame = try XCTUnwrap(terminal.frame(after: mark, showing: "1 pin "))
        XCTAssertTrue(frame.text.contains("\u{25CF}"), frame.text)
    }

    func testAPollThatCannotReadTheStoreSaysSoOnceAndRecovers() throws {
        terminal = TestTerminal(width: 220)  // room for the whole message with the file's path
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        let other = try otherProcess()
        try other.write { db in try db.execute(sql: "ALTER TABLE photo RENAME TO photo_elsewhere") }
        var mark = terminal.frameCount
        clock.advance(by: 1)
        terminal.nudge()
        let failure = "Could not check the database for changes: database \(path!): no such table: photo"
        XCTAssertNotNil(terminal.frame(after: mark, showing: failure))

        // A key clears the message (Enter with no pin under the cursor writes nothing, so no
        // store work posts to the loop but the polls).
        mark = terminal.frameCount
        terminal.press(.enter)
        let cleared = try XCTUnwrap(terminal.frame(after: mark) { !$0.text.contains(failure) })
        XCTAssertTrue(cleared.text.contains("No pin here"), cleared.text)

        // The same failure again: the second poll has answered (its message woke the loop)
        // before the table comes back, and shows nothing.
        let wakeUps = terminal.wakeUpCount
        mark = terminal.frameCount
        clock.advance(by: 1)
        terminal.nudge()
        XCTAssertTrue(terminal.waitForWakeUp(after: wakeUps), "the second poll never answered")

        try other.write { db in
            try db.execute(sql: "ALTER TABLE photo_elsewhere RENAME TO photo")
            try db.execute(sql: "INSERT INTO pin (latitude, longitude, name, createdAt) VALUES (10, 20, 'Elsewhere', CURRENT_TIMESTAMP)")
        }
        clock.advance(by: 1)
        terminal.nudge()
        let next = try XCTUnwrap(terminal.frame(after: mark) { $0.text.contains(failure) || $0.text.contains("1 pin ") })
        XCTAssertFalse(next.text.contains(failure), "the same failure is shown once")
        XCTAssertTrue(next.text.contains("1 pin "), next.text)
    }

    // MARK: - The loop

    func testQEndsTheLoopAfterSavingTheMapView() throws {
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        // Many moves: their map-view writes coalesce, and the last one must still land.
        for _ in 0..<12 { terminal.press(.right) }
        // Help comes after every move, so its frame shows where they ended.
        terminal.press(.char("?"))
        let help = try XCTUnwrap(terminal.frame(showing: "Any key closes this help."))
        terminal.press(.escape, .char("q"))
        waitForEnd()
        XCTAssertTrue(terminal.wasShutDown)
        let view = try XCTUnwrap(store.mapView())
        XCTAssertGreaterThan(view.cursor.longitude, 1)
        let status = help.rowText(29)
        XCTAssertTrue(status.contains(String(format: " %.4f\u{00B0}E", view.cursor.longitude)), status)
    }

    func testQuittingWritesTheMapViewStillWaitingBehindASlowWrite() throws {
        // Long enough that the app's write waits for the other process's lock rather than failing.
        try store.close()
        store = try AppDatabase.open(path: path, busyTimeout: 600)
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        var holdsLock = Configuration()
        holdsLock.busyMode = .timeout(600)
        holdsLock.allowsUnsafeTransactions = true  // the lock is held across accesses on purpose
        let other = try DatabaseQueue(path: path, configuration: holdsLock)
        try other.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }

        // The first move's write waits for the lock; the later ones coalesce behind it.
        for _ in 0..<12 { terminal.press(.right) }
        terminal.press(.char("?"))
        let help = try XCTUnwrap(terminal.frame(showing: "Any key closes this help."))
        terminal.press(.escape, .char("q"))
        // Once the loop has taken `q` it reads no more messages: only quitting can write the last view.
        terminal.waitUntilEventsAreTaken()
        try other.inDatabase { db in try db.execute(sql: "COMMIT") }
        waitForEnd()

        let view = try XCTUnwrap(store.mapView())
        let status = help.rowText(29)
        XCTAssertTrue(status.contains(String(format: " %.4f\u{00B0}E", view.cursor.longitude)), status)
    }

    func testResizeRedrawsAtTheNewSizeAndTooSmallStillQuits() throws {
        try start()
        XCTAssertEqual(terminal.frame(showing: "0 pins")?.width, 100)

        var mark = terminal.frameCount
        terminal.resize(width: 120, height: 40)
        let wide = try XCTUnwrap(terminal.frame(after: mark) { $0.width == 120 && $0.height == 40 })
        XCTAssertTrue(wide.rowText(39).contains("0 pins"), wide.rowText(39))

        mark = terminal.frameCount
        terminal.resize(width: 30, height: 8)
        let small = try XCTUnwrap(terminal.frame(after: mark) { $0.width == 30 })
        XCTAssertTrue(small.text.contains("Terminal too small"), small.text)
        XCTAssertTrue(small.text.contains("30x8"), small.text)

        terminal.press(.char("q"))
        waitForEnd()
        XCTAssertTrue(terminal.wasShutDown)
    }

    // MARK: - Albums

    func testEnterOpensTheAlbumAndItsPhotosArrive() throws {
        let server = try PhotoServer()
        let mark = try dropPinAndOpenItsAlbum(server: server)
        let album = try XCTUnwrap(terminal.frame(after: mark, showing: " 21 photos", "Photo 0 near"))
        XCTAssertTrue(album.rowText(0).contains("Pin "), album.rowText(0))
        let pin = try XCTUnwrap(store.pins().first)
        let photos = try store.photos(pinID: pin.id)
        XCTAssertEqual(photos.count, 21)
        XCTAssertTrue(photos.allSatisfy { $0.state == .stored })
    }

    func testAnAlbumTheStoreCannotReadSaysSo() throws {
        let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
        terminal = TestTerminal(width: 220)  // room for the whole message with the file's path
        try start()
        XCTAssertNotNil(terminal.frame(showing: "1 pin "))
        try otherProcess().write { db in try db.execute(sql: "ALTER TABLE photo RENAME TO photo_elsewhere") }

        let mark = terminal.frameCount
        terminal.press(.tab, .enter)
        let frame = try XCTUnwrap(terminal.frame(after: mark, showing: "Could not load the album: database \(path!): no such table: photo"))
        XCTAssertTrue(frame.rowText(0).contains("Naples"), frame.rowText(0))
        let name = try otherProcess().read { db in
            try String.fetchOne(db, sql: "SELECT name FROM pin WHERE id = ?", arguments: [pin.id])
        }
        XCTAssertEqual(name, "Naples", "the failure to read is shown, nothing is written")
    }

    func testAnOpenAlbumWhosePinIsDeletedElsewhereGoesBackToTheMap() throws {
        let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
        try start()
        XCTAssertNotNil(terminal.frame(showing: "1 pin "))
        var mark = terminal.frameCount
        terminal.press(.tab, .enter)
        XCTAssertNotNil(terminal.frame(after: mark) { $0.rowText(0).contains("Naples") })

        try otherProcess().write { db in try db.execute(sql: "DELETE FROM pin WHERE id = ?", arguments: [pin.id]) }
        mark = terminal.frameCount
        clock.advance(by: 1)
        terminal.wakeUp()
        let frame = try XCTUnwrap(terminal.frame(after: mark, showing: "That pin was deleted elsewhere.", "0 pins"))
        XCTAssertFalse(frame.rowText(0).contains("Naples"))
    }

    // MARK: - Photos

    /// A dropped pin's album with every photo in, open on the album screen, then its first photo open.
    func openFirstPhoto(server: PhotoServer,
                        opener: @escaping @Sendable (String) -> Result<Void, PageOpenFailure> = { _ in
                            .failure(PageOpenFailure("no browser in tests"))
                        }) throws -> PhotoRecord {
        terminal = TestTerminal(width: 220)  // room for the whole message with the file's path
        try openFullAlbum(server: server, opener: opener)
        let pin = try XCTUnwrap(store.pins().first)
        let photo = try XCTUnwrap(store.photos(pinID: pin.id).first)
        let mark = terminal.frameCount
        terminal.press(.enter)
        let title = try XCTUnwrap(photo.title)
        XCTAssertNotNil(terminal.frame(after: mark, showing: title, "1 of 21", "Photographer"))
        return photo
    }

    func testWSavesTheStoredBytesUnderThePicturesFolderNeverOverAnotherFile() throws {
        let server = try PhotoServer()
        let photo = try openFirstPhoto(server: server)
        let title = try XCTUnwrap(photo.title)
        let folder = picturesFolder.appendingPathComponent("vtourist")
        let first = folder.appendingPathComponent(title + ".jpg").path
        var mark = terminal.frameCount
        terminal.press(.char("w"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Saved to \(first)"))
        let stored = try XCTUnwrap(store.imageBytes(photoID: photo.id))
        XCTAssertFalse(stored.isEmpty)
        XCTAssertEqual(FileManager.default.contents(atPath: first), stored)

        // Saved again: the same bytes are already there, and nothing is written.
        mark = terminal.frameCount
        terminal.press(.char("w"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Already saved as \(first)"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [title + ".jpg"])

        // The file changed meanwhile: a second file beside it, which stays as it was.
        try Data("changed".utf8).write(to: URL(fileURLWithPath: first))
        let second = folder.appendingPathComponent(title + " (2).jpg").path
        mark = terminal.frameCount
        terminal.press(.char("w"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Saved to \(second)"))
        XCTAssertEqual(FileManager.default.contents(atPath: second), stored)
        XCTAssertEqual(FileManager.default.contents(atPath: first), Data("changed".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       [title + " (2).jpg", title + ".jpg"])
    }

    func testWSaysWhyWhenThePicturesFolderCannotBeMade() throws {
        // A file where the folder should be.
        try FileManager.default.createDirectory(at: picturesFolder, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: picturesFolder.appendingPathComponent("vtourist").path,
                                                     contents: Data("not a folder".utf8)))
        let server = try PhotoServer()
        _ = try openFirstPhoto(server: server)
        let mark = terminal.frameCount
        terminal.press(.char("w"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Could not save the photo:"))
    }

    func testOHandsThePhotosPageToTheOpenerOffTheScreen() throws {
        let opened = Locked<[String]>([])
        let server = try PhotoServer()
        let photo = try openFirstPhoto(server: server, opener: { url in
            opened.withLock { $0.append(url) }
            return .success(())
        })
        let page = try XCTUnwrap(photo.pageURL)
        XCTAssertTrue(page.hasPrefix("https://"), page)
        let mark = terminal.frameCount
        terminal.press(.char("o"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Opened the photo's page."))
        XCTAssertEqual(opened.withLock { $0 }, [page])
    }

    func testWithNoBrowserOCopiesThePagesAddressAndShowsIt() throws {
        let server = try PhotoServer()
        let photo = try openFirstPhoto(server: server)
        let page = try XCTUnwrap(photo.pageURL)
        let mark = terminal.frameCount
        terminal.press(.char("o"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Page: \(page) \u{00B7} no browser (no browser in tests); copied to the clipboard"))
        XCTAssertEqual(terminal.copied, [page])
    }

    func testWithNoBrowserAndNoClipboardTheAddressIsStillShown() throws {
        let server = try PhotoServer()
        let photo = try openFirstPhoto(server: server)
        terminal.takesClipboard = false
        let page = try XCTUnwrap(photo.pageURL)
        let mark = terminal.frameCount
        terminal.press(.char("o"))
        let frame = try XCTUnwrap(terminal.frame(after: mark, showing: "Page: \(page) \u{00B7} no browser (no browser in tests)"))
        XCTAssertFalse(frame.text.contains("clipboard"))
        XCTAssertEqual(terminal.copied, [])
    }

    func testXDeletesThePhotoAndTheAlbumShowsOneFewer() throws {
        let server = try PhotoServer()
        let photo = try openFirstPhoto(server: server)
        let mark = terminal.frameCount
        terminal.press(.char("x"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: " 20 photos"))
        let pin = try XCTUnwrap(store.pins().first)
        // The screen drops the photo at once; the album service deletes it from the store after.
        XCTAssertNotNil(waitFor { (try? store.photos(pinID: pin.id))?.contains { $0.id == photo.id } == false ? true : nil },
                        "the photo is deleted from the store")
    }
}

/// A count shared with the runtime's thread.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}
