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

/// The message line: a short note or error (cut with `…` when it does not fit).
struct MessageLine: Widget {
    var message: StatusMessage
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        let style = message.kind == .error ? theme.error : theme.info
        buffer.clear(area, style: style)
        buffer.put(fitting: " " + message.text, x: area.x, y: area.y, style: style, width: area.width)
    }
}
