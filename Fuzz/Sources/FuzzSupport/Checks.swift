import Foundation

/// Properties that must hold whatever the input; a broken one stops the run as a crash does.
public enum FuzzCheck {
    /// SPEC 8: text from outside never reaches the terminal with control characters in it
    /// (C0, DEL, C1, and the bidi overrides that reorder what is shown).
    public static func terminalSafe(_ text: String?, _ what: @autoclosure () -> String) {
        guard let text else { return }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let bad = v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            that(!bad, "\(what()) holds U+\(String(v, radix: 16, uppercase: true)): \(text.debugDescription)")
        }
    }

    public static func that(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { failed(what()) }
    }

    /// Says which check broke (a release build's `precondition` would not), then traps.
    public static func failed(_ what: String) -> Never {
        FileHandle.standardError.write(Data("vtourist-fuzz: check failed: \(what)\n".utf8))
        fatalError(what)
    }
}
