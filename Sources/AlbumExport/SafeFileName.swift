/// The one rule that makes a text (a photo's title, a pin's name) a file or folder name: `w` in the photo
/// view, `W` in the album and `album --save` all use it.
public enum SafeFileName {
    /// The longest name, in characters.
    public static let maxCharacters = 80
    /// The longest name in UTF-8 bytes: file systems allow 255, and a number and `.jpg` are added around it.
    public static let maxBytes = 200

    /// The text as a name: no `/` nor the characters FAT and Windows refuse (a USB stick), no control or
    /// format characters, spaces collapsed, no leading or trailing dot, at most `maxCharacters` characters
    /// and `maxBytes` bytes; `fallback` when nothing is left (a title of only dots, say).
    public static func make(_ text: String, fallback: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate:
                scalars.append(" ")
            default:
                scalars.append(Self.refused.contains(scalar) ? "-" : scalar)
            }
        }
        var name = String(scalars).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        name = trimmed(name)
        var cut = ""
        for character in name.prefix(maxCharacters) {
            guard cut.utf8.count + String(character).utf8.count <= maxBytes else { break }
            cut.append(character)
        }
        name = trimmed(cut)
        return name.isEmpty ? fallback : name
    }

    /// Refused in names by some file system the album may be carried to.
    static let refused: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    /// No dot or space at either end: a leading dot hides the file, a trailing one is dropped on FAT.
    private static func trimmed(_ name: String) -> String {
        var name = Substring(name)
        while let first = name.first, first == "." || first == " " { name.removeFirst() }
        while let last = name.last, last == "." || last == " " { name.removeLast() }
        return String(name)
    }
}
