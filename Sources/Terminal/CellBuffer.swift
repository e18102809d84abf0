/// A rectangle of cells that widgets paint into. Row-major, (0,0) top left.
/// The backend diffs two buffers and writes only the cells that changed.
public struct CellBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: fill, count: self.width * self.height)
    }

    @inlinable
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { if contains(x: x, y: y) { cells[y * width + x] = newValue } }
    }

    /// Fills every cell of a rectangle (clipped to the buffer).
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with cell: Cell) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            let base = row * width
            for col in x0..<x1 { cells[base + col] = cell }
        }
    }

    /// Writes text from (x, y) on one line, clipped at `maxWidth` cells and the
    /// buffer's edge. The text is made `displayable` first: no control or escape sequence
    /// reaches a cell, and each remaining scalar takes one. Returns the number of cells written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int = .max) -> Int {
        guard y >= 0, y < height else { return 0 }
        var col = x
        // maxWidth defaults to .max: avoid overflowing when adding it to x.
        let (end, overflow) = x.addingReportingOverflow(max(0, maxWidth))
        let limit = overflow ? width : min(width, end)
        for scalar in text.displayable.unicodeScalars {
            if col >= limit { break }
            if col >= 0 { cells[y * width + col] = Cell(scalar, style: style) }
            col += 1
        }
        return max(0, col - x)
    }

    /// Writes text that must fit in `width` cells (and the buffer's edge): cut by
    /// `truncated(to:)`, so a cut shows as `…`. Every widget that cuts words uses it.
    @discardableResult
    public mutating func put(fitting text: String, x: Int, y: Int, style: Style = .plain, width: Int) -> Int {
        let room = max(0, min(width, self.width - x))
        return put(text.truncated(to: room), x: x, y: y, style: style, maxWidth: room)
    }

    /// The characters of one row, for tests and logs.
    public func rowText(_ y: Int) -> String {
        var s = String.UnicodeScalarView()
        for x in 0..<width { s.append(self[x, y].symbol) }
        return String(s)
    }

    /// All rows joined by newlines.
    public var text: String {
        (0..<height).map(rowText).joined(separator: "\n")
    }
}

extension CellBuffer {
    /// Copies another buffer's cells with its top left at (x, y), clipped to this buffer. Blank
    /// cells of the default style are skipped when `skippingBlank`: what is underneath shows
    /// through (a picture's margins take the colour of the panel it is drawn on).
    public mutating func draw(_ other: CellBuffer, x: Int, y: Int, skippingBlank: Bool = true) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + other.width), y1 = min(height, y + other.height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            let base = row * width, from = (row - y) * other.width - x
            for col in x0..<x1 {
                let cell = other.cells[from + col]
                if skippingBlank && cell == .blank { continue }
                cells[base + col] = cell
            }
        }
    }
}
