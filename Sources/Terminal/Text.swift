extension String {
    /// Columns the text takes on screen: its `displayCells`' widths (two for CJK and emoji).
    public var displayWidth: Int {
        if isPrintableASCII { return utf8.count }
        return displayCells.reduce(0) { $0 + $1.width }
    }

    /// The text made `displayable` and cut to a number of columns, with `…` marking the cut. A
    /// wide character is never cut in half: the text then ends a column short.
    public func truncated(to width: Int) -> String {
        if isPrintableASCII {
            guard utf8.count > width else { return self }
            guard width > 1 else { return "" }
            return String(unicodeScalars.prefix(width - 1)) + "\u{2026}"
        }
        let cells = displayCells
        guard cells.reduce(0, { $0 + $1.width }) > width else { return String(cells: cells[...]) }
        guard width > 1 else { return "" }
        return String(cells: cells.prefix(columns: width - 1)) + "\u{2026}"
    }
}

extension String {
    /// Text made of cells (`displayCells`), their marks with them.
    init(cells: ArraySlice<TextCell>) {
        var view = String.UnicodeScalarView()
        for cell in cells {
            view.append(cell.base)
            view.append(contentsOf: cell.marks)
        }
        self = String(view)
    }
}

extension RandomAccessCollection where Element == TextCell {
    /// The first cells that fit in `columns` columns.
    func prefix(columns: Int) -> SubSequence {
        var used = 0, end = startIndex
        while end != endIndex, used + self[end].width <= columns {
            used += self[end].width
            end = index(after: end)
        }
        return self[startIndex..<end]
    }
}

extension String {
    /// The text made `displayable` and broken into lines of at most `width` columns at spaces, at
    /// most `limit` lines (the last cut with `…` when more would follow). A word longer than a
    /// line (or a run of CJK, which has no spaces) is cut where it must be, between characters.
    public func wrapped(to width: Int, limit: Int = .max) -> [String] {
        guard width > 0, limit > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in displayable.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            var cells = word.displayCells[...]
            var wordWidth = cells.reduce(0) { $0 + $1.width }
            if !line.isEmpty, lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while wordWidth > width {
                let head = cells.prefix(columns: width)
                // A line narrower than one wide character still takes it: nothing else would ever fit.
                let taken = head.isEmpty ? cells.prefix(1) : head
                lines.append(String(cells: taken))
                cells = cells.dropFirst(taken.count)
                wordWidth -= taken.reduce(0) { $0 + $1.width }
            }
            line = String(cells: cells)
            lineWidth = wordWidth
        }
        if !line.isEmpty { lines.append(line) }
        guard lines.count > limit else { return lines }
        var kept = Array(lines.prefix(limit))
        kept[limit - 1] = (kept[limit - 1] + " " + lines[limit]).truncated(to: width)
        return kept
    }
}

extension Array where Element == String {
    /// Paragraphs, each `wrapped(to:)` on lines of its own, at most `limit` lines in all: when more
    /// would follow, the last line takes what of it fits and ends in `…`, as within one paragraph.
    public func wrapped(to width: Int, limit: Int = .max) -> [String] {
        guard width > 0, limit > 0 else { return [] }
        let lines = flatMap { $0.wrapped(to: width) }
        guard lines.count > limit else { return lines }
        var kept = Array(lines.prefix(limit))
        kept[limit - 1] = lines[(limit - 1)...].joined(separator: " ").truncated(to: width)
        return kept
    }
}
