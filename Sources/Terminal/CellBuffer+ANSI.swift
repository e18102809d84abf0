extension CellBuffer {
    /// The buffer as text with SGR escape sequences, one line per row, each
    /// ending in a newline (after a reset if it set a style): for printing rendered pictures outside
    /// curses (`vtourist render`); the one writer of escape sequences outside the curses backend. Colours are quantised to `colors` exactly as
    /// the curses backend does (`quantize(_:to:)`); with `.none` the result
    /// holds no colour sequences at all (attributes only, if any).
    public func ansiText(depth colors: TerminalCapabilities.ColorDepth) -> String {
        String(decoding: ansiBytes(depth: colors), as: UTF8.self)
    }

    /// `ansiText(depth:)` as UTF-8 bytes, ready for one write.
    public func ansiBytes(depth colors: TerminalCapabilities.ColorDepth) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 24)
        // Neighbouring cells mostly share a style: quantise once per style change.
        var lastStyle: Style?
        var lastSGR = SGR.plain
        for y in 0..<height {
            var current = SGR.plain
            for x in 0..<width {
                let cell = cells[y * width + x]
                // The wide character to its left took this column.
                if cell.isContinuation { continue }
                if cell.style != lastStyle {
                    lastStyle = cell.style
                    lastSGR = SGR(cell.style, colors: colors)
                }
                if lastSGR != current {
                    lastSGR.write(to: &out)
                    current = lastSGR
                }
                if let placeholder = cell.placeholder {
                    for scalar in placeholder.scalars { appendUTF8(scalar, to: &out) }
                } else if isWide(x: x, y: y) {
                    // Laid out by `put` as two columns: drawn so where the pure width table says so.
                    let wide = cell.symbol.terminalColumns == 2
                    appendUTF8(wide ? cell.symbol : Cell.replacement, to: &out)
                    if wide {
                        for mark in Cell.drawnMarks(marks(of: cell), wide: true) { appendUTF8(mark, to: &out) }
                    } else {
                        appendUTF8(" ", to: &out)
                    }
                } else {
                    let shown = Cell.displayable(cell.symbol)
                    appendUTF8(shown, to: &out)
                    if shown == cell.symbol, cell.marksID != 0 {
                        for mark in Cell.drawnMarks(marks(of: cell), wide: false) { appendUTF8(mark, to: &out) }
                    }
                }
            }
            if current != .plain { SGR.plain.write(to: &out) }
            out.append(0x0A)
        }
        return out
    }
}

private func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    let v = scalar.value
    switch v {
    case 0..<0x80:
        out.append(UInt8(v))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | v >> 6))
        out.append(UInt8(0x80 | v & 0x3F))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | v >> 12))
        out.append(UInt8(0x80 | v >> 6 & 0x3F))
        out.append(UInt8(0x80 | v & 0x3F))
    default:
        out.append(UInt8(0xF0 | v >> 18))
        out.append(UInt8(0x80 | v >> 12 & 0x3F))
        out.append(UInt8(0x80 | v >> 6 & 0x3F))
        out.append(UInt8(0x80 | v & 0x3F))
    }
}

/// A non-negative number in decimal ASCII.
private func appendDecimal(_ n: Int, to out: inout [UInt8]) {
    if n >= 10 { appendDecimal(n / 10, to: &out) }
    out.append(UInt8(0x30 + n % 10))
}

/// One cell style as the terminal will get it.
private struct SGR: Equatable {
    var fg: TerminalColor
    var bg: TerminalColor
    var attributes: Attributes

    static let plain = SGR(fg: .default, bg: .default, attributes: [])
    static let attributeCodes: [(Attributes, Int)] = [(.bold, 1), (.dim, 2), (.underline, 4), (.reverse, 7)]

    init(fg: TerminalColor, bg: TerminalColor, attributes: Attributes) {
        self.fg = fg
        self.bg = bg
        self.attributes = attributes
    }

    init(_ style: Style, colors: TerminalCapabilities.ColorDepth) {
        self.init(fg: quantize(style.fg, to: colors), bg: quantize(style.bg, to: colors), attributes: style.attributes)
    }

    /// A full reset followed by everything this style sets: ESC [ 0 ; … m.
    func write(to out: inout [UInt8]) {
        out.append(contentsOf: [0x1B, 0x5B, 0x30])  // ESC [ 0
        for (attribute, code) in Self.attributeCodes where attributes.contains(attribute) {
            out.append(0x3B)
            appendDecimal(code, to: &out)
        }
        Self.write(fg, base: 30, to: &out)
        Self.write(bg, base: 40, to: &out)
        out.append(0x6D)  // m
    }

    private static func write(_ color: TerminalColor, base: Int, to out: inout [UInt8]) {
        switch color {
        case .default:
            return
        case .indexed(let i) where (0..<8).contains(i):
            out.append(0x3B)
            appendDecimal(base + i, to: &out)
        case .indexed(let i):
            out.append(0x3B)
            appendDecimal(base + 8, to: &out)
            out.append(contentsOf: [0x3B, 0x35, 0x3B])  // ;5;
            appendDecimal(i, to: &out)
        case .rgb(let r, let g, let b):
            out.append(0x3B)
            appendDecimal(base + 8, to: &out)
            out.append(contentsOf: [0x3B, 0x32])  // ;2
            for c in [r, g, b] {
                out.append(0x3B)
                appendDecimal(Int(c), to: &out)
            }
        }
    }
}
