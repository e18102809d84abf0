import Terminal

/// The keys of the screen underneath, in a panel over it.
struct HelpOverlay: Widget {
    var rows: [HelpRow]
    var theme: Theme

    /// The keys' column.
    static let keyWidth = 22

    func render(area: Rect, into buffer: inout CellBuffer) {
        // As wide as the longest line needs (every line whole where the screen allows), at least 66.
        let textNeed = rows.map(\.text.displayWidth).max() ?? 0
        let frame = Panel.place(width: max(66, HelpOverlay.keyWidth + 1 + textNeed + 4), height: rows.count + 4, in: area)
        buffer.render(Panel(title: "Keys", theme: theme), in: frame)
        let inner = Panel.inner(frame)
        let keyWidth = min(HelpOverlay.keyWidth, inner.width / 2)
        for (i, row) in rows.enumerated() {
            buffer.put(row.keys, x: inner.x, y: inner.y + i, style: theme.dialogTitle, maxWidth: keyWidth)
            buffer.put(row.text, x: inner.x + keyWidth + 1, y: inner.y + i, style: theme.dialog,
                       maxWidth: inner.width - keyWidth - 1)
        }
        buffer.put("Any key closes this help.", x: inner.x, y: inner.y + rows.count + 1, style: theme.dim,
                   maxWidth: inner.width)
    }
}
