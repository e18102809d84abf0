/// What the terminal reports, in the app's own words. The backend turns
/// ncurses keys, mouse reports and KEY_RESIZE into these.
public enum Event: Equatable, Sendable {
    case key(Key)
    /// Text the terminal delivered as one bracketed paste: one edit, never a run of keys.
    case paste(String)
    case mouse(MouseEvent)
    case resize(width: Int, height: Int)
}

/// A key the app can bind. Alt+key has no case: the backend drops it, so no key table has to.
public enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right
    case shiftUp, shiftDown, shiftLeft, shiftRight
    case enter, escape, backspace, delete, tab, backTab
    case home, end, pageUp, pageDown
    case function(Int)
    /// Ctrl+letter, as the lowercase letter.
    case control(Character)
}

public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case press, release, click, wheelUp, wheelDown, drag
    }
    public var kind: Kind
    public var x: Int
    public var y: Int

    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

/// What the terminal can show, as found at start-up.
public struct TerminalCapabilities: Equatable, Sendable {
    public enum ColorDepth: Int, Comparable, Sendable {
        case none = 0, eight = 8, indexed256 = 256, trueColor = 16_777_216
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }
    public var unicode: Bool
    public var colors: ColorDepth
    /// The protocol that shows real pictures, where the terminal has one; nil: pictures are drawn in cells.
    public var inlineImages: InlineProtocol?

    public init(unicode: Bool, colors: ColorDepth, inlineImages: InlineProtocol? = nil) {
        self.unicode = unicode
        self.colors = colors
        self.inlineImages = inlineImages
    }
}
