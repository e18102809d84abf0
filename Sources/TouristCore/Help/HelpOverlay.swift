import Terminal

/// The keys of the screen underneath, in a panel over it; on the map also
/// the legend: beside the keys where the screen is wide enough, else below
/// them in as many columns as fit. Where the screen is too short for all of
/// it, the panel shows what fits and scrolls (`HelpReducer`), its bottom edge
/// saying where it stands; nothing is ever drawn outside the panel.
struct HelpOverlay: Widget {
    var rows: [HelpRow]
    var legend: [LegendRow] = []
    var theme: Theme
    /// The first line shown when the help scrolls (clamped to what the size allows).
    var top = 0

    /// The keys' column.
    static let keyWidth = 22
    static let closing = "Any key closes this help."
    /// The gap between the keys and a legend beside them.
    static let gap = 3

    /// The help of the shown screen, scrolled as the state says: what is drawn and what the keys scroll.
    init(for state: AppState) {
        let feature = state.screen.feature
        let theme = Theme.forDepth(state.capabilities.colors)
        self.init(rows: feature.helpRows(state, unicode: state.capabilities.unicode),
                  legend: (feature as? any HasHelpLegend)?.helpLegend(state, theme: theme) ?? [], theme: theme, top: state.helpTop)
    }

    init(rows: [HelpRow], legend: [LegendRow] = [], theme: Theme, top: Int = 0) {
        self.rows = rows
        self.legend = legend
        self.theme = theme
        self.top = top
    }

    /// One line of the panel.
    enum Line: Equatable {
        case blank
        /// A key's row: its keys on its first line, its words (wrapped) on as many as they need.
        case keys(String, String)
        /// One row of the legend below the keys: the indices of its entries, left to right.
        case legend([Int])
        case closing
    }

    /// Where everything goes in an area.
    struct Layout: Equatable {
        var frame: Rect
        var inner: Rect
        /// The legend beside the keys (only when all of it fits: this layout never scrolls).
        var beside: Bool
        var keyWidth: Int
        /// Every line of the panel (for `beside`, the keys' column).
        var lines: [Line]
        /// Lines shown at once.
        var visible: Int
        /// The legend's columns below the keys, each this wide.
        var entryWidth: Int
        var sampleWidth: Int

        /// The largest `top`: the last page shows the last line at the bottom.
        var maxTop: Int { max(0, lines.count - visible) }
        var scrolls: Bool { maxTop > 0 }
    }

    func layout(in area: Rect) -> Layout {
        // As wide as the longest line needs (every line whole where the screen allows), at least 66 with the frame.
        let textNeed = rows.map(\.text.displayWidth).max() ?? 0
        let keysWidth = max(62, HelpOverlay.keyWidth + 1 + textNeed)
        let sampleWidth = legend.map(\.sample.count).max() ?? 0
        let entryWidth = legend.isEmpty ? 0 : sampleWidth + 1 + (legend.map(\.text.displayWidth).max() ?? 0)
        let gap = HelpOverlay.gap
        let besideHeight = max(rows.count + 2, legend.count)
        if !legend.isEmpty, keysWidth + gap + entryWidth + 4 <= area.width - 2, besideHeight + 2 <= area.height {
            let frame = Panel.place(width: keysWidth + gap + entryWidth + 4, height: besideHeight + 2, in: area)
            let inner = Panel.inner(frame)
            let lines = rows.map { Line.keys($0.keys, $0.text) } + [.blank, .closing]
            return Layout(frame: frame, inner: inner, beside: true, keyWidth: min(HelpOverlay.keyWidth, keysWidth / 2),
                          lines: lines, visible: besideHeight, entryWidth: entryWidth, sampleWidth: sampleWidth)
        }
        // Below the keys: columns of entries across the keys' width.
        let innerWidth = max(1, min(keysWidth, area.width - 6))
        let keyWidth = min(HelpOverlay.keyWidth, innerWidth / 2)
        let textWidth = max(1, innerWidth - keyWidth - 1)
        var lines: [Line] = []
        for row in rows {
            let words = row.text.wrapped(to: textWidth)
            lines.append(.keys(row.keys, words.first ?? ""))
            lines += words.dropFirst().map { Line.keys("", $0) }
        }
        if !legend.isEmpty {
            let columns = max(1, (innerWidth + 2) / (entryWidth + 2))
            let legendRows = (legend.count + columns - 1) / columns
            lines.append(.blank)
            for row in 0..<legendRows {
                lines.append(.legend(stride(from: row, to: legend.count, by: legendRows).map { $0 }))
            }
        }
        // The closing line where it fits with the rest; else the edge says how the keys scroll.
        let room = max(1, area.height - 2)
        if lines.count + 2 <= room { lines += [.blank, .closing] } else if lines.count + 1 <= room { lines.append(.closing) }
        let visible = min(lines.count, room)
        let frame = Panel.place(width: innerWidth + 4, height: visible + 2, in: area)
        return Layout(frame: frame, inner: Panel.inner(frame), beside: false, keyWidth: keyWidth, lines: lines,
                      visible: visible, entryWidth: entryWidth, sampleWidth: sampleWidth)
    }

    /// `top` kept within what `layout` can show.
    static func clamped(_ top: Int, _ layout: Layout) -> Int { min(max(0, top), layout.maxTop) }

    func render(area: Rect, into buffer: inout CellBuffer) {
        let layout = layout(in: area)
        let frame = layout.frame, inner = layout.inner
        buffer.render(Panel(title: legend.isEmpty ? "Keys" : "Keys and map", theme: theme), in: frame)
        let keysRight = layout.beside ? inner.x + inner.width - HelpOverlay.gap - layout.entryWidth : inner.right
        let first = HelpOverlay.clamped(top, layout)
        let shown = layout.lines.dropFirst(first).prefix(layout.visible)
        for (i, line) in shown.enumerated() {
            let y = inner.y + i
            guard y < inner.bottom else { break }
            switch line {
            case .blank:
                break
            case let .keys(keys, text):
                buffer.put(fitting: keys, x: inner.x, y: y, style: theme.dialogTitle, width: layout.keyWidth)
                buffer.put(fitting: text, x: inner.x + layout.keyWidth + 1, y: y, style: theme.dialog,
                           width: keysRight - inner.x - layout.keyWidth - 1)
            case let .legend(entries):
                for (column, index) in entries.enumerated() {
                    drawEntry(legend[index], x: inner.x + column * (layout.entryWidth + 2), y: y, layout: layout,
                              right: inner.right, into: &buffer)
                }
            case .closing:
                buffer.put(fitting: HelpOverlay.closing, x: inner.x, y: y, style: theme.dim, width: keysRight - inner.x)
            }
        }
        if layout.beside {
            for (i, entry) in legend.enumerated() where inner.y + i < inner.bottom {
                drawEntry(entry, x: keysRight + HelpOverlay.gap, y: inner.y + i, layout: layout, right: inner.right, into: &buffer)
            }
        }
        if layout.scrolls {
            // In the bottom edge: where the page stands, and which way there is more.
            let last = first + layout.visible
            let arrows = (first > 0 ? "\u{2191}" : "") + (last < layout.lines.count ? "\u{2193}" : "")
            let position = "\(first + 1)\u{2013}\(last) of \(layout.lines.count)"
            let room = frame.width - 4
            let label = [" \(arrows) \(position) \u{00B7} \u{2191}\u{2193} PgUp PgDn scroll, other keys close ",
                         " \(arrows) more \u{00B7} \(position) ", " \(arrows) \(position) "].first { $0.displayWidth <= room }
            if let label {
                buffer.put(label, x: frame.right - 2 - label.displayWidth, y: frame.bottom - 1, style: theme.dialogTitle)
            }
        }
    }

    private func drawEntry(_ entry: LegendRow, x: Int, y: Int, layout: Layout, right: Int, into buffer: inout CellBuffer) {
        guard x < right else { return }
        for (j, cell) in entry.sample.enumerated() where x + j < right {
            buffer[x + j, y] = cell
        }
        buffer.put(fitting: entry.text, x: x + layout.sampleWidth + 1, y: y, style: theme.dialog,
                   width: max(0, min(right, x + layout.entryWidth) - x - layout.sampleWidth - 1))
    }
}
