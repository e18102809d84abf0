import Terminal

/// The rename prompt: the field, then the last error or what an empty name does and the keys.
struct RenamePanel: Widget {
    var prompt: RenamePrompt
    var theme: Theme
    var unicode: Bool

    func render(area: Rect, into buffer: inout CellBuffer) {
        let frame = Panel.place(width: 64, height: 4, in: area, top: 1)
        buffer.render(Panel(title: "Rename pin", theme: theme), in: frame)
        let inner = Panel.inner(frame)
        buffer.put("> ", x: inner.x, y: inner.y, style: theme.dialogTitle, maxWidth: inner.width)
        buffer.render(TextFieldView(field: prompt.field, style: theme.dialogTitle),
                      in: Rect(x: inner.x + 2, y: inner.y, width: max(0, inner.width - 2), height: 1))
        if let error = prompt.error {
            buffer.put(fitting: error, x: inner.x, y: inner.y + 1, style: theme.error, width: inner.width)
        } else {
            let keys = RenameKeys.table.hints(unicode: unicode).map { "\($0.key) \($0.label)" }.joined(separator: ", ")
            // The keys first: a long place name is what gets cut.
            let empty = prompt.placeName.map { "; empty: \u{201C}\($0)\u{201D} again" } ?? "; empty: no name"
            buffer.put(fitting: keys + empty, x: inner.x, y: inner.y + 1, style: theme.dim, width: inner.width)
        }
    }
}
