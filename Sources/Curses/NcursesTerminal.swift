@preconcurrency import CNcursesw
import Foundation
import Terminal
#if canImport(Glibc)
import Glibc
#endif

/// The app's only connection to the terminal. It sets ncurses up, turns keys,
/// mouse reports and resizes into `Event`s, and writes the cells of a
/// `CellBuffer` that changed since the last frame. Use it from one thread
/// only (the UI loop); other threads reach it through `waker`.
public final class NcursesTerminal {
    /// What the terminal can show, decided at start.
    public internal(set) var capabilities: TerminalCapabilities
    /// Wakes `nextEvent` from other threads.
    public let waker: TerminalWaker

    private var screen: OpaquePointer?
    /// The buffer as last written; nil forces a full repaint.
    private var lastDrawn: CellBuffer?
    /// Set by a resize: the next draw clears the physical screen first.
    private var screenGarbled = false
    private var lastReportedSize: (width: Int, height: Int)
    var colorPairs: ColorPairs
    var cellScratch: [cchar_t] = []
    var keyMap: KeyMap
    var mouseButtonDown = false
    /// The inline picture on the screen (NcursesTerminal+Inline.swift).
    var inlinePictures = InlinePictureTracker(protocol: nil)
    /// Until when (monotonic ms) a late answer to the start-up query is dropped from the input; 0: none.
    var lateDeviceAttributesUntil = 0
    var inlinePicturesDetected = false
    /// A line for the user from detection (how to let pictures through tmux), nil when none.
    public internal(set) var inlineHint: String?
    /// Events decoded from the input and not yet given out, oldest first.
    var decodedEvents: [Event] = []
    /// Escape sequences, Alt+key and pastes, across reads (InputDecoder.swift).
    var decoder = InputDecoder()
    /// When (monotonic ms) input last came in: an unfinished sequence waits from then.
    var lastInputAt = 0

    public init() throws {
        guard !cursesActive else { throw TerminalError.alreadyActive }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""

        setlocale(LC_ALL, "")
        // A non-UTF-8 locale means the terminal most likely is not UTF-8 either:
        // keep that locale (ncurses then writes plain ASCII) and fall back to ASCII.
        let codeset = String(cString: nl_langinfo(Int32(CODESET))).uppercased()
        let unicode = codeset == "UTF-8" || codeset == "UTF8"

        waker = try TerminalWaker()
        // Before newterm: ncurses only installs its own handlers over defaults.
        installSignalHandlers(resizeFD: waker.writeFD)
        registerExitHook()

        // True colour where COLORTERM says so though TERM names a 256-colour type (as `render` does);
        // TERM's own type where that variant is not installed.
        let direct = TerminalProbe.directColorType(environment: ProcessInfo.processInfo.environment)
        guard !term.isEmpty,
              let screen = direct.flatMap({ newterm($0, vt_stdout(), vt_stdin()) }) ?? newterm(nil, vt_stdout(), vt_stdin())
        else {
            removeSignalHandlers()
            throw TerminalError.unusableTerminal(term: term)
        }
        set_term(screen)
        // Without cursor addressing (TERM=dumb, hard-copy types) a full screen cannot work.
        guard vt_terminfo_string("cup") != nil else {
            endwin()
            delscreen(screen)
            removeSignalHandlers()
            throw TerminalError.unusableTerminal(term: term)
        }
        self.screen = screen
        cursesActive = true

        cbreak()
        noecho()
        nonl()
        keypad(stdscr, true)
        curs_set(0)
        // The cursor is hidden: let ncurses leave it wherever the last write ended.
        leaveok(stdscr, true)
        // ncurses decodes only what came with an Esc; the decoder takes it from there (InputDecoder.swift).
        set_escdelay(Int32(InputDecoder.escapeDelayMs))
        mousemask(vt_mouse_all_events() | vt_mouse_report_position(), nil)
        mouseinterval(0)

        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        var depth = TerminalCapabilities.ColorDepth.none
        var defaultColors = false
        if !noColor, has_colors(), start_color() == OK {
            defaultColors = use_default_colors() == OK
            depth = switch COLORS {
            case (1 << 24)...: .trueColor
            case 256...: .indexed256
            case 8...: .eight
            default: .none
            }
        }
        capabilities = TerminalCapabilities(unicode: unicode, colors: depth)
        let defaultFG = defaultColors ? -1 : 7, defaultBG = defaultColors ? -1 : 0
        colorPairs = ColorPairs(capacity: Int(COLOR_PAIRS) - 1, depth: depth) { pair, fg, bg in
            // Without default-colour support, -1 is not a colour: use white on black.
            _ = init_extended_pair(pair, Int32(fg == -1 ? defaultFG : fg), Int32(bg == -1 ? defaultBG : bg))
        }
        keyMap = KeyMap()
        lastReportedSize = (0, 0)
        lastReportedSize = size
        // Inline pictures are settled by `detectInlinePictures`, after the first frame.
        erase()
        refresh()
        // Pasted text then arrives marked, as one edit rather than keys.
        fflush(vt_stdout())
        writeBracketedPaste(on: true)
        installSuspendHandler()
    }

    deinit { shutdown() }

    /// The screen's size in cells.
    public var size: (width: Int, height: Int) {
        guard cursesActive else { return (0, 0) }
        return (Int(getmaxx(stdscr)), Int(getmaxy(stdscr)))
    }

    /// Gives the terminal back: the normal screen, echo, the cursor and the
    /// original signal handlers. Safe to call more than once.
    public func shutdown() {
        guard let screen else { return }
        removeInlineBeforeExit()
        self.screen = nil
        removeSuspendHandler()
        if cursesActive {
            cursesActive = false
            fflush(vt_stdout())
            writeBracketedPaste(on: false)
            endwin()
        }
        delscreen(screen)
        removeSignalHandlers()
    }

    /// Writes the cells that changed since the last call, then updates the
    /// terminal once. A buffer larger than the screen is clipped; the screen
    /// outside a smaller one is left blank.
    public func draw(_ buffer: CellBuffer) {
        guard screen != nil else { return }
        let sizeChanged = lastDrawn.map { $0.width != buffer.width || $0.height != buffer.height } ?? true
        if screenGarbled || sizeChanged { lastDrawn = nil }
        if lastDrawn == nil {
            erase()
            // After a resize the terminal's picture is unknown: repaint it whole.
            if screenGarbled { clearok(stdscr, true); inlinePictures.forget() }
            screenGarbled = false
        }
        let (runs, pairs) = colorPairs.plan(buffer, changes: buffer.changes(from: lastDrawn))
        inlinePictures.noteWritten(runs)
        write(runs, pairs)
        refresh()
        lastDrawn = buffer
    }

    /// Makes the next `draw` repaint every cell (for example after another
    /// program used the terminal).
    public func invalidate() {
        lastDrawn = nil
        screenGarbled = true
    }

    /// Makes a blocked or the next `nextEvent` return nil; callable from this
    /// thread. Other threads use `waker.wake()`.
    public func wake() { waker.wake() }

    /// Writes runs into ncurses' screen, each in its colour pair. A wide character goes in once
    /// (ncurses takes its two columns itself); one the C library would not measure as two columns
    /// goes in as U+FFFD and a blank, so that ncurses' idea of the row stays the buffer's.
    private func write(_ runs: [CellRun], _ pairs: [Int32]) {
        let rows = Int(getmaxy(stdscr)), cols = Int(getmaxx(stdscr))
        for (run, pair) in zip(runs, pairs) where run.y < rows && run.x < cols {
            let count = min(run.symbols.count, cols - run.x)
            let attrs = attributes(run.style.attributes)
            if cellScratch.count < count { cellScratch = Array(repeating: cchar_t(), count: count) }
            var written = 0
            if run.placeholders.count == run.symbols.count, capabilities.unicode {
                // kitty's placeholder cells: U+10EEEE with the row's and the column's diacritic.
                for i in 0..<count {
                    let scalars = run.placeholders[i].scalars
                    _ = vt_set_cell_marked(&cellScratch[i], wchar_t(bitPattern: scalars[0].value),
                                           wchar_t(bitPattern: scalars[1].value), wchar_t(bitPattern: scalars[2].value),
                                           attrs, pair)
                }
                written = count
            } else {
                var i = 0
                while i < count {
                    let symbol = run.symbols[i]
                    if run.isWide(i) {
                        if i + 1 < count, capabilities.unicode, vt_wcwidth(wchar_t(bitPattern: symbol.value)) == 2 {
                            setCell(&cellScratch[written], symbol, marks: run.marks[i] ?? [], wide: true, attrs, pair)
                            written += 1
                        } else {
                            let stand = capabilities.unicode ? Cell.replacement : "?"
                            _ = vt_set_cell(&cellScratch[written], wchar_t(bitPattern: stand.value), attrs, pair)
                            written += 1
                            if i + 1 < count {
                                _ = vt_set_cell(&cellScratch[written], wchar_t(bitPattern: stand == "?" ? 0x3F : 0x20), attrs, pair)
                                written += 1
                            }
                        }
                        i += 2
                        continue
                    }
                    // A continuation whose character is not in the run cannot be: a blank keeps the columns.
                    let shown = symbol == Cell.continuation ? " " : printable(symbol)
                    setCell(&cellScratch[written], shown, marks: shown == symbol ? run.marks[i] ?? [] : [], wide: false, attrs, pair)
                    written += 1
                    i += 1
                }
            }
            _ = mvadd_wchnstr(Int32(run.y), Int32(run.x), cellScratch, Int32(written))
        }
    }

    /// One cell for ncurses: the character and the marks it draws over it (`Cell.drawnMarks`,
    /// those the C library also measures as no column: ncurses would drop the rest).
    private func setCell(_ cell: inout cchar_t, _ symbol: Unicode.Scalar, marks: [Unicode.Scalar], wide: Bool,
                         _ attrs: attr_t, _ pair: Int32) {
        var text: [wchar_t] = [wchar_t(bitPattern: symbol.value)]
        if capabilities.unicode, !marks.isEmpty {
            for mark in Cell.drawnMarks(marks, wide: wide) {
                let m = wchar_t(bitPattern: mark.value)
                guard vt_wcwidth(m) == 0 else { break }
                text.append(m)
            }
        }
        text.append(0)
        _ = vt_set_cell_text(&cell, text, attrs, pair)
    }

    /// A scalar the terminal can show in one cell.
    private func printable(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let safe = Cell.displayable(scalar)
        if safe.isASCII { return safe }
        guard capabilities.unicode else { return asciiFallback(safe) }
        // Wide and zero-width glyphs would shift the rest of the row.
        return vt_wcwidth(wchar_t(bitPattern: safe.value)) == 1 ? safe : "\u{FFFD}"
    }

    /// The ncurses attributes of a style.
    private func attributes(_ attributes: Attributes) -> attr_t {
        var attrs: attr_t = 0
        if attributes.contains(.bold) { attrs |= vt_attr_bold() }
        if attributes.contains(.dim) { attrs |= vt_attr_dim() }
        if attributes.contains(.reverse) { attrs |= vt_attr_reverse() }
        if attributes.contains(.underline) { attrs |= vt_attr_underline() }
        return attrs
    }

    // Called by the input side.
    func noteResize() -> Event? {
        var rows: Int32 = 0, cols: Int32 = 0
        if vt_window_size(STDOUT_FILENO, &rows, &cols) == 0, rows > 0, cols > 0 {
            resizeterm(rows, cols)
        }
        screenGarbled = true
        let now = size
        lastReportedSize = now
        return .resize(width: now.width, height: now.height)
    }

    /// KEY_RESIZE from ncurses: reported unless it repeats the last size.
    func noteCursesResize() -> Event? {
        screenGarbled = true
        let now = size
        guard now != lastReportedSize else { return nil }
        lastReportedSize = now
        return .resize(width: now.width, height: now.height)
    }
}

extension NcursesTerminal {
    /// Wakes `nextEvent` from any thread (what `waker.wake()` does, as a value to hand out).
    public var wakeUp: @Sendable () -> Void {
        { [waker] in waker.wake() }
    }
}
