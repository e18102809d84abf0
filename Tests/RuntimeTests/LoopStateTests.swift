import AlbumMachine
import Geo
import Model
import Store
import Terminal
@testable import TouristCore
@testable import TouristRuntime
import WorldMap
import XCTest

/// The runtime's decisions as pure code: each table feeds `LoopState` effects, messages and clock
/// readings and checks the work and actions it returns. No threads, no store, no terminal.
final class LoopStateTests: XCTestCase {
    static let naples = GeoPoint(latitude: 40.85, longitude: 14.27)
    let noInline = TerminalFacts(inlineImages: nil, cellPixelSize: nil)

    func mapState() -> AppState {
        let p = Mercator.project(Self.naples)
        var s = AppState(camera: MapCamera(centerX: p.x, centerY: p.y, zoom: 10, cursorX: p.x, cursorY: p.y),
                         width: 80, height: 24)
        s.pins = [Pin(id: 1, coordinate: Self.naples, name: "Naples")]
        return s
    }

    func photo(_ id: Int64) -> PhotoRecord {
        PhotoRecord(id: id, pinID: 1, position: Int(id),
                    found: NewPhoto(source: "flickr", sourceID: "s\(id)", title: "Photo \(id)",
                                    url: "http://127.0.0.1/\(id).jpg", pageURL: "https://example.org/photos/\(id)"),
                    state: .stored, byteCount: 5000)
    }

    /// Pin 1's album open, with `count` stored photos.
    func albumState(count: Int = 3) -> AppState {
        var s = mapState()
        s.go(to: .album(of: 1))
        _ = AppReducer(places: .none).reduce(&s, .albumLoaded(AlbumSnapshot(
            pinID: 1, photos: (1...Int64(count)).map(photo), status: .ready, source: "flickr")))
        return s
    }

    func view(_ zoom: Int) -> MapViewState {
        MapViewState(center: Self.naples, zoom: zoom, cursor: Self.naples)
    }

    // MARK: - The poll

    func testThePollIsDueOnceASecondAndNeverTwiceAtOnce() {
        var loop = LoopState(now: 100, settings: Settings(), seenVersion: 7)
        let state = mapState()
        // (now, message before the reading, the poll work expected)
        let rows: [(Double, RuntimeMessage?, [Work])] = [
            (100.5, nil, []),
            (101.0, nil, [.poll(seen: 7, issued: 0)]),
            (102.5, nil, []),  // the first is still under way
            (102.5, .pollFinished(.unchanged), [.poll(seen: 7, issued: 0)]),
            (103.0, .pollFinished(.changed(version: 9, pins: [], settings: Settings(), readBeforeWrite: 0)), []),
            (103.5, nil, [.poll(seen: 9, issued: 0)]),
        ]
        for (i, (now, message, expected)) in rows.enumerated() {
            if let message { _ = loop.receive(message, state) }
            let polls = loop.due(now: now, animating: false, mapState()).work.filter { if case .poll = $0 { true } else { false } }
            XCTAssertEqual(polls, expected, "row \(i), at \(now)")
        }
    }

    func testAReadMadeBeforeAWriteIsDroppedButItsVersionIsKept() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let state = mapState()
        XCTAssertEqual(loop.perform(.insertPin(Self.naples, name: "Naples"), state), [.write(.insertPin(Self.naples, name: "Naples"), number: 1)])
        let pins = [Pin(id: 5, coordinate: Self.naples, name: nil)]
        // (message, actions expected)
        let rows: [(RuntimeMessage, [AppAction])] = [
            (.action(.pinsLoaded(pins), readBeforeWrite: 0), []),
            (.action(.pinsLoaded(pins), readBeforeWrite: 1), [.pinsLoaded(pins)]),
            (.action(.pinRemoved(5)), [.pinRemoved(5)]),
            (.pollFinished(.changed(version: 4, pins: pins, settings: Settings(), readBeforeWrite: 0)), []),
            (.pollFinished(.changed(version: 5, pins: pins, settings: Settings(), readBeforeWrite: 1)),
             [.pinsLoaded(pins), .settingsLoaded(Settings())]),
        ]
        for (i, (message, expected)) in rows.enumerated() {
            XCTAssertEqual(loop.receive(message, state).actions, expected, "row \(i)")
        }
        XCTAssertEqual(loop.seenVersion, 5, "a stale answer's version is seen all the same: it is not read again")
    }

    func testAChangeElsewhereReloadsTheOpenAlbumAndTakesUpInterruptedAlbums() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let outcome = loop.receive(.pollFinished(.changed(version: 2, pins: [], settings: Settings(), readBeforeWrite: 0)),
                                   albumState())
        XCTAssertEqual(outcome.work, [.loadAlbum(1), .resumeInterrupted])
    }

    func testAFailingPollIsSaidOnceUntilItChanges() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let state = mapState()
        let busy = StoreError.locked(path: "/tmp/v.sqlite")
        let said = loop.receive(.pollFinished(.failed(busy)), state)
        XCTAssertEqual(said.actions, [.storeFailed("Could not check the database for changes: \(busy)")])
        XCTAssertEqual(said.work, [.log("Could not check the database for changes: \(busy)")], "the log has it too")
        XCTAssertEqual(loop.receive(.pollFinished(.failed(busy)), state).actions, [], "said once")
        XCTAssertEqual(loop.receive(.pollFinished(.unchanged), state).actions, [])
        XCTAssertEqual(loop.receive(.pollFinished(.failed(busy)), state).actions.count, 1, "said again after it worked")
    }

    func testLeasesOfCrashedProcessesAreLookedForEveryHeartbeat() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let beat = AlbumLease.heartbeat
        XCTAssertFalse(loop.due(now: beat - 0.1, animating: false, mapState()).work.contains(.resumeInterrupted))
        XCTAssertTrue(loop.due(now: beat, animating: false, mapState()).work.contains(.resumeInterrupted))
        XCTAssertFalse(loop.due(now: beat + 1, animating: false, mapState()).work.contains(.resumeInterrupted))
        XCTAssertTrue(loop.due(now: 2 * beat, animating: false, mapState()).work.contains(.resumeInterrupted))
    }

    // MARK: - Coalescing

    func testMapViewSavesCoalesceOneAtATimeTheNewestWinning() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let state = mapState()
        XCTAssertEqual(loop.perform(.saveMapView(view(1)), state), [.saveMapView(view(1))])
        XCTAssertEqual(loop.perform(.saveMapView(view(2)), state), [], "waits for the first")
        XCTAssertEqual(loop.perform(.saveMapView(view(3)), state), [], "replaces the one waiting")
        XCTAssertEqual(loop.receive(.mapViewSaved, state).work, [.saveMapView(view(3))])
        XCTAssertEqual(loop.receive(.mapViewSaved, state).work, [], "nothing more waits")
        XCTAssertEqual(loop.finish(), [])
        XCTAssertEqual(loop.perform(.saveMapView(view(4)), state), [.saveMapView(view(4))])
        XCTAssertEqual(loop.perform(.saveMapView(view(5)), state), [])
        XCTAssertEqual(loop.finish(), [.saveLastMapView(view(5))], "the newest waiting is written at quit")
    }

    func testAlbumReloadsCoalesceAndFollowTheAlbumShown() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let open = albumState()
        // (message, work expected)
        let rows: [(RuntimeMessage, [Work])] = [
            (.album(.changed(1)), [.loadAlbum(1)]),
            (.album(.changed(1)), []),  // one read at a time
            (.album(.changed(1)), []),
            (.album(.changed(2)), []),  // not the album shown
            (.albumLoadFinished, [.loadAlbum(1)]),  // changed meanwhile: read once more
            (.albumLoadFinished, []),
            (.album(.changed(2)), []),
        ]
        for (i, (message, expected)) in rows.enumerated() {
            XCTAssertEqual(loop.receive(message, open).work, expected, "row \(i)")
        }
        XCTAssertEqual(loop.perform(.openAlbum(1), open), [.resumeAlbum(1), .loadAlbum(1)])
    }

    /// The albums serve the album on screen first: told when it opens, not again while it (or its photo
    /// view) stays, and told that none is when the map is back.
    func testTheAlbumsAreToldWhichAlbumIsOnScreen() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let map = mapState(), album = albumState()
        var photo = album
        photo.go(to: .photo(of: album.openAlbum!))
        func focus(_ work: [Work]) -> [Work] { work.filter { if case .focusAlbum = $0 { true } else { false } } }
        XCTAssertEqual(focus(loop.started(map, now: 0, terminal: noInline)), [], "nothing to tell on the map")
        // (from, to, what the albums are told)
        let rows: [(AppState, AppState, [Work])] = [
            (map, album, [.focusAlbum(1)]),
            (album, album, []),
            (album, photo, []),  // the photo view keeps the album under it
            (photo, album, []),
            (album, map, [.focusAlbum(nil)]),
            (map, map, []),
            (map, photo, [.focusAlbum(1)]),
        ]
        for (i, (before, after, expected)) in rows.enumerated() {
            XCTAssertEqual(focus(loop.settled(from: before, to: after, now: 0, terminal: noInline)), expected, "row \(i)")
        }
    }

    // MARK: - Effects become work

    func testEachEffectBecomesItsWork() {
        let state = mapState()
        let settings = Settings()
        let rows: [(AppEffect, [Work])] = [
            (.movePin(1, to: Self.naples, name: "N"), [.write(.movePin(1, to: Self.naples, name: "N"), number: 1)]),
            (.deletePin(1), [.write(.deletePin(1), number: 1)]),
            (.renamePin(1, name: "Home"), [.write(.renamePin(1, name: "Home"), number: 1)]),
            (.renamePin(1, name: nil), [.write(.renamePin(1, name: nil), number: 1)]),
            (.saveSetting(.contact, "me@example.org"), [.write(.saveSetting(.contact, "me@example.org"), number: 1)]),
            (.album(1, .newCollection), [.albumAction(1, .newCollection)]),
            (.openPage("https://example.org/p"), [.openPage("https://example.org/p")]),
            (.savePhoto(3, title: "Bay"), [.savePhoto(3, title: "Bay")]),
            (.testFlickrKey(settings), [.testFlickrKey(settings)]),
            (.quit, []),
        ]
        for (effect, expected) in rows {
            var loop = LoopState(now: 0, settings: settings, seenVersion: 1)
            XCTAssertEqual(loop.perform(effect, state), expected, "\(effect)")
            XCTAssertEqual(loop.running, effect != .quit)
        }
    }

    func testSettingsReadBackAreDroppedOnceStaleAndReachTheAlbumsBeforeALaterDrop() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let state = mapState()
        var flickr = Settings(), commons = Settings()
        flickr.source = .flickr
        commons.source = .commons
        // Two changes on the screen: each write reads the settings back.
        XCTAssertEqual(loop.perform(.saveSetting(.source, "flickr"), state), [.write(.saveSetting(.source, "flickr"), number: 1)])
        XCTAssertEqual(loop.perform(.saveSetting(.source, "commons"), state), [.write(.saveSetting(.source, "commons"), number: 2)])
        let first = loop.receive(.action(.settingsLoaded(flickr), readBeforeWrite: 1), state)
        XCTAssertEqual(first.actions, [], "read back before the second change: it would undo it")
        XCTAssertEqual(first.work, [])
        let pin = Pin(id: 3, coordinate: Self.naples, name: nil)
        var outcomes = [loop.receive(.action(.settingsLoaded(commons), readBeforeWrite: 2), state)]
        outcomes.append(loop.receive(.pinInserted(pin), state))
        XCTAssertEqual(outcomes.flatMap(\.work), [.useSettings(commons), .startAlbum(pin)],
                       "the albums search with the new settings before the dropped pin's album starts")
        XCTAssertEqual(loop.receive(.action(.settingsLoaded(commons), readBeforeWrite: 2), state).work, [], "told once")
    }

    func testAReplyReadBeforeAChangeMadeInTheSameTurnCannotUndoIt() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let reducer = AppReducer(places: .none)
        var state = mapState()
        state.screen = .settings(SettingsScreen(selected: SettingCatalog.standard.screenOrder.firstIndex(of: .source)!))
        var flickr = Settings(), commons = Settings()
        flickr.source = .flickr
        commons.source = .commons
        /// The reducer over a turn's actions, each effect through the loop, as the runtime does.
        func reduce(_ actions: [AppAction]) -> [Work] {
            let before = state
            var work: [Work] = []
            for action in actions {
                for effect in reducer.reduce(&state, action) { work += loop.perform(effect, state) }
            }
            return work + loop.settled(from: before, to: state, now: 0, terminal: noInline)
        }
        let enter = AppAction.event(.key(.enter), time: 0)
        XCTAssertTrue(reduce([enter]).contains(.write(.saveSetting(.source, "flickr"), number: 1)), "automatic → Flickr")
        // One turn brings write 1's reply (read before any other change) and a second Enter together.
        let turn = loop.turn(messages: [.action(.settingsLoaded(flickr), readBeforeWrite: 1)], events: [enter],
                             now: 0, animating: false, state)
        XCTAssertEqual(turn.actions, [.settingsLoaded(flickr), enter], "the reply is reduced before the key's write")
        let work = turn.work + reduce(turn.actions)
        XCTAssertTrue(work.contains(.write(.saveSetting(.source, "commons"), number: 2)))
        XCTAssertEqual(state.settings, commons, "the second change stands on the screen")
        XCTAssertEqual(work.filter { if case .useSettings = $0 { true } else { false } }.last, .useSettings(commons),
                       "and the albums search with it")
        // Write 2's reply and a drop in one turn: the drop's album searches with the change.
        let pin = Pin(id: 3, coordinate: Self.naples, name: nil)
        state.go(to: .map)
        state.pins = []  // nothing under the cursor: p drops a pin
        let drop = loop.turn(messages: [.action(.settingsLoaded(commons), readBeforeWrite: 2)],
                             events: [.event(.key(.char("p")), time: 0)], now: 0, animating: false, state)
        XCTAssertEqual(drop.actions.first, .settingsLoaded(commons))
        let dropped = reduce(drop.actions)
        XCTAssertTrue(dropped.contains { if case .write(.insertPin, number: 3) = $0 { true } else { false } }, "\(dropped)")
        XCTAssertEqual(state.settings, commons)
        XCTAssertEqual(loop.receive(.pinInserted(pin), state).work, [.startAlbum(pin)])
        XCTAssertEqual(loop.settled(from: state, to: state, now: 0, terminal: noInline), [], "no other settings since")
    }

    func testADroppedPinIsShownAndItsAlbumStarted() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let pin = Pin(id: 9, coordinate: Self.naples, name: "Naples")
        let outcome = loop.receive(.pinInserted(pin), mapState())
        XCTAssertEqual(outcome.actions, [.pinSaved(pin)])
        XCTAssertEqual(outcome.work, [.startAlbum(pin)])
    }

    func testAlbumEventsBecomeActionsAndStoreFailuresAreLogged() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let state = mapState()
        XCTAssertEqual(loop.receive(.album(.notice(1, "Searching")), state).actions, [.albumNotice(1, "Searching")])
        XCTAssertEqual(loop.receive(.album(.photoCount(1, 21)), state).actions, [.photoCount(1, 21)])
        let failed = loop.receive(.album(.storeFailed(1, "disk full")), state)
        XCTAssertEqual(failed.actions, [.storeFailed("disk full", pin: 1)])
        XCTAssertEqual(failed.work, [.log("disk full")])
        XCTAssertEqual(loop.receive(.pageNotOpened(url: "https://e.org", reason: "no xdg-open"), state).work,
                       [.reportPageNotOpened(url: "https://e.org", reason: "no xdg-open")])
    }

    func testTheAlbumsSearchWithTheSettingsTheScreenShows() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let before = mapState()
        var after = before
        XCTAssertEqual(loop.settled(from: before, to: after, now: 0, terminal: noInline), [])
        after.settings.photosPerCollection = 12
        XCTAssertTrue(loop.settled(from: before, to: after, now: 0, terminal: noInline).contains(.useSettings(after.settings)))
        XCTAssertFalse(loop.settled(from: after, to: after, now: 0, terminal: noInline).contains(.useSettings(after.settings)),
                       "told once")
    }

    // MARK: - The network

    /// Pin 1's album open, downloading: two photos stored, one pending.
    func downloadingAlbumState() -> AppState {
        var s = mapState()
        s.go(to: .album(of: 1))
        var pending = photo(3)
        pending.state = .pending
        _ = AppReducer(places: .none).reduce(&s, .albumLoaded(AlbumSnapshot(
            pinID: 1, photos: [photo(1), photo(2), pending], status: .downloading, source: "flickr")))
        return s
    }

    func testANetworkReportReachesTheStateWithTheClockOfItsTurn() {
        var loop = LoopState(now: 40, settings: Settings(), seenVersion: 1)
        let report = NetworkReport(isOffline: false, waits: [1: AlbumWait(reason: "HTTP 503", nextTry: 48, isSearch: false, photos: 1)])
        let outcome = loop.turn(messages: [.album(.network(report))], events: [], now: 40.5, animating: false, mapState())
        XCTAssertEqual(outcome.actions, [.network(report, time: 40.5)])
        XCTAssertEqual(outcome.work, [], "nothing to run: the screen alone changes")
    }

    func testTheCountdownIsDueEachSecondWhileAWaitIsShownAndWakesTheLoop() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let reducer = AppReducer(places: .none)
        var state = downloadingAlbumState()
        let report = NetworkReport(waits: [1: AlbumWait(reason: "HTTP 503", nextTry: 48.5, isSearch: false, photos: 1)])
        _ = reducer.reduce(&state, .network(report, time: 40))
        XCTAssertEqual(LoopState.waitMs(now: 40, longest: 250, state), 250)
        XCTAssertTrue((201...202).contains(LoopState.waitMs(now: 40.3, longest: 250, state)),
                      "woken as 9 s becomes 8 s (at 40.5), a millisecond late")
        // (now, due, the seconds shown after the turn)
        let rows: [(Double, Bool, String)] = [(40.3, false, "9 s"), (40.501, true, "8 s"), (41.2, false, "8 s"),
                                              (41.6, true, "7 s"), (48.6, true, "0 s"), (60, false, "0 s")]
        for (now, due, shown) in rows {
            let actions = loop.due(now: now, animating: false, state).actions
            XCTAssertEqual(actions.contains(.countdown(time: now)), due, "at \(now)")
            for action in actions { _ = reducer.reduce(&state, action) }
            XCTAssertTrue(state.shownWaitLine?.hasSuffix("next try in \(shown)") == true, "at \(now): \(state.shownWaitLine ?? "none")")
        }
        XCTAssertEqual(LoopState.waitMs(now: 60, longest: 250, state), 250, "nothing more to count")
        // Under help, on the map, offline: no countdown is shown, none is due.
        var help = state
        _ = reducer.reduce(&help, .network(report, time: 40))
        help.overlay = .help
        var offline = help
        offline.overlay = nil
        _ = reducer.reduce(&offline, .network(NetworkReport(isOffline: true, waits: report.waits), time: 40))
        var map = mapState()
        _ = reducer.reduce(&map, .network(report, time: 40))
        for quiet in [help, offline, map] {
            XCTAssertFalse(loop.due(now: 45, animating: false, quiet).actions.contains { if case .countdown = $0 { true } else { false } })
            XCTAssertEqual(LoopState.waitMs(now: 45, longest: 250, quiet), 250)
        }
    }

    // MARK: - The clock

    /// Pin 1's album's first photo on the photo screen, the slideshow playing since `since`.
    func slideshowState(since: Double, seconds: Int = 4, count: Int = 3) -> AppState {
        var s = albumState(count: count)
        s.settings.slideshowSeconds = seconds
        guard let album = s.album else { return s }
        s.go(to: .photo(of: album))
        _ = AppReducer(places: .none).reduce(&s, .event(.key(.char(" ")), time: since))
        return s
    }

    func testTheSlideshowStepIsDueItsIntervalAfterThePhotoWasShown() {
        var loop = LoopState(now: 100, settings: Settings(), seenVersion: 1)
        // (seconds, shown at, now, due)
        let rows: [(Int, Double, Double, Bool)] = [
            (4, 100, 103.99, false),
            (4, 100, 104, true),
            (4, 100, 250, true),
            (1, 100, 100.5, false),
            (1, 100, 101, true),
            (60, 100, 159.9, false),
            (60, 100, 160, true),
        ]
        for (seconds, shown, now, due) in rows {
            let state = slideshowState(since: shown, seconds: seconds)
            XCTAssertEqual(state.photo?.slideshow, Slideshow(since: shown))
            let actions = loop.due(now: now, animating: false, state).actions
            XCTAssertEqual(actions.contains(.slideshowStep(time: now)), due, "\(seconds) s, shown at \(shown), now \(now)")
        }
        // Paused, under help or on a terminal too small: never due.
        var paused = slideshowState(since: 100)
        _ = AppReducer(places: .none).reduce(&paused, .event(.key(.char(" ")), time: 101))
        XCTAssertNil(paused.photo?.slideshow)
        var help = slideshowState(since: 100)
        help.overlay = .help
        var small = slideshowState(since: 100)
        small.width = 10
        for state in [paused, help, small, mapState()] {
            XCTAssertFalse(loop.due(now: 1000, animating: false, state).actions.contains { if case .slideshowStep = $0 { true } else { false } })
        }
    }

    func testATurnStepsTheSlideshowOnceAndTheLoopWakesUpWhenItIsDue() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        var state = slideshowState(since: 10, count: 3)
        let reducer = AppReducer(places: .none)
        XCTAssertEqual(LoopState.waitMs(now: 10, longest: 250, state), 250)
        XCTAssertEqual(LoopState.waitMs(now: 13.9, longest: 250, state), 100, "woken when the next photo is due")
        XCTAssertEqual(LoopState.waitMs(now: 15, longest: 250, state), 0)
        XCTAssertEqual(LoopState.waitMs(now: 15, longest: 250, mapState()), 250)
        // (now, the photo shown after the turn)
        for (now, photo) in [(13.0, Int64(1)), (14.0, 2), (16.0, 2), (18.0, 3), (30.0, 3)] {
            for action in loop.turn(messages: [], events: [], now: now, animating: false, state).actions {
                _ = reducer.reduce(&state, action)
            }
            XCTAssertEqual(state.photo?.photoID, photo, "at \(now)")
        }
        XCTAssertNil(state.photo?.slideshow, "stopped at the last photo")
        XCTAssertEqual(state.message, StatusMessage("Last photo: the slideshow stopped."))
        // A key in the same turn as the step pauses first and steps itself: the step then does nothing.
        state = slideshowState(since: 10, count: 3)
        let outcome = loop.turn(messages: [], events: [.event(.key(.right), time: 14)], now: 14, animating: false, state)
        XCTAssertTrue(outcome.actions.contains(.slideshowStep(time: 14)))
        for action in outcome.actions { _ = reducer.reduce(&state, action) }
        XCTAssertEqual(state.photo?.photoID, 2, "one step, the key's")
        XCTAssertNil(state.photo?.slideshow)
    }

    func testTheSlideshowsNextPhotoIsAlreadyWanted() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let before = albumState(count: 3)
        let state = slideshowState(since: 10, count: 3)
        let work = loop.settled(from: before, to: state, now: 10, terminal: noInline)
        let size = PhotoView.pictureSize(state.layout)
        XCTAssertTrue(work.contains(.wantPictures([PictureKey(photoID: 1, size: size), PictureKey(photoID: 2, size: size)])), "\(work)")
    }

    func testAnimationStepsAndMessageTimeouts() {
        var loop = LoopState(now: 10, settings: Settings(), seenVersion: 1)
        let before = mapState()
        var state = before
        state.message = StatusMessage("Saved.")
        _ = loop.settled(from: before, to: state, now: 10, terminal: noInline)
        XCTAssertEqual(loop.due(now: 10.05, animating: true, mapState()).actions, [], "not yet a tick")
        XCTAssertEqual(loop.due(now: 10.2, animating: true, mapState()).actions, [.tick])
        XCTAssertEqual(loop.due(now: 10.5, animating: false, mapState()).actions, [], "no tick when nothing moves")
        XCTAssertEqual(loop.due(now: 10 + StatusMessage.lifetime, animating: false, mapState()).actions, [.messageExpired(StatusMessage("Saved."))])
        var error = state
        error.message = StatusMessage("Could not save", kind: .error)
        _ = loop.settled(from: state, to: error, now: 20, terminal: noInline)
        XCTAssertEqual(loop.due(now: 100, animating: false, mapState()).actions, [], "an error waits for a key")
    }

    // MARK: - Pictures

    func testPicturesAreAskedForOnceAndKeptOnlyWhileWanted() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        let open = albumState()
        let asked = loop.started(open, now: 0, terminal: noInline)
        guard case let .wantPictures(keys)? = asked.first else { return XCTFail("no pictures asked for: \(asked)") }
        XCTAssertEqual(keys.map(\.photoID), [1, 2, 3])
        XCTAssertEqual(loop.settled(from: open, to: open, now: 0, terminal: noInline), [], "nothing changed, nothing asked")

        let picture = Picture.failed("test")
        XCTAssertEqual(loop.receive(.pictureRendered(keys[0], picture), open).work, [.pictureTaken(keys[0])])
        XCTAssertEqual(loop.pictures[keys[0]], picture)
        XCTAssertTrue(loop.needsDraw)

        // Back on the map the album's pictures are not wanted: one arriving now is dropped.
        var map = open
        map.go(to: .map)
        _ = loop.settled(from: open, to: map, now: 0, terminal: noInline)
        XCTAssertEqual(loop.receive(.pictureRendered(keys[1], picture), map).work, [.pictureTaken(keys[1])],
                       "taken from the pipeline all the same")
        XCTAssertNil(loop.pictures[keys[1]])
    }

    func testThePhotoViewsInlinePictureIsEncodedOncePerPlaceAndShownOnlyWhileWanted() {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        var photo = albumState()
        photo.go(to: .photo(of: photo.openAlbum!))
        let kitty = TerminalFacts(inlineImages: .kitty, cellPixelSize: (8, 16))
        let work = loop.started(photo, now: 0, terminal: kitty)
        guard case let .encodeInline(request)? = work.first else { return XCTFail("no inline picture asked for: \(work)") }
        XCTAssertEqual(request.cellWidth, 8)
        XCTAssertEqual(loop.settled(from: mapState(), to: photo, now: 0, terminal: kitty).filter {
            if case .encodeInline = $0 { true } else { false }
        }, [], "asked once for the same place")
        let picture = InlinePicture(key: request.key, x: 0, y: 0, columns: 1, rows: 1, sequence: [])
        _ = loop.receive(.inlineReady(picture), photo)
        XCTAssertEqual(loop.shownInline, picture)
        _ = loop.settled(from: photo, to: albumState(), now: 0, terminal: kitty)
        XCTAssertNil(loop.shownInline, "not over the album")
    }

    func testAZoomStepDrawsThePictureBeforeItUntilItsPartIsRendered() throws {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        var fitted = albumState()
        fitted.go(to: .photo(of: fitted.openAlbum!))
        guard case var .photo(screen) = fitted.screen else { return XCTFail("no photo screen") }
        screen.large[1] = .ready(width: 2048, height: 1536)
        fitted.screen = .photo(screen)
        let reducer = AppReducer(places: .none)
        let size = PhotoView.pictureSize(fitted.layout)
        let area = PhotoView.pictureArea(fitted.layout)
        func picture(_ mark: Unicode.Scalar) -> Picture { .cells(CellBuffer(width: size.columns, height: size.rows, fill: Cell(mark))) }
        func drawn(_ state: AppState) -> Unicode.Scalar? {
            AppView.render(state, raster: nil, pictures: loop.pictures)[area.x + area.width / 2, area.y + area.height / 2].symbol
        }
        _ = loop.started(fitted, now: 0, terminal: noInline)
        let whole = PictureKey(photoID: 1, size: size)
        _ = loop.receive(.pictureRendered(whole, picture("W")), fitted)
        XCTAssertEqual(drawn(fitted), "W")

        // (key, the picture drawn before the part arrives, the part's mark)
        var state = fitted
        for (key, mark) in [(Key.char("+"), Unicode.Scalar("A")), (.right, "B"), (.char("+"), "C")] {
            let before = state
            _ = reducer.reduce(&state, .event(.key(key), time: 0))
            let previous = drawn(before)
            _ = loop.settled(from: before, to: state, now: 0, terminal: noInline)
            let part = try XCTUnwrap(state.wantedPictures.first)
            XCTAssertFalse(part.crop.isWhole)
            XCTAssertTrue(loop.pictures[part] == nil, "\(key): a new part")
            XCTAssertEqual(drawn(state), previous, "\(key): the picture before stays until the part is rendered")
            _ = loop.receive(.pictureRendered(part, picture(mark)), state)
            XCTAssertEqual(drawn(state), mark, "\(key)")
        }
        // Two steps before the first part is rendered: what was drawn stays all along.
        for key in [Key.char("l"), .char("j")] {
            let before = state
            _ = reducer.reduce(&state, .event(.key(key), time: 0))
            _ = loop.settled(from: before, to: state, now: 0, terminal: noInline)
            XCTAssertEqual(drawn(state), "C", "\(key)")
        }
        // Fitting back: the whole picture was kept, drawn at once.
        let before = state
        _ = reducer.reduce(&state, .event(.key(.char("0")), time: 0))
        let work = loop.settled(from: before, to: state, now: 0, terminal: noInline)
        XCTAssertEqual(drawn(state), "W")
        XCTAssertFalse(work.contains(.wantPictures([whole])))
        XCTAssertNil(loop.pictures.standIn, "nothing stands in once the picture wanted is there")
    }

    func testAZoomedPhotosInlinePictureAsksForThePartShownAtTheTerminalsPixels() throws {
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        var photo = albumState()
        photo.go(to: .photo(of: photo.openAlbum!))
        guard case var .photo(screen) = photo.screen else { return XCTFail("no photo screen") }
        screen.large[1] = .ready(width: 2048, height: 1536)
        photo.screen = .photo(screen)
        let kitty = TerminalFacts(inlineImages: .kitty, cellPixelSize: (10, 20))
        _ = loop.started(photo, now: 0, terminal: kitty)
        var zoomed = photo
        _ = AppReducer(places: .none).reduce(&zoomed, .event(.key(.char("+")), time: 0))
        XCTAssertEqual(zoomed.photo?.zoom.level, 1)
        let work = loop.settled(from: photo, to: zoomed, now: 0, terminal: kitty)
        guard case let .encodeInline(request)? = work.first else { return XCTFail("no inline picture asked for: \(work)") }
        let area = PhotoView.pictureArea(zoomed.layout)
        XCTAssertEqual(request.image, .large)
        XCTAssertEqual(request.crop, zoomed.photo?.crop(box: PictureSize(columns: area.width, rows: area.height), cellPixels: (10, 20)))
        XCTAssertEqual(request.crop, try XCTUnwrap(zoomed.wantedPictures.first).crop, "the same part as the cell picture at 2x")
        XCTAssertFalse(request.crop.isWhole)
    }
}

/// A store write kept waiting by a passing failure is tried again; anything else, or at quit, fails.
final class WriteRetryTests: XCTestCase {
    func testWhichFailuresAreTriedAgain() {
        let rows: [(StoreError, Bool, WriteRetry.Step)] = [
            (.locked(path: "v"), false, .tryAgain(pause: 0)),
            (.diskFull(path: "v"), false, .tryAgain(pause: WriteRetry.pause)),
            (.locked(path: "v"), true, .giveUp),
            (.diskFull(path: "v"), true, .giveUp),
            (.corrupt(path: "v", detail: "bad page"), false, .giveUp),
            (.readOnlyFile(path: "v"), false, .giveUp),
        ]
        for (error, stopping, expected) in rows {
            XCTAssertEqual(WriteRetry.step(after: error, stopping: stopping), expected, "\(error), stopping \(stopping)")
        }
    }
}
