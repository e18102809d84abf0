import Terminal

/// What a key does on the settings screen.
public enum SettingsCommand: Equatable, Sendable {
    /// To the field above (-1) or below (+1).
    case move(Int)
    /// Edit a text field, toggle an on/off one, step the photo source.
    case change
    /// One search with the Flickr key, to tell whether it works.
    case testKey
    case back
    case help
}

/// The settings screen's keys (SPEC 2.3).
public enum SettingsKeys {
    public static let table = KeyTable<SettingsCommand>([
        KeyBinding([[KeyEntry(.up, .move(-1)), KeyEntry(.down, .move(1))],
                    [KeyEntry(.char("k"), .move(-1)), KeyEntry(.char("j"), .move(1))]],
                   help: "move between the settings"),
        KeyBinding([[.enter]], .change, help: "edit, toggle or change the setting", hint: "change", hintOrder: 1),
        KeyBinding([[.char("t")]], .testKey, help: "test the Flickr key (one search)", hint: "test key", hintOrder: 2),
        KeyBinding([[.escape], [.char("q")]], .back, help: "back to the map", hint: "map", hintOrder: 7),
        KeyBinding([[.char("?")]], .help, help: "this help", hint: "help", hintOrder: 8),
    ], notes: [HelpRow("typing", "\(editing.keyName(for: .save)) saves, \(editing.keyName(for: .cancel)) cancels")] + TextFieldKeys.helpNotes.map { HelpRow("", $0) })

    /// The keys while a value is typed: the text field's, and Enter and Esc.
    public static let editing = KeyTable<SettingsEditCommand>([
        KeyBinding([[.enter]], .save, help: "save the value"),
        KeyBinding([[.escape]], .cancel, help: "give up"),
    ] + TextFieldKeys.bindings(SettingsEditCommand.edit))
}

/// What a key does while a setting's value is typed; any other character is typed.
public enum SettingsEditCommand: Equatable, Sendable {
    case save
    case cancel
    case edit(TextEdit)
}
