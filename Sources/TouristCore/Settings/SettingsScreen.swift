import Model
import Terminal

/// The settings screen's own state: which setting is selected and the text being typed into it.
public struct SettingsScreen: Equatable, Sendable {
    /// The longest text a field takes (a pasted page of text is cut there, with a message).
    public static let maxText = 256

    public var selected = 0
    /// The field being typed into, for the selected setting; nil when not editing.
    public var editing: TextField?

    public init(selected: Int = 0, editing: TextField? = nil) {
        self.selected = selected
        self.editing = editing
    }

    /// The selected setting, among the rows the catalog shows (its `screenOrder`, SPEC 2.3).
    public func field(in catalog: SettingCatalog) -> SettingKey {
        let fields = catalog.screenOrder
        return fields[max(0, min(selected, fields.count - 1))]
    }

    /// A text field for a setting's value, starting from `text`.
    public static func textField(_ text: String) -> TextField { TextField(text, maxLength: maxText) }
}

extension Settings {
    /// The settings with one setting's value taken from text, or why the text is not one. A blank
    /// key or source removes it (the source is then chosen by whether there is a key).
    public func changing(_ key: SettingKey, to text: String) -> Result<Settings, SettingProblem> {
        var texts: [SettingKey: String] = [:]
        for (stored, value) in storedTexts { texts[stored] = value }
        let row = catalog[key]
        if row.blankRemoves, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            texts[key] = nil
        } else {
            guard let normal = row.normalize(text) else { return .failure(SettingProblem(row.reason(text))) }
            texts[key] = normal
        }
        return .success(Settings(stored: texts, catalog: catalog))
    }
}

/// Why a typed value was refused.
public struct SettingProblem: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
