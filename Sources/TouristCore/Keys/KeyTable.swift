import Terminal

/// One key and what it does on a screen.
public struct KeyEntry<Command: Equatable & Sendable>: Equatable, Sendable {
    public var key: Key
    public var command: Command

    public init(_ key: Key, _ command: Command) {
        self.key = key
        self.command = command
    }
}

/// One row of a screen's key table: its keys, what each does, the line help
/// shows for it and, if it has one, its word in the screen's hint row.
public struct KeyBinding<Command: Equatable & Sendable>: Equatable, Sendable {
    /// The keys in the groups help names them by: `arrows  h j k l`.
    public var groups: [[KeyEntry<Command>]]
    /// Between the groups in help (`  /  ` for `+ =  /  -`).
    public var separator: String
    public var help: String
    /// The word the hint row shows next to the binding's first key.
    public var hint: String?
    /// Where the hint stands in the hint row (lowest first).
    public var hintOrder: Int
    /// How many of the key groups the hint names (`Enter or m`).
    public var hintKeys: Int

    /// Keys that each do something of their own.
    public init(_ groups: [[KeyEntry<Command>]], separator: String = "  ", help: String,
                hint: String? = nil, hintOrder: Int = 0, hintKeys: Int = 1) {
        self.groups = groups
        self.separator = separator
        self.help = help
        self.hint = hint
        self.hintOrder = hintOrder
        self.hintKeys = hintKeys
    }

    /// Keys that all do the same.
    public init(_ groups: [[Key]], separator: String = "  ", _ command: Command, help: String,
                hint: String? = nil, hintOrder: Int = 0, hintKeys: Int = 1) {
        self.init(groups.map { $0.map { KeyEntry($0, command) } }, separator: separator, help: help,
                  hint: hint, hintOrder: hintOrder, hintKeys: hintKeys)
    }

    /// A copy with a hint word.
    func hinted(_ hint: String, hintKeys: Int = 1) -> KeyBinding {
        var copy = self
        copy.hint = hint
        copy.hintKeys = hintKeys
        return copy
    }

    public var entries: [KeyEntry<Command>] { groups.flatMap { $0 } }

    /// The keys as help lists them.
    public func keysLabel(unicode: Bool = true) -> String {
        groups.map { Key.groupName($0.map(\.key), unicode: unicode) }.joined(separator: separator)
    }
}

/// A line of the help overlay.
public struct HelpRow: Equatable, Sendable {
    public var keys: String
    public var text: String

    public init(_ keys: String, _ text: String) {
        self.keys = keys
        self.text = text
    }
}

/// A key and its word in a screen's hint row (`? help`).
public struct Hint<Command: Equatable & Sendable>: Equatable, Sendable {
    public var key: String
    public var label: String
    public var command: Command

    /// Cells it takes in a hint row, with the gap after it.
    public var width: Int { key.displayWidth + 1 + label.displayWidth + 2 }
}

extension Array {
    /// The hints that fit whole in `width` cells, in order; the last one (help) always stays, so a
    /// narrow row drops hints rather than cutting one in half.
    public func fitting<Command>(width: Int) -> [Hint<Command>] where Element == Hint<Command> {
        guard let last = self.last, reduce(0, { $0 + $1.width }) > width else { return self }
        var room = width - last.width
        var kept: [Hint<Command>] = []
        for hint in dropLast() where hint.width <= room {
            kept.append(hint)
            room -= hint.width
        }
        return kept + [last]
    }
}

extension Array {
    /// Where each hint of a hint row starting at `x` lies: its key and its word, the cells a click
    /// on it takes (the gap after it is not part of it). The hint row's renderer and the mouse
    /// read the same places.
    public func placed<Command>(from x: Int) -> [(hint: Hint<Command>, columns: Range<Int>)] where Element == Hint<Command> {
        var start = x
        return map { hint in
            defer { start += hint.width }
            return (hint, start..<start + hint.width - 2)
        }
    }
}

/// A screen's keys: the one list its reducer dispatches through and its help
/// and hint row are written from, so what is shown is what is handled.
public struct KeyTable<Command: Equatable & Sendable>: Equatable, Sendable {
    public var bindings: [KeyBinding<Command>]
    /// Help lines that are not keys (the mouse).
    public var notes: [HelpRow]

    public init(_ bindings: [KeyBinding<Command>], notes: [HelpRow] = []) {
        self.bindings = bindings
        self.notes = notes
    }

    /// What a key does on this screen; nil when the screen ignores it.
    public func command(for key: Key) -> Command? {
        for binding in bindings {
            for entry in binding.entries where entry.key == key { return entry.command }
        }
        return nil
    }

    /// The name of the first key bound to a command, for messages ("Press p to drop one").
    public func keyName(for command: Command, unicode: Bool = true) -> String {
        for binding in bindings {
            if let entry = binding.entries.first(where: { $0.command == command }) { return entry.key.name(unicode: unicode) }
        }
        return "?"
    }

    /// Every key the screen handles, in table order.
    public var keys: [Key] { bindings.flatMap { $0.entries.map(\.key) } }

    /// The help overlay's lines: one per binding, then the notes.
    public func helpRows(unicode: Bool = true) -> [HelpRow] {
        bindings.map { HelpRow($0.keysLabel(unicode: unicode), $0.help) } + notes
    }

    /// The hint row: bindings that have a hint word, in hint order, each
    /// shown with its first key (or its arrows), or its first `hintKeys` groups joined by `or`.
    public func hints(unicode: Bool = true) -> [Hint<Command>] {
        bindings.enumerated()
            .filter { $0.element.hint != nil }
            .sorted { ($0.element.hintOrder, $0.offset) < ($1.element.hintOrder, $1.offset) }
            .compactMap { _, binding in
                guard let label = binding.hint, let entry = binding.groups.first?.first else { return nil }
                let names = binding.groups.prefix(max(1, binding.hintKeys)).compactMap { group -> String? in
                    guard let first = group.first else { return nil }
                    return Key.collapsedName(group.map(\.key), unicode: unicode) ?? first.key.name(unicode: unicode)
                }
                return Hint(key: names.joined(separator: " or "), label: label, command: entry.command)
            }
    }
}

extension Key {
    /// The key's name in help: `Enter`, `Esc`, `space`, `shift+Tab`, `x`.
    /// Without UTF-8 arrows are named in words: the table's `<` and `^` would not read as keys.
    public func name(unicode: Bool = true) -> String {
        switch self {
        case .char(" "): return "space"
        case let .char(c): return String(c)
        case .up: return unicode ? "\u{2191}" : "Up"
        case .down: return unicode ? "\u{2193}" : "Down"
        case .left: return unicode ? "\u{2190}" : "Left"
        case .right: return unicode ? "\u{2192}" : "Right"
        case .shiftUp: return "shift+Up"
        case .shiftDown: return "shift+Down"
        case .shiftLeft: return "shift+Left"
        case .shiftRight: return "shift+Right"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .tab: return "Tab"
        case .backTab: return "shift+Tab"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case let .function(n): return "F\(n)"
        case let .control(c): return "Ctrl+" + String(c).uppercased()
        }
    }

    /// A group of keys as help names it: the four arrows are `arrows`, the
    /// four shifted ones `shift+arrows`, up and down `↑↓`; others one by one.
    public static func groupName(_ keys: [Key], unicode: Bool = true) -> String {
        collapsedName(keys, unicode: unicode) ?? keys.map { $0.name(unicode: unicode) }.joined(separator: " ")
    }

    /// The one name a group of arrow keys goes by, if it is such a group.
    static func collapsedName(_ keys: [Key], unicode: Bool) -> String? {
        switch Set(keys) {
        case [.left, .right, .up, .down] where keys.count == 4: return "arrows"
        case [.shiftLeft, .shiftRight, .shiftUp, .shiftDown] where keys.count == 4: return "shift+arrows"
        case [.up, .down] where keys.count == 2: return unicode ? "\u{2191}\u{2193}" : "Up/Down"
        default: return nil
        }
    }
}
