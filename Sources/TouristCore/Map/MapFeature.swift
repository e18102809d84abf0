import Model
import Terminal

/// The map screen as a feature.
struct MapFeature: ScreenFeature, HasHelpLegend, TakesMouse, TakesPaste, FollowsPins, OpensSavedDrops {
    /// Help lists the browsing keys, whatever the map is in the middle of.
    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { MapKeys.browsing.helpRows(unicode: unicode) }

    func helpLegend(_ state: AppState, theme: Theme) -> [LegendRow] {
        MapLegend.rows(theme: theme, capabilities: state.capabilities)
    }

    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        MapReducer(places: context.places).key(key, &state)
    }

    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        MapReducer(places: context.places).mouse(mouse, time: time, &state)
    }

    /// Only the go-to and rename prompts take a paste.
    func paste(_ text: String, _ state: inout AppState, _ context: ReduceContext) {
        switch state.map?.mode {
        case let .goTo(prompt):
            state.message = nil
            GoToReducer(places: context.places).paste(text, prompt, &state)
        case let .rename(prompt):
            state.message = nil
            state.setMapMode(.rename(prompt.paste(text)))
        default:
            break
        }
    }

    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer) {
        guard let map = state.map else { return }
        MapView.render(map, state: state, raster: context.raster, labels: context.labels, theme: context.theme,
                       layout: context.layout, into: &buffer)
    }

    /// A pin being moved or asked about that was deleted elsewhere (another process, a failed write) ends that.
    func pinsChanged(_ state: inout AppState) {
        switch state.map?.mode {
        case let .dragging(id, _) where state.pin(id) == nil, let .confirmMove(id, _, _) where state.pin(id) == nil:
            state.setMapMode(.browsing)
            state.message = StatusMessage("The pin being moved was deleted elsewhere.", kind: .error)
        case let .confirmDelete(id) where state.pin(id) == nil:
            state.setMapMode(.browsing)
        case let .rename(prompt) where state.pin(prompt.pinID) == nil:
            state.setMapMode(.browsing)
            state.message = StatusMessage("The pin being renamed was deleted elsewhere.", kind: .error)
        default:
            break
        }
    }

    func dropSaved(_ drop: PendingDrop, pin: Pin, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        MapReducer(places: context.places).dropSaved(drop, pin: pin, &state)
    }
}
