@preconcurrency import CNcursesw
import Foundation
import Terminal
#if canImport(Glibc)
import Glibc
#endif

extension NcursesTerminal {
    /// Shows a real picture over the cells (nil: none), by the protocol in
    /// `capabilities.inlineImages`; call it after every `draw`. The same
    /// picture is not sent again unless a repaint or cells written over it
    /// wiped it; a replaced one is removed (kitty: deleted; sixel and iTerm2:
    /// the cells under it are written again). Does nothing without a protocol.
    public func showInline(_ picture: InlinePicture?) {
        guard cursesActive, capabilities.inlineImages != nil else { return }
        // A picture reaching past the screen's edge would scroll it (sixel) or wrap: none then.
        let (columns, rows) = size
        let fits = picture.map { $0.x >= 0 && $0.y >= 0 && $0.x + $0.columns <= columns && $0.y + $0.rows <= rows }
        let update = inlinePictures.show(fits ?? true ? picture : nil)
        if update.isEmpty { return }
        if !update.clear.isEmpty { writeOutOfBand(update.clear) }
        if let rows = update.repaintRows {
            let screenRows = Int(getmaxy(stdscr))
            let first = max(0, rows.lowerBound), last = min(screenRows, rows.upperBound)
            if first < last {
                // Makes ncurses forget what it sent to those rows, so it sends every cell again.
                wredrawln(stdscr, Int32(first), Int32(last - first))
                refresh()
            }
        }
        if !update.draw.isEmpty { writeOutOfBand(update.draw) }
    }

    /// kitty keeps pictures apart from the cells: take ours away before the
    /// terminal is given back. (Sixel and iTerm2 pictures go with the screen.)
    func removeInlineBeforeExit() {
        let removal = inlinePictures.removal
        guard cursesActive, !removal.isEmpty else { return }
        writeOutOfBand(removal)
    }

    /// The pixels of one cell, where the terminal reports its window's pixel
    /// size (xterm, kitty, foot, WezTerm do; many do not): what a sixel
    /// picture should be encoded for, since sixel pictures are pixel-exact.
    public var cellPixelSize: (width: Int, height: Int)? {
        guard cursesActive else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        let (columns, rows) = size
        guard vt_window_pixels(STDOUT_FILENO, &width, &height) == 0, columns > 0, rows > 0,
              width >= columns, height >= rows else { return nil }
        return (Int(width) / columns, Int(height) / rows)
    }

    /// Bytes for the terminal itself, after what ncurses has buffered.
    func writeOutOfBand(_ bytes: [UInt8]) {
        fflush(vt_stdout())
        _ = bytes.withUnsafeBytes { writeAll($0, to: STDOUT_FILENO) }
    }

    /// Settles the inline picture protocol, once: the environment's rules, and
    /// where they do not tell, the terminal's answer to the device attributes
    /// request. Keys typed while waiting are kept. The app calls it after its
    /// first frame is on the screen, so the wait never delays the start; until
    /// then pictures are drawn in cells.
    public func detectInlinePictures() {
        guard cursesActive, !inlinePicturesDetected else { return }
        inlinePicturesDetected = true
        let detection = askedInlineProtocol()
        var found = detection.imageProtocol
        // Placeholder cells are Unicode and carry the image id in their colour: 256 colours at least.
        if found == .kittyUnicode && (!capabilities.unicode || !(capabilities.colors == .indexed256 || capabilities.colors == .trueColor)) {
            found = nil
        }
        capabilities.inlineImages = found
        inlineHint = detection.hint
        inlinePictures = InlinePictureTracker(protocol: capabilities.inlineImages)
    }

    /// The environment's rules, then the terminal's answer to the device attributes request, or tmux's.
    func askedInlineProtocol() -> TerminalProbe.InlineDetection {
        TerminalProbe.inlineDetection(environment: ProcessInfo.processInfo.environment, query: { request, timeoutMs in
            self.writeOutOfBand(request)
            let (reply, found) = self.readDeviceAttributes(timeoutMs: timeoutMs)
            // A reply still on its way would arrive as keys: catch it when it comes.
            if !found { self.lateDeviceAttributesUntil = monotonicMilliseconds() + 3000 }
            return reply
        }, tmux: Self.runTmux)
    }

    /// Runs `tmux` with `arguments` (the server is the one the environment's `TMUX` names) and
    /// returns what it printed; nil when it could not run, failed, or took over a second.
    static func runTmux(_ arguments: [String]) -> String? {
        ShortCommand.output("tmux", arguments, timeoutMs: 1000)?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Reads the terminal's input for up to `timeoutMs` ms or until a whole
    /// device attributes reply is in; everything else read goes back to ncurses.
    /// With `onlyStartedReply`, stops as soon as what came in does not begin a reply.
    func readDeviceAttributes(timeoutMs: Int, onlyStartedReply: Bool = false) -> (reply: [UInt8]?, found: Bool) {
        let deadline = monotonicMilliseconds() + timeoutMs
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while TerminalProbe.deviceAttributes(in: received) == nil {
            if onlyStartedReply, !received.isEmpty, !Self.mayBeginReply(received) { break }
            let left = deadline - monotonicMilliseconds()
            if left <= 0 { break }
            var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, Int32(left))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, fd.revents & Int16(POLLIN) != 0 else { break }
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        guard let found = TerminalProbe.deviceAttributes(in: received) else {
            pushBack(received)
            return (nil, false)
        }
        pushBack(Array(received[..<found.range.lowerBound]) + Array(received[found.range.upperBound...]))
        return (Array(received[found.range]), true)
    }

    /// Whether the bytes end in the start of a device attributes reply (`ESC [ ?` and digits or `;`).
    static func mayBeginReply(_ bytes: [UInt8]) -> Bool {
        guard let escape = bytes.lastIndex(of: 0x1B) else { return false }
        let tail = bytes[(escape + 1)...]
        let introducer = Array("[?".utf8)
        if tail.count <= 2 { return introducer.starts(with: tail) }
        return tail.starts(with: introducer)
            && tail.dropFirst(2).allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: ";") }
    }

    /// A late device attributes reply, if one is waiting on the input: read
    /// and dropped so that it does not turn into keys. Called before ncurses
    /// reads, for a few seconds after a query went unanswered.
    func dropLateDeviceAttributes() {
        guard lateDeviceAttributesUntil > 0 else { return }
        if monotonicMilliseconds() > lateDeviceAttributesUntil {
            lateDeviceAttributesUntil = 0
            return
        }
        var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, 0) > 0, fd.revents & Int16(POLLIN) != 0 else { return }
        if readDeviceAttributes(timeoutMs: 50, onlyStartedReply: true).found { lateDeviceAttributesUntil = 0 }
    }

    /// Keeps input read while waiting for the terminal's answer as the events it means, to be
    /// given out first. (Given back to ncurses with `ungetch`, bytes are not decoded into keys: an
    /// arrow would arrive as Esc and letters.)
    private func pushBack(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        lastInputAt = monotonicMilliseconds()
        for unit in Self.units(in: bytes, keyMap: keyMap) { decodedEvents += decoder.feed(unit) }
    }

    /// Bytes read from the terminal as ncurses would hand them over: escape sequences it knows as
    /// keys (its own table, `key_defined`), and characters (UTF-8). The decoder does the rest.
    static func units(in bytes: [UInt8], keyMap: KeyMap) -> [InputUnit] {
        var units: [InputUnit] = []
        var text: [UInt8] = []
        func takeText() {
            for scalar in String(decoding: text, as: UTF8.self).unicodeScalars { units.append(.character(scalar.value)) }
            text = []
        }
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == 0x1B, let key = definedKey(at: bytes[i...]) {
                takeText()
                units.append(.decoded(keyMap.key(for: key.code).map { .key($0) }))
                i += key.length
            } else {
                text.append(bytes[i])
                i += 1
            }
        }
        takeText()
        return units
    }

    /// The sequence at the start of `bytes` that ncurses knows as a key, with its length. Key
    /// sequences are prefix-free (ncurses decodes them through a tree), so the first that is one
    /// is the one; `key_defined` also answers for a key followed by more.
    static func definedKey(at bytes: ArraySlice<UInt8>) -> (code: Int32, length: Int)? {
        var length = 2
        while length <= min(bytes.count, 32) {
            let sequence = bytes.prefix(length)
            guard !sequence.contains(0), sequence.allSatisfy({ $0 < 0x80 }) else { return nil }
            let code = key_defined(String(decoding: sequence, as: UTF8.self))
            if code > 0 { return (code, length) }
            if code == 0 { return nil }  // not the start of any key's sequence
            length += 1
        }
        return nil
    }
}
