import Terminal
import TextSafety

/// What a key does in a text field; any other printable character is typed.
public enum TextEdit: Equatable, Sendable {
    case left, right
    case toStart, toEnd
    case deleteBackward, deleteForward
    case deleteToStart, deleteToEnd, deleteWord

    var movesTheCursor: Bool { [.left, .right, .toStart, .toEnd].contains(self) }
}

/// The keys every text field takes (the go-to prompt, the settings' fields); the screens that
/// hold a field add them to their own tables, so help lists them where they act.
public enum TextFieldKeys {
    public static let table = KeyTable<TextEdit>([
        KeyBinding([[KeyEntry(.left, .left), KeyEntry(.right, .right)]], help: "move the cursor"),
        KeyBinding([[KeyEntry(.home, .toStart), KeyEntry(.end, .toEnd)],
                    [KeyEntry(.control("a"), .toStart), KeyEntry(.control("e"), .toEnd)]],
                   help: "to the start / end of the text"),
        KeyBinding([[.backspace]], .deleteBackward, help: "delete the character before the cursor"),
        KeyBinding([[.delete]], .deleteForward, help: "delete the character under the cursor"),
        KeyBinding([[.control("u")]], .deleteToStart, help: "delete to the start"),
        KeyBinding([[.control("k")]], .deleteToEnd, help: "delete to the end"),
        KeyBinding([[.control("w")]], .deleteWord, help: "delete the word before the cursor"),
    ])

    /// The text field's bindings as another table's, each command wrapped.
    public static func bindings<Command>(_ wrap: (TextEdit) -> Command) -> [KeyBinding<Command>] {
        table.bindings.map { binding in
            KeyBinding(binding.groups.map { $0.map { KeyEntry($0.key, wrap($0.command)) } },
                       separator: binding.separator, help: binding.help)
        }
    }

    /// Help lines naming the editing keys, for a screen whose help shows while no field is open.
    public static var helpNotes: [String] {
        let moves = table.bindings.filter { $0.entries.allSatisfy { $0.command.movesTheCursor } }
        let edits = table.bindings.filter { !$0.entries.allSatisfy { $0.command.movesTheCursor } }
        return [moves.map { $0.keysLabel() }.joined(separator: "  ") + " move the cursor",
                edits.map { $0.keysLabel() }.joined(separator: "  ") + " delete"]
    }
}

/// One line of editable text with a cursor: its state and its editing. The text never holds a
/// control character and never grows past `maxLength` characters.
public struct TextField: Equatable, Sendable {
    /// The characters, so the cursor counts what the user sees as one.
    public private(set) var characters: [Character]
    /// Where the next character goes: 0 is before the first, `characters.count` after the last.
    public private(set) var cursor: Int
    public let maxLength: Int

    /// A field holding `text` (cleaned and cut to `maxLength`), the cursor at its end.
    public init(_ text: String = "", maxLength: Int) {
        self.maxLength = max(0, maxLength)
        characters = Array(TextField.cleaned(text).prefix(self.maxLength))
        cursor = characters.count
    }

    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }

    /// What a key or a paste did.
    public enum Outcome: Equatable, Sendable {
        /// Nothing: the cursor was already there, or nothing was left to delete.
        case unchanged
        /// The cursor moved; the text is the same.
        case moved
        /// The text changed.
        case edited
        /// The text would have grown past `maxLength`: what fitted went in, the rest was left out.
        case cut
    }

    /// The message a `cut` shows, the same for every field.
    public var cutMessage: String { "At most \(maxLength) characters." }

    /// The one cleaning rule for text typed or pasted into any field, the terminal's own
    /// (`strippingTerminalControls`): escape sequences go whole, tabs and line breaks become
    /// spaces, other control and direction characters go.
    public static func cleaned(_ text: String) -> String { text.strippingTerminalControls }

    /// A key: one of `TextFieldKeys`, or a character typed at the cursor. Nil when the field
    /// does not take the key, so the screen can give it a meaning of its own.
    public mutating func handle(_ key: Key) -> Outcome? {
        if let edit = TextFieldKeys.table.command(for: key) { return apply(edit) }
        if case let .char(c) = key { return insert(String(c)) }
        return nil
    }

    /// Text typed or pasted, cleaned, inserted at the cursor as one edit.
    public mutating func insert(_ text: String) -> Outcome {
        let clean = Array(TextField.cleaned(text))
        guard !clean.isEmpty else { return .unchanged }
        let room = maxLength - characters.count
        let taken = clean.prefix(max(0, room))
        characters.insert(contentsOf: taken, at: cursor)
        cursor += taken.count
        return taken.count < clean.count ? .cut : .edited
    }

    /// The whole text replaced (a recalled entry), the cursor at its end.
    public mutating func replace(with text: String) {
        self = TextField(text, maxLength: maxLength)
    }

    public mutating func apply(_ edit: TextEdit) -> Outcome {
        switch edit {
        case .left: return move(to: cursor - 1)
        case .right: return move(to: cursor + 1)
        case .toStart: return move(to: 0)
        case .toEnd: return move(to: characters.count)
        case .deleteBackward: return delete(cursor - 1..<cursor)
        case .deleteForward: return delete(cursor..<cursor + 1)
        case .deleteToStart: return delete(0..<cursor)
        case .deleteToEnd: return delete(cursor..<characters.count)
        case .deleteWord:
            // As the shell's Ctrl-W: the spaces before the cursor, then the word before them.
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            return delete(start..<cursor)
        }
    }

    private mutating func move(to position: Int) -> Outcome {
        let target = min(max(position, 0), characters.count)
        guard target != cursor else { return .unchanged }
        cursor = target
        return .moved
    }

    private mutating func delete(_ range: Range<Int>) -> Outcome {
        let range = range.clamped(to: 0..<characters.count)
        guard !range.isEmpty else { return .unchanged }
        characters.removeSubrange(range)
        if cursor > range.lowerBound { cursor = max(range.lowerBound, cursor - range.count) }
        return .edited
    }
}

/// A text field drawn on one row: the text from where it must start for the cursor to show,
/// `…` where text goes on beyond either edge, the cursor as a reversed cell.
struct TextFieldView: Widget {
    var field: TextField
    var style: Style
    /// Shown instead of the text (a key is masked): the cursor stands after it.
    var masked: String?

    func render(area: Rect, into buffer: inout CellBuffer) {
        guard area.width > 0, area.height > 0 else { return }
        // The field's cells as the buffer lays them out (a wide character takes two columns).
        var cells: [TextCell]
        var cursorCell: Int
        if let masked {
            cells = masked.displayCells
            cursorCell = cells.count
        } else {
            cells = []
            cursorCell = 0
            for (i, c) in field.characters.enumerated() {
                if i == field.cursor { cursorCell = cells.count }
                cells += String(c).displayCells
            }
            if field.cursor >= field.characters.count { cursorCell = cells.count }
        }
        cells.append(TextCell(" "))  // the cell the cursor takes after the last character
        var starts: [Int] = []
        var columns = 0
        for cell in cells {
            starts.append(columns)
            columns += cell.width
        }
        let first = TextFieldView.firstColumn(cursor: starts[cursorCell], columns: columns, width: area.width)
        buffer.clear(Rect(x: area.x, y: area.y, width: area.width, height: 1), style: style)
        var cursorStyle = style
        cursorStyle.attributes.formSymmetricDifference(.reverse)
        for (i, cell) in cells.enumerated() {
            let offset = starts[i] - first
            guard offset + cell.width > 0, offset < area.width else { continue }
            let shownStyle = i == cursorCell ? cursorStyle : style
            // Text goes on beyond an edge, or a wide character is cut by it: `…` says so.
            let cutLeft = offset <= 0 && first > 0
            let cutRight = offset + cell.width >= area.width && starts[i] + cell.width < columns
            if offset < 0 || offset + cell.width > area.width || (i != cursorCell && (cutLeft || cutRight)) {
                buffer.put("\u{2026}" + (cell.width == 2 && offset >= 0 && offset + 1 < area.width ? " " : ""),
                           x: area.x + max(0, offset), y: area.y, style: shownStyle, maxWidth: area.right - area.x - max(0, offset))
            } else {
                buffer.put(cell.text, x: area.x + offset, y: area.y, style: shownStyle, maxWidth: cell.width)
            }
        }
    }

    /// The first column shown: 0 while everything fits, else moved by half the width at a time,
    /// so the text stands still while the cursor moves inside the view.
    static func firstColumn(cursor: Int, columns: Int, width: Int) -> Int {
        guard columns > width, width > 0 else { return 0 }
        let step = max(1, width / 2)
        let needed = max(0, cursor - width + 1)
        return min((needed + step - 1) / step * step, cursor)
    }
}
