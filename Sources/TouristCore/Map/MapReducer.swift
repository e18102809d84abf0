import AlbumMachine
import Terminal
import Geo
import Model

/// The map screen: browsing, moving a pin, and the mouse. The delete dialog
/// and the go-to prompt have reducers of their own.
struct MapReducer: Sendable {
    var places: PlaceLookup

    /// Seconds the mouse button is held to drop a pin.
    static let holdToDrop = 0.5

    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        guard let screen = state.map else { return [] }
        switch screen.mode {
        case .browsing:
            guard let command = MapKeys.browsing.command(for: key) else { return [] }
            return browse(command, &state)
        case let .dragging(id, from):
            guard let command = MapKeys.dragging.command(for: key) else { return [] }
            return drag(command, pin: id, from: from, &state)
        case let .confirmMove(id, from, to):
            return confirmMove(key, pin: id, from: from, to: to, &state)
        case let .confirmDelete(id):
            return ConfirmDeleteReducer().key(key, pin: id, &state)
        case let .goTo(prompt):
            return GoToReducer(places: places).key(key, prompt, &state)
        case let .rename(prompt):
            switch prompt.key(key) {
            case let .editing(next): state.setMapMode(.rename(next))
            case .cancel: state.setMapMode(.browsing)
            case let .save(id, name):
                state.setMapMode(.browsing)
                return state.renamePin(id, to: name)
            }
            return []
        }
    }

    /// Moves the view; false for commands that do something else.
    private func navigate(_ command: MapCommand, _ state: inout AppState) -> Bool {
        let w = state.width, h = state.mapHeight
        switch command {
        case let .moveCursor(dx, dy): state.camera.moveCursor(dx: dx, dy: dy, width: w, height: h)
        case let .pan(dx, dy): state.camera.pan(dx: dx * (w / 2), dy: dy * (h / 2), width: w, height: h)
        case let .zoom(steps): zoom(steps, &state)
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

    private func browse(_ command: MapCommand, _ state: inout AppState) -> [AppEffect] {
        if navigate(command, &state) { return [] }
        switch command {
        case .quit:
            return [.quit]
        case .dropPin:
            return dropPin(&state)
        case .openAlbum:
            if let pin = state.pinUnderCursor {
                return openAlbum(pin, &state)
            }
            if let drop = state.pendingDropUnderCursor {
                state.pendingDrops[drop].openWhenSaved = true  // opened when the store answers
                return []
            }
            state.message = StatusMessage("No pin here. Press \(MapKeys.browsing.keyName(for: .dropPin)) to drop one.")
        case .pickUp:
            guard let pin = state.pinUnderCursor else {
                state.message = StatusMessage("No pin here to move.")
                return []
            }
            guard state.settings.allowDrag else {
                state.message = StatusMessage("Moving pins is turned off in the settings.")
                return []
            }
            state.setMapMode(.dragging(pin: pin.id, from: pin.coordinate))
            state.camera.jump(to: pin.coordinate, width: state.width, height: state.mapHeight)
            let keys = MapKeys.dragging.hints().map { "\($0.key) \($0.label)" }.joined(separator: ", ")
            state.message = StatusMessage("Moving \(pin.displayName): \(keys).")
        case .rename:
            guard let pin = state.pinUnderCursor else {
                state.message = StatusMessage("No pin here to rename.")
                return []
            }
            state.setMapMode(.rename(RenamePrompt(pin: pin)))
        case .deletePin:
            guard let pin = state.pinUnderCursor else {
                state.message = StatusMessage("No pin here to delete.")
                return []
            }
            if state.settings.confirmDelete {
                state.setMapMode(.confirmDelete(pin: pin.id))
            } else {
                return state.deletePin(pin.id)
            }
        case .nextPin:
            cyclePins(forward: true, &state)
        case .previousPin:
            cyclePins(forward: false, &state)
        case .goTo:
            // Reading the destinations takes longer than reaching for the first letter.
            places.prepare()
            state.setMapMode(.goTo(GoToPrompt()))
        case .settings:
            state.go(to: .settings)
            return []
        case .pinsList:
            state.openPinsList()
            return []
        case .help:
            state.overlay = .help
        case .moveCursor, .pan, .zoom, .dropMovedPin, .putBack, .refuseQuit:
            break
        }
        return []
    }

    private func drag(_ command: MapCommand, pin id: Pin.ID, from: GeoPoint, _ state: inout AppState) -> [AppEffect] {
        if navigate(command, &state) { return [] }
        switch command {
        case .dropMovedPin:
            return dropMovedPin(id, from: from, &state)
        case .putBack:
            putBack(from: from, &state)
        case .refuseQuit:
            let drop = MapKeys.dragging.keyName(for: .dropMovedPin), back = MapKeys.dragging.keyName(for: .putBack)
            state.message = StatusMessage("Drop the pin (\(drop)) or put it back (\(back)) first.")
        default:
            break
        }
        return []
    }

    /// Drops the pin being moved at the cursor. The move fetches a new album for the new place: a pin
    /// with photos is asked about first while confirm-delete is on, as New Collection is.
    private func dropMovedPin(_ id: Pin.ID, from: GeoPoint, _ state: inout AppState) -> [AppEffect] {
        let target = state.camera.cursor
        // Dropped on the cell it came from, it is where it was: nothing to move.
        guard state.viewport.cell(for: target) != state.viewport.cell(for: from), let pin = state.pin(id) else {
            state.setMapMode(.browsing)
            return []
        }
        if state.settings.confirmDelete, pin.photoCount > 0 {
            state.setMapMode(.confirmMove(pin: id, from: from, to: target))
            return []
        }
        return state.movePin(id, to: target, name: places.pinName(target))
    }

    private func putBack(from: GeoPoint, _ state: inout AppState) {
        state.setMapMode(.browsing)
        state.camera.jump(to: from, width: state.width, height: state.mapHeight)
        state.message = StatusMessage("Pin put back.")
    }

    /// A key while the move of a pin with photos is asked about: yes moves it, no puts it back.
    private func confirmMove(_ key: Key, pin id: Pin.ID, from: GeoPoint, to: GeoPoint, _ state: inout AppState) -> [AppEffect] {
        // Enter has just dropped the pin: a second press (or a key repeat) is no answer to the question.
        if key == .enter { return [] }
        switch ConfirmKeys.table.command(for: key) {
        case .delete: return state.movePin(id, to: to, name: places.pinName(to))
        case .keep: putBack(from: from, &state)
        case nil: break
        }
        return []
    }

    /// The store saved a pin: if it is one moved here, the message line says so now that it is stored.
    // MARK: - Mouse

    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState) -> [AppEffect] {
        guard let screen = state.map else { return [] }
        guard mouse.y < state.mapHeight, mouse.x >= 0, mouse.y >= 0, mouse.x < state.width else { return [] }
        switch screen.mode {
        case .browsing, .dragging:
            break
        case .confirmMove, .confirmDelete, .goTo, .rename:
            return []
        }
        switch mouse.kind {
        case .wheelUp, .wheelDown:
            moveCursor(toCol: mouse.x, row: mouse.y, &state)
            zoom(mouse.kind == .wheelUp ? 1 : -1, &state)
        case .press:
            moveCursor(toCol: mouse.x, row: mouse.y, &state)
            let pin = screen.mode == .browsing ? state.pinUnderCursor?.id : nil
            state.updateMap { $0.mousePress = MousePress(x: mouse.x, y: mouse.y, time: time, pin: pin) }
        case .release, .click:
            let press = screen.mousePress
            state.updateMap { $0.mousePress = nil }
            moveCursor(toCol: mouse.x, row: mouse.y, &state)
            // A pin dragged with the mouse, or picked up with the key, is dropped where the button comes up.
            if case let .dragging(id, from) = screen.mode { return dropMovedPin(id, from: from, &state) }
            if let press, press.x == mouse.x, press.y == mouse.y, time - press.time >= MapReducer.holdToDrop {
                return dropPin(&state)
            }
            if let pin = state.pinUnderCursor {
                return openAlbum(pin, &state)
            }
        case .drag:
            // Dragging off the pin the button went down on picks it up, as the key does.
            if screen.mode == .browsing, let id = screen.mousePress?.pin, let pin = state.pin(id),
               mouse.x != screen.mousePress?.x || mouse.y != screen.mousePress?.y {
                guard state.settings.allowDrag else {
                    state.updateMap { $0.mousePress = nil }
                    state.message = StatusMessage("Moving pins is turned off in the settings.")
                    return []
                }
                state.setMapMode(.dragging(pin: pin.id, from: pin.coordinate))
            }
            moveCursor(toCol: mouse.x, row: mouse.y, &state)
        }
        return []
    }

    private func moveCursor(toCol col: Int, row: Int, _ state: inout AppState) {
        let cell = state.cursorCell
        state.camera.moveCursor(dx: col - cell.col, dy: row - cell.row, width: state.width, height: state.mapHeight)
    }

    // MARK: - Pins

    private func openAlbum(_ pin: Pin, _ state: inout AppState) -> [AppEffect] {
        state.go(to: .album(of: pin.id))
        return [.openAlbum(pin.id)]
    }

    /// Drops a pin at the cursor, unless one is already drawn there: a second pin under the same
    /// glyph could not be told apart (zooming in makes room beside it).
    private func dropPin(_ state: inout AppState) -> [AppEffect] {
        if state.pinUnderCursor != nil || state.pendingDropUnderCursor != nil {
            let enter = MapKeys.browsing.keyName(for: .openAlbum)
            state.message = StatusMessage("A pin is already here: \(enter) opens its album.")
            return []
        }
        let at = state.camera.cursor
        // Right where the go-to prompt left it on a destination, the pin is the destination's.
        let destination = state.wentToDestination.flatMap { state.viewport.cell(for: $0.coordinate) == state.cursorCell ? $0.name : nil }
        let name = destination ?? places.pinName(at)
        let ack = Acknowledgment.pinDropped(name ?? at.formatted())
        state.message = StatusMessage(ack.onItsWay)
        state.pendingDrops.append(PendingDrop(coordinate: at, ack: ack))
        return [.insertPin(at, name: name)]
    }

    /// The store saved a pin: if it is one dropped here, it is no longer on its way and is said
    /// dropped, and its album opens if Enter was pressed on it meanwhile (and the map is still browsing).
    /// A drop Enter asked to open is saved: its album opens, unless the map is busy with something else.
    func dropSaved(_ drop: PendingDrop, pin: Pin, _ state: inout AppState) -> [AppEffect] {
        guard drop.openWhenSaved, state.overlay == nil, state.map?.mode == .browsing else { return [] }
        return openAlbum(pin, &state)
    }

    private func cyclePins(forward: Bool, _ state: inout AppState) {
        let ordered = state.pins.sorted { $0.id < $1.id }
        guard !ordered.isEmpty else {
            state.message = StatusMessage("No pins yet. Press \(MapKeys.browsing.keyName(for: .dropPin)) to drop one.")
            return
        }
        let current = state.pinUnderCursor?.id
        let next: Pin
        if let current, let i = ordered.firstIndex(where: { $0.id == current }) {
            next = ordered[(i + (forward ? 1 : ordered.count - 1)) % ordered.count]
        } else {
            next = forward ? ordered[0] : ordered[ordered.count - 1]
        }
        state.camera.jump(to: next.coordinate, width: state.width, height: state.mapHeight)
        state.message = StatusMessage(next.displayName)
    }
}

extension AppState {
    /// The drop on its way to the store whose glyph would be under the cursor.
    var pendingDropUnderCursor: Int? {
        guard !pendingDrops.isEmpty else { return nil }
        let provisional = pendingDrops.enumerated().map { Pin(id: -1 - Int64($0.offset), coordinate: $0.element.coordinate, name: nil) }
        let cell = cursorCell
        guard let marker = PinLayout(pins: provisional, viewport: viewport).marker(atCol: cell.col, row: cell.row),
              let id = marker.pins.first else { return nil }
        return Int(-1 - id)
    }

    /// Moves a pin: shown at its new place at once (the store's answer replaces it), its album told to
    /// fetch anew; the message line says so once the store has the move (`AppState.moveSaved`).
    mutating func movePin(_ id: Pin.ID, to target: GeoPoint, name: String?) -> [AppEffect] {
        setMapMode(.browsing)
        if let i = pins.firstIndex(where: { $0.id == id }) {
            message = StatusMessage(Acknowledgment.pinMoved(pins[i].displayName).onItsWay)
            pins[i].coordinate = target
        }
        pendingMoves.append(PendingMove(pin: id, coordinate: target))
        return [.movePin(id, to: target, name: name), .album(id, .pinMoved(target))]
    }

    /// Deletes a pin: off the map at once, so nothing acts on it, but said deleted only once the store
    /// has deleted it (`pinRemoved`); a failed write brings it back. Its album is told.
    mutating func deletePin(_ id: Pin.ID) -> [AppEffect] {
        setMapMode(.browsing)
        if let pin = pin(id) {
            let ack = Acknowledgment.pinDeleted(pin.displayName)
            message = StatusMessage(ack.onItsWay)
            pendingDeletions[id] = ack
        }
        pins.removeAll { $0.id == id }
        return [.deletePin(id), .album(id, .pinDeleted)]
    }
}
