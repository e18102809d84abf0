import Terminal
import Geo
import Model

/// The app's reducer: a thin router. Keys and mouse reports go to the overlay
/// if one is shown, else to the active screen's reducer; what concerns every
/// screen (resize, a terminal too small, the store's answers) is handled here.
public struct AppReducer: Sendable {
    public var places: PlaceLookup

    public init(places: PlaceLookup) {
        self.places = places
    }

    var map: MapReducer { MapReducer(places: places) }
    var album: AlbumScreenReducer { AlbumScreenReducer() }
    var photo: PhotoReducer { PhotoReducer() }
    var help: HelpReducer { HelpReducer() }

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
            forgetDeletedPins(&state)
        case let .pinSaved(pin):
            if let i = state.pins.firstIndex(where: { $0.id == pin.id }) {
                state.pins[i] = pin
            } else {
                state.pins.append(pin)
            }
            effects = map.dropSaved(pin, &state)
        case let .pinRemoved(id):
            state.pins.removeAll { $0.id == id }
        case let .storeFailed(message, pin):
            state.message = StatusMessage(message, kind: .error)
            // The open album keeps it in its header only when it was that album's.
            state.updateAlbum { album in if album.pinID == pin { album.storeProblem = message } }
        case let .albumLoaded(snapshot):
            album.loaded(snapshot, &state)
            photo.loaded(&state)
        case let .albumNotice(pinID, text):
            if state.openAlbum?.pinID == pinID { state.message = StatusMessage(text) }
        case let .message(message):
            state.message = message
        case let .settingsLoaded(settings):
            state.settings = settings
        case .tick:
            if state.isAnimating { state.animationFrame &+= 1 }
        case let .messageExpired(message):
            if state.message == message { state.message = nil }
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
            album.keepSelectionVisible(&state)
            return []
        case let .key(key):
            state.forgetResizes()
            if state.isTooSmall {
                return TooSmallKeys.table.command(for: key) == .quit ? [.quit] : []
            }
            // A key that acts clears the message it leaves; an unbound key does nothing at all.
            let before = state
            let effects = routeKey(key, &state)
            if state != before || !effects.isEmpty, state.message == before.message { state.message = nil }
            return effects
        case let .paste(text):
            // Only a text field takes a paste, as one edit; elsewhere it does nothing.
            state.forgetResizes()
            if state.isTooSmall || state.overlay != nil { return [] }
            if let feature = state.screen.feature {
                feature.paste(text, &state)
                return []
            }
            if case let .map(screen) = state.screen, case let .goTo(prompt) = screen.mode {
                state.message = nil
                GoToReducer(places: places).paste(text, prompt, &state)
            }
            return []
        case let .mouse(mouse):
            state.forgetResizes()
            if state.isTooSmall || state.overlay != nil { return [] }
            if let feature = state.screen.feature { return feature.mouse(mouse, time: time, &state) }
            switch state.screen {
            case .map: return map.mouse(mouse, time: time, &state)
            default: return album.mouse(mouse, time: time, &state)
            }
        }
    }

    private func routeKey(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        if let overlay = state.overlay {
            switch overlay {
            case .help: return help.key(key, &state)
            }
        }
        if let feature = state.screen.feature { return feature.key(key, &state) }
        switch state.screen {
        case .map: return map.key(key, &state)
        default: return album.key(key, &state)
        }
    }

    /// Pins deleted elsewhere (another process, a failed write) leave no screen pointing at them.
    private func forgetDeletedPins(_ state: inout AppState) {
        switch state.screen {
        case let .map(screen):
            switch screen.mode {
            case let .dragging(id, _) where state.pin(id) == nil:
                state.setMapMode(.browsing)
                state.message = StatusMessage("The pin being moved was deleted elsewhere.", kind: .error)
            case let .confirmDelete(id) where state.pin(id) == nil:
                state.setMapMode(.browsing)
            default:
                break
            }
        case .settings, .plugged:
            break
        case .album, .photo:
            if let album = state.openAlbum, state.pin(album.pinID) == nil {
                state.screen = .map(MapScreen())
                state.message = StatusMessage("That pin was deleted elsewhere.", kind: .error)
            }
        }
    }

    public func updateCursorPlace(_ state: inout AppState) {
        state.cursorPlace = places.nearest(state.camera.cursor).map { NearPlace(name: $0.name, distanceKm: $0.distanceKm) }
    }
}

extension PlaceLookup {
    /// A pin dropped farther than this from any known place gets no name.
    public static let namingRadiusKm = 100.0

    /// The name a pin at this point gets: the nearest known place, if one is near enough.
    public func pinName(_ point: GeoPoint) -> String? {
        guard let near = nearest(point), near.distanceKm <= PlaceLookup.namingRadiusKm else { return nil }
        return near.name
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
        guard case var .map(map) = screen else { return }
        change(&map)
        screen = .map(map)
    }

    mutating func setMapMode(_ mode: MapMode) {
        updateMap { $0.mode = mode }
    }

    /// Changes the open album's state, shown or under the photo shown; nothing on the map.
    /// The user acts: the view the last resizes fitted (map and album grid) becomes the user's.
    mutating func forgetResizes() {
        cameraBeforeResize = nil
        updateAlbum { $0.topRowBeforeResize = nil }
    }

    mutating func updateAlbum(_ change: (inout AlbumScreen) -> Void) {
        switch screen {
        case var .album(album):
            change(&album)
            screen = .album(album)
        case var .photo(photo):
            change(&photo.album)
            // The album's selection follows the photo shown, wherever a reload put it.
            if let index = photo.index { photo.album.selected = index }
            screen = .photo(photo)
        case .map, .settings, .plugged:
            break
        }
    }
}
