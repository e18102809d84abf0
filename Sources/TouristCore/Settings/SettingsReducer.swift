import Foundation
import Model
import Terminal

/// The settings screen: move between the settings, change one (saved at once, in effect at once),
/// test the Flickr key, back to the map.
struct SettingsReducer: Sendable {
    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        guard var screen = state.settingsScreen else { return [] }
        if let field = screen.editing { return edit(key, field: field, &screen, &state) }
        guard let command = SettingsKeys.table.command(for: key) else { return [] }
        var effects: [AppEffect] = []
        switch command {
        case let .move(step):
            screen.selected = max(0, min(state.settings.catalog.screenOrder.count - 1, screen.selected + step))
        case .change:
            let field = screen.field(in: state.settings.catalog)
            let row = state.settings.catalog[field]
            if let variable = state.settingOverrides[field] {
                state.message = StatusMessage("\(row.title) comes from \(variable) in the environment: change it there.",
                                              kind: .error)
                break
            }
            let current = row.write(state.settings)
            switch row.kind {
            case .flag:
                effects = save(field, current == Settings.flagText(true) ? Settings.flagText(false) : Settings.flagText(true), &state)
            case let .choice(names):
                // None (automatic), then each in turn.
                let order: [String?] = [nil] + names
                let next = order[((order.firstIndex(of: current) ?? 0) + 1) % order.count]
                effects = save(field, next ?? "", &state)
            case .text(secret: true):
                screen.editing = SettingsScreen.textField("")  // a key is typed (or pasted) anew, never shown
            case .integer, .decimal, .text(secret: false), .path:
                screen.editing = SettingsScreen.textField(current ?? "")
            }
        case .testKey:
            state.message = StatusMessage("Testing the Flickr key\u{2026}")
            effects = [.testFlickrKey(state.settings)]
        case .back:
            state.go(to: .map)
            return []
        case .help:
            state.overlay = .help
        }
        state.screen = .settings(screen)
        return effects
    }

    /// A key while a value is typed: Enter saves it (or says why not), Esc gives up, the rest edits.
    private func edit(_ key: Key, field: TextField, _ screen: inout SettingsScreen, _ state: inout AppState) -> [AppEffect] {
        var effects: [AppEffect] = []
        switch SettingsKeys.editing.command(for: key) {
        case .cancel:
            screen.editing = nil
        case .save:
            // A refused key is masked in the field: typing on would add to text nobody can see, so it goes.
            let key = screen.field(in: state.settings.catalog)
            let isKey = state.settings.catalog[key].isSecret
            effects = save(key, field.text, &state,
                           refused: isKey ? " The field is cleared: type the key again." : "")
            if !effects.isEmpty {
                screen.editing = nil
            } else if isKey {
                screen.editing = SettingsScreen.textField("")
            }
        case let .edit(edit):
            var field = field
            _ = field.apply(edit)
            screen.editing = field
        case nil:
            guard case .char = key else { break }
            var field = field
            if field.handle(key) == .cut { state.message = StatusMessage(field.cutMessage, kind: .error) }
            screen.editing = field
        }
        state.screen = .settings(screen)
        return effects
    }

    /// Pasted text: one edit at the cursor of the field being typed into; nothing otherwise.
    func paste(_ text: String, _ state: inout AppState) {
        guard var screen = state.settingsScreen, var field = screen.editing else { return }
        if field.insert(text) == .cut { state.message = StatusMessage(field.cutMessage, kind: .error) }
        screen.editing = field
        state.screen = .settings(screen)
    }

    /// Takes a setting from text: in effect at once and said saved once the store has it, or the reason it is refused. Only this
    /// setting is written: the others may have been changed elsewhere meanwhile.
    /// `refused`: what the message adds when the text is refused (what became of the field).
    private func save(_ key: SettingKey, _ text: String, _ state: inout AppState, refused: String = "") -> [AppEffect] {
        switch state.settings.changing(key, to: text) {
        case let .failure(problem):
            state.message = StatusMessage("Not saved: \(problem.message).\(refused)", kind: .error)
            return []
        case let .success(settings):
            state.settings = settings
            let ack = Acknowledgment.settingSaved(label: settings.catalog[key].label, done: state.savedMessage(key))
            state.message = StatusMessage(ack.onItsWay)
            state.pendingSettings.append(PendingSetting(key: key, ack: ack))
            return [.saveSetting(key, settings.storedText(key))]
        }
    }
}

extension AppState {
    /// A setting's value as the settings screen shows it: the environment's say included (a key
    /// from FLICKR_API_KEY makes "automatic" mean Flickr). The row and the message both read it.
    public func shownSetting(_ key: SettingKey) -> String {
        if let variable = settingOverrides[key] { return "set by \(variable)" }
        return settings.shown(key, keyFromEnvironment: settingOverrides[.flickrAPIKey] != nil)
    }

    /// What the message line says once a setting is changed: what its row now shows.
    func savedMessage(_ key: SettingKey) -> String {
        let row = settings.catalog[key]
        if let removed = row.removedMessage, settings.storedText(key) == nil { return removed }
        return "Saved: \(row.label) \(shownSetting(key))."
    }
}
