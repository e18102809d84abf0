import Terminal

/// A framed dialog: clears its area, draws the frame and title, and says
/// where its contents go.
struct Panel: Widget {
    var title: String
    var theme: Theme

    /// The area inside the frame, one column of padding either side.
    static func inner(_ area: Rect) -> Rect { area.inset(dx: 2, dy: 1) }

    /// Where a panel of this size goes in an area: centred, a little narrower
    /// than the area; `top` puts it at that row of the area instead.
    static func place(width: Int, height: Int, in area: Rect, top: Int? = nil) -> Rect {
        area.centered(width: min(width, area.width - 2), height: height, top: top)
    }

    func render(area: Rect, into buffer: inout CellBuffer) {
        buffer.clear(area, style: theme.dialog)
        buffer.drawFrame(area, title: title, style: theme.dialog, titleStyle: theme.dialogTitle)
    }
}

/// The message line: a short note or error, on the row above the status line. A message too
/// long for one row wraps onto the rows above it (up to `maxRows`, the last cut with `…`), so the
/// reason at its end is seen; the log has the whole of an error all the same.
struct MessageLine: Widget {
    var message: StatusMessage
    var theme: Theme

    /// Rows a message may take, counted up from the status line.
    static let maxRows = 3

    /// The rows the message's text takes in `width` columns (a space before each).
    static func lines(_ text: String, width: Int, rows: Int = maxRows) -> [String] {
        let lines = text.wrapped(to: max(1, width - 1), limit: max(1, rows))
        return lines.isEmpty ? [""] : lines
    }

    func render(area: Rect, into buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let style = message.kind == .error ? theme.error : theme.info
        let lines = MessageLine.lines(message.text, width: area.width, rows: min(area.height, MessageLine.maxRows))
        let top = area.bottom - lines.count
        buffer.clear(Rect(x: area.x, y: top, width: area.width, height: lines.count), style: style)
        for (i, line) in lines.enumerated() {
            buffer.put(fitting: " " + line, x: area.x, y: top + i, style: style, width: area.width)
        }
    }
}
