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
    /// A question around a name, laid out at the width the dialog gets (`question` is then unused).
    private var naming: (before: String, name: String, after: String)?

    /// Before a pin and its album go.
    init(pin: Pin, theme: Theme, unicode: Bool) {
        self.init(title: "Delete pin", question: "Delete \u{201C}\(pin.displayName)\u{201D}?",
                  detail: "Its album and photos go with it.", yes: "Delete", theme: theme, unicode: unicode)
    }

    /// Before a pin with photos is moved: the move replaces its album. The name gives way, never the
    /// question: where the name would be cut short, the question takes two rows.
    init(moving pin: Pin, theme: Theme, unicode: Bool) {
        let count = pin.photoCount == 1 ? "the photo" : "the \(pin.photoCount) photos"
        self.init(title: "Move pin", question: "", detail: "A new album is fetched for its new place.", yes: "Move",
                  theme: theme, unicode: unicode)
        naming = (before: "Moving replaces \(count) of", name: pin.displayName, after: "\u{201D}. Move?")
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

    /// The question's rows at an inner width: one row where the name keeps at least 12 columns (or
    /// all of its own), else the name and the question on a row of their own.
    func questionRows(width: Int) -> [String] {
        guard let naming else { return [question] }
        let open = " \u{201C}"
        let oneRow = width - naming.before.displayWidth - open.displayWidth - naming.after.displayWidth
        if oneRow >= min(naming.name.displayWidth, 12) {
            return [naming.before + open + naming.name.truncated(to: max(1, oneRow)) + naming.after]
        }
        let secondRow = width - 1 - naming.after.displayWidth
        return [naming.before, "\u{201C}" + naming.name.truncated(to: max(1, secondRow)) + naming.after]
    }

    func render(area: Rect, into buffer: inout CellBuffer) {
        let rows = questionRows(width: Panel.inner(Panel.place(width: ConfirmDialog.width, height: 6, in: area)).width)
        let frame = Panel.place(width: ConfirmDialog.width, height: 5 + rows.count, in: area)
        buffer.render(Panel(title: title, theme: theme), in: frame)
        let inner = Panel.inner(frame)
        for (i, row) in rows.enumerated() {
            buffer.put(fitting: row, x: inner.x, y: inner.y + i, style: theme.dialog, width: inner.width)
        }
        buffer.put(fitting: detail, x: inner.x, y: inner.y + rows.count, style: theme.dim, width: inner.width)
        let keys = ConfirmKeys.table.hints(unicode: unicode)
            .map { "[\($0.key)] \($0.command == .delete ? yes : $0.label)" }.joined(separator: "   ")
        buffer.put(fitting: keys, x: inner.x, y: inner.y + rows.count + 2, style: theme.dialogTitle, width: inner.width)
    }
}
