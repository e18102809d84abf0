extension String {
    /// Cells the text takes on screen: one per scalar of its `displayable` form.
    public var displayWidth: Int { displayable.unicodeScalars.count }

    /// The text made `displayable` and cut to a number of cells, with `…` marking the cut.
    public func truncated(to width: Int) -> String {
        let shown = displayable
        let scalars = shown.unicodeScalars
        guard scalars.count > width else { return shown }
        guard width > 1 else { return "" }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars.prefix(width - 1))
        view.append("\u{2026}")
        return String(view)
    }
}

extension String {
    /// The text made `displayable` and broken into lines of at most `width` cells at spaces, at
    /// most `limit` lines (the last cut with `…` when more would follow). A word longer than a
    /// line is cut where it must be.
    public func wrapped(to width: Int, limit: Int = .max) -> [String] {
        guard width > 0, limit > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        // The words are displayable already: a scalar is a cell, no need to clean them again.
        for word in displayable.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            var word = word
            if !line.isEmpty, line.unicodeScalars.count + 1 + word.unicodeScalars.count <= width {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while word.unicodeScalars.count > width {
                lines.append(String(String.UnicodeScalarView(word.unicodeScalars.prefix(width))))
                word = String(String.UnicodeScalarView(word.unicodeScalars.dropFirst(width)))
            }
            line = word
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
