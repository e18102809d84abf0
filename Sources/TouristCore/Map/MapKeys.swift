import Terminal

/// What a key does on the map.
public enum MapCommand: Equatable, Sendable {
    case moveCursor(dx: Int, dy: Int)
    /// By half a screen each way.
    case pan(dx: Int, dy: Int)
    case zoom(Int)
    case dropPin
    case openAlbum
    case pickUp
    case deletePin
    case nextPin
    case previousPin
    case goTo
    case rename
    case settings
    /// The pins list.
    case pinsList
    case help
    case quit
    // While a pin is picked up.
    case dropMovedPin
    case putBack
    case refuseQuit
}

/// The map's keys (SPEC 3).
public enum MapKeys {
    /// Moving the cursor, panning and zooming: the same while browsing and while moving a pin.
    static let navigation: [KeyBinding<MapCommand>] = [
        KeyBinding([
            [KeyEntry(.left, .moveCursor(dx: -1, dy: 0)), KeyEntry(.right, .moveCursor(dx: 1, dy: 0)),
             KeyEntry(.up, .moveCursor(dx: 0, dy: -1)), KeyEntry(.down, .moveCursor(dx: 0, dy: 1))],
            [KeyEntry(.char("h"), .moveCursor(dx: -1, dy: 0)), KeyEntry(.char("j"), .moveCursor(dx: 0, dy: 1)),
             KeyEntry(.char("k"), .moveCursor(dx: 0, dy: -1)), KeyEntry(.char("l"), .moveCursor(dx: 1, dy: 0))],
        ], help: "move the cursor"),
        KeyBinding([
            [KeyEntry(.char("H"), .pan(dx: -1, dy: 0)), KeyEntry(.char("J"), .pan(dx: 0, dy: 1)),
             KeyEntry(.char("K"), .pan(dx: 0, dy: -1)), KeyEntry(.char("L"), .pan(dx: 1, dy: 0))],
            [KeyEntry(.shiftLeft, .pan(dx: -1, dy: 0)), KeyEntry(.shiftRight, .pan(dx: 1, dy: 0)),
             KeyEntry(.shiftUp, .pan(dx: 0, dy: -1)), KeyEntry(.shiftDown, .pan(dx: 0, dy: 1))],
        ], help: "pan half a screen"),
        KeyBinding([[KeyEntry(.char("+"), .zoom(1)), KeyEntry(.char("="), .zoom(1))], [KeyEntry(.char("-"), .zoom(-1))]],
                   separator: "  /  ", help: "zoom in / out"),
    ]

    /// Browsing the map.
    public static let browsing = KeyTable<MapCommand>(navigation + [
        KeyBinding([[.char("p")], [.char(" ")]], .dropPin, help: "drop a pin at the cursor"),
        KeyBinding([[.enter]], .openAlbum, help: "open the pin's album"),
        KeyBinding([[.char("m")]], .pickUp, help: "pick up or drag a pin; dropped, it gets a new album"),
        KeyBinding([[.char("x")], [.delete]], .deletePin, help: "delete the pin under the cursor"),
        KeyBinding([[KeyEntry(.tab, .nextPin)], [KeyEntry(.backTab, .previousPin)]], help: "next / previous pin"),
        KeyBinding([[.char("g")], [.char("/")]], .goTo, help: "go to a place or LAT, LON"),
        // One row for both, so the help with its legend still fits 80x24.
        KeyBinding([[KeyEntry(.char("R"), .rename)], [KeyEntry(.char("P"), .pinsList)]], separator: "  /  ",
                   help: "rename the pin under the cursor / list every pin"),
        KeyBinding([[.char("s")]], .settings, help: "settings (Flickr key, photo source, search area…)"),
        KeyBinding([[.char("?")]], .help, help: "this help", hint: "help"),
        KeyBinding([[.char("q")]], .quit, help: "quit"),
    ], notes: [HelpRow("mouse", "click moves, hold drops a pin, wheel zooms")])

    /// The first start's hint (no pins yet): how to find a place and drop a pin, keys from the table.
    public static func firstStartHint(unicode: Bool = true) -> String {
        let dot = unicode ? " \u{00B7} " : " - "
        return ["\(browsing.keyName(for: .goTo, unicode: unicode)): go to a place",
                "\(browsing.keyName(for: .dropPin, unicode: unicode)): drop a pin",
                "\(browsing.keyName(for: .help, unicode: unicode)) help"].joined(separator: dot)
    }

    /// While a pin is picked up: it follows the cursor. The hints make the message shown on picking it up.
    public static let dragging = KeyTable<MapCommand>([navigation[0].hinted("move it")] + navigation.dropFirst() + [
        KeyBinding([[.enter], [.char("m")], [.char("p")], [.char(" ")]], .dropMovedPin, help: "drop the pin here (its album is fetched anew)",
                   hint: "drops it", hintKeys: 2),
        KeyBinding([[.escape]], .putBack, help: "put the pin back", hint: "puts it back"),
        KeyBinding([[.char("q")]], .refuseQuit, help: "quit, once the pin is dropped or put back"),
    ])
}
