import Foundation

/// Density ramp used for braille and block elements: more ink, heavier glyph.
private let densityRamp: [Unicode.Scalar] = [" ", ".", ":", "o", "O", "#"]

/// Maps a fill fraction (0…1, in eighths) onto the density ramp.
private func density(eighths: Int) -> Unicode.Scalar {
    switch eighths {
    case ...0: return densityRamp[0]
    case 1: return densityRamp[1]
    case 2: return densityRamp[2]
    case 3...4: return densityRamp[3]
    case 5...6: return densityRamp[4]
    default: return densityRamp[5]
    }
}

/// Fill of each block element U+2580…U+259F, in eighths of the cell.
private let blockEighths: [Int] = [
    4, 1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1, // ▀ ▁ … █ ▉ … ▏
    4, 2, 4, 6, 1, 1, 2, 2, 2, 6, 4, 6, 6, 4, 6, 2, // ▐ ░ ▒ ▓ ▔ ▕ ▖ ▗ ▘ ▙ ▚ ▛ ▜ ▝ ▞ ▟
]

/// Latin letters whose accents a plain lookup can strip; the rest of the
/// Latin-1 and Latin Extended-A letters map through `latinBase`.
private let latinBase: [UInt32: Unicode.Scalar] = {
    var map: [UInt32: Unicode.Scalar] = [:]
    let groups: [(Unicode.Scalar, String)] = [
        ("A", "ÀÁÂÃÄÅĀĂĄ"), ("a", "àáâãäåāăą"), ("C", "ÇĆĈĊČ"), ("c", "çćĉċč"),
        ("D", "ĎĐÐ"), ("d", "ďđð"), ("E", "ÈÉÊËĒĔĖĘĚ"), ("e", "èéêëēĕėęě"),
        ("G", "ĜĞĠĢ"), ("g", "ĝğġģ"), ("H", "ĤĦ"), ("h", "ĥħ"),
        ("I", "ÌÍÎÏĨĪĬĮİ"), ("i", "ìíîïĩīĭįı"), ("J", "Ĵ"), ("j", "ĵ"),
        ("K", "Ķ"), ("k", "ķĸ"), ("L", "ĹĻĽĿŁ"), ("l", "ĺļľŀł"),
        ("N", "ÑŃŅŇŊ"), ("n", "ñńņňŉŋ"), ("O", "ÒÓÔÕÖØŌŎŐ"), ("o", "òóôõöøōŏő"),
        ("R", "ŔŖŘ"), ("r", "ŕŗř"), ("S", "ŚŜŞŠ"), ("s", "śŝşšß"),
        ("T", "ŢŤŦÞ"), ("t", "ţťŧþ"), ("U", "ÙÚÛÜŨŪŬŮŰŲ"), ("u", "ùúûüũūŭůűų"),
        ("W", "Ŵ"), ("w", "ŵ"), ("Y", "ÝŶŸ"), ("y", "ýÿŷ"),
        ("Z", "ŹŻŽ"), ("z", "źżž"), ("A", "Æ"), ("a", "æ"), ("O", "Œ"), ("o", "œ"),
    ]
    for (base, letters) in groups {
        for scalar in letters.unicodeScalars { map[scalar.value] = base }
    }
    return map
}()

/// An ASCII stand-in for a scalar, for terminals whose locale is not UTF-8: the one table widgets
/// rely on (they draw Unicode; `CellBuffer.makeASCII` turns it into this).
/// Box drawing becomes `+ - |`, braille and block elements a glyph of similar
/// density (` . : o O #`), arrows and triangles `< > ^ v`, bullets `*`, circles `o`,
/// ticks `*`, crosses `x`, accented Latin letters their base letter; anything else non-ASCII `?`.
/// Printable ASCII is returned unchanged; ASCII control characters become `?`.
public func asciiFallback(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    let v = scalar.value
    switch v {
    case 0x20..<0x7F:
        return scalar
    case 0x2500...0x257F:
        return boxFallback(v)
    // The lower eighth block is a text cursor: `_` draws it where `.` would read as a full stop.
    case 0x2581: return "_"
    // The light shade is a bar's empty track: `-` reads as one, `:` as ink.
    case 0x2591: return "-"
    case 0x2580...0x259F:
        return density(eighths: blockEighths[Int(v - 0x2580)])
    case 0x2800...0x28FF:
        // Eight dots per braille cell: the number raised is the ink.
        return density(eighths: (v - 0x2800).nonzeroBitCount)
    case 0x2190, 0x25C0, 0x25C2, 0x25C4, 0x21D0, 0x2039, 0x00AB: return "<"
    case 0x2192, 0x25B6, 0x25B8, 0x25BA, 0x21D2, 0x203A, 0x00BB: return ">"
    case 0x2191, 0x25B2, 0x25B4, 0x21D1: return "^"
    case 0x2193, 0x25BC, 0x25BE, 0x21D3: return "v"
    case 0x2194, 0x21D4: return "-"
    case 0x2195, 0x21D5: return "|"
    case 0x2022, 0x2605, 0x2606, 0x2736, 0x2737, 0x273A, 0x2731: return "*"
    // A pin on the map: `o`, a circle like the black circle it stands for.
    case 0x25CF, 0x25E6, 0x25CB, 0x25CE, 0x25C9, 0x2218, 0x00B0: return "o"
    case 0x25A0, 0x25AA, 0x25FC, 0x25FE: return "#"
    case 0x25A1, 0x25AB, 0x25FB, 0x25FD: return "o"
    case 0x00B7, 0x2219, 0x22C5: return "."
    // The truncation mark: `~` reads as a cut, `.` as the end of a sentence.
    case 0x2026: return "~"
    case 0x2010...0x2015, 0x2212: return "-"
    case 0x2018, 0x2019, 0x201A, 0x2032: return "'"
    case 0x201C, 0x201D, 0x201E, 0x2033: return "\""
    case 0x00A0, 0x2000...0x200A, 0x202F, 0x3000: return " "
    case 0x00D7, 0x2715, 0x2716, 0x2717, 0x2718: return "x"
    // A tick marks a photo inside its frame, where `+` would read as a corner.
    case 0x2713, 0x2714: return "*"
    default:
        return latinBase[v] ?? foldedLetter(scalar) ?? "?"
    }
}

/// Letters outside the table above (ș, ǎ, ạ…) lose their marks the long way.
private func foldedLetter(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
    guard scalar.properties.isAlphabetic else { return nil }
    let folded = String(scalar).folding(options: .diacriticInsensitive, locale: nil).unicodeScalars
    guard folded.count == 1, let f = folded.first, (0x20..<0x7F).contains(f.value) else { return nil }
    return f
}

extension CellBuffer {
    /// Replaces every symbol a terminal without UTF-8 cannot show with its ASCII stand-in
    /// (`asciiFallback`): marks go, and a wide character becomes `?` for each of its columns.
    public mutating func makeASCII() {
        for y in 0..<height {
            for x in 0..<width {
                let cell = self[x, y]
                guard !cell.symbol.isASCII || cell.marksID != 0 else { continue }
                let wide = cell.isContinuation || isWide(x: x, y: y)
                replaceCell(x: x, y: y, with: Cell(wide ? "?" : asciiFallback(cell.symbol), style: cell.style))
            }
        }
    }
}

private func boxFallback(_ v: UInt32) -> Unicode.Scalar {
    switch v {
    // Horizontal lines: light, heavy, dashed, double, half lines.
    case 0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x254C, 0x254D, 0x2550,
         0x2574, 0x2576, 0x2578, 0x257A, 0x257C, 0x257E:
        return "-"
    // Vertical lines.
    case 0x2502, 0x2503, 0x2506, 0x2507, 0x250A, 0x250B, 0x254E, 0x254F, 0x2551,
         0x2575, 0x2577, 0x2579, 0x257B, 0x257D, 0x257F:
        return "|"
    case 0x2571: return "/"
    case 0x2572: return "\\"
    case 0x2573: return "X"
    // Corners, tees and crossings.
    default: return "+"
    }
}
