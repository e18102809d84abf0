import Terminal

/// What a key does on the photo screen.
public enum PhotoCommand: Equatable, Sendable {
    case previous
    case next
    case first
    case last
    /// The photo's download again, when it failed.
    case retry
    case delete
    case openPage
    case save
    case back
    case help
}

/// The photo screen's keys (SPEC 3).
public enum PhotoKeys {
    public static let table = KeyTable<PhotoCommand>([
        KeyBinding([[.left], [.char("h")], [.pageUp]], .previous, help: "previous photo", hint: "previous", hintOrder: 1),
        KeyBinding([[.right], [.char("l")], [.pageDown]], .next, help: "next photo", hint: "next", hintOrder: 2),
        KeyBinding([[KeyEntry(.home, .first)], [KeyEntry(.end, .last)]], help: "first / last photo"),
        KeyBinding([[.char("r")]], .retry, help: "retry the photo's download if it failed"),
        KeyBinding([[.char("x")], [.delete]], .delete, help: "delete the photo, back to the album", hint: "delete",
                   hintOrder: 5),
        KeyBinding([[.char("o")]], .openPage, help: "open its page in the browser", hint: "open page", hintOrder: 3),
        KeyBinding([[.char("w")]], .save, help: "save the image file", hint: "save", hintOrder: 4),
        KeyBinding([[.escape], [.backspace], [.char("q")]], .back, help: "back to the album", hint: "album",
                   hintOrder: 7),
        KeyBinding([[.char("?")]], .help, help: "this help", hint: "help", hintOrder: 8),
    ])
}
