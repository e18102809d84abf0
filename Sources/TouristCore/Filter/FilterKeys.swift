import Terminal

/// What a key does in the filter editor.
public enum FilterCommand: Equatable, Sendable {
    /// To the row above (-1) or below (+1).
    case move(Int)
    /// Type into the focused field (the sort row steps to the next sort).
    case edit
    /// The next sort.
    case cycleSort
    case save
    /// Back to the album, nothing saved.
    case leave
    case help
}

/// What a key does while a field is typed into; any other character is typed.
public enum FilterEditCommand: Equatable, Sendable {
    /// Keep what was typed.
    case done
    /// Give up what was typed.
    case cancel
    case edit(TextEdit)
}

/// The filter editor's keys; its help and hint line are written from them.
public enum FilterKeys {
    public static let table = KeyTable<FilterCommand>([
        KeyBinding([[KeyEntry(.up, .move(-1)), KeyEntry(.down, .move(1))]], help: "move between the fields"),
        KeyBinding([[.enter]], .edit, help: "edit the field (Enter again ends); on sort, the next one",
                   hint: "edit", hintOrder: 1),
        KeyBinding([[.tab]], .cycleSort, help: "the next sort: interesting, recent, relevant", hint: "sort", hintOrder: 2),
        KeyBinding([[.char("s")]], .save, help: "save and fetch a new collection with the filter", hint: "save",
                   hintOrder: 3),
        KeyBinding([[.escape]], .leave, help: "back to the album, nothing saved", hint: "cancel", hintOrder: 4),
        KeyBinding([[.char("?")]], .help, help: "this help", hint: "help", hintOrder: 8),
    ], notes: [HelpRow("typing", "\(editing.keyName(for: .done)) keeps the text, \(editing.keyName(for: .cancel)) gives it up")]
        + TextFieldKeys.helpNotes.map { HelpRow("", $0) })

    /// The keys while a field is typed into: the text field's, and Enter and Esc.
    public static let editing = KeyTable<FilterEditCommand>([
        KeyBinding([[.enter]], .done, help: "keep the text"),
        KeyBinding([[.escape]], .cancel, help: "give it up"),
    ] + TextFieldKeys.bindings(FilterEditCommand.edit))
}
