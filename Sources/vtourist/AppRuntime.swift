import AlbumMachine
import AlbumService
import Curses
import Dispatch
import Foundation
import HTTP
import Store
import Terminal
import TouristCore
import WorldMap

/// Actions posted from background work to the UI loop.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(action: AppAction, issuedAfterWrite: Int)] = []

    func post(_ action: AppAction, issuedAfterWrite write: Int = .max) {
        lock.lock()
        items.append((action, write))
        lock.unlock()
    }

    func drain() -> [(action: AppAction, issuedAfterWrite: Int)] {
        lock.lock()
        defer { lock.unlock() }
        let out = items
        items.removeAll()
        return out
    }
}

/// The one UI loop (STYLE 3): event → action → reduce → effects → render →
/// flush. Store work runs on a serial queue and posts actions back.
final class AppRuntime {
    private var state: AppState
    private let reducer: AppReducer
    private let terminal: NcursesTerminal
    private let waker: TerminalWaker
    private let store: AppDatabase
    private let geometry: WorldGeometry
    private let storeQueue = DispatchQueue(label: "vtourist.store")
    private let inbox = Inbox()
    private var raster: (viewport: Viewport, raster: MapRaster)?
    private var running = true
    /// Counts writes issued, so a pin list read before a write cannot undo it on screen.
    private var writes = 0
    private var lastPoll = 0.0
    /// The store's data version last seen; touched only on `storeQueue`.
    private let seenVersion: VersionWatch
    /// The newest map view waiting to be written (writes coalesce).
    private let pendingView = PendingValue<MapViewState>()
    /// Searches, downloads and store writes of every album.
    private let albums: AlbumService
    /// The pin whose album screen is open, read by the album service's thread.
    private let openAlbum = PendingValue<Pin.ID>()

    static let pollInterval = 1.0

    init(terminal: NcursesTerminal, store: AppDatabase, geometry: WorldGeometry, places: PlaceLookup,
         pins: [Pin], view: MapViewState?, settings: Settings) {
        self.terminal = terminal
        self.waker = terminal.waker
        self.store = store
        self.geometry = geometry
        self.reducer = AppReducer(places: places)
        let size = terminal.size
        let mapHeight = max(1, size.height - 1)
        var camera = view.map(MapCamera.init) ?? MapCamera.world(width: size.width, height: mapHeight)
        camera.clampCenter(height: mapHeight)
        var state = AppState(camera: camera, width: size.width, height: size.height,
                             capabilities: terminal.capabilities)
        state.pins = pins
        state.settings = settings
        reducer.updateCursorPlace(&state)
        self.state = state
        seenVersion = VersionWatch(try? store.dataVersion())
        let inbox = self.inbox, waker = terminal.waker, storeQueue = self.storeQueue, openAlbum = self.openAlbum
        let settings = photoSettings(store)
        let service = AlbumServiceBox()
        albums = AlbumService(store: store, http: makeHTTPClient(),
                              settings: settings, userAgent: userAgent) { event in
            switch event {
            case let .notice(pin, text):
                inbox.post(.albumNotice(pin, text))
                waker.wake()
            case let .storeFailed(_, text):
                inbox.post(.storeFailed(text))
                waker.wake()
            case let .changed(pin):
                guard openAlbum.peek() == pin, let albums = service.value else { return }
                // Off the album queue: reading the album waits for that queue.
                storeQueue.async { AppRuntime.postSnapshot(pin, store: store, albums: albums, inbox: inbox, waker: waker) }
            }
        }
        service.value = albums
        if !settings.problems.isEmpty {
            self.state.message = StatusMessage(settings.problems.joined(separator: " "), kind: .error)
        }
        albums.resumeInterrupted()
    }

    /// Loads the open album's snapshot and hands it to the UI loop (runs on the store queue).
    static func postSnapshot(_ pin: Pin.ID, store: AppDatabase, albums: AlbumService, inbox: Inbox, waker: TerminalWaker) {
        do {
            guard let snapshot = try snapshot(pin, store: store) else { return }
            inbox.post(.albumLoaded(snapshot))
        } catch {
            inbox.post(.storeFailed("Could not read the album: \(error)"))
        }
        waker.wake()
    }

    /// The album screen's view of a pin's album: what the store holds, status included.
    static func snapshot(_ pin: Pin.ID, store: AppDatabase) throws -> AlbumSnapshot? {
        guard let stored = try store.album(pinID: pin) else { return nil }
        return AlbumSnapshot(pinID: pin, photos: stored.photos, status: stored.status, source: stored.source)
    }

    func run() {
        defer {
            albums.shutdown()
            storeQueue.sync {}  // let pending writes finish before the process ends
            terminal.shutdown()
        }
        draw()
        while running {
            var actions: [AppAction] = []
            if let event = terminal.nextEvent(timeoutMs: 250) {
                actions.append(.event(event, time: now()))
                // Take every event already waiting, then draw once.
                while actions.count < 256, let more = terminal.nextEvent(timeoutMs: 0) {
                    actions.append(.event(more, time: now()))
                }
            }
            for item in inbox.drain() where item.issuedAfterWrite >= writes {
                actions.append(item.action)
            }
            pollForChanges()
            guard !actions.isEmpty else { continue }
            let before = state
            for action in actions {
                perform(reducer.reduce(&state, action))
                if !running { return }
            }
            if state.album == nil { _ = openAlbum.take() }
            if state != before { draw() }
        }
    }

    private func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
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
        }
        terminal.draw(AppView.render(state, raster: current))
    }

    // MARK: - Effects

    private func perform(_ effects: [AppEffect]) {
        for effect in effects {
            switch effect {
            case .quit:
                running = false
            case let .saveMapView(view):
                if pendingView.set(view) {
                    storeQueue.async { [store, inbox, pendingView, waker] in
                        guard let view = pendingView.take() else { return }
                        do { try store.saveMapView(view) } catch {
                            inbox.post(.storeFailed("Could not save the map view: \(error)"))
                            waker.wake()
                        }
                    }
                }
            case let .insertPin(point, name):
                write { [albums] store in
                    let pin = try store.insertPin(at: point, name: name)
                    albums.start(pin)  // prefetch while the user keeps navigating
                    return .pinSaved(pin)
                }
            case let .openAlbum(pin):
                _ = openAlbum.set(pin)
                albums.resume(pin)
                storeQueue.async { [store, inbox, waker, albums] in
                    AppRuntime.postSnapshot(pin, store: store, albums: albums, inbox: inbox, waker: waker)
                }
            case let .album(pin, action):
                // Through the store queue, so it follows the store write issued with it (a moved pin's photos
                // are deleted before its new search can save anything).
                storeQueue.async { [albums] in albums.send(action, to: pin) }
            case let .movePin(id, to, name):
                write { store in
                    if let pin = try store.movePin(id: id, to: to, name: name) { return .pinSaved(pin) }
                    return .pinRemoved(id)
                }
            case let .deletePin(id):
                write { store in
                    _ = try store.deletePin(id: id)
                    return .pinRemoved(id)
                }
            }
        }
    }

    /// Runs a store write off the UI thread and posts its outcome back.
    private func write(_ body: @escaping @Sendable (AppDatabase) throws -> AppAction) {
        writes += 1
        storeQueue.async { [store, inbox, waker] in
            do {
                inbox.post(try body(store))
            } catch {
                inbox.post(.storeFailed("Could not save: \(error)"))
                if let pins = try? store.pins() { inbox.post(.pinsLoaded(pins)) }
            }
            waker.wake()
        }
    }

    /// Picks up what another process (`vtourist drop`, a second window) wrote.
    private func pollForChanges() {
        let t = now()
        guard t - lastPoll >= AppRuntime.pollInterval else { return }
        lastPoll = t
        let issued = writes
        storeQueue.async { [store, inbox, waker, seenVersion, openAlbum, albums] in
            guard let version = try? store.dataVersion(), version != seenVersion.value else { return }
            guard let pins = try? store.pins() else { return }
            seenVersion.value = version
            inbox.post(.pinsLoaded(pins), issuedAfterWrite: issued)
            waker.wake()
            // The open album may have been changed by another process too.
            if let pin = openAlbum.peek() {
                AppRuntime.postSnapshot(pin, store: store, albums: albums, inbox: inbox, waker: waker)
            }
        }
    }
}

/// A value written by one thread and taken by another; `set` says whether a
/// taker must be scheduled (none is pending yet).
final class PendingValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ newValue: Value) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let wasEmpty = value == nil
        value = newValue
        return wasEmpty
    }

    func peek() -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func take() -> Value? {
        lock.lock()
        defer { lock.unlock() }
        let v = value
        value = nil
        return v
    }
}

/// The store's data version, read and written only on the store queue.
final class VersionWatch: @unchecked Sendable {
    var value: Int?
    init(_ value: Int?) { self.value = value }
}

/// Lets the album service's callback reach the service created with it.
final class AlbumServiceBox: @unchecked Sendable {
    private let lock = NSLock()
    private var service: AlbumService?

    var value: AlbumService? {
        get { lock.lock(); defer { lock.unlock() }; return service }
        set { lock.lock(); service = newValue; lock.unlock() }
    }
}
