import Foundation
import Terminal
import WorldMap
import Gazetteer
import AlbumMachine

/// Something that happened: a key, a mouse report, a resize, or the result
/// of work done elsewhere (the store).
public enum AppAction: Sendable {
    case event(Event, time: Double)
    case pinsLoaded([Pin])
    case pinSaved(Pin)
    case pinRemoved(Pin.ID)
    case settingsLoaded(MapSettings)
    case storeFailed(String)
    /// The open album as the store and the album machine have it now.
    case albumLoaded(AlbumSnapshot)
    /// A message from the album machine about a pin's album.
    case albumNotice(Pin.ID, String)
}

/// Work the runtime does for the reducer; results come back as actions.
public enum AppEffect: Equatable, Sendable {
    case insertPin(GeoPoint, name: String?)
    case movePin(Pin.ID, to: GeoPoint, name: String?)
    case deletePin(Pin.ID)
    case saveMapView(MapViewState)
    /// Load the album (and resume what was interrupted) for the album screen.
    case openAlbum(Pin.ID)
    /// An action for a pin's album machine.
    case album(Pin.ID, AlbumAction)
    case quit
}

/// Place lookups the map needs: a struct of closures with a live value over
/// the bundled gazetteer and values tests control.
public struct PlaceLookup: Sendable {
    public var nearest: @Sendable (GeoPoint) -> (name: String, distanceKm: Double)?
    public var complete: @Sendable (String, Int) -> [PlaceSuggestion]
    public var named: @Sendable (String) -> PlaceSuggestion?

    public init(nearest: @escaping @Sendable (GeoPoint) -> (name: String, distanceKm: Double)?,
                complete: @escaping @Sendable (String, Int) -> [PlaceSuggestion],
                named: @escaping @Sendable (String) -> PlaceSuggestion?) {
        self.nearest = nearest
        self.complete = complete
        self.named = named
    }

    public static func live(_ gazetteer: Gazetteer) -> PlaceLookup {
        @Sendable func suggestion(_ p: Place) -> PlaceSuggestion {
            PlaceSuggestion(name: p.name, displayName: p.displayName, coordinate: p.coordinate, population: p.population)
        }
        return PlaceLookup(
            nearest: { point in
                gazetteer.nearest(to: point).map { (name: $0.place.displayName, distanceKm: $0.distanceKm) }
            },
            complete: { text, limit in gazetteer.complete(text, limit: limit).map(suggestion) },
            named: { text in gazetteer.place(named: text).map(suggestion) }
        )
    }

    /// No places at all.
    public static let none = PlaceLookup(nearest: { _ in nil }, complete: { _, _ in [] }, named: { _ in nil })
}

/// The app's reducer: a pure function from (state, action) to new state and effects.
public struct AppReducer: Sendable {
    public var places: PlaceLookup

    /// A pin dropped farther than this from any known place gets no name.
    public static let namingRadiusKm = 100.0
    /// Zoom the go-to prompt takes the map to, at least.
    public static let goToZoom = 10
    /// Seconds the mouse button is held to drop a pin.
    public static let holdToDrop = 0.5
    /// Completions shown under the go-to prompt.
    public static let suggestionCount = 6

    public init(places: PlaceLookup) {
        self.places = places
    }

    public func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        let cameraBefore = state.camera
        var effects: [AppEffect] = []
        switch action {
        case let .event(event, time):
            effects = handle(event, time: time, &state)
        case let .pinsLoaded(pins):
            state.pins = pins
            if case let .dragging(id, _) = state.mode, state.pin(id) == nil {
                state.mode = .browsing
                state.message = StatusMessage("The pin being moved was deleted elsewhere.", kind: .error)
            }
            if case let .confirmDelete(id) = state.mode, state.pin(id) == nil {
                state.mode = .browsing
            }
            if case let .album(id) = state.screen, state.pin(id) == nil {
                state.screen = .map
                state.album = nil
                state.message = StatusMessage("That pin was deleted elsewhere.", kind: .error)
            }
        case let .pinSaved(pin):
            if let i = state.pins.firstIndex(where: { $0.id == pin.id }) {
                state.pins[i] = pin
            } else {
                state.pins.append(pin)
            }
        case let .pinRemoved(id):
            state.pins.removeAll { $0.id == id }
        case let .settingsLoaded(settings):
            state.settings = settings
        case let .storeFailed(message):
            state.message = StatusMessage(message, kind: .error)
        case let .albumLoaded(snapshot):
            if state.album?.pinID == snapshot.pinID {
                state.album?.apply(snapshot)
                if let album = state.album { keepSelectionVisible(album, &state) }
            }
        case let .albumNotice(pinID, text):
            if state.album?.pinID == pinID { state.message = StatusMessage(text) }
        }
        if state.camera != cameraBefore {
            if state.camera.cursorX != cameraBefore.cursorX || state.camera.cursorY != cameraBefore.cursorY {
                updateCursorPlace(&state)
            }
            effects.append(.saveMapView(state.camera.state))
        }
        return effects
    }

    public func updateCursorPlace(_ state: inout AppState) {
        state.cursorPlace = places.nearest(state.camera.cursor).map { NearPlace(name: $0.name, distanceKm: $0.distanceKm) }
    }

    // MARK: - Events

    private func handle(_ event: Event, time: Double, _ state: inout AppState) -> [AppEffect] {
        switch event {
        case let .resize(width, height):
            state.width = width
            state.height = height
            state.camera.clampCenter(height: state.mapHeight)
            state.camera.scrollToCursor(width: state.width, height: state.mapHeight)
            if let album = state.album { keepSelectionVisible(album, &state) }
            return []
        case let .key(key):
            if state.isTooSmall {
                return key == .char("q") ? [.quit] : []
            }
            state.message = nil
            switch state.screen {
            case .help:
                state.screen = state.album.map { .album($0.pinID) } ?? .map
                return []
            case .map:
                return mapKey(key, &state)
            case .album:
                return albumKey(key, &state)
            }
        case let .mouse(mouse):
            if state.isTooSmall || state.screen != .map { return [] }
            return mapMouse(mouse, time: time, &state)
        }
    }

    private func mapKey(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        switch state.mode {
        case .browsing: return browsingKey(key, &state)
        case let .dragging(id, from): return draggingKey(key, pin: id, from: from, &state)
        case let .confirmDelete(id): return confirmKey(key, pin: id, &state)
        case let .goTo(prompt): return goToKey(key, prompt, &state)
        }
    }

    /// Keys that move the view, shared by browsing and dragging.
    private func navigate(_ key: Key, _ state: inout AppState) -> Bool {
        let w = state.width, h = state.mapHeight
        switch key {
        case .left, .char("h"): state.camera.moveCursor(dx: -1, dy: 0, width: w, height: h)
        case .right, .char("l"): state.camera.moveCursor(dx: 1, dy: 0, width: w, height: h)
        case .up, .char("k"): state.camera.moveCursor(dx: 0, dy: -1, width: w, height: h)
        case .down, .char("j"): state.camera.moveCursor(dx: 0, dy: 1, width: w, height: h)
        case .shiftLeft, .char("H"): state.camera.pan(dx: -w / 2, dy: 0, width: w, height: h)
        case .shiftRight, .char("L"): state.camera.pan(dx: w / 2, dy: 0, width: w, height: h)
        case .shiftUp, .char("K"): state.camera.pan(dx: 0, dy: -h / 2, width: w, height: h)
        case .shiftDown, .char("J"): state.camera.pan(dx: 0, dy: h / 2, width: w, height: h)
        case .char("+"), .char("="): zoom(1, &state)
        case .char("-"): zoom(-1, &state)
        default: return false
        }
        return true
    }

    private func zoom(_ steps: Int, _ state: inout AppState) {
        let before = state.camera.zoom
        state.camera.zoom(by: steps, width: state.width, height: state.mapHeight)
        if state.camera.zoom == before {
            state.message = StatusMessage(steps > 0 ? "Closest zoom reached." : "The whole world is in view.")
        }
    }

    private func browsingKey(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        if navigate(key, &state) { return [] }
        switch key {
        case .char("q"):
            return [.quit]
        case .char("p"), .char(" "):
            return dropPin(&state)
        case .enter:
            if let pin = pinUnderCursor(state) {
                return openAlbum(pin, &state)
            }
            state.message = StatusMessage("No pin here. Press p to drop one.")
        case .char("m"):
            guard let pin = pinUnderCursor(state) else {
                state.message = StatusMessage("No pin here to move.")
                return []
            }
            guard state.settings.allowDrag else {
                state.message = StatusMessage("Moving pins is turned off in the settings.")
                return []
            }
            state.mode = .dragging(pin: pin.id, from: pin.coordinate)
            state.camera.jump(to: pin.coordinate, width: state.width, height: state.mapHeight)
            state.message = StatusMessage("Moving \(label(pin)): arrows move it, Enter or m drops it, Esc puts it back.")
        case .char("x"), .delete:
            guard let pin = pinUnderCursor(state) else {
                state.message = StatusMessage("No pin here to delete.")
                return []
            }
            if state.settings.confirmDelete {
                state.mode = .confirmDelete(pin: pin.id)
            } else {
                return [.deletePin(pin.id), .album(pin.id, .pinDeleted)]
            }
        case .tab:
            cyclePins(forward: true, &state)
        case .backTab:
            cyclePins(forward: false, &state)
        case .char("g"), .char("/"):
            state.mode = .goTo(GoToPrompt())
        case .char("?"):
            state.screen = .help
        case .char("s"):
            state.message = StatusMessage("The settings screen is not available in this version yet.")
        default:
            break
        }
        return []
    }

    private func draggingKey(_ key: Key, pin id: Pin.ID, from: GeoPoint, _ state: inout AppState) -> [AppEffect] {
        if navigate(key, &state) { return [] }
        switch key {
        case .enter, .char("m"), .char("p"), .char(" "):
            state.mode = .browsing
            let target = state.camera.cursor
            if target == from { return [] }
            if let i = state.pins.firstIndex(where: { $0.id == id }) {
                state.pins[i].coordinate = target  // shown at once; the store's answer replaces it
            }
            return [.movePin(id, to: target, name: placeName(target)),
                    .album(id, .pinMoved(PinPlace(latitude: target.latitude, longitude: target.longitude)))]
        case .escape:
            state.mode = .browsing
            state.camera.jump(to: from, width: state.width, height: state.mapHeight)
            state.message = StatusMessage("Pin put back.")
        case .char("q"):
            state.message = StatusMessage("Drop the pin (Enter) or put it back (Esc) first.")
        default:
            break
        }
        return []
    }

    private func confirmKey(_ key: Key, pin id: Pin.ID, _ state: inout AppState) -> [AppEffect] {
        switch key {
        case .char("y"), .char("Y"), .enter:
            state.mode = .browsing
            state.pins.removeAll { $0.id == id }
            return [.deletePin(id), .album(id, .pinDeleted)]
        case .char("n"), .char("N"), .escape, .char("q"):
            state.mode = .browsing
        default:
            break
        }
        return []
    }

    private func goToKey(_ key: Key, _ prompt: GoToPrompt, _ state: inout AppState) -> [AppEffect] {
        var prompt = prompt
        switch key {
        case .escape:
            state.mode = .browsing
            return []
        case .enter:
            return goTo(prompt, &state)
        case .backspace:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
            refreshSuggestions(&prompt)
        case .control("u"):
            prompt.text = ""
            refreshSuggestions(&prompt)
        case .down:
            if !prompt.suggestions.isEmpty {
                prompt.selected = min((prompt.selected ?? -1) + 1, prompt.suggestions.count - 1)
            }
        case .up:
            if let s = prompt.selected { prompt.selected = s > 0 ? s - 1 : nil }
        case .tab:
            if let pick = prompt.selected.map({ prompt.suggestions[$0] }) ?? prompt.suggestions.first {
                prompt.text = pick.name
                refreshSuggestions(&prompt)
                prompt.selected = prompt.suggestions.firstIndex(of: pick)
            }
        case let .char(c):
            guard prompt.text.count < 80 else { break }
            prompt.text.append(c)
            refreshSuggestions(&prompt)
        default:
            break
        }
        state.mode = .goTo(prompt)
        return []
    }

    private func refreshSuggestions(_ prompt: inout GoToPrompt) {
        prompt.error = nil
        prompt.selected = nil
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || parseCoordinates(text) != .notCoordinates {
            prompt.suggestions = []
        } else {
            prompt.suggestions = places.complete(text, AppReducer.suggestionCount)
        }
    }

    private func goTo(_ prompt: GoToPrompt, _ state: inout AppState) -> [AppEffect] {
        var prompt = prompt
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        let target: GeoPoint
        var arrived: String
        switch parseCoordinates(text) {
        case let .coordinate(point):
            target = point
            arrived = String(format: "%.4f, %.4f", point.latitude, point.longitude)
        case let .outOfRange(why):
            prompt.error = why
            state.mode = .goTo(prompt)
            return []
        case .notCoordinates:
            if text.isEmpty {
                prompt.error = "Type a place name or LAT, LON."
                state.mode = .goTo(prompt)
                return []
            }
            guard let place = prompt.selected.map({ prompt.suggestions[$0] }) ?? places.named(text) else {
                prompt.error = "No place called \u{201C}\(text)\u{201D}."
                state.mode = .goTo(prompt)
                return []
            }
            target = place.coordinate
            arrived = place.displayName
        }
        state.mode = .browsing
        if state.camera.zoom < AppReducer.goToZoom {
            state.camera.zoom = AppReducer.goToZoom
        }
        state.camera.jump(to: target, width: state.width, height: state.mapHeight, recenter: true)
        arrived = "Went to \(arrived)."
        state.message = StatusMessage(arrived)
        return []
    }

    private func mapMouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState) -> [AppEffect] {
        guard mouse.y < state.mapHeight, mouse.x >= 0, mouse.y >= 0, mouse.x < state.width else { return [] }
        switch state.mode {
        case .browsing, .dragging:
            break
        case .confirmDelete, .goTo:
            return []
        }
        switch mouse.kind {
        case .wheelUp, .wheelDown:
            moveCursor(toCol: mouse.x, row: mouse.y, &state)
            zoom(mouse.kind == .wheelUp ? 1 : -1, &state)
        case .press:
            moveCursor(toCol: mouse.x, row: mouse.y, &state)
            state.mousePress = MousePress(x: mouse.x, y: mouse.y, time: time)
        case .release, .click:
            let press = state.mousePress
            state.mousePress = nil
            moveCursor(toCol: mouse.x, row: mouse.y, &state)
            guard state.mode == .browsing else { return [] }
            if let press, press.x == mouse.x, press.y == mouse.y, time - press.time >= AppReducer.holdToDrop {
                return dropPin(&state)
            }
            if let pin = pinUnderCursor(state) {
                return openAlbum(pin, &state)
            }
        case .drag:
            moveCursor(toCol: mouse.x, row: mouse.y, &state)
        }
        return []
    }

    private func moveCursor(toCol col: Int, row: Int, _ state: inout AppState) {
        let cell = state.cursorCell
        state.camera.moveCursor(dx: col - cell.col, dy: row - cell.row, width: state.width, height: state.mapHeight)
    }

    // MARK: - Album screen

    private func openAlbum(_ pin: Pin, _ state: inout AppState) -> [AppEffect] {
        state.screen = .album(pin.id)
        state.album = AlbumScreen(pinID: pin.id)
        return [.openAlbum(pin.id)]
    }

    private func albumKey(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        guard var album = state.album else {
            state.screen = .map
            return []
        }
        let grid = AlbumGrid(width: state.width, height: state.height)
        let count = album.photos.count
        var effects: [AppEffect] = []
        switch key {
        case .escape, .backspace, .char("q"):
            state.screen = .map
            state.album = nil
            return []
        case .left, .char("h"): album.selected = max(0, album.selected - 1)
        case .right, .char("l"): album.selected = min(max(0, count - 1), album.selected + 1)
        case .up, .char("k"): if album.selected >= grid.columns { album.selected -= grid.columns }
        case .down, .char("j"): album.selected = min(max(0, count - 1), album.selected + grid.columns)
        case .home: album.selected = 0
        case .end: album.selected = max(0, count - 1)
        case .char(" "):
            if let photo = album.selectedPhoto {
                if album.marked.contains(photo.id) { album.marked.remove(photo.id) } else { album.marked.insert(photo.id) }
                album.selected = min(max(0, count - 1), album.selected + 1)
            }
        case .char("x"), .delete:
            guard let photo = album.selectedPhoto else {
                state.message = StatusMessage("No photo to delete.")
                break
            }
            album.remove([photo.id])
            effects = [.album(album.pinID, .deletePhotos([photo.id]))]
        case .char("X"):
            guard !album.marked.isEmpty else {
                state.message = StatusMessage("Mark photos with space first.")
                break
            }
            let ids = album.photos.map(\.id).filter(album.marked.contains)
            album.remove(album.marked)
            state.message = StatusMessage("Deleted \(ids.count) photo\(ids.count == 1 ? "" : "s").")
            effects = [.album(album.pinID, .deletePhotos(ids))]
        case .char("n"):
            if let snap = album.snapshot, !snap.isNewCollectionEnabled {
                state.message = StatusMessage("Still downloading: New Collection is available once every photo is in.")
            } else {
                effects = [.album(album.pinID, .newCollection)]
            }
        case .char("a"):
            effects = [.album(album.pinID, .addMore)]
        case .char("r"):
            if case .failed? = album.snapshot?.status {
                effects = [.album(album.pinID, .retry(photo: nil))]
            } else if let photo = album.selectedPhoto, photo.state.isFailed {
                effects = [.album(album.pinID, .retry(photo: photo.id))]
            } else if album.photos.contains(where: { $0.state.isFailed }) {
                effects = [.album(album.pinID, .retry(photo: nil))]
            } else {
                state.message = StatusMessage("Nothing to retry.")
            }
        case .char("?"):
            state.screen = .help
        default:
            break
        }
        state.album = album
        keepSelectionVisible(album, &state)
        return effects
    }

    /// Scrolls the grid so the selected photo is on screen.
    private func keepSelectionVisible(_ album: AlbumScreen, _ state: inout AppState) {
        let grid = AlbumGrid(width: state.width, height: state.height)
        let row = album.selected / grid.columns
        var top = album.topRow
        if row < top { top = row }
        if row >= top + grid.visibleRows { top = row - grid.visibleRows + 1 }
        state.album?.topRow = max(0, top)
    }

    // MARK: - Pins

    private func dropPin(_ state: inout AppState) -> [AppEffect] {
        let at = state.camera.cursor
        let name = placeName(at)
        state.message = StatusMessage("Pin dropped at \(name ?? String(format: "%.4f, %.4f", at.latitude, at.longitude)).")
        return [.insertPin(at, name: name)]
    }

    /// The name a pin gets: the nearest known place, if one is near enough.
    public func placeName(_ point: GeoPoint) -> String? {
        guard let near = places.nearest(point), near.distanceKm <= AppReducer.namingRadiusKm else { return nil }
        return near.name
    }

    /// The pin the cursor is on: the nearest pin of the marker under the cursor.
    public func pinUnderCursor(_ state: AppState) -> Pin? {
        let layout = PinLayout(pins: state.pins, viewport: state.viewport)
        let cell = state.cursorCell
        guard let marker = layout.marker(atCol: cell.col, row: cell.row) else { return nil }
        let cursor = state.camera.cursor
        return marker.pins.compactMap(state.pin).min {
            distanceKm($0.coordinate, cursor) < distanceKm($1.coordinate, cursor)
        }
    }

    private func cyclePins(forward: Bool, _ state: inout AppState) {
        let ordered = state.pins.sorted { $0.id < $1.id }
        guard !ordered.isEmpty else {
            state.message = StatusMessage("No pins yet. Press p to drop one.")
            return
        }
        let current = pinUnderCursor(state)?.id
        let next: Pin
        if let current, let i = ordered.firstIndex(where: { $0.id == current }) {
            next = ordered[(i + (forward ? 1 : ordered.count - 1)) % ordered.count]
        } else {
            next = forward ? ordered[0] : ordered[ordered.count - 1]
        }
        state.camera.jump(to: next.coordinate, width: state.width, height: state.mapHeight)
        state.message = StatusMessage(label(next))
    }

    public func label(_ pin: Pin) -> String {
        pin.name ?? String(format: "Pin at %.4f, %.4f", pin.coordinate.latitude, pin.coordinate.longitude)
    }
}
