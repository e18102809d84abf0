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
        let first = min(max(0, screen.selected - rows + 1), max(0, SettingsScreen.fields.count - rows))
        for (i, field) in SettingsScreen.fields.enumerated() where i >= first {
            let y = main.y + 2 + i - first
            guard y < main.bottom - 1 else { break }
            let selected = i == screen.selected
            let row = Rect(x: main.x, y: y, width: main.width, height: 1)
            let style = selected ? theme.selection : theme.dialog
            if selected { buffer.clear(row, style: style) }
            buffer.put(fitting: " " + field.title, x: row.x, y: y, style: style, width: labelWidth)
            let valueArea = Rect(x: row.x + labelWidth + 1, y: y, width: max(0, row.width - labelWidth - 2), height: 1)
            if selected, let text = screen.editing, state.settingOverrides[field] == nil {
                // A key being typed is masked like a stored one.
                let masked = field == .flickrAPIKey ? (text.isEmpty ? "" : Settings.shown(.flickrAPIKey, text.text)) : nil
                buffer.render(TextFieldView(field: text, style: style, masked: masked), in: valueArea)
                continue
            }
            buffer.put(fitting: state.shownSetting(field), x: valueArea.x, y: y, style: style, width: valueArea.width)
        }
        let about = Rect(x: main.x + 1, y: main.y + 3 + SettingsScreen.fields.count, width: max(0, main.width - 2),
                         height: max(0, main.bottom - 1 - (main.y + 3 + SettingsScreen.fields.count)))
        // Wrapped to the area's width and cut (with `…`) to its height: every line fits.
        for (i, line) in explanation(screen.field, state: state).wrapped(to: max(1, about.width), limit: about.height)
            .enumerated() {
            buffer.put(line, x: about.x, y: about.y + i, style: theme.dim, maxWidth: about.width)
        }
        buffer.render(KeyHints(hints: SettingsKeys.table.hints(unicode: state.capabilities.unicode), theme: theme),
                      in: layout.status)
        if let message = state.message {
            buffer.render(MessageLine(message: message, theme: theme), in: layout.message)
        }
    }

    /// What the selected setting is for.
    static func explanation(_ field: SettingKey, state: AppState) -> [String] {
        switch field {
        case .flickrAPIKey:
            var lines = ["Photos come from Flickr with a key; without one, from Wikimedia Commons, which needs none.",
                         "Get a key (free, for non-commercial use) at https://www.flickr.com/services/apps/create/ and paste it here; \(SettingsKeys.table.keyName(for: .testKey)) tests it with one search."]
            if state.settings.flickrAPIKey == nil, state.settingOverrides[.flickrAPIKey] == nil {
                lines.insert("No Flickr key is set.", at: 0)
            }
            return lines
        case .source: return ["\(SettingsKeys.table.keyName(for: .change)) steps through automatic (Flickr with a key, else Wikimedia Commons), Flickr and Wikimedia Commons. The next search uses it."]
        case .areaHalfWidth: return ["How far from the pin photos are searched for, in degrees either way (\(Settings.areaHalfWidthRange.lowerBound) to \(Settings.areaHalfWidthRange.upperBound))."]
        case .photosPerCollection: return ["How many photos an album fetches at a time (\(Settings.photosPerCollectionRange.lowerBound) to \(Settings.photosPerCollectionRange.upperBound))."]
        case .confirmDelete: return ["Ask before deleting a pin, before moving a pin with photos (the move fetches a new album), before New Collection and before deleting marked photos."]
        case .allowDrag: return ["Allow picking up a pin with \(MapKeys.browsing.keyName(for: .pickUp)) and moving it, or dragging it with the mouse."]
        case .largeCacheMB: return ["Megabytes of large photos kept for the photo view (\(Settings.largeCacheMBRange.lowerBound) to \(Settings.largeCacheMBRange.upperBound)); the least recently viewed go first. 0 keeps none: each is fetched again when shown."]
        case .slideshowSeconds: return ["How long a slideshow shows each photo, in seconds (\(Settings.slideshowSecondsRange.lowerBound) to \(Settings.slideshowSecondsRange.upperBound))."]
        case .caBundle: return ["A PEM file of certificate authorities to trust besides the system's, for a proxy or mirror that signs with its own. Used from the next start; empty removes it."]
        case .contact: return ["An e-mail or web address sent with every request, as Wikimedia asks of programs that use its API, so it can reach you about a problem. Used from the next start; empty removes it."]
        }
    }
}
