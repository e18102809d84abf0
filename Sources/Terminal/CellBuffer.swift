/// A rectangle of cells that widgets paint into. Row-major, (0,0) top left.
/// The backend diffs two buffers and writes only the cells that changed.
///
/// A character two columns wide takes two cells: itself, then `Cell.continuation`. The buffer
/// keeps the pair whole: a write over either half leaves the other a blank, never half a character.
public struct CellBuffer: Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// The marks of cells that carry more than their character, by `Cell.marksID` (1 is the first).
    private var marksTable: [[Unicode.Scalar]] = []

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: CellBuffer.single(fill), count: self.width * self.height)
    }

    @inlinable
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// One cell. Setting it writes a character one column wide (its marks and any `continuation`
    /// are dropped: only `put` and `draw` lay a character over two cells); a wide character it
    /// overwrites half of is blanked.
    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { if contains(x: x, y: y) { store(CellBuffer.single(newValue), at: y * width + x) } }
    }

    /// The marks that go with the cell's character (combining accents, an emoji's modifiers).
    public func marks(x: Int, y: Int) -> [Unicode.Scalar] {
        guard contains(x: x, y: y) else { return [] }
        return marks(of: cells[y * width + x])
    }

    func marks(of cell: Cell) -> [Unicode.Scalar] {
        let id = cell.marksID
        return id > 0 && id <= marksTable.count ? marksTable[id - 1] : []
    }

    /// Whether the cell at `x, y` holds the first half of a wide character.
    public func isWide(x: Int, y: Int) -> Bool {
        contains(x: x + 1, y: y) && x >= 0 && cells[y * width + x + 1].isContinuation
    }

    /// A cell as it may be set on its own: one column, no marks of another buffer.
    private static func single(_ cell: Cell) -> Cell {
        var cell = cell
        if cell.placeholder == nil { cell.marksID = 0 }
        if cell.isContinuation { cell.symbol = " " }
        return cell
    }

    /// Writes a cell, keeping every wide character whole: the half of one it overwrites is blanked.
    private mutating func store(_ cell: Cell, at i: Int) {
        let x = i % width
        if cells[i].isContinuation, !cell.isContinuation, x > 0 {
            cells[i - 1] = Cell(" ", style: cells[i - 1].style)
        }
        if x + 1 < width, cells[i + 1].isContinuation {
            cells[i + 1] = Cell(" ", style: cells[i + 1].style)
        }
        cells[i] = cell
    }

    /// Writes one cell of text at `x, y` (on the buffer): its character, marks and, for a wide one,
    /// its continuation to the right.
    private mutating func store(_ text: TextCell, x: Int, y: Int, style: Style) {
        var cell = Cell(text.base, style: style)
        if !text.marks.isEmpty {
            marksTable.append(text.marks)
            cell.marksID = marksTable.count
        }
        store(cell, at: y * width + x)
        if text.width == 2 { store(Cell(Cell.continuation, style: style), at: y * width + x + 1) }
    }

    /// Fills every cell of a rectangle (clipped to the buffer).
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with cell: Cell) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        let cell = CellBuffer.single(cell)
        for row in y0..<y1 {
            let base = row * width
            // The halves of wide characters the edges cut through.
            if cells[base + x0].isContinuation, x0 > 0 { cells[base + x0 - 1] = Cell(" ", style: cells[base + x0 - 1].style) }
            if x1 < width, cells[base + x1].isContinuation { cells[base + x1] = Cell(" ", style: cells[base + x1].style) }
            for col in x0..<x1 { cells[base + col] = cell }
        }
    }

    /// Writes text from (x, y) on one line, clipped at `maxWidth` columns and the buffer's edge.
    /// The text is laid out by `displayCells` first: no control or escape sequence reaches a cell,
    /// a wide character takes two cells, marks stay with their character. A wide character that
    /// does not fit at an edge leaves a blank there. Returns the number of cells written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int = .max) -> Int {
        guard y >= 0, y < height else { return 0 }
        // maxWidth defaults to .max: avoid overflowing when adding it to x.
        let (end, overflow) = x.addingReportingOverflow(max(0, maxWidth))
        let limit = overflow ? width : min(width, end)
        var col = x
        if text.isPrintableASCII {
            for scalar in text.unicodeScalars {
                if col >= limit { break }
                if col >= 0 { store(Cell(scalar, style: style), at: y * width + col) }
                col += 1
            }
            return max(0, col - x)
        }
        for cell in text.displayCells {
            if col >= limit { break }
            if col + cell.width <= 0 {
                col += cell.width
                continue
            }
            if col + cell.width > limit || col < 0 {
                // Half of it would be outside: the half inside is a blank.
                for c in max(0, col)..<min(limit, col + cell.width) { store(Cell(" ", style: style), at: y * width + c) }
                col = min(limit, col + cell.width)
                continue
            }
            store(cell, x: col, y: y, style: style)
            col += cell.width
        }
        return max(0, col - x)
    }

    /// Writes text that must fit in `width` columns (and the buffer's edge): cut by
    /// `truncated(to:)`, so a cut shows as `…`. Every widget that cuts words uses it.
    @discardableResult
    public mutating func put(fitting text: String, x: Int, y: Int, style: Style = .plain, width: Int) -> Int {
        let room = max(0, min(width, self.width - x))
        return put(text.truncated(to: room), x: x, y: y, style: style, maxWidth: room)
    }

    /// The characters of one row, for tests and logs: a wide character once, with its marks.
    public func rowText(_ y: Int) -> String {
        var s = String.UnicodeScalarView()
        for cell in cells[(y * width)..<((y + 1) * width)] where !cell.isContinuation {
            s.append(cell.symbol)
            if cell.marksID != 0 { s.append(contentsOf: marks(of: cell)) }
        }
        return String(s)
    }

    /// All rows joined by newlines.
    public var text: String {
        (0..<height).map(rowText).joined(separator: "\n")
    }
}

extension CellBuffer: Equatable {
    /// Two buffers are equal when they show the same: the same cells, with the same marks.
    public static func == (a: CellBuffer, b: CellBuffer) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        if a.marksTable.isEmpty && b.marksTable.isEmpty { return a.cells == b.cells }
        return a.cells.indices.allSatisfy { a.sameCell($0, as: b, $0) }
    }

    /// Whether cell `i` shows what `other`'s cell `j` shows.
    func sameCell(_ i: Int, as other: CellBuffer, _ j: Int) -> Bool {
        let a = cells[i], b = other.cells[j]
        if a.marksID == 0 && b.marksID == 0 { return a == b }
        guard a.marksID != 0, b.marksID != 0, a.symbol == b.symbol, a.style == b.style else { return false }
        return marks(of: a) == other.marks(of: b)
    }
}

extension CellBuffer {
    /// Copies another buffer's cells with its top left at (x, y), clipped to this buffer. Blank
    /// cells of the default style are skipped when `skippingBlank`: what is underneath shows
    /// through (a picture's margins take the colour of the panel it is drawn on). A wide
    /// character the clip cuts in half leaves a blank.
    public mutating func draw(_ other: CellBuffer, x: Int, y: Int, skippingBlank: Bool = true) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + other.width), y1 = min(height, y + other.height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            let base = row * width, from = (row - y) * other.width - x
            var col = x0
            while col < x1 {
                let cell = other.cells[from + col]
                if skippingBlank && cell == .blank {
                    col += 1
                    continue
                }
                let wide = from + col + 1 < other.cells.count && col + 1 - x < other.width && other.cells[from + col + 1].isContinuation
                if cell.isContinuation || (wide && col + 1 >= x1) {
                    store(Cell(" ", style: cell.style), at: base + col)
                    col += 1
                } else if wide || cell.marksID != 0 {
                    let marks = other.marks(of: cell)
                    store(TextCell(cell.symbol, marks: marks, width: wide ? 2 : 1), x: col, y: row, style: cell.style)
                    col += wide ? 2 : 1
                } else {
                    store(cell, at: base + col)
                    col += 1
                }
            }
        }
    }
}

extension CellBuffer {
    /// Sets one cell as it is, without mending the wide character around it: for a pass that
    /// rewrites both halves itself (`makeASCII`).
    mutating func replaceCell(x: Int, y: Int, with cell: Cell) {
        cells[y * width + x] = cell
    }
}
