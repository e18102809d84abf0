import Terminal

/// What a key does on the photo screen.
public enum PhotoCommand: Equatable, Sendable {
    case previous
    case next
    case first
    case last
    case zoomIn
    case zoomOut
    case fit
    /// Moves the zoomed view by a quarter of it each way.
    case pan(dx: Int, dy: Int)
    /// Plays or pauses the slideshow.
    case slideshow
    /// The photo's download again, when it failed.
    case retry
    case delete
    case openPage
    case save
    case back
    case help
}

/// The photo screen's keys (SPEC 3): two tables, as the photo is fitted or zoomed in, since the
/// arrows and `h` `l` step through the photos in one and pan in the other.
public enum PhotoKeys {
    /// Fitted, there is only in.
    static let zoomIn = KeyBinding<PhotoCommand>([[.char("+"), .char("=")]], .zoomIn, help: "zoom in", hint: "zoom",
                                                 hintOrder: 2)
    static let zoom = KeyBinding<PhotoCommand>(
        [[KeyEntry(.char("+"), .zoomIn), KeyEntry(.char("="), .zoomIn)], [KeyEntry(.char("-"), .zoomOut)]],
        separator: "  /  ", help: "zoom in / out", hint: "zoom", hintOrder: 2)
    static let fit = KeyBinding<PhotoCommand>([[.char("0")]], .fit, help: "fit the whole photo", hint: "fit", hintOrder: 3)
    static let pan = KeyBinding<PhotoCommand>([
        [KeyEntry(.left, .pan(dx: -1, dy: 0)), KeyEntry(.right, .pan(dx: 1, dy: 0)),
         KeyEntry(.up, .pan(dx: 0, dy: -1)), KeyEntry(.down, .pan(dx: 0, dy: 1))],
        [KeyEntry(.char("h"), .pan(dx: -1, dy: 0)), KeyEntry(.char("j"), .pan(dx: 0, dy: 1)),
         KeyEntry(.char("k"), .pan(dx: 0, dy: -1)), KeyEntry(.char("l"), .pan(dx: 1, dy: 0))],
    ], help: "pan the zoomed photo")
    static let slideshow = KeyBinding<PhotoCommand>([[.char(" ")]], .slideshow,
                                                    help: "play / pause the slideshow (any key pauses it)")
    static let rest: [KeyBinding<PhotoCommand>] = [
        KeyBinding([[KeyEntry(.home, .first)], [KeyEntry(.end, .last)]], help: "first / last photo"),
        slideshow,
        KeyBinding([[.char("r")]], .retry, help: "retry the photo's download if it failed"),
        KeyBinding([[.char("x")], [.delete]], .delete, help: "delete the photo, back to the album", hint: "delete",
                   hintOrder: 6),
        KeyBinding([[.char("o")]], .openPage, help: "open its page in the browser", hint: "open page", hintOrder: 4),
        KeyBinding([[.char("w")]], .save, help: "save the image file", hint: "save", hintOrder: 5),
        KeyBinding([[.escape], [.backspace], [.char("q")]], .back, help: "back to the album", hint: "album",
                   hintOrder: 7),
        KeyBinding([[.char("?")]], .help, help: "this help", hint: "help", hintOrder: 8),
    ]

    /// The photo fitted: the arrows and `h` `l` step through the album.
    public static let table = KeyTable<PhotoCommand>([
        KeyBinding([[.left], [.char("h")], [.pageUp]], .previous, help: "previous photo", hint: "previous", hintOrder: 1),
        KeyBinding([[.right], [.char("l")], [.pageDown]], .next, help: "next photo", hint: "next", hintOrder: 2),
        zoomIn,
    ] + rest, notes: [HelpRow("mouse", "the wheel zooms at the pointer")])

    /// Zoomed in: the arrows and `h` `j` `k` `l` pan; the page keys still step.
    public static let zoomed = KeyTable<PhotoCommand>([
        pan.hinted("pan"),  // hint order 0: first
        KeyBinding([[KeyEntry(.pageUp, .previous)], [KeyEntry(.pageDown, .next)]], help: "previous / next photo"),
        zoom,
        fit,
    ] + rest, notes: [HelpRow("mouse", "the wheel zooms at the pointer")])

    /// The table in effect for the photo screen as it is.
    public static func table(for screen: PhotoScreen) -> KeyTable<PhotoCommand> {
        screen.zoom.isZoomed ? zoomed : table
    }
}
