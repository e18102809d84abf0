/// A stretch of changed cells on one row that share a style, so the backend
/// can write it with a single call.
public struct CellRun: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var style: Style
    public var symbols: [Unicode.Scalar]
    /// A run of kitty placeholder cells: each symbol's row and column (empty for text).
    public var placeholders: [ImagePlaceholder]

    public init(x: Int, y: Int, style: Style, symbols: [Unicode.Scalar], placeholders: [ImagePlaceholder] = []) {
        self.x = x
        self.y = y
        self.style = style
        self.symbols = symbols
        self.placeholders = placeholders
    }

    /// The run's characters as a string, for tests and logs.
    public var text: String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: symbols)
        return String(s)
    }
}

extension CellBuffer {
    /// The cells that differ from `previous`, grouped into runs of
    /// consecutive changed cells with the same style, row by row, left to
    /// right. With no previous buffer, or one of another size, every cell is
    /// reported (a full repaint).
    public func changes(from previous: CellBuffer?) -> [CellRun] {
        let full = previous == nil || previous?.width != width || previous?.height != height
        let old = previous?.cells ?? []
        var runs: [CellRun] = []
        for y in 0..<height {
            let base = y * width
            var x = 0
            while x < width {
                let cell = cells[base + x]
                if !full && old[base + x] == cell {
                    x += 1
                    continue
                }
                var run = CellRun(x: x, y: y, style: cell.style, symbols: [cell.symbol],
                                  placeholders: cell.placeholder.map { [$0] } ?? [])
                let placing = cell.placeholder != nil
                x += 1
                while x < width {
                    let next = cells[base + x]
                    // A run is all text or all placeholders.
                    guard next.style == run.style, (next.placeholder != nil) == placing,
                          full || old[base + x] != next else { break }
                    run.symbols.append(next.symbol)
                    if let placeholder = next.placeholder { run.placeholders.append(placeholder) }
                    x += 1
                }
                runs.append(run)
            }
        }
        return runs
    }
}
