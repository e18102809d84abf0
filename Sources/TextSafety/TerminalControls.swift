// The one rule for untrusted text (titles, names, paths, messages from the network, the database,
// the file system or the keyboard): what a terminal would obey rather than show never stays in it.
// The terminal's `displayable`, the photo sources' `TextCleaner` and the settings' messages all start here.

extension String {
    /// The text with what a terminal would obey rather than show taken out: escape sequences
    /// (`ESC [ … m`, OSC `ESC ] … BEL/ST`, DCS, SOS, PM, APC and their C1 forms) removed whole,
    /// tabs and line breaks made spaces, other C0/C1 controls, DEL and direction controls
    /// (U+061C, U+200E/F, U+202A–202E, U+2066–2069) dropped. Wide and combining characters
    /// stay: this is what is stored (a title keeps its Japanese); `displayable` fits it to cells.
    public var strippingTerminalControls: String {
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return self }
        var out = String.UnicodeScalarView()
        var scalars = Array(unicodeScalars)[...]
        while let c = scalars.popFirst() {
            switch c.value {
            case 0x1B: TerminalSequence.skipEscape(&scalars)
            case 0x9B: TerminalSequence.skipCSI(&scalars)
            // C1 DCS, SOS, OSC, PM, APC: strings ended by BEL or ST.
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: TerminalSequence.skipString(&scalars)
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: continue
            default: out.append(c)
            }
        }
        return String(out)
    }
}

/// Skipping the escape sequences a terminal would obey.
enum TerminalSequence {
    /// After ESC: CSI, the string sequences, or a two- or three-character escape.
    static func skipEscape(_ s: inout ArraySlice<Unicode.Scalar>) {
        guard let next = s.first else { return }
        switch next {
        case "[":
            s.removeFirst()
            skipCSI(&s)
        case "]", "P", "X", "^", "_":
            // OSC, DCS, SOS, PM, APC: strings ended by BEL or ST.
            s.removeFirst()
            skipString(&s)
        default:
            // ESC c, ESC 7, ESC ( B …: intermediates (0x20–0x2F), then the final byte.
            guard next.value >= 0x20 && next.value < 0x7F else { return }
            s.removeFirst()
            if next.value <= 0x2F, let f = s.first, f.value >= 0x20 && f.value < 0x7F { s.removeFirst() }
        }
    }

    /// Parameters and intermediates (0x20–0x3F), then one final byte (0x40–0x7E); anything
    /// else ends the sequence and is kept as ordinary text.
    static func skipCSI(_ s: inout ArraySlice<Unicode.Scalar>) {
        while let c = s.first {
            guard (0x20...0x7E).contains(c.value) else { return }
            s.removeFirst()
            if (0x40...0x7E).contains(c.value) { return }
        }
    }

    /// Up to and including BEL, ST (ESC \) or C1 ST; an unterminated string runs to the end.
    static func skipString(_ s: inout ArraySlice<Unicode.Scalar>) {
        while let c = s.first {
            s.removeFirst()
            if c.value == 0x07 || c.value == 0x9C { return }
            if c.value == 0x1B {
                if s.first == "\\" { s.removeFirst() }
                return
            }
        }
    }
}
