import Terminal

/// The go-to prompt: the text field, a hint or the last error, and the completions with the
/// highlighted one (where Enter goes) shown selected.
struct GoToPanel: Widget {
    var prompt: GoToPrompt
    var theme: Theme
    var unicode: Bool

    func render(area: Rect, into buffer: inout CellBuffer) {
        let frame = Panel.place(width: 64, height: 4 + prompt.suggestions.count, in: area, top: 1)
        buffer.render(Panel(title: "Go to", theme: theme), in: frame)
        let inner = Panel.inner(frame)
        buffer.put("> ", x: inner.x, y: inner.y, style: theme.dialogTitle, maxWidth: inner.width)
        buffer.render(TextFieldView(field: prompt.field, style: theme.dialogTitle),
                      in: Rect(x: inner.x + 2, y: inner.y, width: max(0, inner.width - 2), height: 1))
        var y = inner.y + 1
        if let error = prompt.error {
            buffer.put(error.truncated(to: inner.width), x: inner.x, y: y, style: theme.error)
        } else {
            let keys = GoToKeys.table.hints(unicode: unicode).map { "\($0.key) \($0.label)" }.joined(separator: ", ")
            buffer.put(("Place or LAT, LON. " + keys).truncated(to: inner.width), x: inner.x, y: y, style: theme.dim)
        }
        y += 1
        for (i, s) in prompt.suggestions.enumerated() {
            let style = prompt.selected == i ? theme.selection : theme.dialog
            buffer.clear(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: style)
            buffer.put(s.displayName.truncated(to: inner.width), x: inner.x, y: y, style: style)
            y += 1
        }
    }
}
