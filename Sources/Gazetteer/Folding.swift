import Foundation

/// The search form of a name: "São Paulo" → "sao paulo", "Zürich" → "zurich",
/// "Saint-Étienne" → "saint etienne", "Ra's al Khaymah" → "ras al khaymah".
///
/// NFKD, nonspacing marks dropped, each scalar lowercased, a few letters that
/// have no decomposition spelled out (ß, ø, ł, …), apostrophes and dots
/// dropped, hyphens and other separators turned into single spaces.
/// scripts/build_places.py folds the file's keys the same way, so the two
/// must change together. (Foundation's `folding(options:)` leaves ø and ł.)
func searchFold(_ text: String) -> String {
    asciiSearchFold(text) ?? unicodeSearchFold(text)
}

/// `searchFold` of any text, through Unicode normalisation.
func unicodeSearchFold(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var lastWasSpace = true  // no leading space
    for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars {
        if scalar.properties.generalCategory == .nonspacingMark { continue }
        for lower in scalar.properties.lowercaseMapping.unicodeScalars {
            if let spelled = foldSpecial[lower] {
                out.append(contentsOf: spelled.unicodeScalars)
                lastWasSpace = false
            } else if foldDropped.contains(lower) {
                continue
            } else if foldSpaces.contains(lower) {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else {
                out.append(lower)
                lastWasSpace = false
            }
        }
    }
    if out.last == " " { out.removeLast() }
    return String(out)
}

/// `searchFold` for many names at once: each scalar's fold is worked out
/// once and remembered (normalising one string at a time costs microseconds).
/// Decomposing scalar by scalar is NFKD without its reordering of marks, which
/// only moves marks of nonzero combining class, nearly all nonspacing and so dropped.
public struct SearchFolder: Sendable {
    /// A scalar's fold in UTF-8; 0x20 for a separator. The Basic Multilingual Plane in a table
    /// (a lookup per letter: hashing would cost as much as the rest of the fold), the rest hashed.
    /// The table is made at the first letter beyond ASCII: making and freeing it costs half a millisecond.
    private var plane0: [[UInt8]?] = []
    private var cache: [Unicode.Scalar: [UInt8]] = [:]

    /// Whether a letter beyond ASCII was folded, so the table was made.
    var madeTable: Bool { !plane0.isEmpty }

    public init() {}

    public mutating func fold(_ text: String) -> String {
        String(decoding: foldBytes(text), as: UTF8.self)
    }

    /// The fold in UTF-8.
    public mutating func foldBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var lastWasSpace = true  // no leading space
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for b in text.utf8 { append(asciiPiece(b), &out, &lastWasSpace) }
        } else {
            for scalar in text.unicodeScalars {
                if scalar.isASCII {
                    append(asciiPiece(UInt8(scalar.value)), &out, &lastWasSpace)
                } else {
                    for b in piece(scalar) { append(b, &out, &lastWasSpace) }
                }
            }
        }
        if out.last == 0x20 { out.removeLast() }
        return out
    }

    /// An ASCII byte's fold: itself lowered, 0x20 for a separator, nil when dropped.
    private func asciiPiece(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x41...0x5A: b + 0x20
        case UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: "."): nil
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: " "), UInt8(ascii: "\t"): 0x20
        default: b
        }
    }

    private func append(_ b: UInt8?, _ out: inout [UInt8], _ lastWasSpace: inout Bool) {
        guard let b else { return }
        if b == 0x20 {
            if !lastWasSpace { out.append(0x20) }
            lastWasSpace = true
        } else {
            out.append(b)
            lastWasSpace = false
        }
    }

    private mutating func piece(_ scalar: Unicode.Scalar) -> [UInt8] {
        if scalar.value < 0x10000 {
            if plane0.isEmpty { plane0 = [[UInt8]?](repeating: nil, count: 0x10000) }
            if let known = plane0[Int(scalar.value)] { return known }
            let folded = fold(scalar)
            plane0[Int(scalar.value)] = folded
            return folded
        }
        if let known = cache[scalar] { return known }
        let folded = fold(scalar)
        cache[scalar] = folded
        return folded
    }

    /// One scalar's fold, worked out.
    private func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
        // Foundation takes microseconds a scalar: the two largest blocks in names are worked out here.
        let v = scalar.value
        if (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v) {
            // CJK unified ideographs: no decomposition, no case.
            return Array(String(scalar).utf8)
        }
        if (0xAC00...0xD7A3).contains(v) {
            // A Hangul syllable decomposes into its jamo by arithmetic (Unicode 3.12).
            let s = v - 0xAC00
            var jamo = [0x1100 + s / 588, 0x1161 + (s % 588) / 28]
            if s % 28 != 0 { jamo.append(0x11A7 + s % 28) }
            return Array(String(String.UnicodeScalarView(jamo.compactMap(Unicode.Scalar.init))).utf8)
        }
        var out = String.UnicodeScalarView()
        for part in String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars {
            if part.properties.generalCategory == .nonspacingMark { continue }
            for lower in part.properties.lowercaseMapping.unicodeScalars {
                if let spelled = foldSpecial[lower] {
                    out += spelled.unicodeScalars
                } else if foldDropped.contains(lower) {
                    continue
                } else if foldSpaces.contains(lower) {
                    out.append(" ")
                } else {
                    out.append(lower)
                }
            }
        }
        return Array(String(out).utf8)
    }
}

/// `searchFold` of plain ASCII text without Unicode normalisation (most names, and
/// every typed letter of them): nil when the text is not all ASCII.
func asciiSearchFold(_ text: String) -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var lastWasSpace = true
    for b in text.utf8 {
        switch b {
        case 0x80...: return nil
        case 0x41...0x5A:
            out.append(b + 0x20)
            lastWasSpace = false
        case UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: "."):
            continue
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: " "), UInt8(ascii: "\t"):
            if !lastWasSpace { out.append(0x20) }
            lastWasSpace = true
        default:
            out.append(b)
            lastWasSpace = false
        }
    }
    if out.last == 0x20 { out.removeLast() }
    return String(decoding: out, as: UTF8.self)
}

private let foldSpecial: [Unicode.Scalar: String] = [
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
    "þ": "th", "ħ": "h", "ı": "i", "ĸ": "k", "ŧ": "t", "ς": "σ",
]
private let foldDropped: Set<Unicode.Scalar> = ["'", "’", "‘", "ʼ", "ʻ", "`", "´", "."]
private let foldSpaces: Set<Unicode.Scalar> = ["-", "‐", "‑", "‒", "–", "—", "_", "/", " ", "\t", "\u{A0}"]

/// A name spelt in plain ASCII for terminals without UTF-8, keeping its case:
/// "Zürich" → "Zurich", "Łódź" → "Lodz", "Straße" → "Strasse". Letters with
/// no ASCII form are left out; the result may be empty.
public func asciiSpelling(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars {
        if scalar.isASCII {
            if scalar.value >= 0x20 && scalar.value < 0x7F { out.append(scalar) }
            continue
        }
        if scalar.properties.generalCategory == .nonspacingMark { continue }
        if let dash = asciiPunctuation[scalar] {
            out.append(dash)
            continue
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        guard lower.count == 1, let first = lower.first, let spelled = foldSpecial[first], spelled.allSatisfy(\.isASCII) else {
            continue
        }
        let isUpper = scalar.properties.isUppercase
        out.append(contentsOf: (isUpper ? spelled.prefix(1).uppercased() + spelled.dropFirst() : spelled).unicodeScalars)
    }
    return String(String(out).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "))
}

private let asciiPunctuation: [Unicode.Scalar: Unicode.Scalar] = [
    "’": "'", "‘": "'", "ʼ": "'", "ʻ": "'", "´": "'", "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "\u{A0}": " ",
]
