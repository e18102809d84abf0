import Terminal

/// Asks before a pin and its album go.
struct ConfirmDialog: Widget {
    var pin: Pin
    var theme: Theme
    var unicode: Bool

    func render(area: Rect, into buffer: inout CellBuffer) {
        let frame = Panel.place(width: 56, height: 6, in: area)
        buffer.render(Panel(title: "Delete pin", theme: theme), in: frame)
        let inner = Panel.inner(frame)
        let name = pin.name ?? pin.coordinate.formatted()
        buffer.put("Delete \u{201C}\(name)\u{201D}?".truncated(to: inner.width), x: inner.x, y: inner.y, style: theme.dialog)
        buffer.put("Its album and photos go with it.".truncated(to: inner.width), x: inner.x, y: inner.y + 1, style: theme.dim)
        let keys = ConfirmKeys.table.hints(unicode: unicode).map { "[\($0.key)] \($0.label)" }.joined(separator: "   ")
        buffer.put(keys, x: inner.x, y: inner.y + 3, style: theme.dialogTitle, maxWidth: inner.width)
    }
}
