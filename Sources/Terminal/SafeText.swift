import Foundation
import TextSafety

// The one truth for text that reaches the terminal. Titles, authors, licences, place and pin
// names, file paths and error messages come from the network, the database or the file system;
// none of them may move the cursor, retitle the window, reorder the line or take other than one
// cell per scalar, since the cell buffer gives every scalar exactly one column.

extension String {
    /// The text as the cell buffer shows it: one scalar per cell, each one column wide on any
    /// terminal. Controls and escape sequences are stripped (`strippingTerminalControls`),
    /// accents composed onto their letters (NFC), and what would take no column (combining marks
    /// left over, zero-width spaces and joiners, variation selectors, format characters) is
    /// dropped; what would take two (CJK, emoji, flags) or that no font knows (unassigned,
    /// private use) becomes U+FFFD.
    public var displayable: String {
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return self }
        var text = strippingTerminalControls
        if text.unicodeScalars.contains(where: { $0.terminalColumns == 0 }) {
            text = text.precomposedStringWithCanonicalMapping
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.terminalColumns {
            case 0: continue
            case 1: out.append(scalar)
            default: out.append(Cell.replacement)
            }
        }
        return String(out)
    }
}

extension Cell {
    /// What stands for a character the terminal cannot show in one cell.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// A scalar the terminal shows in exactly one cell: itself when it is one, U+FFFD for
    /// controls, zero-width, wide and unknown characters (the backends' last line of defence;
    /// text is made `displayable` before it reaches a cell).
    public static func displayable(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        scalar.terminalColumns == 1 ? scalar : replacement
    }
}

extension Unicode.Scalar {
    /// Columns the scalar takes in a terminal: 0 (combining, zero-width, format, Hangul vowel
    /// and final jamo), 1, 2 (East Asian wide and full-width, emoji presentation, and whole
    /// blocks that terminals disagree about), or -1 for controls and characters without a
    /// reliable width (unassigned, private use, line and paragraph separators).
    public var terminalColumns: Int {
        let v = value
        if v >= 0x20 && v < 0x7F { return 1 }
        if v < 0x20 || (0x7F...0x9F).contains(v) { return -1 }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        if isWideInTerminals { return 2 }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return 0
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
