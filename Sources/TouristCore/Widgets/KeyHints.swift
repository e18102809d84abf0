import Terminal

/// A screen's hint row: its table's hints that fit, each key bright and its word after it.
struct KeyHints<Command: Equatable & Sendable>: Widget {
    var hints: [Hint<Command>]
    var theme: Theme

    /// The hints that fit in the row `area` and the columns each takes: drawn here, clicked by the mouse.
    static func placed(_ hints: [Hint<Command>], in area: Rect) -> [(hint: Hint<Command>, columns: Range<Int>)] {
        hints.fitting(width: area.right - area.x - 1).placed(from: area.x + 1)
    }

    func render(area: Rect, into buffer: inout CellBuffer) {
        for (hint, columns) in KeyHints.placed(hints, in: area) {
            var x = columns.lowerBound
            x += buffer.put(fitting: hint.key, x: x, y: area.y, style: theme.dialogTitle, width: area.right - x)
            x += buffer.put(fitting: " \(hint.label)", x: x, y: area.y, style: theme.dialog, width: area.right - x)
            // The gap after a hint is blank, not text: clipped, never marked as cut.
            x += buffer.put("  ", x: x, y: area.y, style: theme.dialog, maxWidth: area.right - x)
        }
    }
}
