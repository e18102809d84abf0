/// A way some terminals show real pictures inside the text grid.
public enum InlineProtocol: String, Sendable, CaseIterable {
    /// kitty's graphics protocol (`ESC _G … ESC \\`): kitty, and others that copied it.
    case kitty
    /// iTerm2's inline files (`ESC ]1337;File=… BEL`): iTerm2, WezTerm.
    case iterm2
    /// DEC sixel graphics (`ESC P … q … ESC \\`): xterm -ti vt340, mlterm, foot, contour…
    case sixel
    /// kitty's graphics inside tmux: the image sent once through tmux's passthrough, shown by
    /// Unicode placeholder cells in the frame (`VTOURIST_IMAGES=kitty-unicode`).
    case kittyUnicode = "kitty-unicode"

    /// Whether the terminal keeps the image by id (kitty): sent once, placed again by id.
    public var keepsImages: Bool { self == .kitty || self == .kittyUnicode }
}

/// A picture drawn over the cells by an inline image protocol.
public struct InlinePicture: Equatable, Sendable {
    /// What is shown (the app uses "photoID@x,y,colsxrows/…"): the same key, place and bytes are not written again.
    public var key: String
    /// The cell the picture's top left corner sits on.
    public var x: Int
    public var y: Int
    /// The cells the picture covers.
    public var columns: Int
    public var rows: Int
    /// The escape bytes that draw the picture at the cursor (iTerm2, sixel: the whole picture;
    /// kitty: a placement of the image `transmit` sent); they do not move the cursor first (the
    /// backend puts it at (x, y) and restores it after).
    public var sequence: [UInt8]
    /// kitty: the image's data under `imageID`, sent once before it is first placed; empty for the others.
    public var transmit: [UInt8]
    /// kitty: the id the image is sent, placed and deleted by (0: none).
    public var imageID: UInt32
    /// kitty Unicode placeholders: the cells that show the picture, drawn into the frame at (x, y).
    public var cells: CellBuffer?

    public init(key: String, x: Int, y: Int, columns: Int, rows: Int, sequence: [UInt8],
                transmit: [UInt8] = [], imageID: UInt32 = 0, cells: CellBuffer? = nil) {
        self.key = key
        self.x = x
        self.y = y
        self.columns = columns
        self.rows = rows
        self.sequence = sequence
        self.transmit = transmit
        self.imageID = imageID
        self.cells = cells
    }

    /// The cells the picture covers.
    public var area: Rect { Rect(x: x, y: y, width: columns, height: rows) }
}

/// What the terminal backend must do so that the screen shows a picture (or
/// none): pure bookkeeping, so that the same picture is never sent twice and a
/// replaced one never lingers. The backend writes what `show` returns.
///
/// kitty keeps images by id: one is sent once, placed again by id after a repaint (no data
/// again), and deleted by id when another replaces it or none is shown. Inside tmux
/// (`kittyUnicode`) the frame's placeholder cells show it; the tracker only sends and deletes.
/// sixel and iTerm2 pictures are pixels in the cells: drawn again whenever cells were written over them.
public struct InlinePictureTracker: Sendable {
    /// What the backend does for one `show`, in this order.
    public struct Update: Equatable, Sendable {
        /// Bytes that remove the picture shown (kitty: delete by id); written first.
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
    /// kitty: the id of the image the terminal holds (sent, not deleted); 0: none.
    public private(set) var heldImageID: UInt32 = 0
    /// Rows of a sixel or iTerm2 picture that cells were written over: the
    /// rest of its pixels are still there until those rows are sent again.
    private var damagedRows: Range<Int>?

    public init(protocol imageProtocol: InlineProtocol?) {
        self.imageProtocol = imageProtocol
    }

    /// Shows `picture` (nil: none), given what is shown now.
    public mutating func show(_ picture: InlinePicture?) -> Update {
        guard let imageProtocol else { return Update() }
        if imageProtocol.keepsImages { return showKept(picture, passthrough: imageProtocol == .kittyUnicode) }
        if picture == shown && damagedRows == nil { return Update() }
        var update = Update()
        update.repaintRows = Self.union(damagedRows, shown.flatMap(Self.rows))
        damagedRows = nil
        shown = picture
        if let picture, Self.drawable(picture) { update.draw = Self.placed(picture) }
        return update
    }

    /// kitty: the image deleted when replaced, sent when the terminal does not hold it, placed.
    private mutating func showKept(_ picture: InlinePicture?, passthrough: Bool) -> Update {
        // After a repaint nothing is shown, yet the terminal may hold an image to delete.
        if picture == shown && (picture != nil || heldImageID == 0) { return Update() }
        var update = Update()
        if heldImageID != 0, heldImageID != picture?.imageID {
            update.clear = KittyGraphics.delete(id: heldImageID, passthrough: passthrough)
            heldImageID = 0
        }
        shown = picture
        guard let picture, Self.drawable(picture) else { return update }
        var bytes: [UInt8] = []
        if heldImageID != picture.imageID {
            bytes += picture.transmit
            heldImageID = picture.imageID
        }
        bytes += picture.sequence
        // Placeholders place themselves: the bytes only send the image and its virtual placement.
        update.draw = passthrough ? bytes : Self.placed(picture, bytes)
        return update
    }

    /// What takes the picture away before the terminal is given back (kitty: its image deleted);
    /// empty where the screen takes it along.
    public var removal: [UInt8] {
        guard let imageProtocol, imageProtocol.keepsImages, heldImageID != 0 else { return [] }
        return KittyGraphics.delete(id: heldImageID, passthrough: imageProtocol == .kittyUnicode)
    }

    /// The screen was cleared and repainted whole (resize, garbled screen,
    /// new colour pairs): the picture must be drawn (kitty: placed) again.
    public mutating func forget() {
        damagedRows = nil
        shown = nil
    }

    /// Cells were written: where they cross a sixel or iTerm2 picture they
    /// replaced part of its pixels, so its rows are sent again and it is drawn
    /// again (or taken away) at the next `show`. kitty pictures float over the cells.
    public mutating func noteWritten(_ runs: [CellRun]) {
        guard let shown, let imageProtocol, !imageProtocol.keepsImages else { return }
        let area = shown.area
        let crosses = runs.contains { run in
            run.y >= area.y && run.y < area.bottom && run.x < area.right && run.x + run.symbols.count > area.x
        }
        if crosses {
            damagedRows = Self.union(damagedRows, Self.rows(of: shown))
            self.shown = nil
        }
    }

    private static func drawable(_ picture: InlinePicture) -> Bool {
        picture.columns > 0 && picture.rows > 0 && !picture.sequence.isEmpty
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
    static func placed(_ picture: InlinePicture, _ bytes: [UInt8]? = nil) -> [UInt8] {
        var out = Array("\u{1B}7\u{1B}[\(picture.y + 1);\(picture.x + 1)H".utf8)
        out += bytes ?? picture.sequence
        out += Array("\u{1B}8".utf8)
        return out
    }
}
