import Foundation

/// The `Retry-After` header (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date.
public enum RetryAfter {
    /// Seconds to wait from `now`, or nil when the value is neither form. A date in the past is 0.
    public static func seconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            return Double(text).map { min($0, 86_400 * 365) }
        }
        for format in formats {
            if let date = format.date(from: text) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }

    /// IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must accept.
    private static let formats: [DateFormatter] = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy",
    ].map { pattern in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = pattern
        return formatter
    }
}

extension HTTPResponse {
    /// What `Retry-After` asks, in seconds from `now`; nil when absent or unreadable.
    public func retryAfter(now: Date = Date()) -> Double? {
        headers["retry-after"].flatMap { RetryAfter.seconds($0, now: now) }
    }
}
