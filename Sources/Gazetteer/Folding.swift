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

private let foldSpecial: [Unicode.Scalar: String] = [
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
    "þ": "th", "ħ": "h", "ı": "i", "ĸ": "k", "ŧ": "t", "ς": "σ",
]
private let foldDropped: Set<Unicode.Scalar> = ["'", "’", "‘", "ʼ", "ʻ", "`", "´", "."]
private let foldSpaces: Set<Unicode.Scalar> = ["-", "‐", "‑", "‒", "–", "—", "_", "/", " ", "\t", "\u{A0}"]
