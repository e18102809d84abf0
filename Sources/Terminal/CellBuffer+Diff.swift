/// A stretch of changed cells on one row that share a style, so the backend
/// can write it with a single call.
public struct CellRun: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var style: Style
    /// One per cell: a wide character is followed by `Cell.continuation` (a run never splits the pair).
    public var symbols: [Unicode.Scalar]
    /// A run of kitty placeholder cells: each symbol's row and column (empty for text).
    public var placeholders: [ImagePlaceholder]
    /// The marks that go with a symbol, by its index in `symbols` (only for those that have some).
    public var marks: [Int: [Unicode.Scalar]]

    public init(x: Int, y: Int, style: Style, symbols: [Unicode.Scalar], placeholders: [ImagePlaceholder] = [],
                marks: [Int: [Unicode.Scalar]] = [:]) {
        self.x = x
        self.y = y
        self.style = style
        self.symbols = symbols
        self.placeholders = placeholders
        self.marks = marks
    }

    /// Whether the symbol at `i` is the first half of a wide character.
    public func isWide(_ i: Int) -> Bool { i + 1 < symbols.count && symbols[i + 1] == Cell.continuation }

    /// The run's characters as a string, for tests and logs: a wide character once, with its marks.
    public var text: String {
        var s = String.UnicodeScalarView()
        for (i, symbol) in symbols.enumerated() where symbol != Cell.continuation {
            s.append(symbol)
            if let marks = marks[i] { s.append(contentsOf: marks) }
        }
        return String(s)
    }
}

extension CellBuffer {
    /// The cells that differ from `previous`, grouped into runs of
    /// consecutive changed cells with the same style, row by row, left to
    /// right. With no previous buffer, or one of another size, every cell is
    /// reported (a full repaint). A wide character and its continuation are one unit: both
    /// are in the run when either changed.
    public func changes(from previous: CellBuffer?) -> [CellRun] {
        let full = previous == nil || previous?.width != width || previous?.height != height
        let old = previous ?? self
        var runs: [CellRun] = []
        for y in 0..<height {
            let base = y * width
            // Cells of the unit at x, and whether it changed.
            func unit(_ x: Int) -> (count: Int, changed: Bool) {
                let count = x + 1 < width && cells[base + x + 1].isContinuation ? 2 : 1
                if full { return (count, true) }
                let changed = !sameCell(base + x, as: old, base + x) || (count == 2 && !sameCell(base + x + 1, as: old, base + x + 1))
                return (count, changed)
            }
            var x = 0
            while x < width {
                let (count, changed) = unit(x)
                guard changed else {
                    x += count
                    continue
                }
                let first = cells[base + x]
                var run = CellRun(x: x, y: y, style: first.style, symbols: [])
                let placing = first.placeholder != nil
                var next = (count: count, changed: true)
                repeat {
                    for i in 0..<next.count {
                        let cell = cells[base + x + i]
                        if cell.marksID != 0 { run.marks[run.symbols.count] = marks(of: cell) }
                        run.symbols.append(cell.symbol)
                        if let placeholder = cell.placeholder { run.placeholders.append(placeholder) }
                    }
                    x += next.count
                    guard x < width else { break }
                    let cell = cells[base + x]
                    // A run is all text or all placeholders.
                    guard cell.style == run.style, (cell.placeholder != nil) == placing else { break }
                    next = unit(x)
                } while next.changed
                runs.append(run)
            }
        }
        return runs
    }
}
