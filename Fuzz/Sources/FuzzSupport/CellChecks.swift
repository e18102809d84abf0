import Terminal

extension FuzzCheck {
    /// Every cell is a one-column character a terminal shows, or one half of a two-column one: the
    /// character, then its right half (`Cell.continuation`) on the same row.
    public static func cellsShowable(_ buffer: CellBuffer, _ what: @autoclosure () -> String) {
        for (i, cell) in buffer.cells.enumerated() {
            let x = i % buffer.width
            if cell.isContinuation {
                that(x > 0 && buffer.cells[i - 1].symbol.terminalColumns == 2,
                     "\(what()): a right half without its wide character at cell \(i)")
            } else if cell.symbol.terminalColumns == 2 {
                that(x + 1 < buffer.width && buffer.cells[i + 1].isContinuation,
                     "\(what()): U+\(String(cell.symbol.value, radix: 16)) without its right half at cell \(i)")
            } else {
                that(Cell.displayable(cell.symbol) == cell.symbol, "\(what()): a cell holds U+\(String(cell.symbol.value, radix: 16))")
            }
        }
    }
}
