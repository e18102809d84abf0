import Foundation
import Terminal

extension NcursesTerminal {
    /// Puts text on the system clipboard by OSC 52 (xterm, kitty, foot, WezTerm, iTerm2, tmux with
    /// `set-clipboard on`), after what ncurses has buffered. False where the sequence is known to do
    /// nothing (the Linux console, a dumb terminal); elsewhere the terminal may still ignore it.
    @discardableResult
    public func copyToClipboard(_ text: String) -> Bool {
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        guard cursesActive, Clipboard.mayTakeOSC52(term: term) else { return false }
        writeOutOfBand(Clipboard.osc52(text))
        return true
    }
}

/// OSC 52, the terminal's clipboard: the sequence, and where it cannot work.
public enum Clipboard {
    /// `ESC ] 52 ; c ; base64 BEL`: sets the clipboard ("c") to `text`.
    public static func osc52(_ text: String) -> [UInt8] {
        Array("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}".utf8)
    }

    /// Terminals that take no OSC 52 at all.
    public static func mayTakeOSC52(term: String) -> Bool {
        !(term.isEmpty || term == "dumb" || term == "linux" || term.hasPrefix("vt1") || term.hasPrefix("vt2"))
    }
}
