import AlbumMachine
import AlbumService
import Foundation
import Geo
import Locking
import Model
import Store
import Terminal
import TouristCore
import TestSupport
import TouristRuntime
import WorldMap
import XCTest

/// A terminal whose events are a script, read on the test's own thread: each step is an event, or
/// a pause in which the clock moves on and the loop takes what its workers posted.
final class ScriptTerminal: AppTerminal {
    enum Step {
        case key(Key)
        case event(Event)
        /// The clock moves on this many seconds; the loop finds no event.
        case pause(Double)
        /// Something happens elsewhere (another process writes, a client reports), then a pause of no time.
        case meanwhile(@Sendable () -> Void)
    }

    private var steps: [Step]
    private let clock: ManualClock
    private(set) var frames: [CellBuffer] = []
    /// Turns the loop took after the script ran out (it should have quit).
    private(set) var overrun = 0
    let capabilities: TerminalCapabilities
    let size: (width: Int, height: Int)
    let wakeUp: @Sendable () -> Void = {}

    init(_ steps: [Step], clock: ManualClock, width: Int = 100, height: Int = 30) {
        self.steps = steps
        self.clock = clock
        size = (width, height)
        capabilities = TerminalCapabilities(unicode: true, colors: .trueColor)
    }

    func nextEvent(timeoutMs: Int) -> Event? {
        guard let step = steps.first else {
            if timeoutMs == 0 { return nil }
            overrun += 1
            // A script that does not quit still ends: back to the map, then quit.
            precondition(overrun < 1000, "the loop did not quit")
            return .key(overrun % 2 == 0 ? .char("q") : .escape)
        }
        switch step {
        case let .key(key):
            steps.removeFirst()
            return .key(key)
        case let .event(event):
            steps.removeFirst()
            return event
        case let .pause(seconds):
            // Events already waiting end here; a wait finds none and the clock moves on.
            guard timeoutMs != 0 else { return nil }
            steps.removeFirst()
            clock.advance(by: seconds)
            return nil
        case let .meanwhile(body):
            guard timeoutMs != 0 else { return nil }
            steps.removeFirst()
            body()
            return nil
        }
    }

    func draw(_ buffer: CellBuffer) { frames.append(buffer) }
    func showInline(_ picture: InlinePicture?) {}
    func shutdown() {}

    var lastFrame: String { frames.last?.text ?? "" }
}

/// What the test albums client was asked, in order.
final class AlbumsRecord: Sendable {
    enum Call: Equatable {
        case start(Pin.ID), resume(Pin.ID), resumeInterrupted, send(AlbumAction, Pin.ID), use(Settings)
        case testKey(String), shutdown
    }

    private let calls = Locked<[Call]>([])
    /// The handler the runtime gave for the albums' events.
    let onEvent = Locked<(@Sendable (AlbumEvent) -> Void)?>(nil)

    var all: [Call] { calls.withLock { $0 } }

    func client(keyWorks: Bool = true) -> AlbumsClient {
        AlbumsClient(
            start: { [calls] pin in calls.withLock { $0.append(.start(pin.id)) } },
            resume: { [calls] id in calls.withLock { $0.append(.resume(id)) } },
            resumeInterrupted: { [calls] in calls.withLock { $0.append(.resumeInterrupted) } },
            send: { [calls] action, id in calls.withLock { $0.append(.send(action, id)) } },
            use: { [calls] settings in calls.withLock { $0.append(.use(settings)) } },
            flickrKey: { $0.flickrAPIKey },
            testFlickrKey: { [calls] key, done in
                calls.withLock { $0.append(.testKey(key)) }
                done(keyWorks ? "The Flickr key works." : "The Flickr key does not work: HTTP 403", keyWorks)
            },
            shutdown: { [calls] in calls.withLock { $0.append(.shutdown) } })
    }
}

/// The runtime driven on the test's thread with test clients: a scripted terminal, a hand-moved
/// clock, store work run at once on a real SQLite file, an albums client that records, pictures
/// painted at once. No libcurl, no threads, no sleeps: the end-to-end tests prove the live wiring.
final class ScriptedRuntimeTests: XCTestCase {
    static let geometry = Result { try WorldGeometry.bundled() }
    static let naples = GeoPoint(latitude: 40.85, longitude: 14.27)

    var folder: URL!
    var store: AppDatabase!
    // Made in setUp and let go in tearDown: XCTest never frees a test case, so what it still holds
    // at exit would stay allocated (and be reported as leaked).
    var clock: ManualClock!
    var albums: AlbumsRecord!
    var logged: Locked<[String]>!
    var saved: Locked<[(Data, String)]>!
    var opened: Locked<[String]>!

    override func setUpWithError() throws {
        (clock, albums) = (ManualClock(), AlbumsRecord())
        (logged, saved, opened) = (Locked([]), Locked([]), Locked([]))
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-scripted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try AppDatabase.open(path: folder.appendingPathComponent("vtourist.sqlite").path)
    }

    override func tearDownWithError() throws {
        try? store.close()
        try? FileManager.default.removeItem(at: folder)
        // Let go of what the test made (the runtime's event handler among it).
        (store, folder, clock, albums) = (nil, nil, nil, nil)
        (logged, saved, opened) = (nil, nil, nil)
    }

    /// Every picture painted as a box of `#`.
    static let painter = PicturePainter { _, key in
        .cells(CellBuffer(width: key.size.columns, height: key.size.rows, fill: Cell("#")))
    }

    /// Runs the loop over the script until it quits; returns the terminal with every frame drawn.
    @discardableResult
    func run(_ steps: [ScriptTerminal.Step], view: MapViewState? = nil, settings: Settings = Settings(),
             browser: Result<Void, PageOpenFailure> = .failure(PageOpenFailure("no xdg-open")),
             painter: PicturePainter = ScriptedRuntimeTests.painter,
             largeImages: LargeImagePipeline = .none, width: Int = 100, albumSaver: AlbumSaver? = nil) throws -> ScriptTerminal {
        let terminal = ScriptTerminal(steps, clock: clock, width: width)
        let world = RuntimeWorld(
            terminal: terminal, clock: clock.clock, store: store, storeWorker: .immediate,
            makeAlbums: { [albums = albums!] onEvent in
                albums.onEvent.withLock { $0 = onEvent }
                return albums.client()
            },
            geometry: try Self.geometry.get(), places: .none,
            log: AppLog { [logged = logged!] text in logged.withLock { $0.append(text) } },
            photoSaver: PhotoSaver { [saved = saved!] bytes, title in
                saved.withLock { $0.append((bytes, title)) }
                return "Saved to /pictures/\(title).jpg"
            },
            pageOpener: .immediate { [opened = opened!] url in
                opened.withLock { $0.append(url) }
                return browser
            },
            pictures: .immediate(painter: painter), largeImages: largeImages,
            albumSaver: albumSaver ?? .immediate(store: store, pictures: pictures))
        let start = RuntimeStart(pins: try store.pins(), view: view, settings: settings)
        AppRuntime(world: world, start: start).run()
        XCTAssertEqual(terminal.overrun, 0, "the script quits by itself")
        return terminal
    }

    /// The pictures folder `W` saves albums into.
    var pictures: URL { folder.appendingPathComponent("Pictures", isDirectory: true) }

    /// The map centred on Naples, the cursor on it.
    var naplesView: MapViewState { MapViewState(center: Self.naples, zoom: 8, cursor: Self.naples) }

    /// A pin at Naples whose album holds `count` stored photos (real JPEG bytes).
    func storedAlbum(count: Int) throws -> Pin {
        let pin = try store.insertPin(at: Self.naples, name: "Naples")
        let generation = try XCTUnwrap(store.albumGeneration(pinID: pin.id))
        let photos = try store.replaceAlbum(pinID: pin.id, generation: generation, photos: (1...count).map {
            NewPhoto(source: "flickr", sourceID: "p\($0)", title: "Bay \($0)", url: "http://127.0.0.1:9/\($0).jpg",
                     pageURL: "https://www.flickr.com/photos/x/\($0)")
        })
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/photo1.jpg"))
        for photo in photos { try store.storeImage(photoID: photo.id, generation: generation, bytes: jpeg) }
        try store.saveAlbumStatus(pinID: pin.id, generation: generation, status: .ready, page: 1, pageCount: 1, source: "flickr")
        return pin
    }

    // MARK: - Tests

    func testADroppedPinIsStoredShownAndItsAlbumStarted() throws {
        let terminal = try run([.key(.char("p")), .pause(0.01), .key(.char("q"))], view: naplesView)
        let pins = try store.pins()
        XCTAssertEqual(pins.count, 1)
        XCTAssertTrue(albums.all.contains(.start(pins[0].id)), "\(albums.all)")
        XCTAssertEqual(albums.all.first, .resumeInterrupted, "albums left downloading are taken up at start")
        XCTAssertEqual(albums.all.last, .shutdown)
        XCTAssertTrue(terminal.lastFrame.contains("1 pin"), terminal.lastFrame)
    }

    func testAnAlbumOpensWithItsStoredPhotosPainted() throws {
        let pin = try storedAlbum(count: 3)
        let terminal = try run([.key(.enter), .pause(0.01), .pause(0.01), .key(.escape), .key(.char("q"))], view: naplesView)
        XCTAssertTrue(albums.all.contains(.resume(pin.id)), "\(albums.all)")
        let album = try XCTUnwrap(terminal.frames.last { $0.text.contains("Naples") && $0.text.contains("###") },
                                  "no album frame with painted pictures")
        XCTAssertTrue(album.text.contains("3 photos"), album.text)
    }

    func testAnAlbumActionGoesToTheAlbumsAfterTheWritesBeforeIt() throws {
        let pin = try storedAlbum(count: 2)
        // a: Add more.
        try run([.key(.enter), .pause(0.01), .key(.char("a")), .pause(0.01), .key(.escape), .key(.char("q"))], view: naplesView)
        XCTAssertTrue(albums.all.contains(.send(.addMore, pin.id)), "\(albums.all)")
    }

    func testAFilterSavedInTheEditorGoesToTheAlbums() throws {
        let pin = try storedAlbum(count: 2)
        // f, Enter, "food", Enter, s, y: the filter editor over the album, saved and confirmed.
        let typing: [ScriptTerminal.Step] = "food".map { .key(.char($0)) }
        let terminal = try run([.key(.enter), .pause(0.01), .key(.char("f")), .key(.enter)] + typing
                               + [.key(.enter), .key(.char("s")), .pause(0.01), .key(.char("y")), .pause(0.01), .key(.escape), .key(.char("q"))],
                               view: naplesView)
        XCTAssertTrue(albums.all.contains(.send(.setFilter(AlbumFilter(text: "food")), pin.id)), "\(albums.all)")
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("Replace the 2 photos with a new collection?") })
    }

    func testAnotherProcesssPinAppearsWithinAPoll() throws {
        let other = try AppDatabase.open(path: store.path)
        defer { try? other.close() }
        let terminal = try run([.pause(0.01), .meanwhile { _ = try? other.insertPin(at: Self.naples, name: "Elsewhere") },
                                .pause(0.5), .pause(0.01), .pause(0.6), .pause(0.01), .key(.char("q"))], view: naplesView)
        let seen = try XCTUnwrap(terminal.frames.firstIndex { $0.text.contains("1 pin") }, "the other process's pin is shown")
        XCTAssertFalse(terminal.frames[0].text.contains("1 pin"))
        XCTAssertGreaterThan(seen, 0)
    }

    func testASettingChangedOnScreenIsStoredAndTheAlbumsSearchWithIt() throws {
        // s: settings; the first field is the photo source: Enter moves it on from automatic.
        try run([.key(.char("s")), .key(.down), .key(.enter), .pause(0.01), .key(.escape), .key(.char("q"))])
        let stored = try store.settings()
        XCTAssertNotNil(stored.source, "the source is stored")
        XCTAssertTrue(albums.all.contains(.use(stored)), "the albums use what is stored: \(albums.all)")
    }

    func testTestingAMissingFlickrKeySaysWhereToPasteOne() throws {
        let terminal = try run([.key(.char("s")), .key(.char("t")), .pause(0.01), .pause(0.01), .key(.escape), .key(.char("q"))])
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("No Flickr key to test") })
        XCTAssertFalse(albums.all.contains { if case .testKey = $0 { true } else { false } })
    }

    /// A pin at Naples whose album downloads: its first photo stored, two pending.
    func downloadingAlbum() throws -> Pin {
        let album = try store.insertPin(at: Self.naples, name: "Naples")
        let generation = try XCTUnwrap(store.albumGeneration(pinID: album.id))
        let photos = try store.replaceAlbum(pinID: album.id, generation: generation, photos: (1...3).map {
            NewPhoto(source: "flickr", sourceID: "p\($0)", title: "Bay \($0)", url: "http://127.0.0.1:9/\($0).jpg",
                     pageURL: "https://www.flickr.com/photos/x/\($0)")
        })
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/photo1.jpg"))
        try store.storeImage(photoID: photos[0].id, generation: generation, bytes: jpeg)
        try store.saveAlbumStatus(pinID: album.id, generation: generation, status: .downloading, page: 1, pageCount: 1,
                                  source: "flickr")
        return album
    }

    func testAWaitSeenLongAfterItsReportCountsFromTheClockNotFromTheReport() throws {
        let album = try downloadingAlbum()
        let (albums, clock) = (albums!, clock!)
        // Reported on the map: the next try in 30 s. The album is opened 10 s later.
        let terminal = try run([.meanwhile {
            albums.onEvent.withLock { $0 }?(.network(NetworkReport(waits: [album.id: AlbumWait(
                reason: "HTTP 503", nextTry: clock.now + 30, isSearch: false, photos: 2)])))
        }, .pause(5), .pause(5), .key(.enter), .pause(0.01), .pause(0.01), .key(.escape), .key(.char("q"))], view: naplesView)
        let rows = terminal.frames.map { $0.rowText(1) }
        XCTAssertTrue(rows.contains { $0.contains("the photo service is failing (HTTP 503), next try in 20 s") }, "\(rows)")
        XCTAssertFalse(rows.contains { $0.contains("next try in 30 s") }, "never drawn from the report's time: \(rows)")
    }

    func testANetworkReportReachesTheScreenAndTheCountdownMovesWithTheClock() throws {
        // An album downloading: one photo stored, two pending (their next try waits for the network).
        let album = try downloadingAlbum()
        let (albums, clock) = (albums!, clock!)
        @Sendable func report(_ offline: Bool) -> NetworkReport {
            NetworkReport(isOffline: offline, reason: offline ? "could not connect to 127.0.0.1:9" : nil,
                          waits: [album.id: AlbumWait(reason: "HTTP 503", nextTry: offline ? nil : clock.now + 8,
                                                      isSearch: false, photos: 2)])
        }
        let terminal = try run([.key(.enter), .pause(0.01), .pause(0.01),
                                .meanwhile { albums.onEvent.withLock { $0 }?(.network(report(false))) },
                                .pause(1.1), .pause(1.1),
                                .meanwhile { albums.onEvent.withLock { $0 }?(.network(report(true))) }, .pause(0.01),
                                .key(.escape), .pause(0.01), .key(.char("q"))], view: naplesView)
        let rows = terminal.frames.map { $0.rowText(1) }
        let eight = try XCTUnwrap(rows.firstIndex { $0.contains("1/3 · the photo service is failing (HTTP 503), next try in 8 s") },
                                  "the report reaches the album: \(rows)")
        let seven = try XCTUnwrap(rows.firstIndex { $0.contains("(HTTP 503), next try in 7 s") }, "\(rows)")
        let six = try XCTUnwrap(rows.firstIndex { $0.contains("(HTTP 503), next try in 6 s") }, "\(rows)")
        XCTAssertLessThan(eight, seven)
        XCTAssertLessThan(seven, six, "it counts down as the clock moves, by itself")
        XCTAssertTrue(rows.contains { $0.contains("waiting for the network (offline): could not connect to 127.0.0.1:9") }, "\(rows)")
        let map = try XCTUnwrap(terminal.frames.last { !$0.text.contains("waiting for the network") }, "back on the map")
        XCTAssertTrue(map.rowText(map.height - 1).contains("│ offline"), map.rowText(map.height - 1))
    }

    func testAFailureTheAlbumsReportReachesTheScreenAndTheLog() throws {
        let pin = try storedAlbum(count: 1)
        let albums = albums!
        let terminal = try run([.key(.enter), .pause(0.01), .meanwhile {
            albums.onEvent.withLock { $0 }?(.storeFailed(pin.id, "Could not save the photo: the disk is full"))
        }, .pause(0.01), .key(.escape), .key(.char("q"))], view: naplesView)
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("the disk is full") }, "said on screen")
        XCTAssertEqual(logged.withLock { $0 }, ["Could not save the photo: the disk is full"])
    }

    func testAPageNoBrowserTakesIsOnTheMessageLineAndAPhotoSavedIsSaid() throws {
        _ = try storedAlbum(count: 2)
        // Enter: the album, Enter: its first photo; o: its page; w: save it.
        let terminal = try run([.key(.enter), .pause(0.01), .key(.enter), .pause(0.01), .key(.char("o")), .pause(0.01),
                                .pause(0.01), .key(.char("w")), .pause(0.01), .pause(0.01),
                                .key(.escape), .key(.escape), .key(.char("q"))], view: naplesView)
        XCTAssertEqual(opened.withLock { $0 }, ["https://www.flickr.com/photos/x/1"])
        XCTAssertTrue(terminal.frames.contains {
            $0.text.contains("Page: https://www.flickr.com/photos/x/1 \u{00B7} no browser (no xdg-open)")
        }, "the address is on the message line")
        XCTAssertEqual(saved.withLock { $0.map(\.1) }, ["Bay 1"])
        XCTAssertEqual(saved.withLock { $0.first?.0.prefix(2) }, Data([0xFF, 0xD8]), "the stored JPEG's bytes")
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("Saved to /pictures/Bay 1.jpg") })
    }

    func testWSavesTheStoredLargeImageWithItsBytesAndExifElseTheAlbumImage() throws {
        let pin = try storedAlbum(count: 2)
        let photos = try store.photos(pinID: pin.id)
        let large = LargeImage(bytes: try Data(contentsOf: LargeJPEG.url), width: LargeJPEG.width, height: LargeJPEG.height)
        XCTAssertTrue(try store.storeLargeImage(photoID: photos[0].id, large, budgetBytes: Settings().largeCacheBytes, now: 1))
        // Enter: the album, Enter: its first photo, w: save it; →: the second (no large image stored), w.
        try run([.key(.enter), .pause(0.01), .key(.enter), .pause(0.01), .key(.char("w")), .pause(0.01), .pause(0.01),
                 .key(.right), .pause(0.01), .key(.char("w")), .pause(0.01), .pause(0.01),
                 .key(.escape), .key(.escape), .key(.char("q"))], view: naplesView)
        let files = saved.withLock { $0 }
        XCTAssertEqual(files.map(\.1), ["Bay 1", "Bay 2"])
        XCTAssertEqual(files.first?.0, large.bytes, "the large image's bytes as they were fetched")
        XCTAssertEqual(files.first?.0.subdata(in: 6..<10), Data("Exif".utf8), "its Exif segment kept")
        XCTAssertEqual(files.last?.0, try store.imageBytes(photoID: photos[1].id), "the album's image when no large one is stored")
    }
}

/// The photo view's large images with the test value of the large-image client: answered at once.
extension ScriptedRuntimeTests {
    func testThePhotoViewAsksForLargeImagesAndDrawsThemFromMemory() throws {
        let pin = try storedAlbum(count: 4)
        let ids = try store.photos(pinID: pin.id).map(\.id)
        let large = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/images/quadrants_1024x768.jpg"))
        let asked = Locked<[[PhotoRecord.ID]]>([])
        // The large image painted as `L`, the thumbnail as `#`.
        let painter = PicturePainter { data, key in
            .cells(CellBuffer(width: key.size.columns, height: key.size.rows, fill: Cell(data == large ? "L" : "#")))
        }
        let pipeline = LargeImagePipeline.immediate(asked: { fetch, _ in asked.withLock { $0.append(fetch) } }) { want in
            want.photoID == ids[1] ? (.failed("HTTP 404"), nil) : (.ready(width: 1024, height: 768), large)
        }
        let terminal = try run([.key(.enter), .pause(0.01), .key(.enter), .pause(0.01), .pause(0.01), .key(.right),
                                .pause(0.01), .pause(0.01), .key(.escape), .pause(0.01), .key(.escape), .key(.char("q"))],
                               view: naplesView, painter: painter, largeImages: pipeline)
        let first = try XCTUnwrap(terminal.frames.last { $0.text.contains("1 of 4") })
        XCTAssertTrue(first.text.contains("LLLL") && first.text.contains("large 1024\u{00D7}768"), first.text)
        let second = try XCTUnwrap(terminal.frames.last { $0.text.contains("2 of 4") })
        XCTAssertTrue(second.text.contains("####") && !second.text.contains("LLLL"), "the thumbnail stays:\n\(second.text)")
        XCTAssertTrue(second.text.contains("large image failed: HTTP 404"), second.text)
        // Opened: the shown and the next; stepped on: the new next; left: nothing.
        XCTAssertEqual(asked.withLock { $0 }.filter { !$0.isEmpty }, [[ids[0], ids[1]], [ids[2]]])
        XCTAssertEqual(asked.withLock { $0 }.last, [])
    }
}

/// `W`: the album saved into a new folder of the pictures folder, through the test value of the
/// album saver (real files from the real SQLite file, written when asked).
extension ScriptedRuntimeTests {
    func testWSavesTheAlbumIntoANewFolderAndSaysWhere() throws {
        let pin = try storedAlbum(count: 3)
        let photos = try store.photos(pinID: pin.id)
        let large = LargeImage(bytes: try Data(contentsOf: LargeJPEG.url), width: LargeJPEG.width, height: LargeJPEG.height)
        XCTAssertTrue(try store.storeLargeImage(photoID: photos[2].id, large, budgetBytes: Settings().largeCacheBytes, now: 1))
        // Enter: the album; W twice: the second goes to "Naples 2" beside the first.
        let terminal = try run([.key(.enter), .pause(0.01), .key(.char("W")), .pause(0.01), .pause(0.01),
                                .key(.char("W")), .pause(0.01), .pause(0.01), .key(.escape), .key(.char("q"))],
                               view: naplesView, width: 220)
        let first = pictures.appendingPathComponent("vtourist/Naples")
        let second = pictures.appendingPathComponent("vtourist/Naples 2")
        for dir in [first, second] {
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
                           ["01-Bay 1.jpg", "02-Bay 2.jpg", "03-Bay 3.jpg", "credits.json", "index.html"])
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("01-Bay 1.jpg")), try store.imageBytes(photoID: photos[0].id))
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("03-Bay 3.jpg")), large.bytes, "the large image as fetched")
        }
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("Saving the album") })
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("Saved 3 photos to \(first.path)") },
                      terminal.frames.map(\.text).joined(separator: "\n"))
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("Naples 2 (Naples holds files already)") })
    }

    func testQuittingWaitsForTheAlbumBeingSaved() throws {
        _ = try storedAlbum(count: 2)
        let calls = Locked<[String]>([])
        let saver = AlbumSaver(save: { pin, _ in calls.withLock { $0.append("save \(pin)") } },
                               finish: { calls.withLock { $0.append("finish") } })
        try run([.key(.enter), .pause(0.01), .key(.char("W")), .pause(0.01), .key(.escape), .key(.char("q"))],
                view: naplesView, albumSaver: saver)
        XCTAssertEqual(calls.withLock { $0 }, ["save 1", "finish"])
    }

    func testTheLiveSaverWritesOffTheCallersThreadAndFinishWaitsForIt() throws {
        let pin = try storedAlbum(count: 2)
        let saver = AlbumSaver.live(store: store, pictures: pictures)
        let said = Locked<[String]>([])
        saver.save(pin.id) { message in said.withLock { $0.append(message.text) } }
        saver.finish()
        let dir = pictures.appendingPathComponent("vtourist/Naples")
        XCTAssertEqual(said.withLock { $0 }, ["Saved 2 photos to \(dir.path)"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
                       ["01-Bay 1.jpg", "02-Bay 2.jpg", "credits.json", "index.html"])
    }

    func testWOnAnAlbumWithNothingStoredSaysSoAndMakesNoFolder() throws {
        _ = try store.insertPin(at: Self.naples, name: "Naples")
        let terminal = try run([.key(.enter), .pause(0.01), .key(.char("W")), .pause(0.01), .pause(0.01),
                                .key(.escape), .key(.char("q"))], view: naplesView)
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("No stored photos to save yet.") })
        XCTAssertFalse(FileManager.default.fileExists(atPath: pictures.path))
    }
}
