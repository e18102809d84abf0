import Terminal

/// What a key does on the album screen.
public enum AlbumCommand: Equatable, Sendable {
    /// By columns (`dx`) or grid rows (`dy`).
    case move(dx: Int, dy: Int)
    /// A screen of grid rows up (-1) or down (1).
    case page(Int)
    case first
    case last
    /// The selected photo on a screen of its own.
    case open
    case toggleMark
    case deletePhoto
    case deleteMarked
    case newCollection
    case addMore
    case retry
    /// The filter editor over the album.
    case editFilter
    /// A new collection without the filter.
    case clearFilter
    /// Every stored photo, credits.json and index.html into a folder of the pictures folder.
    case saveAlbum
    case back
    case help
}

/// The album screen's keys (SPEC 3).
public enum AlbumKeys {
    public static let table = KeyTable<AlbumCommand>([
        KeyBinding([
            [KeyEntry(.left, .move(dx: -1, dy: 0)), KeyEntry(.right, .move(dx: 1, dy: 0)),
             KeyEntry(.up, .move(dx: 0, dy: -1)), KeyEntry(.down, .move(dx: 0, dy: 1))],
            [KeyEntry(.char("h"), .move(dx: -1, dy: 0)), KeyEntry(.char("j"), .move(dx: 0, dy: 1)),
             KeyEntry(.char("k"), .move(dx: 0, dy: -1)), KeyEntry(.char("l"), .move(dx: 1, dy: 0))],
        ], help: "move the selection"),
        KeyBinding([[KeyEntry(.pageUp, .page(-1))], [KeyEntry(.pageDown, .page(1))]], help: "a screen of rows up / down"),
        KeyBinding([[.char("g")], [.home]], .first, help: "first photo"),
        KeyBinding([[.char("G")], [.end]], .last, help: "last photo"),
        KeyBinding([[.enter]], .open, help: "open the photo"),
        KeyBinding([[.char("x")], [.delete]], .deletePhoto, help: "delete the selected photo", hint: "delete", hintOrder: 3),
        KeyBinding([[.char(" ")]], .toggleMark, help: "mark / unmark the photo and move on to the next", hint: "mark",
                   hintOrder: 4),
        KeyBinding([[.char("X")]], .deleteMarked, help: "delete the marked photos", hint: "delete marked", hintOrder: 5),
        KeyBinding([[.char("n")]], .newCollection, help: "New Collection (once every photo is in)",
                   hint: "New Collection", hintOrder: 1),
        KeyBinding([[.char("a")]], .addMore, help: "add more photos", hint: "Add more", hintOrder: 2),
        KeyBinding([[.char("f")]], .editFilter, help: "filter the album: text, tags, when taken, sort",
                   hint: "filter", hintOrder: 8),
        KeyBinding([[.char("F")]], .clearFilter, help: "clear the filter (a new collection without it)"),
        KeyBinding([[.char("W")]], .saveAlbum,
                   help: "save the whole album (photos, credits.json, index.html) to the pictures folder",
                   hint: "save", hintOrder: 8),
        KeyBinding([[.char("r")]], .retry, help: "retry the selected failed photo, or all that failed",
                   hint: "retry", hintOrder: 2),
        KeyBinding([[.escape], [.backspace], [.char("q")]], .back, help: "back to the map, or the pins list it was opened from (asks first if photos are marked)",
                   hint: "back", hintOrder: 7),
        KeyBinding([[.char("?")]], .help, help: "this help", hint: "help", hintOrder: 8),
    ])
}
