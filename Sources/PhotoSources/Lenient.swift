import Foundation

/// Lenient readers for JSONSerialization values: the APIs send numbers as
/// strings and vice versa, and omit fields freely.
enum Lenient {
    /// Parses a body into a JSON object, or says why it can't.
    static func object(_ data: Data) throws(PhotoSourceError) -> [String: Any] {
        guard !data.isEmpty else { throw .malformed("empty response") }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw .malformed(looksLikeWebPage(data) ? "a web page, not JSON (\(data.count) bytes; a captive portal or a proxy?)"
                                                      : "not JSON (\(data.count) bytes, possibly truncated)")
        }
        guard let object = parsed as? [String: Any] else {
            throw .malformed("the top level is not a JSON object")
        }
        return object
    }

    /// Starts (after white space and a byte-order mark) like an HTML page: a captive portal, a
    /// proxy's or a server's error page.
    static func looksLikeWebPage(_ data: Data) -> Bool {
        var head = data.prefix(512)[...]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        let text = String(decoding: head.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }, as: UTF8.self).lowercased()
        return text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || (text.hasPrefix("<") && text.contains("<html"))
    }

    static func int(_ value: Any?) -> Int? {
        switch value {
        case let n as NSNumber:
            let d = n.doubleValue
            guard d.isFinite, abs(d) < 1e15 else { return nil }
            return Int(d)
        case let s as String:
            let t = s.trimmingCharacters(in: .whitespaces)
            if let i = Int(t) { return i }
            if let d = Double(t), d.isFinite, abs(d) < 1e15 { return Int(d) }
            return nil
        default:
            return nil
        }
    }

    static func double(_ value: Any?) -> Double? {
        switch value {
        case let n as NSNumber:
            let d = n.doubleValue
            return d.isFinite ? d : nil
        case let s as String:
            guard let d = Double(s.trimmingCharacters(in: .whitespaces)), d.isFinite else { return nil }
            return d
        default:
            return nil
        }
    }

    /// Strings as-is, numbers as their decimal text; nil for anything else or empty text.
    static func string(_ value: Any?) -> String? {
        switch value {
        case let s as String:
            return s.isEmpty ? nil : s
        case let n as NSNumber:
            if let i = int(n) { return String(i) }
            return nil
        default:
            return nil
        }
    }

    /// Only absolute http(s) URLs without spaces, controls or invisible format characters are
    /// downloadable: a bidi override (U+202E) would show the URL reordered, on screen and in the
    /// browser's address bar (found by the flickr and commons fuzz targets).
    static func url(_ value: Any?) -> String? {
        guard var s = value as? String else { return nil }
        s = s.trimmingCharacters(in: .whitespaces)
        // Protocol-relative URLs (older MediaWiki) mean "same scheme": https.
        if s.hasPrefix("//") { s = "https:" + s }
        let lower = s.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        guard s.count > 8, s.count <= 4096 else { return nil }
        for scalar in s.unicodeScalars where scalar.value <= 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || scalar.properties.isWhitespace || scalar.properties.generalCategory == .format {
            return nil
        }
        return s
    }
}
