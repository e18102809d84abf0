import Terminal

/// The colours behind the palette pens chafa's indexed modes return, as RGB
/// for the app's `Color`. The backend quantises `.rgb` again for the
/// terminal (`quantize(_:to:)`); every pen here maps back to itself there.
enum XtermPalette {
    /// The levels of each axis of the 6×6×6 cube (pens 16–231).
    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// Pens 0–7 as colours the eight-colour quantiser (chosen by hue and
    /// brightness) sends back to the same pen.
    private static let ansi: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    ]

    /// Pens 8–15: the bright ANSI colours.
    private static let brightANSI: [(UInt8, UInt8, UInt8)] = [
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The xterm colour of a pen 0–255; anything else is the default colour.
    static func color(pen: Int) -> Color {
        switch pen {
        case 0..<8:
            let c = ansi[pen]
            return .rgb(c.0, c.1, c.2)
        case 8..<16:
            let c = brightANSI[pen - 8]
            return .rgb(c.0, c.1, c.2)
        case 16..<232:
            let i = pen - 16
            return .rgb(cubeLevels[i / 36], cubeLevels[(i / 6) % 6], cubeLevels[i % 6])
        case 232..<256:
            let level = UInt8(8 + 10 * (pen - 232))
            return .rgb(level, level, level)
        default:
            return .default
        }
    }
}
