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

    /// Before a pin with photos is moved: the move replaces its album. The name gives way, never the question.
    init(moving pin: Pin, theme: Theme, unicode: Bool) {
        let count = pin.photoCount == 1 ? "the photo" : "the \(pin.photoCount) photos"
        let words = (before: "Moving replaces \(count) of \u{201C}", after: "\u{201D}. Move?")
        let room = Panel.inner(Rect(x: 0, y: 0, width: ConfirmDialog.width, height: 1)).width
            - words.before.displayWidth - words.after.displayWidth
        self.init(title: "Move pin", question: words.before + pin.displayName.truncated(to: max(1, room)) + words.after,
                  detail: "A new album is fetched for its new place.", yes: "Move", theme: theme, unicode: unicode)
    }

    /// The dialog's width with its frame.
    static let width = 56

    init(title: String, question: String, detail: String, yes: String, theme: Theme, unicode: Bool) {
        self.title = title
        self.question = question
        self.detail = detail
        self.yes = yes
        self.theme = theme
        self.unicode = unicode
    }

    func render(area: Rect, into buffer: inout CellBuffer) {
        let frame = Panel.place(width: ConfirmDialog.width, height: 6, in: area)
        buffer.render(Panel(title: title, theme: theme), in: frame)
        let inner = Panel.inner(frame)
        buffer.put(fitting: question, x: inner.x, y: inner.y, style: theme.dialog, width: inner.width)
        buffer.put(fitting: detail, x: inner.x, y: inner.y + 1, style: theme.dim, width: inner.width)
        let keys = ConfirmKeys.table.hints(unicode: unicode)
            .map { "[\($0.key)] \($0.command == .delete ? yes : $0.label)" }.joined(separator: "   ")
        buffer.put(fitting: keys, x: inner.x, y: inner.y + 3, style: theme.dialogTitle, width: inner.width)
    }
}
