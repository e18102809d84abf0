import Terminal

/// The help overlay: any key closes it, leaving the screen underneath as it was.
struct HelpReducer: Sendable {
    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        state.overlay = nil
        return []
    }
}
