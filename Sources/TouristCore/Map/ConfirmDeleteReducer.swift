import Terminal

/// The delete-pin dialog over the map.
struct ConfirmDeleteReducer: Sendable {
    func key(_ key: Key, pin id: Pin.ID, _ state: inout AppState) -> [AppEffect] {
        switch ConfirmKeys.table.command(for: key) {
        case .delete:
            state.setMapMode(.browsing)
            state.pins.removeAll { $0.id == id }
            return [.deletePin(id), .album(id, .pinDeleted)]
        case .keep:
            state.setMapMode(.browsing)
        case nil:
            break
        }
        return []
    }
}
