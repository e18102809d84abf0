import Foundation

/// How times are written and read in both formats (coordinates: `CoordinateNumber`).
enum PinFileText {
    /// A number read from a file, echoed in full in a message (shortest round-tripping digits, no exponent).
    static func echoed(_ value: Double) -> String {
        if value == 0 { return "0" }
        let shortest = "\(value)"
        guard shortest.contains("e") || shortest.contains("E") else {
            return shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest
        }
        var fixed = String(format: "%.20f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed
    }

    /// ISO 8601 in UTC with milliseconds, as the store keeps them.
    static func writer() -> ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }

    /// The album filter's JSON (its `Codable` shape, the one `album --json` prints), keys sorted, on one line.
    static func filterEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Reads ISO 8601 times with or without fractional seconds; anything else is no time.
    struct TimeReader {
        private let fractional = PinFileText.writer()
        private let whole = ISO8601DateFormatter()

        func date(_ text: String) -> Date? {
            let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return fractional.date(from: t) ?? whole.date(from: t)
        }
    }

    /// A name as stored: trimmed, and none when empty.
    static func name(_ text: String?) -> String? {
        guard let t = text?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
        return t
    }

    /// "latitude 91 is outside −90…90" when the point is off the globe, else nil.
    static func rangeProblem(latitude: Double, longitude: Double) -> String? {
        if !latitude.isFinite || !(-90...90).contains(latitude) {
            return "latitude \(echoed(latitude)) is outside −90…90"
        }
        if !longitude.isFinite || !(-180...180).contains(longitude) {
            return "longitude \(echoed(longitude)) is outside −180…180"
        }
        return nil
    }
}
