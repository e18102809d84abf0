/// A way some terminals show real pictures inside the text grid.
public enum InlineProtocol: String, Sendable, CaseIterable {
    /// kitty's graphics protocol (`ESC _G … ESC \`): kitty, and others that copied it.
    case kitty
    /// iTerm2's inline files (`ESC ]1337;File=… BEL`): iTerm2, WezTerm.
    case iterm2
    /// DEC sixel graphics (`ESC P … q … ESC \`): xterm -ti vt340, mlterm, foot, contour…
    case sixel

    /// What removes every picture this protocol drew; empty where the cells
    /// under a picture must be repainted instead (sixel and iTerm2 pictures
    /// are pixels in the cells themselves).
    public var clearSequence: [UInt8] {
        switch self {
        case .kitty: return Array("\u{1B}_Ga=d,d=A\u{1B}\\".utf8)
        case .iterm2, .sixel: return []
        }
    }
}

/// A picture drawn over the cells by an inline image protocol.
public struct InlinePicture: Equatable, Sendable {
    /// What is shown (the app uses "photoID@colsxrows"): the same key, place and bytes are not written again.
    public var key: String
    /// The cell the picture's top left corner sits on.
    public var x: Int
    public var y: Int
    /// The cells the picture covers.
    public var columns: Int
    public var rows: Int
    /// The escape bytes that draw the picture at the cursor; they do not move
    /// the cursor first (the backend puts it at (x, y) and restores it after).
    public var sequence: [UInt8]

    public init(key: String, x: Int, y: Int, columns: Int, rows: Int, sequence: [UInt8]) {
        self.key = key
        self.x = x
        self.y = y
        self.columns = columns
        self.rows = rows
        self.sequence = sequence
    }

    /// The cells the picture covers.
    public var area: Rect { Rect(x: x, y: y, width: columns, height: rows) }
}

/// What the terminal backend must do so that the screen shows a picture (or
/// none): pure bookkeeping, so that the same picture is never sent twice and a
/// replaced one never lingers. The backend writes what `show` returns.
public struct InlinePictureTracker: Sendable {
    /// What the backend does for one `show`, in this order.
    public struct Update: Equatable, Sendable {
        /// Bytes that remove the pictures shown (kitty); written first.
        public var clear: [UInt8]
        /// Screen rows whose cells must be written again (sixel, iTerm2: a picture is pixels in those cells).
        public var repaintRows: Range<Int>?
        /// Bytes that draw the new picture, cursor saved, moved to the picture and restored around it.
        public var draw: [UInt8]

        public init(clear: [UInt8] = [], repaintRows: Range<Int>? = nil, draw: [UInt8] = []) {
            self.clear = clear
            self.repaintRows = repaintRows
            self.draw = draw
        }

        public var isEmpty: Bool { clear.isEmpty && repaintRows == nil && draw.isEmpty }
    }

    public let imageProtocol: InlineProtocol?
    /// The picture on the screen now, as far as the tracker knows.
    public private(set) var shown: InlinePicture?
    /// kitty pictures outlive a repaint of the cells: after one, clear before drawing again.
    private var staleKittyPictures = false
    /// Rows of a sixel or iTerm2 picture that cells were written over: the
    /// rest of its pixels are still there until those rows are sent again.
    private var damagedRows: Range<Int>?

    public init(protocol imageProtocol: InlineProtocol?) {
        self.imageProtocol = imageProtocol
    }

    /// Shows `picture` (nil: none), given what is shown now.
    public mutating func show(_ picture: InlinePicture?) -> Update {
        guard let imageProtocol else { return Update() }
        if picture == shown && !staleKittyPictures && damagedRows == nil { return Update() }
        var update = Update()
        if imageProtocol == .kitty {
            if shown != nil || staleKittyPictures { update.clear = imageProtocol.clearSequence }
        } else {
            update.repaintRows = Self.union(damagedRows, shown.flatMap(Self.rows))
        }
        staleKittyPictures = false
        damagedRows = nil
        shown = picture
        if let picture, picture.columns > 0, picture.rows > 0, !picture.sequence.isEmpty {
            update.draw = Self.placed(picture)
        }
        return update
    }

    /// The screen was cleared and repainted whole (resize, garbled screen,
    /// new colour pairs): the picture is gone and must be drawn again.
    public mutating func forget() {
        if shown != nil && imageProtocol == .kitty { staleKittyPictures = true }
        damagedRows = nil
        shown = nil
    }

    /// Cells were written: where they cross a sixel or iTerm2 picture they
    /// replaced part of its pixels, so its rows are sent again and it is drawn
    /// again (or taken away) at the next `show`. kitty pictures float over the cells.
    public mutating func noteWritten(_ runs: [CellRun]) {
        guard let shown, imageProtocol != .kitty else { return }
        let area = shown.area
        let crosses = runs.contains { run in
            run.y >= area.y && run.y < area.bottom && run.x < area.right && run.x + run.symbols.count > area.x
        }
        if crosses {
            damagedRows = Self.union(damagedRows, Self.rows(of: shown))
            self.shown = nil
        }
    }

    private static func rows(of picture: InlinePicture) -> Range<Int>? {
        picture.rows > 0 ? picture.y..<(picture.y + picture.rows) : nil
    }

    private static func union(_ a: Range<Int>?, _ b: Range<Int>?) -> Range<Int>? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
    }

    /// The picture's bytes wrapped in cursor save, a move to its corner (1-based) and cursor restore:
    /// the protocols leave the cursor after the picture, where the curses library does not expect it.
    static func placed(_ picture: InlinePicture) -> [UInt8] {
        var bytes = Array("\u{1B}7\u{1B}[\(picture.y + 1);\(picture.x + 1)H".utf8)
        bytes += picture.sequence
        bytes += Array("\u{1B}8".utf8)
        return bytes
    }
}
