import Terminal

/// What a key does on the pins list.
public enum PinsCommand: Equatable, Sendable {
    /// A row up (-1) or down (+1).
    case move(Int)
    /// A screen of rows up (-1) or down (+1).
    case page(Int)
    case first
    case last
    /// The filter field takes the keyboard.
    case focusFilter
    /// The selected pin's album.
    case open
    /// The selected pin on the map, standing alone.
    case showOnMap
    case delete
    /// The rename prompt over the selected pin.
    case rename
    case cycleSort
    /// Back to the map.
    case close
    case help
}

/// What a key does while the filter field has the keyboard; any other character is typed.
public enum PinsFilterCommand: Equatable, Sendable {
    /// The selected match's album (the first, until the selection is moved).
    case open
    /// The filter cleared, and the field left.
    case clear
    /// The selection moves while typing (as fzf's).
    case move(Int)
    case page(Int)
    case edit(TextEdit)
}

/// The pins list's keys (SPEC 3, "Pins list"); its help and hint row are written from them.
public enum PinsKeys {
    public static let table = KeyTable<PinsCommand>([
        KeyBinding([[KeyEntry(.up, .move(-1)), KeyEntry(.down, .move(1))]], help: "move the selection"),
        KeyBinding([[KeyEntry(.pageUp, .page(-1))], [KeyEntry(.pageDown, .page(1))]], help: "a screen of rows up / down"),
        KeyBinding([[.home]], .first, help: "first pin"),
        KeyBinding([[.end]], .last, help: "last pin"),
        KeyBinding([[.char("/")]], .focusFilter, help: "filter by name or nearest place as you type", hint: "filter",
                   hintOrder: 1),
        KeyBinding([[.enter]], .open, help: "open the pin's album", hint: "album", hintOrder: 2),
        KeyBinding([[.char("g")]], .showOnMap, help: "show the pin on the map", hint: "map", hintOrder: 3),
        KeyBinding([[.char("x")], [.delete]], .delete, help: "delete the pin and its album", hint: "delete", hintOrder: 4),
        KeyBinding([[.char("e")]], .rename, help: "rename the pin (an empty name: its place's name again)", hint: "rename",
                   hintOrder: 5),
        KeyBinding([[.tab]], .cycleSort, help: "the next order: newest, name, photos, nearest the map's centre",
                   hint: "sort", hintOrder: 6),
        KeyBinding([[.escape], [.char("q")]], .close, help: "back to the map", hint: "close", hintOrder: 7),
        KeyBinding([[.char("?")]], .help, help: "this help", hint: "help", hintOrder: 8),
    ], notes: [HelpRow("typing", "in the filter: \(filtering.keyName(for: .open)) opens the first match, "
                       + "\(filtering.keyName(for: .clear)) clears it and leaves")]
        + TextFieldKeys.helpNotes.map { HelpRow("", $0) }
        + [HelpRow("mouse", "click selects, double-click opens, wheel scrolls")])

    /// The keys while the filter field has the keyboard: the text field's, Enter, Esc and the moves.
    public static let filtering = KeyTable<PinsFilterCommand>([
        KeyBinding([[.enter]], .open, help: "open the selected match's album (the first, as you type)"),
        KeyBinding([[.escape]], .clear, help: "clear the filter and leave the field"),
        KeyBinding([[KeyEntry(.up, .move(-1)), KeyEntry(.down, .move(1))]], help: "move the selection"),
        KeyBinding([[KeyEntry(.pageUp, .page(-1))], [KeyEntry(.pageDown, .page(1))]], help: "a screen of rows up / down"),
    ] + TextFieldKeys.bindings(PinsFilterCommand.edit))
}
