@preconcurrency import CNcursesw
import Terminal
#if canImport(Glibc)
import Glibc
#endif

extension NcursesTerminal {
    /// Waits up to `timeoutMs` milliseconds (negative: for ever) for a key,
    /// a mouse report or a resize. Returns nil on timeout or when woken by
    /// `wake()`. Keys already typed are returned without waiting.
    public func nextEvent(timeoutMs: Int) -> Event? {
        guard cursesActive else { return nil }
        let start = monotonicMilliseconds()
        while true {
            dropLateDeviceAttributes()
            if !keysReadAside.isEmpty { return keysReadAside.removeFirst() }
            // ncurses may hold bytes it already read; ask it before polling.
            if let event = readPendingInput() { return event }
            var wait = -1
            if timeoutMs >= 0 {
                wait = max(0, timeoutMs - (monotonicMilliseconds() - start))
            }
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: waker.readFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, Int32(clamping: wait))
            if ready < 0 && errno != EINTR { return nil }
            if fds[1].revents != 0 {
                let reasons = waker.drain()
                if reasons.resized, let event = noteResize() { return event }
                if reasons.woken { return nil }
            }
            if ready == 0 { return nil }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
                // The terminal went away; a caller treating nil as idle must not spin.
                usleep(50_000)
                return nil
            }
        }
    }

    /// Reads what ncurses has without blocking; skips input that means nothing
    /// to the app. Nil when nothing is left.
    private func readPendingInput() -> Event? {
        timeout(0)
        while true {
            var ch: wint_t = 0
            let status = get_wch(&ch)
            if status == ERR { return nil }
            if status == KEY_CODE_YES {
                if let event = translateKeyCode(Int32(bitPattern: ch)) { return event }
            } else if let key = Self.key(forCharacter: UInt32(ch)) {
                return .key(key)
            }
        }
    }

    /// The key a character read by `get_wch` (not a key code) means; nil for controls that mean
    /// nothing to the app. Pure, so tests and the fuzz targets can feed it any value.
    public static func key(forCharacter ch: UInt32) -> Key? {
        switch ch {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(ch) + 0x60)))
        case 0..<32, 0x80..<0xA0: return nil
        default:
            guard let scalar = Unicode.Scalar(ch) else { return nil }
            return .char(Character(scalar))
        }
    }

    private func translateKeyCode(_ code: Int32) -> Event? {
        switch code {
        case KEY_MOUSE: return readMouse()
        case KEY_RESIZE: return noteCursesResize()
        default: return keyMap.key(for: code).map { .key($0) }
        }
    }

    private func readMouse() -> Event? {
        var report = MEVENT()
        guard getmouse(&report) == OK else { return nil }
        let state = report.bstate
        let x = Int(report.x), y = Int(report.y)
        if state & vt_button4_pressed() != 0 { return .mouse(MouseEvent(.wheelUp, x: x, y: y)) }
        if state & vt_button5_pressed() != 0 { return .mouse(MouseEvent(.wheelDown, x: x, y: y)) }
        if state & vt_button1_pressed() != 0 {
            // Terminals without motion reports send a held button as repeated presses.
            let kind: MouseEvent.Kind = mouseButtonDown ? .drag : .press
            mouseButtonDown = true
            return .mouse(MouseEvent(kind, x: x, y: y))
        }
        if state & vt_button1_released() != 0 {
            mouseButtonDown = false
            return .mouse(MouseEvent(.release, x: x, y: y))
        }
        if state & vt_button1_clicked() != 0 {
            mouseButtonDown = false
            return .mouse(MouseEvent(.click, x: x, y: y))
        }
        if state & vt_mouse_report_position() != 0, mouseButtonDown {
            return .mouse(MouseEvent(.drag, x: x, y: y))
        }
        return nil
    }
}

/// ncurses key codes → keys, including the shift+arrow codes that only exist
/// as extended terminfo names (kUP, kDN) or sequences we teach ncurses.
struct KeyMap {
    private var codes: [Int32: Key] = [
        KEY_UP: .up, KEY_DOWN: .down, KEY_LEFT: .left, KEY_RIGHT: .right,
        KEY_SR: .shiftUp, KEY_SF: .shiftDown, KEY_SLEFT: .shiftLeft, KEY_SRIGHT: .shiftRight,
        KEY_BTAB: .backTab, KEY_ENTER: .enter, KEY_BACKSPACE: .backspace, KEY_DC: .delete,
        KEY_HOME: .home, KEY_END: .end, KEY_PPAGE: .pageUp, KEY_NPAGE: .pageDown,
        KEY_SHOME: .home, KEY_SEND: .end, KEY_A1: .home, KEY_C1: .end,
        KEY_A3: .pageUp, KEY_C3: .pageDown,
    ]

    init() {
        Self.defineCursorKeys()
        for n in 1...64 { codes[KEY_F0 + Int32(n)] = .function(n) }
        // xterm-style shift+arrows; terminfo names them kUP, kDN, kLFT, kRIT.
        let shifted: [(name: String, xterm: String, key: Key)] = [
            ("kUP", "\u{1B}[1;2A", .shiftUp), ("kDN", "\u{1B}[1;2B", .shiftDown),
            ("kLFT", "\u{1B}[1;2D", .shiftLeft), ("kRIT", "\u{1B}[1;2C", .shiftRight),
        ]
        for entry in shifted {
            if let sequence = vt_terminfo_string(entry.name) {
                let code = key_defined(sequence)
                if code > 0 { codes[code] = entry.key }
            }
            // Terminfo entries such as screen lack them, yet tmux sends them.
            let code = key_defined(entry.xterm)
            if code > 0 {
                codes[code] = codes[code] ?? entry.key
            } else if code == 0 {
                let fresh = KEY_MAX + 100 + Int32(codes.count)
                if define_key(entry.xterm, fresh) == OK { codes[fresh] = entry.key }
            }
        }
    }

    func key(for code: Int32) -> Key? { codes[code] }

    /// Arrows, Home and End as a terminal sends them outside keypad mode (`ESC [ A`…); terminfo
    /// names only the keypad-mode forms (`ESC O A`) for most terminals, and a terminal that
    /// ignores the switch to keypad mode would otherwise give Esc and letters.
    static func defineCursorKeys() {
        let plain: [(String, Int32)] = [
            ("\u{1B}[A", KEY_UP), ("\u{1B}[B", KEY_DOWN), ("\u{1B}[C", KEY_RIGHT), ("\u{1B}[D", KEY_LEFT),
            ("\u{1B}[H", KEY_HOME), ("\u{1B}[F", KEY_END),
        ]
        for (sequence, code) in plain where key_defined(sequence) == 0 {
            _ = define_key(sequence, code)
        }
    }
}

func monotonicMilliseconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
}
