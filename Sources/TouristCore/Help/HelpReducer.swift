import Terminal

/// The help overlay: where it is taller than the screen allows, ↑/↓, PgUp/PgDn and Home/End
/// scroll it; any other key (any key at all when it fits) closes it, leaving the screen
/// underneath as it was. One reducer for every screen's help.
struct HelpReducer: Sendable {
    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        let layout = HelpOverlay(for: state).layout(in: state.layout.main)
        let top = HelpOverlay.clamped(state.helpTop, layout)
        if layout.scrolls, let target = HelpReducer.scrolled(top, by: key, page: layout.visible) {
            state.helpTop = HelpOverlay.clamped(target, layout)
            return []
        }
        state.overlay = nil
        state.helpTop = 0
        return []
    }

    /// Where a scrolling key moves the first line shown; nil for a key that does not scroll.
    static func scrolled(_ top: Int, by key: Key, page: Int) -> Int? {
        switch key {
        case .up: top - 1
        case .down: top + 1
        // A page keeps one line of the last in view.
        case .pageUp: top - max(1, page - 1)
        case .pageDown: top + max(1, page - 1)
        case .home: 0
        case .end: Int.max / 2
        default: nil
        }
    }
}
