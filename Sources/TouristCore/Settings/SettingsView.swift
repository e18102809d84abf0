import Model
import Terminal

/// The settings screen: one row a setting (its name and value, the one selected highlighted, the
/// text being typed with a cursor), where an environment variable decides instead, what the
/// selected setting is for, the message line and the keys.
enum SettingsView {
    static let labelWidth = 24

    static func render(_ screen: SettingsScreen, state: AppState, theme: Theme, layout: ScreenLayout,
                       into buffer: inout CellBuffer) {
        buffer.clear(layout.main, style: theme.dialog)
        buffer.clear(layout.status, style: theme.dialog)
        let main = layout.main
        let used = buffer.put(fitting: " Settings", x: main.x, y: main.y, style: theme.dialogTitle, width: main.width)
        buffer.put(fitting: "  saved as you change them", x: main.x + used, y: main.y, style: theme.dim, width: main.width - used)
        // On a short terminal the rows scroll: the selected setting is always shown.
        let rows = max(0, main.bottom - 1 - (main.y + 2))
        let catalog = state.settings.catalog
        let fields = catalog.screenOrder
        let first = min(max(0, screen.selected - rows + 1), max(0, fields.count - rows))
        for (i, field) in fields.enumerated() where i >= first {
            let y = main.y + 2 + i - first
            guard y < main.bottom - 1 else { break }
            let selected = i == screen.selected
            let row = Rect(x: main.x, y: y, width: main.width, height: 1)
            let style = selected ? theme.selection : theme.dialog
            if selected { buffer.clear(row, style: style) }
            buffer.put(fitting: " " + catalog[field].title, x: row.x, y: y, style: style, width: labelWidth)
            let valueArea = Rect(x: row.x + labelWidth + 1, y: y, width: max(0, row.width - labelWidth - 2), height: 1)
            if selected, let text = screen.editing, state.settingOverrides[field] == nil {
                // A key being typed is masked like a stored one.
                let masked = catalog[field].isSecret ? (text.isEmpty ? "" : Settings.shown(text.text, secret: true)) : nil
                buffer.render(TextFieldView(field: text, style: style, masked: masked), in: valueArea)
                continue
            }
            buffer.put(fitting: state.shownSetting(field), x: valueArea.x, y: y, style: style, width: valueArea.width)
        }
        let about = Rect(x: main.x + 1, y: main.y + 3 + fields.count, width: max(0, main.width - 2),
                         height: max(0, main.bottom - 1 - (main.y + 3 + fields.count)))
        // Wrapped to the area's width and cut (with `…`) to its height: every line fits.
        for (i, line) in explanation(screen.field(in: catalog), state: state).wrapped(to: max(1, about.width), limit: about.height)
            .enumerated() {
            buffer.put(line, x: about.x, y: about.y + i, style: theme.dim, maxWidth: about.width)
        }
        buffer.render(KeyHints(hints: SettingsKeys.table.hints(unicode: state.capabilities.unicode), theme: theme),
                      in: layout.status)
        if let message = state.message {
            buffer.render(MessageLine(message: message, theme: theme), in: layout.message)
        }
    }

    /// What the selected setting is for: its row's explanation, with the keys named as the key tables say them.
    static func explanation(_ field: SettingKey, state: AppState) -> [String] {
        let keys = SettingsKeyNames(change: SettingsKeys.table.keyName(for: .change),
                                    testKey: SettingsKeys.table.keyName(for: .testKey),
                                    pickUp: MapKeys.browsing.keyName(for: .pickUp))
        return state.settings.catalog[field].explanation(state.settings, state.settingOverrides[field] != nil, keys)
    }
}
