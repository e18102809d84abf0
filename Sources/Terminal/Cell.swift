/// A colour as the app's widgets ask for it; the backend maps it onto what
/// the terminal can show (true colour, 256, 8 or none).
public enum Color: Hashable, Sendable {
    /// The terminal's own default foreground or background.
    case `default`
    /// An exact colour; quantised by the backend when needed.
    case rgb(UInt8, UInt8, UInt8)

    public init(hex: UInt32) {
        self = .rgb(UInt8((hex >> 16) & 0xFF), UInt8((hex >> 8) & 0xFF), UInt8(hex & 0xFF))
    }
}

/// Text attributes of a cell.
public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = Attributes(rawValue: 1 << 0)
    public static let dim = Attributes(rawValue: 1 << 1)
    public static let reverse = Attributes(rawValue: 1 << 2)
    public static let underline = Attributes(rawValue: 1 << 3)
}

/// Foreground, background and attributes, applied together.
public struct Style: Hashable, Sendable {
    public var fg: Color
    public var bg: Color
    public var attributes: Attributes

    public init(fg: Color = .default, bg: Color = .default, attributes: Attributes = []) {
        self.fg = fg
        self.bg = bg
        self.attributes = attributes
    }

    public static let plain = Style()
}

/// One character cell of the screen.
public struct Cell: Hashable, Sendable {
    /// What the cell shows: a character one column wide, the first half of one two columns wide
    /// (the cell to its right then holds `continuation`), or `continuation` itself. Marks that go
    /// with it (accents, an emoji's modifier) are kept by the buffer (`CellBuffer.marks(x:y:)`).
    public var symbol: Unicode.Scalar
    public var style: Style
    /// `placeholder`, or the buffer's number for the cell's marks, packed into the three bytes the
    /// cell's layout leaves over (a cell stays 16 bytes: frames of thousands of cells are copied
    /// and compared every draw).
    private var packed0: UInt8 = 0, packed1: UInt8 = 0, packed2: UInt8 = 0

    public init(_ symbol: Unicode.Scalar = " ", style: Style = .plain, placeholder: ImagePlaceholder? = nil) {
        self.symbol = symbol
        self.style = style
        self.placeholder = placeholder
    }

    private var bits: UInt32 {
        get { UInt32(packed0) | UInt32(packed1) << 8 | UInt32(packed2) << 16 }
        set { (packed0, packed1, packed2) = (UInt8(newValue & 0xFF), UInt8(newValue >> 8 & 0xFF), UInt8(newValue >> 16 & 0xFF)) }
    }

    /// Set on the cells of a picture shown by kitty's Unicode placeholders: the backend writes
    /// the placeholder and its diacritics instead of `symbol` (which then is U+10EEEE). Rows and
    /// columns are kept up to 511 (kitty's diacritics number 297).
    public var placeholder: ImagePlaceholder? {
        get {
            guard bits & 0x80_0000 != 0 else { return nil }
            return ImagePlaceholder(row: Int(bits & 0x1FF), column: Int(bits >> 9 & 0x1FF))
        }
        set {
            guard let newValue else {
                bits = 0
                return
            }
            bits = 0x80_0000 | UInt32(min(newValue.row, 0x1FF)) | UInt32(min(newValue.column, 0x1FF)) << 9
        }
    }

    /// The buffer's number for this cell's marks, 0 for none (a placeholder cell has none).
    var marksID: Int {
        get { bits & 0x80_0000 != 0 ? 0 : Int(bits) }
        set { bits = UInt32(min(max(0, newValue), 0x7F_FFFF)) }
    }

    /// The right half of a character two columns wide; the character is in the cell to its left.
    /// U+FFFF is a noncharacter: no text can put it in a cell (`displayable` makes it U+FFFD).
    public static let continuation: Unicode.Scalar = "\u{FFFF}"

    /// Whether this is the right half of a wide character.
    public var isContinuation: Bool { symbol == Cell.continuation }

    public static let blank = Cell()
}
