import Model
import TouristCore

extension AppReducer {
    /// Reduces the store's answers to the writes among `effects`, as the runtime posts them once each
    /// is committed: what lets the screen say a change is done.
    func commit(_ effects: [AppEffect], _ state: inout AppState) {
        for effect in effects {
            let answer: AppAction
            switch effect {
            case let .insertPin(point, name):
                answer = .pinSaved(Pin(id: (state.pins.map(\.id).max() ?? 0) + 1, coordinate: point, name: name))
            case let .movePin(id, to, name):
                guard var pin = state.pin(id) else { continue }
                pin.coordinate = to
                pin.name = name
                answer = .pinSaved(pin)
            case let .deletePin(id):
                answer = .pinRemoved(id)
            case let .renamePin(id, name):
                guard var pin = state.pin(id) else { continue }
                pin.ownName = name
                answer = .pinSaved(pin)
            case let .saveSetting(key, _):
                answer = .settingSaved(key)
            case let .album(pin, .deletePhotos(ids)):
                answer = .photosDeleted(pin, ids)
            case let .album(pin, .setFilter(filter)):
                answer = .filterSaved(pin, filter)
            default:
                continue
            }
            _ = reduce(&state, answer)
        }
    }
}
