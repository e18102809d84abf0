import Terminal

/// What a key does while the terminal is too small for any screen.
public enum TooSmallCommand: Equatable, Sendable {
    case quit
}

/// The one key a terminal too small for any screen still takes; its notice names it from here.
public enum TooSmallKeys {
    public static let table = KeyTable<TooSmallCommand>([
        KeyBinding([[.char("q")]], .quit, help: "quit"),
    ])
}
