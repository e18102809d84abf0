import Foundation
import Geo
import Model
import Terminal
import WorldMap

/// The pins list: moving the selection, the filter field, the order, opening an album, showing a pin
/// on the map, deleting one (asked first with the confirm-delete setting), the mouse, and back to the map.
struct PinsReducer: Sendable {
    /// A double click is two clicks on the same row within this many seconds.
    static let doubleClick = 0.4

    func key(_ key: Key, _ feature: PinsFeature, _ state: inout AppState) -> [AppEffect] {
        var list = feature.list.current(state)
        switch list.mode {
        case let .confirmDelete(id):
            return confirm(key, pin: id, &list, &state)
        case let .rename(prompt):
            return rename(key, prompt, &list, &state)
        case .browsing:
            break
        }
        if list.typing { return type(key, &list, &state) }
        guard let command = PinsKeys.table.command(for: key) else { return [] }
        return run(command, &list, &state)
    }

    /// What a key (or a click on a row) does while the rows have the keyboard.
    func run(_ command: PinsCommand, _ list: inout PinsList, _ state: inout AppState) -> [AppEffect] {
        let visible = PinsView.visibleRows(state.layout)
        switch command {
        case let .move(step):
            list.select(row: list.selected + step)
        case let .page(direction):
            list.topRow = max(0, list.topRow + visible * direction)
            list.select(row: list.selected + visible * direction)
        case .first:
            list.select(row: 0)
        case .last:
            list.select(row: list.count - 1)
        case .focusFilter:
            list.typing = true
        case .open:
            return open(list.selectedPin, &list, &state)
        case .showOnMap:
            guard let pin = list.selectedPin else {
                state.message = StatusMessage(PinsView.emptyMessage(list, state: state))
                break
            }
            state.showAlone(pin)
            return []
        case .delete:
            guard let pin = list.selectedPin else {
                state.message = StatusMessage("No pin to delete.")
                break
            }
            if state.settings.confirmDelete {
                list.mode = .confirmDelete(pin.id)
            } else {
                return delete(pin.id, &list, &state)
            }
        case .rename:
            guard let pin = list.selectedPin else {
                state.message = StatusMessage("No pin to rename.")
                break
            }
            list.mode = .rename(RenamePrompt(pin: pin))
        case .cycleSort:
            list.sort = list.sort.next
            list.refresh(pins: state.pins, centre: state.mapCentre)
            // The order changes under the selection: it stays on its pin, a screen's worth from the top.
            list.topRow = max(0, list.selected - visible / 2)
        case .close:
            state.go(to: .map)
            return []
        case .help:
            state.overlay = .help
        }
        list.keepSelectionVisible(rows: visible)
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        return []
    }

    /// A key while the filter field has the keyboard: the rows narrow as the text changes.
    private func type(_ key: Key, _ list: inout PinsList, _ state: inout AppState) -> [AppEffect] {
        let visible = PinsView.visibleRows(state.layout)
        let before = list.filter.text
        switch PinsKeys.filtering.command(for: key) {
        case .open:
            return open(list.selectedPin, &list, &state)
        case .clear:
            list.filter.replace(with: "")
            list.typing = false
        case let .move(step):
            list.select(row: list.selected + step)
        case let .page(direction):
            list.topRow = max(0, list.topRow + visible * direction)
            list.select(row: list.selected + visible * direction)
        case let .edit(edit):
            _ = list.filter.apply(edit)
        case nil:
            guard case .char = key else { return [] }
            if list.filter.handle(key) == .cut { state.message = StatusMessage(list.filter.cutMessage, kind: .error) }
        }
        if list.filter.text != before { list.filterChanged(pins: state.pins, centre: state.mapCentre) }
        list.keepSelectionVisible(rows: visible)
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        return []
    }

    /// A key in the rename prompt: Enter saves (the row shows the name at once, the store follows), Esc cancels.
    private func rename(_ key: Key, _ prompt: RenamePrompt, _ list: inout PinsList, _ state: inout AppState) -> [AppEffect] {
        var effects: [AppEffect] = []
        switch prompt.key(key) {
        case let .editing(next):
            list.mode = .rename(next)
        case let .save(id, name):
            list.mode = .browsing
            effects = state.renamePin(id, to: name)
            list.refresh(pins: state.pins, centre: state.mapCentre)
            list.keepSelectionVisible(rows: PinsView.visibleRows(state.layout))
        case .cancel:
            list.mode = .browsing
        }
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        return effects
    }

    /// Pasted text: one edit of the rename prompt or of the filter while it has the keyboard; nothing otherwise.
    func paste(_ text: String, _ feature: PinsFeature, _ state: inout AppState) {
        var list = feature.list.current(state)
        if case let .rename(prompt) = list.mode {
            list.mode = .rename(prompt.paste(text))
            state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
            return
        }
        guard list.typing, list.mode == .browsing else { return }
        if list.filter.insert(text) == .cut { state.message = StatusMessage(list.filter.cutMessage, kind: .error) }
        list.filterChanged(pins: state.pins, centre: state.mapCentre)
        list.keepSelectionVisible(rows: PinsView.visibleRows(state.layout))
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
    }

    /// The question before a pin goes: yes deletes it, no keeps it; other keys do nothing.
    private func confirm(_ key: Key, pin id: Pin.ID, _ list: inout PinsList, _ state: inout AppState) -> [AppEffect] {
        guard let answer = ConfirmKeys.table.command(for: key) else { return [] }
        list.mode = .browsing
        if answer == .delete { return delete(id, &list, &state) }
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        return []
    }

    /// The pin gone from the rows at once (the store follows); the selection goes to the row that takes its place.
    private func delete(_ id: Pin.ID, _ list: inout PinsList, _ state: inout AppState) -> [AppEffect] {
        let effects = state.deletePin(id)
        list.refresh(pins: state.pins, centre: state.mapCentre)
        list.keepSelectionVisible(rows: PinsView.visibleRows(state.layout))
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        return effects
    }

    /// The pin's album; leaving it comes back to the list as it is now, its filter kept but no longer
    /// typed into (back from the album, letters are commands again).
    private func open(_ pin: Pin?, _ list: inout PinsList, _ state: inout AppState) -> [AppEffect] {
        guard let pin else {
            state.message = StatusMessage(PinsView.emptyMessage(list, state: state))
            state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
            return []
        }
        list.lastClick = nil
        list.typing = false
        state.go(to: .albumReturning(to: PluggedScreen(PinsFeature(list: list)), pin: pin.id))
        return [.openAlbum(pin.id)]
    }

    /// Mouse on the list: a click on a row selects it, a second click on it soon after opens its album;
    /// the wheel scrolls three rows (the selection stays on screen). Anything else is ignored.
    func mouse(_ mouse: MouseEvent, time: Double, _ feature: PinsFeature, _ state: inout AppState) -> [AppEffect] {
        var list = feature.list.current(state)
        guard list.mode == .browsing else { return [] }
        let body = PinsView.body(state.layout)
        let visible = body.height
        switch mouse.kind {
        case .wheelUp, .wheelDown:
            guard state.layout.main.contains(x: mouse.x, y: mouse.y) else { return [] }
            let step = mouse.kind == .wheelDown ? PinsView.wheelRows : -PinsView.wheelRows
            list.topRow = max(0, min(list.topRow + step, list.count - visible))
            list.select(row: min(max(list.selected, list.topRow), list.topRow + visible - 1))
        case .click, .release:
            guard body.contains(x: mouse.x, y: mouse.y), let pin = list.pin(atRow: list.topRow + mouse.y - body.y) else {
                return []
            }
            let again = list.lastClick.map { $0.pinID == pin.id && time - $0.time <= PinsReducer.doubleClick } ?? false
            list.select(row: list.topRow + mouse.y - body.y)
            list.lastClick = again ? nil : PinsClick(pinID: pin.id, time: time)
            if again { return open(pin, &list, &state) }
        case .press, .drag:
            return []
        }
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        return []
    }
}

extension AppState {
    /// `g` on the pins list: the map centred on the pin, the cursor on it, at the widest zoom where no
    /// other pin is drawn within a cell or two of it (never wider than `PinsView.showZoomFloor`).
    mutating func showAlone(_ pin: Pin) {
        camera.zoom = AppState.aloneZoom(pin, among: pins)
        camera.jump(to: pin.coordinate, width: width, height: mapHeight, recenter: true)
        go(to: .map)
        message = StatusMessage(pin.displayName)
    }

    /// The widest zoom (from `PinsView.showZoomFloor`, capped at the closest) at which no other pin is
    /// within three columns (a cluster slot) and two rows of `pin`.
    static func aloneZoom(_ pin: Pin, among pins: [Pin]) -> Int {
        let p = Mercator.project(pin.coordinate)
        var zoom = PinsView.showZoomFloor
        for other in pins where other.id != pin.id {
            let q = Mercator.project(other.coordinate)
            var dx = abs(q.x - p.x)
            dx = min(dx, 1 - dx)  // the world wraps east to west
            let dy = abs(q.y - p.y)
            // Apart at zoom z when dx ≥ 3 cells or dy ≥ 2 rows: a cell is dotsPerCell / (baseWorldDots · 2^z) wide.
            let columns = Double(PinLayout.slotWidth * Viewport.dotsPerCellX) / Viewport.baseWorldDots
            let rows = Double(2 * Viewport.dotsPerCellY) / Viewport.baseWorldDots
            let needX = dx > 0 ? log2(columns / dx) : .infinity
            let needY = dy > 0 ? log2(rows / dy) : .infinity
            let need = min(needX, needY)
            if need >= Double(Viewport.maxZoom) { return Viewport.maxZoom }
            zoom = max(zoom, Int(need.rounded(.up)))
        }
        return min(zoom, Viewport.maxZoom)
    }
}
