@preconcurrency import CNcursesw
import Foundation
import Terminal

/// What the terminal on stdout can show, found without taking the screen: for commands that print
/// pictures and exit (`vtourist render`). The same rules as the full-screen app: `NO_COLOR` means no
/// colour, a non-UTF-8 locale means ASCII; true colour where `COLORTERM` or terminfo says so.
public enum TerminalProbe {
    public static func capabilities(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> TerminalCapabilities {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(Int32(CODESET))).uppercased()
        let unicode = codeset == "UTF-8" || codeset == "UTF8"
        return TerminalCapabilities(unicode: unicode, colors: depth(environment: environment,
                                                                     terminfoColors: Int(vt_terminfo_colors_without_screen())))
    }

    /// The colour depth from the environment and terminfo's colour count (-1: unknown terminal).
    public static func depth(environment: [String: String], terminfoColors: Int) -> TerminalCapabilities.ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" { return .none }
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if terminfoColors >= 8, colorterm == "truecolor" || colorterm == "24bit" { return .trueColor }
        switch terminfoColors {
        case (1 << 24)...: return .trueColor
        case 256...: return .indexed256
        case 8...: return .eight
        default: return .none
        }
    }

    /// The terminal type to open instead of `TERM` so that ncurses sends 24-bit colours where
    /// `COLORTERM` says the terminal shows them but `TERM` names a 256-colour type (most true-colour
    /// terminals present themselves as `xterm-256color`): the `-direct` variant of an xterm or tmux
    /// type. Nil where `TERM` already is one, or where nothing says true colour.
    public static func directColorType(environment: [String: String]) -> String? {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return nil }
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        guard colorterm == "truecolor" || colorterm == "24bit" else { return nil }
        let term = environment["TERM"] ?? ""
        guard !term.contains("direct") else { return nil }
        if term.hasPrefix("xterm") { return "xterm-direct" }
        if term.hasPrefix("tmux") { return "tmux-direct" }
        return nil
    }
}
