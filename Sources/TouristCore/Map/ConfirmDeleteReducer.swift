import Model
import Terminal

/// The delete-pin dialog over the map.
struct ConfirmDeleteReducer: Sendable {
    func key(_ key: Key, pin id: Pin.ID, _ state: inout AppState) -> [AppEffect] {
        switch ConfirmKeys.table.command(for: key) {
        case .delete:
            return state.deletePin(id)
        case .keep:
            state.setMapMode(.browsing)
        case nil:
            break
        }
        return []
    }
}

/// What a key does in the delete-pin dialog.
public enum ConfirmCommand: Equatable, Sendable {
    case delete
    case keep
}

/// The delete dialog's keys; its hint row is written from them.
public enum ConfirmKeys {
    public static let table = KeyTable<ConfirmCommand>([
        KeyBinding([[.char("y"), .char("Y"), .enter]], .delete, help: "delete the pin", hint: "Delete"),
        KeyBinding([[.char("n"), .char("N"), .escape, .char("q")]], .keep, help: "keep it", hint: "Keep"),
    ])
}
