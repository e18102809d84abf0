import Terminal

extension TerminalProbe {
    /// The primary device attributes request (DA1): terminals answer `ESC [ ? 6x ; … c`.
    public static let deviceAttributesRequest: [UInt8] = Array("\u{1B}[c".utf8)
    /// How long a terminal is given to answer the device attributes request.
    public static let deviceAttributesTimeoutMs = 150

    /// The inline image protocol the terminal speaks, if any: the environment
    /// first (see docs/imaging.md, "Real pictures"), then, where it does not
    /// tell and `query` is given, the terminal's device attributes (4 = sixel).
    /// `query` sends its request and returns what came back within the
    /// timeout, nil when nothing did.
    public static func inlineProtocol(environment: [String: String],
                                      query: ((_ request: [UInt8], _ timeoutMs: Int) -> [UInt8]?)?) -> InlineProtocol? {
        switch inlineRules(environment: environment) {
        case .decided(let answer): return answer
        case .askTheTerminal:
            guard let query, let reply = query(deviceAttributesRequest, deviceAttributesTimeoutMs),
                  let attributes = deviceAttributes(in: reply)?.attributes else { return nil }
            return attributes.contains(4) ? .sixel : nil
        }
    }

    /// What the environment alone says.
    public enum InlineRuling: Equatable, Sendable {
        case decided(InlineProtocol?)
        /// Nothing in the environment tells: ask the terminal.
        case askTheTerminal
    }

    /// The environment's rules, in order: `VTOURIST_IMAGES` (`kitty`, `iterm2`,
    /// `sixel`, `cells`; anything else is ignored); no pictures without colour
    /// or on terminals that cannot have them; none inside tmux or screen (they
    /// do not pass the sequences on); kitty; iTerm2 and WezTerm.
    public static func inlineRules(environment: [String: String]) -> InlineRuling {
        let forced = (environment["VTOURIST_IMAGES"] ?? "").lowercased()
        if forced == "cells" || forced == "none" { return .decided(nil) }
        if let chosen = InlineProtocol(rawValue: forced) { return .decided(chosen) }

        let term = environment["TERM"] ?? ""
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .decided(nil) }
        if term.isEmpty || ["dumb", "vt100", "vt102", "vt220", "linux"].contains(term) { return .decided(nil) }
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") { return .decided(nil) }

        if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil { return .decided(.kitty) }
        let program = environment["TERM_PROGRAM"] ?? ""
        if program == "iTerm.app" || program == "WezTerm" || environment["LC_TERMINAL"] == "iTerm2" {
            return .decided(.iterm2)
        }
        return .askTheTerminal
    }

    /// The first complete device attributes reply (`ESC [ ? n ; n … c`) in
    /// `bytes`: its numbers, and where it sits (the bytes around it are other
    /// input typed meanwhile). Nil when there is no complete reply.
    public static func deviceAttributes(in bytes: [UInt8]) -> (attributes: [Int], range: Range<Int>)? {
        var start = 0
        while start + 2 < bytes.count {
            guard bytes[start] == 0x1B, bytes[start + 1] == UInt8(ascii: "["), bytes[start + 2] == UInt8(ascii: "?") else {
                start += 1
                continue
            }
            var i = start + 3
            var attributes: [Int] = []
            var current: Int?
            while i < bytes.count {
                let byte = bytes[i]
                if (0x30...0x39).contains(byte) {
                    current = min(99_999, (current ?? 0) * 10 + Int(byte - 0x30))
                } else if byte == UInt8(ascii: ";") {
                    attributes.append(current ?? 0)
                    current = nil
                } else if byte == UInt8(ascii: "c") {
                    if let current { attributes.append(current) }
                    if !attributes.isEmpty { return (attributes, start..<(i + 1)) }
                    break
                } else {
                    break
                }
                i += 1
            }
            start += 1
        }
        return nil
    }
}
