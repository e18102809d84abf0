extension CellBuffer {
    /// The buffer as text with SGR escape sequences, one line per row, for printing to a terminal
    /// outside curses (`vtourist render`). Colours are quantised to `depth`; each row ends reset,
    /// so a cut-off line never leaves the terminal coloured. With `.none`, plain text and attributes only.
    public func ansiText(depth: TerminalCapabilities.ColorDepth) -> String {
        var out = ""
        for y in 0..<height {
            var current: Style?
            for x in 0..<width {
                let cell = self[x, y]
                if cell.style != current {
                    out += Self.sgr(cell.style, depth: depth)
                    current = cell.style
                }
                out.unicodeScalars.append(cell.symbol)
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }

    /// One SGR sequence that sets exactly this style (starting from a reset).
    static func sgr(_ style: Style, depth: TerminalCapabilities.ColorDepth) -> String {
        var codes = ["0"]
        if style.attributes.contains(.bold) { codes.append("1") }
        if style.attributes.contains(.dim) { codes.append("2") }
        if style.attributes.contains(.underline) { codes.append("4") }
        if style.attributes.contains(.reverse) { codes.append("7") }
        codes += colorCodes(quantize(style.fg, to: depth), foreground: true)
        codes += colorCodes(quantize(style.bg, to: depth), foreground: false)
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private static func colorCodes(_ color: TerminalColor, foreground: Bool) -> [String] {
        switch color {
        case .default:
            return []
        case .indexed(let i) where i < 8:
            return [String((foreground ? 30 : 40) + i)]
        case .indexed(let i):
            return [foreground ? "38" : "48", "5", String(i)]
        case .rgb(let r, let g, let b):
            return [foreground ? "38" : "48", "2", String(r), String(g), String(b)]
        }
    }
}
