import TextSafety

/// Makes text from the network safe for a terminal and readable as one line.
public enum TextCleaner {
    /// Longest text kept; titles longer than this are cut (with an ellipsis).
    public static let defaultMaxLength = 300

    /// Removes escape sequences and control characters (C0, DEL, C1, bidi
    /// overrides: `strippingTerminalControls`), turns every whitespace run into one space and trims.
    public static func clean(_ text: String, maxLength: Int = defaultMaxLength) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for c in text.strippingTerminalControls.unicodeScalars {
            // A byte-order mark hides in text and is no part of it.
            if c.value == 0xFEFF { continue }
            if c.properties.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace && !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.append(c)
        }
        var result = String(out)
        if maxLength > 0, result.count > maxLength {
            result = String(result.prefix(max(maxLength - 1, 0))).trimmingTrailingSpaces() + "…"
        }
        return result
    }

    /// `clean`, but nil for nil or for text that cleans to nothing.
    public static func cleanOptional(_ text: String?, maxLength: Int = defaultMaxLength) -> String? {
        guard let text else { return nil }
        let cleaned = clean(text, maxLength: maxLength)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// Text from HTML (Commons extmetadata): tags removed, entities decoded,
    /// then cleaned like any other text.
    public static func plainText(fromHTML html: String, maxLength: Int = defaultMaxLength) -> String {
        clean(decodeEntities(stripTags(html)), maxLength: maxLength)
    }

    static func stripTags(_ html: String) -> String {
        var out = ""
        var inTag = false
        var quote: Character? = nil
        for ch in html {
            if inTag {
                if let q = quote {
                    if ch == q { quote = nil }
                } else if ch == "\"" || ch == "'" {
                    quote = ch
                } else if ch == ">" {
                    inTag = false
                    // A tag separates words ("a<br>b" reads "a b").
                    out.append(" ")
                }
            } else if ch == "<" {
                inTag = true
                quote = nil
            } else {
                out.append(ch)
            }
        }
        return out
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "–", "mdash": "—", "hellip": "…", "copy": "©", "reg": "®",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»",
        "middot": "·", "deg": "°", "eacute": "é", "egrave": "è", "uuml": "ü", "ouml": "ö",
        "auml": "ä", "szlig": "ß", "aacute": "á", "iacute": "í", "oacute": "ó", "uacute": "ú",
        "ntilde": "ñ", "ccedil": "ç",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            // Entities are short; a lone "&" stays as it is.
            if let semi = after.prefix(12).firstIndex(of: ";"),
               let decoded = decodeEntity(after[..<semi]) {
                out += decoded
                rest = after[after.index(after: semi)...]
            } else {
                out.append("&")
                rest = after
            }
        }
        out += rest
        return out
    }

    private static func decodeEntity(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            // Invalid code points become U+FFFD rather than vanishing silently.
            guard let value else { return nil }
            return String(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}")
        }
        return namedEntities[String(name)]
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
