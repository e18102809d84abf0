import AlbumMachine
import AlbumService
import Dispatch
import Foundation
import Model
import PhotoSources
import Store
import Terminal
import TouristCore
import WorldMap

/// The world outside the runtime: live parts in the app, a scripted terminal,
/// a clock and a temporary database in tests.
public struct RuntimeWorld {
    public var terminal: any AppTerminal
    public var clock: AppClock
    public var store: AppDatabase
    /// Makes the album service, whose events must go to the given handler.
    public var makeAlbums: (_ onEvent: @escaping @Sendable (AlbumEvent) -> Void) -> AlbumService
    public var geometry: WorldGeometry
    public var places: PlaceLookup
    /// Where store failures are written besides the screen.
    public var log: AppLog
    /// The folder photos are saved below (in `vtourist/`): `PhotoFile.picturesFolder` in the app.
    public var picturesFolder: URL
    /// Opens a web page in the browser, blocking until it is handed over (`PageOpener.live` in the
    /// app); the runtime calls it off the UI thread.
    public var openPage: @Sendable (String) -> Result<Void, PageOpenFailure>
    /// Renders photos for the screen; nil: the album's renderer for the terminal's capabilities.
    public var painter: PicturePainter?
    /// Threads rendering pictures at once.
    public var pictureThreads: Int
    /// The photo sources' settings for app settings (the environment's overrides applied): what the
    /// settings screen's changes become for the album service. Nil: changes wait for a restart.
    public var photoSettings: (@Sendable (Settings) -> PhotoSourceSettings)?

    public init(terminal: any AppTerminal, clock: AppClock = .live, store: AppDatabase,
                makeAlbums: @escaping (_ onEvent: @escaping @Sendable (AlbumEvent) -> Void) -> AlbumService,
                geometry: WorldGeometry, places: PlaceLookup, log: AppLog = .none,
                picturesFolder: URL, openPage: @escaping @Sendable (String) -> Result<Void, PageOpenFailure>,
                painter: PicturePainter? = nil,
                pictureThreads: Int = ProcessInfo.processInfo.activeProcessorCount,
                photoSettings: (@Sendable (Settings) -> PhotoSourceSettings)? = nil) {
        self.terminal = terminal
        self.clock = clock
        self.store = store
        self.makeAlbums = makeAlbums
        self.geometry = geometry
        self.places = places
        self.log = log
        self.picturesFolder = picturesFolder
        self.openPage = openPage
        self.painter = painter
        self.pictureThreads = pictureThreads
        self.photoSettings = photoSettings
    }
}

/// What the map starts with, read from the store before the terminal was taken.
public struct RuntimeStart: Sendable {
    public var pins: [Pin]
    public var view: MapViewState?
    public var settings: Settings
    /// Settings the environment decides instead: the variable's name.
    public var overrides: [SettingKey: String]
    /// An error shown in the status line at start (bad photo settings, say).
    public var problem: String?

    public init(pins: [Pin], view: MapViewState?, settings: Settings, overrides: [SettingKey: String] = [:],
                problem: String? = nil) {
        self.pins = pins
        self.view = view
        self.settings = settings
        self.overrides = overrides
        self.problem = problem
    }
}

/// The one UI loop (STYLE 3): event → action → reduce → effects → render →
/// flush. Store work runs on one serial queue, in the order it was issued, and
/// its outcomes come back through the mailbox as messages.
public final class AppRuntime {
    private var state: AppState
    private let reducer: AppReducer
    private let terminal: any AppTerminal
    private let clock: AppClock
    private let store: AppDatabase
    private let geometry: WorldGeometry
    private let log: AppLog
    private let retry = WriteRetry()
    private let picturesFolder: URL
    private let openPage: @Sendable (String) -> Result<Void, PageOpenFailure>
    private let photoSettings: (@Sendable (Settings) -> PhotoSourceSettings)?
    /// Browsers are started here, so a slow one holds up neither the screen nor the store.
    private let openerQueue = DispatchQueue(label: "vtourist.opener")
    /// Searches, downloads and store writes of every album.
    private let albums: AlbumService
    /// Every store read and write, one at a time, in the order issued.
    private let storeQueue = DispatchQueue(label: "vtourist.store")
    private let mailbox: Mailbox
    private var raster: (viewport: Viewport, raster: MapRaster)?
    /// The names that may go on the map, for the view they were asked for.
    private var labels: LabelCandidates?
    private let places: PlaceLookup
    private var running = true
    /// The photos rendered for the screen, and the threads rendering more.
    private var pictures = PictureShelf()
    private let pictureWorker: PictureWorker
    /// The pictures last asked of the worker (asked again only when the screen wants others).
    private var lastWanted: [PictureKey] = []
    /// Which pictures the screen may still want, made with `lastWanted` (not once a picture).
    private var keepsPicture: @Sendable (PictureKey) -> Bool = { _ in false }
    /// The photo screen's real picture (inline image protocol): the one wanted, and the newest encoded.
    private var inlineKey: String?
    private var inlinePicture: InlinePicture?
    private let inlineQueue = DispatchQueue(label: "vtourist.inline")
    /// The message on screen and when it appeared, for its timeout.
    private var shownMessage: (message: StatusMessage, since: Double)?
    /// Something not in the state changed what is drawn (a picture arrived).
    private var needsDraw = false
    private var lastTick: Double

    // The rest is touched only by the UI loop.
    /// Counts writes issued, so a pin list read before a write cannot undo it on screen.
    private var writes = 0
    private var lastPoll: Double
    /// When the albums were last asked to take up what no live process fetches.
    private var lastAdoption: Double
    private var isPolling = false
    /// The store's data version last seen.
    private var seenVersion: Int?
    /// The last failure of the poll, reported once until it changes.
    private var pollFailure: StoreError?
    /// The newest map view waiting to be written (writes coalesce: one at a time, the newest wins).
    private var viewToSave: MapViewState?
    private var isSavingView = false
    /// A snapshot of the open album is being read; `albumLoadAgain`: it changed since.
    private var isLoadingAlbum = false
    private var albumLoadAgain = false

    static let pollInterval = 1.0
    /// Seconds between animation steps while something on screen animates.
    static let tickInterval = 0.1

    public init(world: RuntimeWorld, start: RuntimeStart) {
        terminal = world.terminal
        clock = world.clock
        lastPoll = world.clock.now()
        lastAdoption = lastPoll
        lastTick = lastPoll
        store = world.store
        geometry = world.geometry
        log = world.log
        picturesFolder = world.picturesFolder
        openPage = world.openPage
        photoSettings = world.photoSettings
        places = world.places
        let reducer = AppReducer(places: world.places)
        self.reducer = reducer
        let mailbox = Mailbox(wakeUp: world.terminal.wakeUp)
        self.mailbox = mailbox
        state = AppRuntime.initialState(start, terminal: world.terminal, reducer: reducer)
        // A failure here is reported by the first poll.
        seenVersion = try? world.store.dataVersion()
        albums = world.makeAlbums { event in
            switch event {
            case let .notice(pin, text): mailbox.post(.albumNotice(pin, text))
            case let .changed(pin): mailbox.post(.albumChanged(pin))
            case let .storeFailed(pin, text): mailbox.post(.storeFailed(text, pin: pin))
            }
        }
        albums.resumeInterrupted()
        let painter = world.painter ?? .live(capabilities: world.terminal.capabilities)
        pictureWorker = PictureWorker(threads: world.pictureThreads, render: { [store = world.store] key in
            let bytes: Data?
            do { bytes = try store.imageBytes(photoID: key.photoID) } catch {
                return .failed("cannot read the stored image")
            }
            return bytes.map { painter.paint($0, key.size) }
        }, deliver: { key, picture in mailbox.post(.pictureRendered(key, picture)) })
    }

    /// The album screen's view of a pin's album: what the store holds, the status the album state
    /// machine decided included.
    static func snapshot(_ pin: Pin.ID, store: AppDatabase) throws(StoreError) -> AlbumSnapshot? {
        guard let stored = try store.album(pinID: pin) else { return nil }
        return AlbumSnapshot(pinID: pin, photos: stored.photos, status: stored.status, source: stored.source)
    }

    /// Runs until the user quits, then stops the albums, lets the store work
    /// issued finish and gives the terminal back.
    public func run() {
        defer { finish() }
        requestPictures()
        shownMessage = state.message.map { ($0, clock.now()) }
        draw()
        terminal.detectInlinePictures()
        while running {
            var actions: [AppAction] = []
            let animating = state.isAnimating
            if let event = terminal.nextEvent(timeoutMs: animating ? Int(AppRuntime.tickInterval * 1000) : 250) {
                actions.append(.event(event, time: clock.now()))
                // Take every event already waiting, then draw once.
                while actions.count < 256, let more = terminal.nextEvent(timeoutMs: 0) {
                    actions.append(.event(more, time: clock.now()))
                }
            }
            for message in mailbox.drain() {
                actions += receive(message)
            }
            // Every store failure reaches the screen through the reducer, and the log here.
            for case let .storeFailed(text, _) in actions { log.write(text) }
            let now = clock.now()
            if animating, now - lastTick >= AppRuntime.tickInterval {
                lastTick = now
                actions.append(.tick)
            }
            if let shown = shownMessage, shown.message.expires, now - shown.since >= StatusMessage.lifetime {
                actions.append(.messageExpired(shown.message))
            }
            pollForChanges()
            guard !actions.isEmpty || needsDraw else { continue }
            let before = state
            for action in actions {
                perform(reducer.reduce(&state, action))
                if !running { return }
            }
            if state != before {
                requestPictures()
                needsDraw = true
            }
            if state.message != shownMessage?.message {
                shownMessage = state.message.map { ($0, clock.now()) }
            }
            if needsDraw { draw() }
        }
    }

    private func finish() {
        albums.shutdown()
        retry.stop()  // a write still waiting gets one more try
        if let view = viewToSave {
            viewToSave = nil
            // No screen is left to show a failure on: the log keeps it.
            storeQueue.async { [store, log] in
                do { try store.saveMapView(view) } catch { log.write("Could not save the map view: \(error)") }
            }
        }
        storeQueue.sync {}  // let pending writes finish before the process ends
        terminal.shutdown()
        // What the user did and could not be saved is said where they look now, the shell.
        for text in retry.unsaved {
            log.write(text)
            StandardStream.error.write("vtourist: \(text)\n")
        }
    }

    private func draw() {
        var current: MapRaster?
        if !state.isTooSmall {
            let viewport = state.viewport
            if let cached = raster, cached.viewport == viewport {
                current = cached.raster
            } else {
                let fresh = rasterize(geometry, viewport: viewport)
                raster = (viewport, fresh)
                current = fresh
            }
            if state.map != nil, labels?.viewport != viewport {
                labels = places.labels(viewport)
            }
        }
        terminal.draw(AppView.render(state, raster: current, labels: labels, pictures: pictures))
        terminal.showInline(inlinePicture.flatMap { $0.key == inlineKey ? $0 : nil })
        needsDraw = false
    }

    /// Asks the worker for the pictures the screen wants and has not got; forgets those it will
    /// not want soon.
    private func requestPictures() {
        requestInline()
        let wanted = state.wantedPictures
        guard wanted != lastWanted else { return }
        lastWanted = wanted
        keepsPicture = state.picturesToKeep(wanted: wanted)
        pictures.prune(keeping: keepsPicture)
        pictureWorker.want(wanted.filter { pictures[$0] == nil })
    }

    /// Encodes the photo screen's photo for the terminal's inline image protocol, off the UI thread,
    /// when the terminal speaks one; the cells stay underneath as the fallback.
    private func requestInline() {
        guard let imageProtocol = terminal.capabilities.inlineImages, let spot = state.inlinePictureSpot else {
            inlineKey = nil
            return
        }
        let cell = terminal.cellPixelSize ?? (10, 20)
        let key = "\(spot.photoID)@\(spot.area.x),\(spot.area.y),\(spot.area.width)x\(spot.area.height)/\(cell.width)x\(cell.height)"
        guard key != inlineKey else { return }
        inlineKey = key
        if inlinePicture?.key == key { return }
        inlineQueue.async { [store, mailbox] in
            guard let bytes = try? store.imageBytes(photoID: spot.photoID),
                  let picture = PicturePainter.inline(bytes, protocol: imageProtocol, cell: cell, key: key, in: spot.area)
            else { return }
            mailbox.post(.inlineReady(picture))
        }
    }

    // MARK: - What the runtime reads of the app state (kept in one place)

    private static func initialState(_ start: RuntimeStart, terminal: any AppTerminal, reducer: AppReducer) -> AppState {
        let size = terminal.size
        let mapHeight = max(1, size.height - 1)
        var camera = start.view.map(MapCamera.init) ?? MapCamera.firstStart(width: size.width, height: mapHeight)
        camera.clampCenter(height: mapHeight)
        var state = AppState(camera: camera, width: size.width, height: size.height,
                             capabilities: terminal.capabilities)
        state.pins = start.pins
        state.settings = start.settings
        state.settingOverrides = start.overrides
        reducer.updateCursorPlace(&state)
        if let problem = start.problem {
            state.message = StatusMessage(problem, kind: .error)
        } else if start.pins.isEmpty {
            state.message = StatusMessage(MapKeys.firstStartHint(unicode: terminal.capabilities.unicode), untilKey: true)
        }
        return state
    }

    /// The pin whose album screen is open.
    private var openAlbum: Pin.ID? { state.openAlbum?.pinID }

    // MARK: - Messages from elsewhere

    /// What a message means for the loop; the actions it brings for the reducer.
    private func receive(_ message: RuntimeMessage) -> [AppAction] {
        switch message {
        case let .action(action, readBeforeWrite):
            return readBeforeWrite >= writes ? [action] : []
        case let .albumChanged(pin):
            if pin == openAlbum { loadOpenAlbum() }
        case .albumLoadFinished:
            isLoadingAlbum = false
            if albumLoadAgain { loadOpenAlbum() }
        case let .pictureRendered(key, picture):
            pictureWorker.taken(key)
            // Kept only while still wanted: a picture for an album left meanwhile is dropped.
            if keepsPicture(key) {
                pictures[key] = picture
                needsDraw = true
            }
        case let .pageNotOpened(url, reason):
            // The address is what the user needs: on the clipboard where the terminal takes it, on screen always.
            let copied = terminal.copyToClipboard(url)
            let text = "Page: \(url) \u{00B7} no browser (\(reason))" + (copied ? "; copied to the clipboard" : "")
            return [.message(StatusMessage(text, untilKey: true))]
        case let .inlineReady(picture):
            if picture.key == inlineKey {
                inlinePicture = picture
                needsDraw = true
            }
        case .mapViewSaved:
            isSavingView = false
            saveMapView()
        case let .pollFinished(outcome):
            isPolling = false
            switch outcome {
            case .unchanged:
                pollFailure = nil
            case let .changed(version, pins, settings, readBeforeWrite):
                pollFailure = nil
                seenVersion = version
                // The open album may have been changed by another process too.
                loadOpenAlbum()
                // A pin `vtourist drop` left downloading is taken up now.
                albums.resumeInterrupted()
                guard readBeforeWrite >= writes else { return [] }
                if settings != state.settings, let photoSettings { albums.use(photoSettings(settings)) }
                return [.pinsLoaded(pins), .settingsLoaded(settings)]
            case let .failed(error):
                guard error != pollFailure else { return [] }
                pollFailure = error
                return [.storeFailed("Could not check the database for changes: \(error)")]
            }
        }
        return []
    }

    // MARK: - Effects

    private func perform(_ effects: [AppEffect]) {
        for effect in effects {
            switch effect {
            case .quit:
                running = false
            case let .saveMapView(view):
                viewToSave = view
                saveMapView()
            case let .insertPin(point, name):
                write { [albums] (store) throws(StoreError) in
                    let pin = try store.insertPin(at: point, name: name)
                    albums.start(pin)  // prefetch while the user keeps navigating
                    return .pinSaved(pin)
                }
            case let .openAlbum(pin):
                albums.resume(pin)
                loadAlbum(pin)
            case let .album(pin, action):
                // Through the store queue, so it follows the store write issued with it (a moved pin's photos
                // are deleted before its new search can save anything).
                storeQueue.async { [albums] in albums.send(action, to: pin) }
            case let .movePin(id, to, name):
                write { (store) throws(StoreError) in
                    if let pin = try store.movePin(id: id, to: to, name: name) { return .pinSaved(pin) }
                    return .pinRemoved(id)
                }
            case let .deletePin(id):
                write { (store) throws(StoreError) in
                    _ = try store.deletePin(id: id)
                    return .pinRemoved(id)
                }
            case let .openPage(url):
                openerQueue.async { [openPage, mailbox] in
                    switch openPage(url) {
                    case .success: mailbox.post(.message(StatusMessage("Opened the photo's page.")))
                    case let .failure(failure):
                        mailbox.post(.pageNotOpened(url: url, reason: "\(failure)"))
                    }
                }
            case let .savePhoto(id, title):
                savePhoto(id, title: title)
            case let .saveSetting(key, text):
                write { [albums, photoSettings] (store) throws(StoreError) in
                    try store.saveSetting(key, text)
                    // The others as the store has them: another process may have changed them meanwhile.
                    let settings = try store.settings()
                    if let photoSettings { albums.use(photoSettings(settings)) }
                    return .settingsLoaded(settings)
                }
            case .testFlickrKey:
                guard let key = photoSettings?(state.settings).flickrAPIKey else {
                    mailbox.post(.message(StatusMessage(
                        "No Flickr key to test: paste one in the \(SettingKey.flickrAPIKey.label) field. Wikimedia Commons needs none.", kind: .error)))
                    break
                }
                albums.testFlickrKey(key) { [mailbox] text, worked in
                    mailbox.post(.message(StatusMessage(text, kind: worked ? .info : .error)))
                }
            }
        }
    }

    /// Reads a photo's stored image on the store queue and writes it to a file in the pictures folder.
    private func savePhoto(_ id: PhotoRecord.ID, title: String) {
        storeQueue.async { [store, mailbox, picturesFolder] in
            let bytes: Data
            do {
                guard let stored = try store.imageBytes(photoID: id) else {
                    return mailbox.post(.message(StatusMessage("The photo is not stored yet.")))
                }
                bytes = stored
            } catch {
                return mailbox.post(.storeFailed("Could not read the photo: \(error)"))
            }
            do {
                let saved = try PhotoFile.save(bytes, title: title, pictures: picturesFolder)
                mailbox.post(.message(StatusMessage(saved.message)))
            } catch {
                mailbox.post(.message(StatusMessage("Could not save the photo: \(error)", kind: .error)))
            }
        }
    }

    /// Runs a store write off the UI thread and posts its outcome back. A write that fails for a
    /// passing reason waits and is tried again (`WriteRetry`); the status line says so meanwhile.
    private func write(_ body: @escaping @Sendable (AppDatabase) throws(StoreError) -> AppAction) {
        writes += 1
        storeQueue.async { [store, mailbox, retry] in
            do throws(StoreError) {
                let (action, waited) = try retry.attempt({ () throws(StoreError) in try body(store) },
                                                         waiting: AppRuntime.sayWaiting(mailbox))
                mailbox.post(action)
                if waited { AppRuntime.sayWritable(mailbox) }
            } catch {
                mailbox.post(.storeFailed("Could not save: \(error)"))
                if error.isTransient { retry.gaveUp("not saved: \(error)") }
                // Show what the store has; if it cannot be read either, the failure above is on screen.
                if let pins = try? store.pins() { mailbox.post(.pinsLoaded(pins)) }
            }
        }
    }

    /// Writes the newest map view once the previous write is done.
    private func saveMapView() {
        guard !isSavingView, let view = viewToSave else { return }
        viewToSave = nil
        isSavingView = true
        storeQueue.async { [store, mailbox, retry] in
            do {
                let (_, waited) = try retry.attempt({ () throws(StoreError) in try store.saveMapView(view) },
                                                    waiting: AppRuntime.sayWaiting(mailbox))
                if waited { AppRuntime.sayWritable(mailbox) }
            } catch {
                mailbox.post(.storeFailed("Could not save the map view: \(error)"))
            }
            mailbox.post(.mapViewSaved)
        }
    }

    /// Puts a write kept waiting by a passing failure on the status line.
    private static func sayWaiting(_ mailbox: Mailbox) -> (StoreError) -> Void {
        { error in mailbox.post(.storeFailed("Not saved yet: " + (error.waitingDescription ?? "\(error)"))) }
    }

    /// Takes the waiting write's message off the status line once it has landed.
    private static func sayWritable(_ mailbox: Mailbox) {
        mailbox.post(.message(StatusMessage("Saved: the database takes writes again.")))
    }

    /// Reads the open album again (once the read under way, if any, is done).
    private func loadOpenAlbum() {
        guard let pin = openAlbum else { return }
        loadAlbum(pin)
    }

    private func loadAlbum(_ pin: Pin.ID) {
        guard !isLoadingAlbum else {
            albumLoadAgain = true
            return
        }
        isLoadingAlbum = true
        albumLoadAgain = false
        // On the store queue, after the writes issued before it.
        storeQueue.async { [store, mailbox] in
            do {
                if let snapshot = try AppRuntime.snapshot(pin, store: store) {
                    mailbox.post(.albumLoaded(snapshot))
                }
            } catch {
                mailbox.post(.storeFailed("Could not load the album: \(error)", pin: pin))
            }
            mailbox.post(.albumLoadFinished)
        }
    }

    /// Picks up what another process (`vtourist drop`, a second window) wrote.
    private func pollForChanges() {
        let now = clock.now()
        // A process that stopped renewing its leases (crashed) writes nothing: its albums are looked for anyway.
        if now - lastAdoption >= AlbumLease.heartbeat {
            lastAdoption = now
            albums.resumeInterrupted()
        }
        guard !isPolling, now - lastPoll >= AppRuntime.pollInterval else { return }
        lastPoll = now
        isPolling = true
        let issued = writes, seen = seenVersion
        storeQueue.async { [store, mailbox] in
            do throws(StoreError) {
                let version = try store.dataVersion()
                guard version != seen else { return mailbox.post(.pollFinished(.unchanged)) }
                let pins = try store.pins()
                let settings = try store.settings()
                mailbox.post(.pollFinished(.changed(version: version, pins: pins, settings: settings,
                                                    readBeforeWrite: issued)))
            } catch {
                mailbox.post(.pollFinished(.failed(error)))
            }
        }
    }
}
