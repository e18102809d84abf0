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
            return Self.utc(t) ?? fractional.date(from: t) ?? whole.date(from: t)
        }

        /// `YYYY-MM-DDTHH:MM:SSZ` or `….sssZ`, what `export` and most GPS devices write, read without
        /// the formatters (half a GPX file's reading time went to them); nil for any other form,
        /// which the formatters then read. The same instant the formatter gives, to the millisecond.
        static func utc(_ text: String) -> Date? {
            let b = Array(text.utf8)
            guard b.count == 20 || b.count == 24, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74,
                  b[13] == 0x3A, b[16] == 0x3A, b[b.count - 1] == 0x5A else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var n = 0
                for i in range {
                    guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                    n = n * 10 + Int(b[i] - 0x30)
                }
                return n
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                  let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                  (1...12).contains(month), hour < 24, minute < 60, second < 60,
                  // Before 1583 the formatters count Julian days (the Gregorian calendar began in
                  // October 1582): those years are theirs.
                  year >= 1583 else { return nil }
            var millis = 0
            if b.count == 24 {
                guard b[19] == 0x2E, let m = number(20..<23) else { return nil }
                millis = m
            }
            // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
            let daysInMonth = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            guard day >= 1, day <= daysInMonth[month - 1] else { return nil }
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
            return Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
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
