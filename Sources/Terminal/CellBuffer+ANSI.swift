extension CellBuffer {
    /// The buffer as text with SGR escape sequences, one line per row, each
    /// ending in a newline (after a reset if it set a style): for printing rendered pictures outside
    /// curses (`vtourist render`); the one writer of escape sequences outside the curses backend. Colours are quantised to `colors` exactly as
    /// the curses backend does (`quantize(_:to:)`); with `.none` the result
    /// holds no colour sequences at all (attributes only, if any).
    public func ansiText(depth colors: TerminalCapabilities.ColorDepth) -> String {
        let buffer = self
        var out = String()
        out.reserveCapacity(buffer.width * buffer.height * 24)
        var runs = buffer.changes(from: nil)[...]
        for y in 0..<buffer.height {
            var current = SGR.plain
            while let run = runs.first, run.y == y {
                runs.removeFirst()
                let sgr = SGR(run.style, colors: colors)
                if sgr != current {
                    out += sgr.sequence
                    current = sgr
                }
                out.unicodeScalars.append(contentsOf: run.symbols.map(Cell.displayable))
            }
            if current != .plain { out += SGR.plain.sequence }
            out += "\n"
        }
        return out
    }
}

/// One cell style as the terminal will get it.
private struct SGR: Equatable {
    var fg: TerminalColor
    var bg: TerminalColor
    var attributes: Attributes

    static let plain = SGR(fg: .default, bg: .default, attributes: [])

    init(fg: TerminalColor, bg: TerminalColor, attributes: Attributes) {
        self.fg = fg
        self.bg = bg
        self.attributes = attributes
    }

    init(_ style: Style, colors: TerminalCapabilities.ColorDepth) {
        self.init(fg: quantize(style.fg, to: colors), bg: quantize(style.bg, to: colors), attributes: style.attributes)
    }

    /// A full reset followed by everything this style sets.
    var sequence: String {
        var parts = ["0"]
        if attributes.contains(.bold) { parts.append("1") }
        if attributes.contains(.dim) { parts.append("2") }
        if attributes.contains(.underline) { parts.append("4") }
        if attributes.contains(.reverse) { parts.append("7") }
        if let f = Self.parameters(fg, base: 30) { parts.append(f) }
        if let b = Self.parameters(bg, base: 40) { parts.append(b) }
        return "\u{1B}[" + parts.joined(separator: ";") + "m"
    }

    private static func parameters(_ color: TerminalColor, base: Int) -> String? {
        switch color {
        case .default:
            return nil
        case .indexed(let i) where (0..<8).contains(i):
            return String(base + i)
        case .indexed(let i):
            return "\(base + 8);5;\(i)"
        case .rgb(let r, let g, let b):
            return "\(base + 8);2;\(r);\(g);\(b)"
        }
    }
}
