import Foundation

/// kitty's graphics protocol (`ESC _G keys ; base64 ESC \\`), as vtourist speaks it: an image
/// sent once under an id, placed by that id (again after a repaint, without its data), deleted by
/// id when replaced; or, inside tmux, sent through tmux's passthrough with a virtual placement
/// (`U=1`) and shown by Unicode placeholder cells (U+10EEEE) whose foreground colour carries the id.
public enum KittyGraphics {
    /// The most base64 bytes one escape sequence carries (the protocol's chunk size).
    public static let chunkSize = 4096

    /// How the image's pixels travel.
    public enum Format: Equatable, Sendable {
        /// A PNG file (`f=100`).
        case png
        /// zlib-compressed 8-bit RGB (`f=24,o=z`) of this size.
        case zlibRGB(width: Int, height: Int)
    }

    /// Sends `payload` under `id` without showing it (`a=t`), quietly (`q=2`: the terminal
    /// answers nothing, so no reply turns into keys), in chunks of `chunkSize` base64 bytes.
    /// `passthrough`: each chunk wrapped for tmux.
    public static func transmit(_ payload: [UInt8], format: Format, id: UInt32, passthrough: Bool) -> [UInt8] {
        let encoded = Array(Data(payload).base64EncodedData())
        var keys = "a=t,q=2,i=\(id),"
        switch format {
        case .png: keys += "f=100"
        case let .zlibRGB(width, height): keys += "f=24,o=z,s=\(width),v=\(height)"
        }
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + encoded.count / chunkSize * 40 + 64)
        var start = 0
        repeat {
            let end = min(encoded.count, start + chunkSize)
            let more = end < encoded.count ? 1 : 0
            // Keys other than m go with the first chunk only.
            let control = start == 0 ? "\(keys),m=\(more)" : "q=2,m=\(more)"
            out += wrap(command(control, payload: encoded[start..<end]), passthrough: passthrough)
            start = end
        } while start < encoded.count
        return out
    }

    /// Places image `id` at the cursor over `columns` × `rows` cells, scaled by the terminal, the
    /// cursor left where it was (`C=1`); one placement per image (`p=1`), so placing it again moves it.
    public static func place(id: UInt32, columns: Int, rows: Int) -> [UInt8] {
        command("a=p,q=2,i=\(id),p=1,c=\(columns),r=\(rows),C=1", payload: [])
    }

    /// A virtual placement of image `id` (`U=1`) over `columns` × `rows` placeholder cells, through tmux.
    public static func placeVirtually(id: UInt32, columns: Int, rows: Int, passthrough: Bool) -> [UInt8] {
        wrap(command("a=p,q=2,U=1,i=\(id),c=\(columns),r=\(rows)", payload: []), passthrough: passthrough)
    }

    /// Deletes image `id`: its placements and its data (`d=I`).
    public static func delete(id: UInt32, passthrough: Bool) -> [UInt8] {
        wrap(command("a=d,d=I,q=2,i=\(id)", payload: []), passthrough: passthrough)
    }

    /// `ESC _G control ; payload ESC \\` (no `;` without a payload).
    static func command(_ control: String, payload: ArraySlice<UInt8>) -> [UInt8] {
        var out = Array("\u{1B}_G\(control)".utf8)
        if !payload.isEmpty {
            out.append(UInt8(ascii: ";"))
            out += payload
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }

    /// tmux's passthrough: `ESC P tmux ; … ESC \\` with every ESC inside doubled (tmux passes it
    /// on to the outer terminal when its `allow-passthrough` option is on).
    public static func wrap(_ sequence: [UInt8], passthrough: Bool) -> [UInt8] {
        guard passthrough else { return sequence }
        var out = Array("\u{1B}Ptmux;".utf8)
        out.reserveCapacity(sequence.count + 16)
        for byte in sequence {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }
}

/// One cell of a picture shown by kitty's Unicode placeholders: the terminal draws there the
/// part (row, column) of the image whose id the cell's foreground colour carries. The backend
/// writes it as U+10EEEE followed by the row's and the column's diacritic.
public struct ImagePlaceholder: Hashable, Sendable {
    public var row: UInt16
    public var column: UInt16

    public init(row: Int, column: Int) {
        self.row = UInt16(clamping: row)
        self.column = UInt16(clamping: column)
    }

    /// The character the placeholder cells show.
    public static let character: Unicode.Scalar = "\u{10EEEE}"

    /// The most rows or columns a placement can have: the diacritics there are.
    public static var maxSide: Int { diacritics.count }

    /// The scalars written for the cell: the placeholder, the row's and the column's diacritic.
    public var scalars: [Unicode.Scalar] {
        [Self.character, Self.diacritic(Int(row)), Self.diacritic(Int(column))]
    }

    /// The diacritic that stands for `number` (0-based; the last one beyond the table).
    public static func diacritic(_ number: Int) -> Unicode.Scalar {
        Unicode.Scalar(diacritics[max(0, min(number, diacritics.count - 1))]) ?? "\u{0305}"
    }

    /// The number a diacritic stands for, nil for any other scalar.
    public static func number(of diacritic: Unicode.Scalar) -> Int? {
        numbers[diacritic.value]
    }

    private static let numbers: [UInt32: Int] = Dictionary(uniqueKeysWithValues: diacritics.enumerated().map { ($1, $0) })

    /// kitty's row and column diacritics, in order (its rowcolumn-diacritics table: the combining
    /// marks of class 230 of Unicode 6.0 without decompositions, less those that normalisation fuses).
    static let diacritics: [UInt32] = [
        0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A, 0x034B, 0x034C,
        0x0350, 0x0351, 0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369,
        0x036A, 0x036B, 0x036C, 0x036D, 0x036E, 0x036F, 0x0483, 0x0484, 0x0485, 0x0486, 0x0487, 0x0592,
        0x0593, 0x0594, 0x0595, 0x0597, 0x0598, 0x0599, 0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1,
        0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611, 0x0612, 0x0613, 0x0614, 0x0615,
        0x0616, 0x0617, 0x0657, 0x0658, 0x0659, 0x065A, 0x065B, 0x065D, 0x065E, 0x06D6, 0x06D7, 0x06D8,
        0x06D9, 0x06DA, 0x06DB, 0x06DC, 0x06DF, 0x06E0, 0x06E1, 0x06E2, 0x06E4, 0x06E7, 0x06E8, 0x06EB,
        0x06EC, 0x0730, 0x0732, 0x0733, 0x0735, 0x0736, 0x073A, 0x073D, 0x073F, 0x0740, 0x0741, 0x0743,
        0x0745, 0x0747, 0x0749, 0x074A, 0x07EB, 0x07EC, 0x07ED, 0x07EE, 0x07EF, 0x07F0, 0x07F1, 0x07F3,
        0x0816, 0x0817, 0x0818, 0x0819, 0x081B, 0x081C, 0x081D, 0x081E, 0x081F, 0x0820, 0x0821, 0x0822,
        0x0823, 0x0825, 0x0826, 0x0827, 0x0829, 0x082A, 0x082B, 0x082C, 0x082D, 0x0951, 0x0953, 0x0954,
        0x0F82, 0x0F83, 0x0F86, 0x0F87, 0x135D, 0x135E, 0x135F, 0x17DD, 0x193A, 0x1A17, 0x1A75, 0x1A76,
        0x1A77, 0x1A78, 0x1A79, 0x1A7A, 0x1A7B, 0x1A7C, 0x1B6B, 0x1B6D, 0x1B6E, 0x1B6F, 0x1B70, 0x1B71,
        0x1B72, 0x1B73, 0x1CD0, 0x1CD1, 0x1CD2, 0x1CDA, 0x1CDB, 0x1CE0, 0x1DC0, 0x1DC1, 0x1DC3, 0x1DC4,
        0x1DC5, 0x1DC6, 0x1DC7, 0x1DC8, 0x1DC9, 0x1DCB, 0x1DCC, 0x1DD1, 0x1DD2, 0x1DD3, 0x1DD4, 0x1DD5,
        0x1DD6, 0x1DD7, 0x1DD8, 0x1DD9, 0x1DDA, 0x1DDB, 0x1DDC, 0x1DDD, 0x1DDE, 0x1DDF, 0x1DE0, 0x1DE1,
        0x1DE2, 0x1DE3, 0x1DE4, 0x1DE5, 0x1DE6, 0x1DFE, 0x20D0, 0x20D1, 0x20D4, 0x20D5, 0x20D6, 0x20D7,
        0x20DB, 0x20DC, 0x20E1, 0x20E7, 0x20E9, 0x20F0, 0x2CEF, 0x2CF0, 0x2CF1, 0x2DE0, 0x2DE1, 0x2DE2,
        0x2DE3, 0x2DE4, 0x2DE5, 0x2DE6, 0x2DE7, 0x2DE8, 0x2DE9, 0x2DEA, 0x2DEB, 0x2DEC, 0x2DED, 0x2DEE,
        0x2DEF, 0x2DF0, 0x2DF1, 0x2DF2, 0x2DF3, 0x2DF4, 0x2DF5, 0x2DF6, 0x2DF7, 0x2DF8, 0x2DF9, 0x2DFA,
        0x2DFB, 0x2DFC, 0x2DFD, 0x2DFE, 0x2DFF, 0xA66F, 0xA67C, 0xA67D, 0xA6F0, 0xA6F1, 0xA8E0, 0xA8E1,
        0xA8E2, 0xA8E3, 0xA8E4, 0xA8E5, 0xA8E6, 0xA8E7, 0xA8E8, 0xA8E9, 0xA8EA, 0xA8EB, 0xA8EC, 0xA8ED,
        0xA8EE, 0xA8EF, 0xA8F0, 0xA8F1, 0xAAB0, 0xAAB2, 0xAAB3, 0xAAB7, 0xAAB8, 0xAABE, 0xAABF, 0xAAC1,
        0xFE20, 0xFE21, 0xFE22, 0xFE23, 0xFE24, 0xFE25, 0xFE26, 0x10A0F, 0x10A38, 0x1D185, 0x1D186, 0x1D187,
        0x1D188, 0x1D189, 0x1D1AA, 0x1D1AB, 0x1D1AC, 0x1D1AD, 0x1D242, 0x1D243, 0x1D244,
    ]

    /// The placeholder cells of a `columns` × `rows` placement of the image whose id `color` carries:
    /// what the frame shows where the picture is.
    public static func cells(columns: Int, rows: Int, color: Color) -> CellBuffer {
        let columns = min(max(0, columns), maxSide), rows = min(max(0, rows), maxSide)
        var buffer = CellBuffer(width: columns, height: rows)
        let style = Style(fg: color)
        for y in 0..<rows {
            for x in 0..<columns {
                buffer[x, y] = Cell(character, style: style, placeholder: ImagePlaceholder(row: y, column: x))
            }
        }
        return buffer
    }
}

/// Image ids for kitty's Unicode placeholders: the foreground colour of a placeholder cell
/// carries the id, a 256-colour palette index or a 24-bit colour. Ids are taken from the xterm
/// colour cube (17–231: 16 is black, which direct-colour terminfo sends as a themed colour),
/// whose entries survive the 256-colour quantisation exactly, so the cell's colour and the id
/// sent agree at either depth.
public enum PlaceholderID {
    /// The colour slots, in turn.
    public static let slots = 17...231

    /// The colour of slot `n` (wrapped into `slots`).
    public static func color(slot n: Int) -> Color {
        let index = slots.lowerBound + ((n - slots.lowerBound) % slots.count + slots.count) % slots.count
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        let i = index - 16
        return .rgb(levels[i / 36], levels[i / 6 % 6], levels[i % 6])
    }

    /// The image id a colour carries at a colour depth; nil where placeholders cannot carry one
    /// (eight colours or none).
    public static func imageID(_ color: Color, depth: TerminalCapabilities.ColorDepth) -> UInt32? {
        switch (quantize(color, to: depth), depth) {
        case (.indexed(let index), .indexed256): return UInt32(index)
        case (.rgb(let r, let g, let b), .trueColor): return UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        default: return nil
        }
    }
}
