import Terminal

/// One piece of the terminal's input as ncurses hands it over: a character as `get_wch` returns
/// it, or what ncurses decoded from a sequence terminfo names (nil: a key the app has no use for).
public enum InputUnit: Equatable, Sendable {
    case character(UInt32)
    case decoded(Event?)
}

/// Turns the terminal's input into events where ncurses cannot: escape sequences the terminfo
/// entry does not name (xterm's Home, End, PgUp, PgDn, F-keys, modified keys), Alt+key, and
/// bracketed pastes. An Esc followed at once by more input (what the terminal sent with it, in
/// one write) is one key, never Esc plus keys: a known sequence gives its key, Alt+key and unknown
/// sequences give nothing. An Esc with nothing after it is Esc, and a key typed after it is that
/// key. Pure and incremental: input split across reads decodes the same, and the fuzz target can
/// feed it anything.
public struct InputDecoder: Sendable {
    /// How long an Esc waits for what came with it: none, a terminal sends a key in one write
    /// (keys typed after an Esc, even 20 ms after, are keys of their own).
    public static let escapeDelayMs = 0
    /// How long a sequence already begun (`ESC [`, `ESC O`) waits for its next byte.
    public static let sequenceDelayMs = 25
    /// How long a paste waits for more text before it is taken as it stands (its end was lost).
    public static let pasteIdleMs = 500
    /// The characters a paste keeps; the rest is dropped.
    public static let pasteLimit = 4096
    /// Bytes kept of one sequence's parameters; a longer sequence is read to its end and ignored.
    static let parameterLimit = 32

    private static let escape: UInt32 = 0x1B
    /// What ends a bracketed paste: `ESC [ 2 0 1 ~`.
    private static let pasteEnd: [UInt32] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    private enum State: Equatable, Sendable {
        case ground
        /// An Esc; `alt`: after another Esc (Alt on what follows).
        case escape(alt: Bool)
        /// `ESC [` (CSI) or `ESC O` (SS3) and the parameter bytes so far.
        case sequence(introducer: UInt32, parameters: [UInt32], alt: Bool, overlong: Bool)
        /// `ESC [ [`: the Linux console's F1–F5 follow.
        case linuxFunctionKey(alt: Bool)
        /// Inside a bracketed paste: the text so far, and how much of the end marker was seen.
        case paste(text: String, count: Int, matched: Int, afterReturn: Bool)
    }

    private var state = State.ground

    public init() {}

    /// Whether input read so far waits for more (an escape sequence or a paste not finished).
    public var isPending: Bool { state != .ground }

    /// How long, after the last input, the decoder waits before `flush`; nil: it waits for nothing.
    public var patienceMs: Int? {
        switch state {
        case .ground: nil
        case .paste: Self.pasteIdleMs
        case .escape: Self.escapeDelayMs
        case .sequence, .linuxFunctionKey: Self.sequenceDelayMs
        }
    }

    /// The events `unit` completes.
    public mutating func feed(_ unit: InputUnit) -> [Event] {
        var events: [Event] = []
        feed(unit, into: &events)
        return events
    }

    /// Ends what is pending because no more input came in time: a lone Esc is Esc, an unfinished
    /// sequence is dropped, an unfinished paste is given as it stands.
    public mutating func flush() -> [Event] {
        defer { state = .ground }
        switch state {
        case .ground, .sequence, .linuxFunctionKey: return []
        // Alt+Esc is Esc: a quick double Esc still leaves.
        case .escape: return [.key(.escape)]
        case .paste(let text, _, _, _): return text.isEmpty ? [] : [.paste(text)]
        }
    }

    /// Every event in `units`, followed by nothing (pending input is flushed).
    public static func events(in units: [InputUnit]) -> [Event] {
        var decoder = InputDecoder()
        var events: [Event] = []
        for unit in units { events += decoder.feed(unit) }
        return events + decoder.flush()
    }

    private mutating func feed(_ unit: InputUnit, into events: inout [Event]) {
        switch state {
        case .ground:
            switch unit {
            case .character(Self.escape): state = .escape(alt: false)
            case .character(let ch): if let key = NcursesTerminal.key(forCharacter: ch) { events.append(.key(key)) }
            case .decoded(let event): if let event { events.append(event) }
            }

        case .escape(let alt):
            switch unit {
            case .character(Self.escape): state = .escape(alt: true)
            case .character(let introducer) where introducer == 0x5B || introducer == 0x4F:
                state = .sequence(introducer: introducer, parameters: [], alt: alt, overlong: false)
            case .character:
                state = .ground  // Alt+key: ignored
            case .decoded(let event):
                state = .ground
                // Alt+key as ncurses decoded it (or a key of no use) is ignored; a mouse report is no key: Esc came alone.
                guard let event else { return }
                if case .key = event { return }
                events += [.key(.escape), event]
            }

        case .sequence(let introducer, var parameters, let alt, var overlong):
            guard case .character(let byte) = unit, (0x20...0x7E).contains(byte) else {
                // Not part of a sequence: the broken one is dropped, this unit read afresh.
                state = .ground
                feed(unit, into: &events)
                return
            }
            if introducer == 0x5B, parameters.isEmpty, byte == 0x5B {
                state = .linuxFunctionKey(alt: alt)
            } else if byte < 0x40 {
                if parameters.count < Self.parameterLimit { parameters.append(byte) } else { overlong = true }
                state = .sequence(introducer: introducer, parameters: parameters, alt: alt, overlong: overlong)
            } else {
                state = .ground
                let meaning = overlong ? .ignored : Self.meaning(introducer: introducer, parameters: parameters, final: byte)
                switch meaning {
                case .key(let key): if !alt { events.append(.key(key)) }
                case .pasteStart: state = .paste(text: "", count: 0, matched: 0, afterReturn: false)
                case .ignored: break
                }
            }

        case .linuxFunctionKey(let alt):
            state = .ground
            guard case .character(let byte) = unit else { return feed(unit, into: &events) }
            if !alt, (0x41...0x45).contains(byte) { events.append(.key(.function(Int(byte) - 0x40))) }

        case .paste(var text, var count, var matched, var afterReturn):
            // Keys never come out of a paste: only its characters count.
            guard case .character(let ch) = unit else { return }
            if ch == Self.pasteEnd[matched] {
                matched += 1
                if matched == Self.pasteEnd.count {
                    state = .ground
                    if !text.isEmpty { events.append(.paste(text)) }
                    return
                }
            } else {
                // What looked like the end marker was text (its Esc is dropped as any control is).
                for byte in Self.pasteEnd[1..<max(1, matched)] {
                    Self.append(byte, to: &text, count: &count, afterReturn: &afterReturn)
                }
                matched = ch == Self.escape ? 1 : 0
                if matched == 0 { Self.append(ch, to: &text, count: &count, afterReturn: &afterReturn) }
            }
            state = .paste(text: text, count: count, matched: matched, afterReturn: afterReturn)
        }
    }

    /// Adds one pasted character: line breaks (CR, LF, CR LF) as one `\n`, tabs kept, other
    /// controls dropped, and nothing past `pasteLimit`.
    private static func append(_ ch: UInt32, to text: inout String, count: inout Int,
                               afterReturn: inout Bool) {
        let wasReturn = afterReturn
        afterReturn = ch == 0x0D
        let scalar: Unicode.Scalar
        switch ch {
        case 0x0D: scalar = "\n"
        case 0x0A:
            if wasReturn { return }
            scalar = "\n"
        case 0x09: scalar = "\t"
        case 0..<0x20, 0x7F..<0xA0: return
        default:
            guard let valid = Unicode.Scalar(ch) else { return }
            scalar = valid
        }
        guard count < pasteLimit else { return }
        text.unicodeScalars.append(scalar)
        count += 1
    }

    enum Meaning: Equatable {
        case key(Key)
        case pasteStart
        case ignored
    }

    /// What a complete `ESC [ … final` or `ESC O … final` means, as xterm, VTE, rxvt, tmux, screen
    /// and the Linux console send it. Shift on arrows is kept; Home and End ignore it (as
    /// ncurses' shifted Home and End); any other modifier (Alt, Ctrl) makes the key ignored.
    static func meaning(introducer: UInt32, parameters: [UInt32], final: UInt32) -> Meaning {
        guard parameters.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x3B }) else { return .ignored }
        var numbers: [Int] = []
        var current = 0
        for byte in parameters {
            if byte == 0x3B {
                numbers.append(current)
                current = 0
            } else {
                current = min(100_000, current * 10 + Int(byte - 0x30))
            }
        }
        if !parameters.isEmpty { numbers.append(current) }
        guard numbers.count <= 2 else { return .ignored }
        let modifier = numbers.count == 2 ? numbers[1] : 1
        let shifted = modifier == 2
        guard modifier <= 2 else { return .ignored }

        guard let final = Unicode.Scalar(final).map(Character.init) else { return .ignored }
        if final == "~", introducer == 0x5B {
            guard let first = numbers.first else { return .ignored }
            if first == 200, numbers.count == 1 { return .pasteStart }
            let key: Key? = switch first {
            case 1, 7: .home
            case 4, 8: .end
            case 3: .delete
            case 5: .pageUp
            case 6: .pageDown
            case 11...15: .function(first - 10)
            case 17...21: .function(first - 11)
            case 23...26: .function(first - 12)
            case 28, 29: .function(first - 13)
            case 31...34: .function(first - 14)
            default: nil
            }
            guard let key else { return .ignored }
            if shifted, key != .home, key != .end { return .ignored }
            return .key(key)
        }
        // Letter finals: no number, or 1 before the modifier (`ESC [ 1 ; 2 A`); SS3 may carry the modifier alone.
        let plainPrefix = numbers.isEmpty || numbers[0] == 1
            || (introducer == 0x4F && numbers.count == 1 && numbers[0] <= 2)
        guard plainPrefix else { return .ignored }
        let shiftedSS3 = introducer == 0x4F && numbers.count == 1 && numbers[0] == 2
        let shift = shifted || shiftedSS3
        switch final {
        case "A": return .key(shift ? .shiftUp : .up)
        case "B": return .key(shift ? .shiftDown : .down)
        case "C": return .key(shift ? .shiftRight : .right)
        case "D": return .key(shift ? .shiftLeft : .left)
        case "H": return .key(.home)
        case "F": return .key(.end)
        case "Z" where introducer == 0x5B && !shift: return .key(.backTab)
        case "P", "Q", "R", "S":
            guard !shift else { return .ignored }
            return .key(.function(Int(final.unicodeScalars.first?.value ?? 0x50) - 0x4F))
        case "M" where introducer == 0x4F && !shift: return .key(.enter)
        default: return .ignored
        }
    }
}
