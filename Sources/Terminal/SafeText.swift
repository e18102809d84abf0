import Foundation
import TextSafety

// The one truth for text that reaches the terminal. Titles, authors, licences, place and pin
// names, file paths and error messages come from the network, the database or the file system;
// none of them may move the cursor, retitle the window or reorder the line, and each character
// takes the columns the cell buffer gave it (one, or two for CJK and emoji), on any terminal.

/// One cell's worth of text: a character one or two columns wide and the marks that go with it
/// (combining accents, variation selectors, an emoji's skin tone or the emoji joined to it).
public struct TextCell: Equatable, Sendable {
    public var base: Unicode.Scalar
    public var marks: [Unicode.Scalar]
    /// 1 or 2.
    public var width: Int

    public init(_ base: Unicode.Scalar, marks: [Unicode.Scalar] = [], width: Int = 1) {
        self.base = base
        self.marks = marks
        self.width = width
    }

    /// The cell's scalars as text.
    public var text: String {
        var view = String.UnicodeScalarView()
        view.append(base)
        view.append(contentsOf: marks)
        return String(view)
    }
}

extension String {
    /// Whether every byte is printable ASCII: one cell per byte, nothing to clean.
    var isPrintableASCII: Bool { utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }

    /// The text as the cell buffer lays it out, cell by cell. Controls and escape sequences are
    /// stripped (`strippingTerminalControls`), accents composed onto their letters (NFC), and each
    /// character (grapheme) keeps its marks; its width is its first scalar's (`terminalColumns`).
    /// What takes no column and has nothing to sit on (a mark at the start, zero-width spaces,
    /// format characters) is dropped; a character no terminal measures reliably (unassigned,
    /// private use) becomes U+FFFD.
    public var displayCells: [TextCell] {
        if isPrintableASCII { return unicodeScalars.map { TextCell($0) } }
        var text = strippingTerminalControls
        if text.unicodeScalars.contains(where: { $0.terminalColumns == 0 }) {
            text = text.precomposedStringWithCanonicalMapping
        }
        var cells: [TextCell] = []
        for character in text {
            var current: TextCell?
            var replaced = false, emoji = false
            for scalar in character.unicodeScalars {
                let columns = scalar.terminalColumns
                guard var cell = current else {
                    switch columns {
                    case 0: continue
                    case 1, 2:
                        current = TextCell(scalar, width: columns)
                        emoji = scalar.properties.isEmoji && !scalar.isASCII || (0x1F1E6...0x1F1FF).contains(scalar.value)
                    default:
                        current = TextCell(Cell.replacement)
                        replaced = true
                    }
                    continue
                }
                if replaced || columns < 0 { continue }
                if columns == 0 || emoji {
                    // Marks, and what an emoji sequence joins to its first emoji, stay in its cell.
                    cell.marks.append(scalar)
                    current = cell
                } else {
                    // A spacing mark (Devanagari's vowel signs) takes a column of its own, as the C library counts it.
                    cells.append(cell)
                    current = TextCell(scalar, width: columns)
                }
            }
            if let current { cells.append(current) }
        }
        return cells
    }

    /// The text as the cell buffer shows it: `displayCells`, joined. Idempotent.
    public var displayable: String {
        if isPrintableASCII { return self }
        var out = String.UnicodeScalarView()
        for cell in displayCells {
            out.append(cell.base)
            out.append(contentsOf: cell.marks)
        }
        return String(out)
    }
}

extension Cell {
    /// What stands for a character the terminal cannot show.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// A scalar the terminal shows in exactly one cell: itself when it is one, U+FFFD for
    /// controls, zero-width, wide and unknown characters (the backends' last line of defence for a
    /// cell set directly; text goes through `put`, which lays wide characters over two cells).
    public static func displayable(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        scalar.terminalColumns == 1 ? scalar : replacement
    }

    /// Of a cell's marks, those a terminal draws over its character without moving on: combining
    /// and enclosing marks and Hangul's vowel and final jamo, up to the first scalar of another
    /// kind (a joiner, a skin tone, a joined emoji: the terminal would count those as columns
    /// of their own, or join them its own way), at most two (a letter's leftover accents or
    /// Hangul's two jamo; a pile of marks would spill over the rows around it).
    /// The emoji-style selector goes only with a wide character: after a narrow one it would make
    /// some terminals draw two columns where the others draw one.
    public static func drawnMarks(_ marks: [Unicode.Scalar], wide: Bool) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        for mark in marks {
            let v = mark.value
            let jamo = (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v)
            let category = mark.properties.generalCategory
            guard jamo || category == .nonspacingMark || category == .enclosingMark else { break }
            if v == 0xFE0F && !wide { continue }
            out.append(mark)
            if out.count == 2 { break }
        }
        return out
    }
}

extension Unicode.Scalar {
    /// Columns the scalar takes in a terminal: 0 (combining, zero-width, format, Hangul vowel
    /// and final jamo), 1 (spacing marks too, as the C library counts them), 2 (East Asian wide and full-width, emoji presentation, and whole
    /// blocks that terminals disagree about), or -1 for controls and characters without a
    /// reliable width (unassigned, private use, line and paragraph separators).
    public var terminalColumns: Int {
        let v = value
        if v >= 0x20 && v < 0x7F { return 1 }
        if v < 0x20 || (0x7F...0x9F).contains(v) { return -1 }
        // Hangul's vowel and final jamo; the one spacing mark the C library measures as none (Ahom medial ra).
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) || v == 0x1171E { return 0 }
        if isWideInTerminals { return 2 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        case .control, .unassigned, .privateUse, .surrogate, .lineSeparator, .paragraphSeparator: return -1
        default: return properties.isEmojiPresentation ? 2 : 1
        }
    }

    /// East Asian wide and full-width characters as the C library measures them (glibc 2.36,
    /// Unicode 14), with the supplementary symbol and ideograph planes taken whole so that
    /// characters assigned later are never measured as one column.
    private var isWideInTerminals: Bool {
        let v = value
        if v < 0x1100 { return false }
        if v >= 0x1F000 { return v <= 0x1FAFF || (0x20000...0x3FFFD).contains(v) }
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if v < wideRanges[mid].lowerBound { high = mid - 1 }
            else if v > wideRanges[mid].upperBound { low = mid + 1 }
            else { return true }
        }
        return false
    }
}

/// Wide ranges below U+1F000, sorted (from the C library's `wcwidth`, some blocks widened).
private let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0xA4CF, 0xA960...0xA97F,
    0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x16FE0...0x18DFF, 0x1AFF0...0x1B2FF,
]
