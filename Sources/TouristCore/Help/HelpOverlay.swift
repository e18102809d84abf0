import Terminal

/// The keys of the screen underneath, in a panel over it.
struct HelpOverlay: Widget {
    var rows: [HelpRow]
    var theme: Theme
    var unicode: Bool

    func render(area: Rect, into buffer: inout CellBuffer) {
        let frame = Panel.place(width: 66, height: rows.count + 4, in: area)
        buffer.render(Panel(title: "Keys", theme: theme, unicode: unicode), in: frame)
        let inner = Panel.inner(frame)
        let keyWidth = min(22, inner.width / 2)
        for (i, row) in rows.enumerated() {
            buffer.put(row.keys, x: inner.x, y: inner.y + i, style: theme.dialogTitle, maxWidth: keyWidth)
            buffer.put(row.text, x: inner.x + keyWidth + 1, y: inner.y + i, style: theme.dialog,
                       maxWidth: inner.width - keyWidth - 1)
        }
        buffer.put("Any key closes this help.", x: inner.x, y: inner.y + rows.count + 1, style: theme.dim,
                   maxWidth: inner.width)
    }
}
