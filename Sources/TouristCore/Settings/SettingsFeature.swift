import Terminal

/// The settings screen as a feature.
struct SettingsFeature: ScreenFeature, TakesPaste {
    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { SettingsKeys.table.helpRows(unicode: unicode) }

    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        SettingsReducer().key(key, &state)
    }

    /// Only a value being typed takes a paste.
    func paste(_ text: String, _ state: inout AppState, _ context: ReduceContext) {
        guard state.settingsScreen?.editing != nil else { return }
        state.message = nil
        SettingsReducer().paste(text, &state)
    }

    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer) {
        guard let screen = state.settingsScreen else { return }
        SettingsView.render(screen, state: state, theme: context.theme, layout: context.layout, into: &buffer)
    }
}
