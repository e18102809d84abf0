import Terminal
import Geo
import Model

/// The app's reducer: a thin router. Keys go to the overlay if one is shown,
/// else to the shown screen's feature (`Screen.feature`), as do mouse reports,
/// pastes and the hooks; what concerns every screen (resize, a terminal too
/// small, the store's answers, the camera, the message line) is handled here.
public struct AppReducer: Sendable {
    public var places: PlaceLookup
    /// Today, read for each key (the wall clock; tests give a fixed day).
    public var today: @Sendable () -> CalendarDay

    public init(places: PlaceLookup, today: @escaping @Sendable () -> CalendarDay = { .today() }) {
        self.places = places
        self.today = today
    }

    var help: HelpReducer { HelpReducer() }
    /// What the screens' reducers get besides the state.
    var context: ReduceContext { ReduceContext(places: places, today: today()) }

    public func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        let cameraBefore = state.camera
        let screenBefore = state.screen
        let messageBefore = state.message
        var effects: [AppEffect] = []
        switch action {
        case let .event(event, time):
            effects = route(event, time: time, &state)
        case let .pinsLoaded(pins):
            state.pins = pins
            // Read after every write issued here: each drop on its way is saved (or failed) by now.
            state.pendingDrops = []
            state.pendingMoves = []
            state.pendingDeletions = [:]
            state.pendingRenames = []
            // Pins deleted elsewhere (another process, a failed write) leave no screen pointing at them.
            (state.screen.feature as? any FollowsPins)?.pinsChanged(&state)
        case let .pinSaved(pin):
            if let i = state.pins.firstIndex(where: { $0.id == pin.id }) {
                state.pins[i] = pin
            } else {
                state.pins.append(pin)
            }
            state.moveSaved(pin)
            state.renameSaved(pin)
            if let drop = state.dropSaved(pin), drop.openWhenSaved {
                effects = (state.screen.feature as? any OpensSavedDrops)?.dropSaved(drop, pin: pin, &state, context) ?? []
            }
        case let .pinRemoved(id):
            state.pins.removeAll { $0.id == id }
            if let ack = state.pendingDeletions.removeValue(forKey: id) { state.message = StatusMessage(ack.done) }
        case let .storeFailed(message, pin, background):
            if !background || state.message?.kind != .error { state.message = StatusMessage(message, kind: .error) }
            // The open album keeps it in its header only when it was that album's; what it had on the
            // way there is not said done (the album is read again as stored).
            state.updateAlbum { album in
                guard album.pinID == pin else { return }
                album.storeProblem = message
                album.pendingDeletions = []
                album.pendingFilter = nil
            }
        case let .photosDeleted(pinID, ids):
            var done: String?
            state.updateAlbum { album in
                guard album.pinID == pinID,
                      let i = album.pendingDeletions.firstIndex(where: { Set(ids).isSubset(of: $0.ids) }) else { return }
                done = album.pendingDeletions.remove(at: i).ack.done
            }
            if let done { state.message = StatusMessage(done) }
        case let .filterSaved(pinID, filter):
            var done: String?
            state.updateAlbum { album in
                guard album.pinID == pinID, album.pendingFilter == filter else { return }
                album.pendingFilter = nil
                done = Acknowledgment.filterSaved(filter).done
            }
            if let done { state.message = StatusMessage(done) }
        case let .settingSaved(key):
            if let i = state.pendingSettings.firstIndex(where: { $0.key == key }) {
                state.message = StatusMessage(state.pendingSettings.remove(at: i).ack.done)
            }
        case let .albumLoaded(snapshot):
            (state.screen.feature as? any ShowsAlbum)?.albumLoaded(snapshot, &state)
            // The map's pin counts its photos as the album read just now does: a move asks by that count.
            if let i = state.pins.firstIndex(where: { $0.id == snapshot.pinID }) { state.pins[i].photoCount = snapshot.photos.count }
        case let .photoCount(pinID, count):
            if let i = state.pins.firstIndex(where: { $0.id == pinID }) { state.pins[i].photoCount = count }
        case let .albumNotice(pinID, text):
            if state.openAlbum?.pinID == pinID { state.message = StatusMessage(text) }
        case let .message(message):
            state.message = message
        case let .settingsLoaded(settings):
            state.settings = settings
            // Read after every write issued here: each setting on its way is saved (and said) or failed by now.
            state.pendingSettings = []
        case .tick:
            if state.isAnimating { state.animationFrame &+= 1 }
        case let .messageExpired(message):
            if state.message == message { state.message = nil }
        case let .slideshowStep(time):
            (state.screen.feature as? any PlaysSlideshow)?.slideshowStep(time: time, &state)
        case let .largeImage(id, status):
            (state.screen.feature as? any ShowsLargeImages)?.largeImage(id, status, &state)
        case let .network(report, time):
            state.network = report
            state.networkClock = time
        case let .countdown(time):
            state.networkClock = time
        }
        // A message belongs to the screen it was shown on: it does not follow the user elsewhere.
        if !state.isSameScreen(as: screenBefore), state.message == messageBefore { state.message = nil }
        if state.camera != cameraBefore {
            if state.camera.cursorX != cameraBefore.cursorX || state.camera.cursorY != cameraBefore.cursorY {
                updateCursorPlace(&state)
            }
            effects.append(.saveMapView(state.camera.state))
        }
        return effects
    }

    private func route(_ event: Event, time: Double, _ state: inout AppState) -> [AppEffect] {
        switch event {
        case let .resize(width, height):
            state.width = width
            state.height = height
            let chosen = state.cameraBeforeResize ?? state.camera
            state.cameraBeforeResize = chosen
            state.camera = chosen
            state.camera.clampCenter(height: state.mapHeight)
            state.camera.scrollToCursor(width: state.width, height: state.mapHeight)
            (state.screen.feature as? any FollowsResize)?.resized(&state)
            return []
        case let .key(key):
            state.forgetResizes()
            if state.isTooSmall {
                return TooSmallKeys.table.command(for: key) == .quit ? [.quit] : []
            }
            // A key that acts clears the message it leaves; an unbound key does nothing at all.
            let before = state
            let effects = routeKey(key, time: time, &state)
            if state != before || !effects.isEmpty, state.message == before.message { state.message = nil }
            return effects
        case let .paste(text):
            // Only a text field takes a paste, as one edit; elsewhere it does nothing.
            state.forgetResizes()
            if state.isTooSmall || state.overlay != nil { return [] }
            (state.screen.feature as? any TakesPaste)?.paste(text, &state, context)
            return []
        case let .mouse(mouse):
            state.forgetResizes()
            if state.isTooSmall || state.overlay != nil { return [] }
            return (state.screen.feature as? any TakesMouse)?.mouse(mouse, time: time, &state, context) ?? []
        }
    }

    private func routeKey(_ key: Key, time: Double, _ state: inout AppState) -> [AppEffect] {
        if let overlay = state.overlay {
            switch overlay {
            case .help: return help.key(key, &state)
            }
        }
        return state.screen.feature.key(key, &state, ReduceContext(places: places, time: time, today: today()))
    }

    public func updateCursorPlace(_ state: inout AppState) {
        state.cursorPlace = places.nearest(state.camera.cursor).map { NearPlace(name: $0.name, distanceKm: $0.distanceKm) }
    }
}

extension AppState {
    /// The pin the cursor is on: the nearest pin of the marker under the cursor.
    public var pinUnderCursor: Pin? {
        let layout = PinLayout(pins: pins, viewport: viewport)
        let cell = cursorCell
        guard let marker = layout.marker(atCol: cell.col, row: cell.row) else { return nil }
        let cursor = camera.cursor
        return marker.pins.compactMap(pin).min {
            distanceKm($0.coordinate, cursor) < distanceKm($1.coordinate, cursor)
        }
    }

    /// Changes the map screen's state; nothing when another screen is shown.
    mutating func updateMap(_ change: (inout MapScreen) -> Void) {
        guard var map = self.map else { return }
        change(&map)
        screen = .map(map)
    }

    mutating func setMapMode(_ mode: MapMode) {
        updateMap { $0.mode = mode }
    }

    /// The user acts: the view the last resizes fitted (map and album grid) becomes the user's.
    mutating func forgetResizes() {
        cameraBeforeResize = nil
        updateAlbum { $0.topRowBeforeResize = nil }
    }
}
