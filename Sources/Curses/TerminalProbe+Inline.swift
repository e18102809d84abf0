import Foundation
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
    /// timeout, nil when nothing did. Inside tmux, `tmux` runs a tmux command and returns what it
    /// printed (nil: it could not be asked).
    public static func inlineProtocol(environment: [String: String],
                                      query: ((_ request: [UInt8], _ timeoutMs: Int) -> [UInt8]?)?,
                                      tmux: ((_ arguments: [String]) -> String?)? = nil) -> InlineProtocol? {
        inlineDetection(environment: environment, query: query, tmux: tmux).imageProtocol
    }

    /// What detection found: the protocol, and a one-line hint for the user where pictures could
    /// be had by a setting (tmux's passthrough turned off).
    public struct InlineDetection: Equatable, Sendable {
        public var imageProtocol: InlineProtocol?
        public var hint: String?

        public init(_ imageProtocol: InlineProtocol?, hint: String? = nil) {
            self.imageProtocol = imageProtocol
            self.hint = hint
        }
    }

    /// `inlineProtocol`, with the hint.
    public static func inlineDetection(environment: [String: String],
                                       query: ((_ request: [UInt8], _ timeoutMs: Int) -> [UInt8]?)?,
                                       tmux: ((_ arguments: [String]) -> String?)? = nil) -> InlineDetection {
        switch inlineRules(environment: environment) {
        case .decided(let answer): return InlineDetection(answer)
        case .askTheTerminal:
            guard let query, let reply = query(deviceAttributesRequest, deviceAttributesTimeoutMs),
                  let attributes = deviceAttributes(in: reply)?.attributes else { return InlineDetection(nil) }
            return InlineDetection(attributes.contains(4) ? .sixel : nil)
        case .askTmux(let forced):
            let passthrough = tmux?(tmuxPassthroughQuery)
            let client = tmux?(tmuxClientQuery) ?? ""
            let parts = client.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return tmuxRuling(forced: forced, passthrough: passthrough ?? "",
                              termName: parts.first ?? "", termType: parts.count > 1 ? parts[1] : "")
        }
    }

    /// Asks tmux for the pane's `allow-passthrough` (inherited values included).
    public static let tmuxPassthroughQuery = ["show-options", "-pAv", "allow-passthrough"]
    /// Asks tmux for the outer terminal: its `TERM` and the type it answered tmux's query with.
    public static let tmuxClientQuery = ["display-message", "-p", "#{client_termname}|#{client_termtype}"]

    /// The line that says how to let pictures through tmux.
    public static let tmuxPassthroughHint = "Pictures in tmux need passthrough: set -g allow-passthrough on"

    /// Inside tmux: kitty's Unicode placeholders where the outer terminal draws them (kitty,
    /// Ghostty) and tmux lets the image through (`allow-passthrough` on or all); where only the
    /// passthrough is missing, the cells and the hint. `forced`: `VTOURIST_IMAGES=kitty-unicode`.
    public static func tmuxRuling(forced: Bool, passthrough: String, termName: String, termType: String) -> InlineDetection {
        let value = passthrough.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let open = value == "on" || value == "all"
        let name = termName.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let type = termType.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let outerDrawsPlaceholders = name.contains("kitty") || name.contains("ghostty")
            || type.hasPrefix("kitty") || type.hasPrefix("ghostty")
        if forced { return InlineDetection(.kittyUnicode, hint: open ? nil : tmuxPassthroughHint) }
        guard outerDrawsPlaceholders else { return InlineDetection(nil) }
        return open ? InlineDetection(.kittyUnicode) : InlineDetection(nil, hint: tmuxPassthroughHint)
    }

    /// What the environment alone says.
    public enum InlineRuling: Equatable, Sendable {
        case decided(InlineProtocol?)
        /// Nothing in the environment tells: ask the terminal.
        case askTheTerminal
        /// Inside tmux: ask tmux about its passthrough and the terminal outside it.
        /// `forced`: `VTOURIST_IMAGES=kitty-unicode` chose the placeholders.
        case askTmux(forced: Bool)
    }

    /// The environment's rules, in order: `VTOURIST_IMAGES` (`kitty`, `kitty-unicode`, `iterm2`,
    /// `sixel`, `cells`; anything else is ignored); no pictures without colour
    /// or on terminals that cannot have them; inside tmux, tmux is asked (kitty's Unicode
    /// placeholders through its passthrough); none inside screen or a tmux that cannot be asked;
    /// kitty; iTerm2 and WezTerm.
    public static func inlineRules(environment: [String: String]) -> InlineRuling {
        let forced = (environment["VTOURIST_IMAGES"] ?? "").lowercased()
        if forced == "cells" || forced == "none" { return .decided(nil) }
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        if let chosen = InlineProtocol(rawValue: forced) {
            return chosen == .kittyUnicode && insideTmux ? .askTmux(forced: true) : .decided(chosen)
        }

        let term = environment["TERM"] ?? ""
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .decided(nil) }
        if term.isEmpty || ["dumb", "vt100", "vt102", "vt220", "linux"].contains(term) { return .decided(nil) }
        if insideTmux { return .askTmux(forced: false) }
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
