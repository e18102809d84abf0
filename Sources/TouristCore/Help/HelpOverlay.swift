import Terminal

/// The keys of the screen underneath, in a panel over it; on the map also
/// the legend: beside the keys where the screen is wide enough, else below
/// them in as many columns as fit.
struct HelpOverlay: Widget {
    var rows: [HelpRow]
    var legend: [LegendRow] = []
    var theme: Theme

    /// The keys' column.
    static let keyWidth = 22
    static let closing = "Any key closes this help."

    func render(area: Rect, into buffer: inout CellBuffer) {
        // As wide as the longest line needs (every line whole where the screen allows), at least 66 with the frame.
        let textNeed = rows.map(\.text.displayWidth).max() ?? 0
        let keysWidth = max(62, HelpOverlay.keyWidth + 1 + textNeed)
        let sampleWidth = legend.map(\.sample.count).max() ?? 0
        let entryWidth = legend.isEmpty ? 0 : sampleWidth + 1 + (legend.map(\.text.displayWidth).max() ?? 0)
        let gap = 3
        let beside = !legend.isEmpty && keysWidth + gap + entryWidth + 4 <= area.width - 2
            && legend.count <= area.height - 2
        // Below the keys: columns of entries across the keys' width.
        let innerWidth = min(keysWidth, area.width - 6)
        let columns = beside || legend.isEmpty ? 1 : max(1, (innerWidth + 2) / (entryWidth + 2))
        let legendRows = (legend.count + columns - 1) / columns
        let width = beside ? keysWidth + gap + entryWidth : keysWidth
        // A blank line always parts the keys from a legend below them; the closing line gets one where it fits.
        var spaced = true
        var height: Int
        if beside {
            height = max(rows.count + 2, legend.count)
        } else {
            height = rows.count + (legend.isEmpty ? 0 : 1 + legendRows) + 2
            if height + 2 > area.height { spaced = false; height -= 1 }
        }
        let frame = Panel.place(width: width + 4, height: height + 2, in: area)
        buffer.render(Panel(title: legend.isEmpty ? "Keys" : "Keys and map", theme: theme), in: frame)
        let inner = Panel.inner(frame)
        let keysRight = beside ? inner.x + keysWidth : inner.right
        let keyWidth = min(HelpOverlay.keyWidth, (keysRight - inner.x) / 2)
        for (i, row) in rows.enumerated() {
            buffer.put(fitting: row.keys, x: inner.x, y: inner.y + i, style: theme.dialogTitle, width: keyWidth)
            buffer.put(fitting: row.text, x: inner.x + keyWidth + 1, y: inner.y + i, style: theme.dialog,
                       width: keysRight - inner.x - keyWidth - 1)
        }
        let legendTop = beside ? inner.y : inner.y + rows.count + 1
        let closingY = beside || legend.isEmpty ? inner.y + rows.count + (spaced ? 1 : 0) : legendTop + legendRows + (spaced ? 1 : 0)
        // Where the screen is too short for it, the closing line is left out rather than drawn over the frame.
        if closingY < inner.bottom {
            buffer.put(fitting: HelpOverlay.closing, x: inner.x, y: closingY, style: theme.dim, width: keysRight - inner.x)
        }
        let legendX = beside ? keysRight + gap : inner.x
        for (i, entry) in legend.enumerated() {
            let column = i / legendRows, row = i % legendRows
            let x = legendX + column * (entryWidth + 2), y = legendTop + row
            guard y < inner.bottom, x < inner.right else { continue }
            for (j, cell) in entry.sample.enumerated() where x + j < inner.right {
                buffer[x + j, y] = cell
            }
            buffer.put(fitting: entry.text, x: x + sampleWidth + 1, y: y, style: theme.dialog,
                       width: max(0, min(inner.right, x + entryWidth) - x - sampleWidth - 1))
        }
    }
}
