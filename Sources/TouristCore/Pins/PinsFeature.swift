import Model
import Terminal

/// The pins list as a feature: every pin in rows, filtered as you type, sorted, opened, shown on the map,
/// deleted. A plugged screen; its albums come back to it (`Destination.albumReturning`).
struct PinsFeature: ScreenFeature, TakesMouse, TakesPaste, FollowsPins, FollowsResize {
    var list: PinsList

    init(list: PinsList) {
        self.list = list
    }

    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { PinsKeys.table.helpRows(unicode: unicode) }

    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        PinsReducer().key(key, self, &state)
    }

    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        PinsReducer().mouse(mouse, time: time, self, &state)
    }

    func paste(_ text: String, _ state: inout AppState, _ context: ReduceContext) {
        PinsReducer().paste(text, self, &state)
    }

    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer) {
        PinsView.render(list.current(state), state: state, theme: context.theme, layout: context.layout, into: &buffer)
    }

    /// The rows follow the pins: a pin dropped elsewhere appears, one deleted gives the selection to its neighbour.
    func pinsChanged(_ state: inout AppState) {
        var next = self
        next.list = list.current(state)
        // A question or a name about a pin deleted elsewhere is let go of.
        switch next.list.mode {
        case let .confirmDelete(id) where state.pin(id) == nil:
            next.list.mode = .browsing
        case let .rename(prompt) where state.pin(prompt.pinID) == nil:
            next.list.mode = .browsing
            state.message = StatusMessage("The pin being renamed was deleted elsewhere.", kind: .error)
        default:
            break
        }
        next.list.keepSelectionVisible(rows: PinsView.visibleRows(state.layout))
        state.screen = .plugged(PluggedScreen(next))
    }

    func resized(_ state: inout AppState) {
        var next = self
        next.list.keepSelectionVisible(rows: PinsView.visibleRows(state.layout))
        state.screen = .plugged(PluggedScreen(next))
    }
}

extension PinsList {
    /// The list brought up to date with the state's pins (for a view drawn before a hook could refresh it).
    func current(_ state: AppState) -> PinsList {
        var list = self
        list.refresh(pins: state.pins, centre: state.mapCentre)
        return list
    }
}

extension AppState {
    /// `P` on the map: the pins list, the newest first.
    mutating func openPinsList() {
        var list = PinsList(pins: pins, centre: mapCentre)
        list.keepSelectionVisible(rows: PinsView.visibleRows(layout))
        go(to: .plugged(PluggedScreen(PinsFeature(list: list))))
    }

    /// The pins list's state, when it is shown.
    public var pinsList: PinsList? {
        guard case let .plugged(plugged) = screen, let feature = plugged.feature as? PinsFeature else { return nil }
        return feature.list
    }
}
