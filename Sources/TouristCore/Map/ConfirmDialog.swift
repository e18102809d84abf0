import Model
import Terminal

/// Asks before something goes: a title, the question, what goes with it, and the keys (the
/// confirm table's; `yes` names what the first does).
struct ConfirmDialog: Widget {
    var title: String
    var question: String
    var detail: String
    var yes: String
    var theme: Theme
    var unicode: Bool

    /// Before a pin and its album go.
    init(pin: Pin, theme: Theme, unicode: Bool) {
        self.init(title: "Delete pin", question: "Delete \u{201C}\(pin.displayName)\u{201D}?",
                  detail: "Its album and photos go with it.", yes: "Delete", theme: theme, unicode: unicode)
    }

    init(title: String, question: String, detail: String, yes: String, theme: Theme, unicode: Bool) {
        self.title = title
        self.question = question
        self.detail = detail
        self.yes = yes
        self.theme = theme
        self.unicode = unicode
    }

    func render(area: Rect, into buffer: inout CellBuffer) {
        let frame = Panel.place(width: 56, height: 6, in: area)
        buffer.render(Panel(title: title, theme: theme), in: frame)
        let inner = Panel.inner(frame)
        buffer.put(fitting: question, x: inner.x, y: inner.y, style: theme.dialog, width: inner.width)
        buffer.put(fitting: detail, x: inner.x, y: inner.y + 1, style: theme.dim, width: inner.width)
        let keys = ConfirmKeys.table.hints(unicode: unicode)
            .map { "[\($0.key)] \($0.command == .delete ? yes : $0.label)" }.joined(separator: "   ")
        buffer.put(fitting: keys, x: inner.x, y: inner.y + 3, style: theme.dialogTitle, width: inner.width)
    }
}
