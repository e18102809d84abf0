/// Why the terminal could not be set up, in words for the user.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (piped or redirected).
    case notATerminal
    /// TERM is unset, unknown to terminfo, or too limited for a full screen.
    case unusableTerminal(term: String)
    /// Another `NcursesTerminal` is still active; ncurses has one screen.
    case alreadyActive
    /// The wake-up pipe could not be created.
    case system(String)

    public var description: String {
        switch self {
        case .notATerminal:
            return "needs a terminal: standard input and output must not be redirected."
        case .unusableTerminal(let term) where term.isEmpty:
            return "TERM is not set; set it to your terminal's type (for example TERM=xterm-256color)."
        case .unusableTerminal(let term):
            return "The terminal type TERM=\(term) is unknown or cannot move the cursor; "
                + "try TERM=xterm-256color (or install ncurses-term for more terminal types)."
        case .alreadyActive:
            return "The terminal is already in use by this program."
        case .system(let message):
            return "Could not set up the terminal: \(message)"
        }
    }
}
