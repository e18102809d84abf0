@preconcurrency import CNcursesw
import Terminal
#if canImport(Glibc)
import Glibc
#endif

extension NcursesTerminal {
    /// Waits up to `timeoutMs` milliseconds (negative: for ever) for a key,
    /// a paste, a mouse report or a resize. Returns nil on timeout or when
    /// woken by `wake()`. Keys already typed are returned without waiting.
    public func nextEvent(timeoutMs: Int) -> Event? {
        guard cursesActive else { return nil }
        let start = monotonicMilliseconds()
        var polled = false
        while true {
            dropLateDeviceAttributes()
            if !decodedEvents.isEmpty { return decodedEvents.removeFirst() }
            // ncurses may hold bytes it already read; ask it before polling.
            if readPendingInput() { continue }
            let now = monotonicMilliseconds()
            var wait = -1
            if let patience = decoder.patienceMs {
                // An Esc or a paste unfinished, and nothing more came in time: it ends here.
                if now >= lastInputAt + patience {
                    decodedEvents += decoder.flush()
                    continue
                }
                wait = lastInputAt + patience - now
            }
            if timeoutMs >= 0 {
                let left = timeoutMs - (now - start)
                if left <= 0 && polled { return nil }
                wait = wait < 0 ? max(0, left) : min(wait, max(0, left))
            }
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: waker.readFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, Int32(clamping: wait))
            polled = true
            if ready < 0 && errno != EINTR { return nil }
            if fds[1].revents != 0 {
                let reasons = waker.drain()
                if reasons.resized, let event = noteResize() { return event }
                if reasons.woken { return nil }
            }
            if ready > 0, fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
                // The terminal went away; a caller treating nil as idle must not spin.
                usleep(50_000)
                return nil
            }
        }
    }

    /// Reads what ncurses has without blocking, through the decoder, until
    /// an event is complete or nothing is left. Whether anything was read.
    private func readPendingInput() -> Bool {
        timeout(0)
        var read = false
        while decodedEvents.isEmpty {
            var ch: wint_t = 0
            let status = get_wch(&ch)
            if status == ERR { break }
            read = true
            lastInputAt = monotonicMilliseconds()
            let unit: InputUnit = status == KEY_CODE_YES
                ? .decoded(translateKeyCode(Int32(bitPattern: ch))) : .character(UInt32(ch))
            decodedEvents += decoder.feed(unit)
        }
        return read
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
/// as extended terminfo names (kUP, kDN). Sequences terminfo does not name
/// are `InputDecoder`'s.
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
        for n in 1...64 { codes[KEY_F0 + Int32(n)] = .function(n) }
        let shifted: [(name: String, key: Key)] = [
            ("kUP", .shiftUp), ("kDN", .shiftDown), ("kLFT", .shiftLeft), ("kRIT", .shiftRight),
        ]
        for entry in shifted {
            if let sequence = vt_terminfo_string(entry.name) {
                let code = key_defined(sequence)
                if code > 0 { codes[code] = entry.key }
            }
        }
    }

    func key(for code: Int32) -> Key? { codes[code] }
}

func monotonicMilliseconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
}
