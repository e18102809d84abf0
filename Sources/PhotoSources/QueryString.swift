import Foundation

/// Builds `endpoint?k=v&…` with every value percent-encoded.
enum QueryString {
    /// RFC 3986 unreserved characters stay; everything else (including | , :) is encoded.
    private static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        set.insert(charactersIn: "-._~")
        return set
    }()

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func url(_ endpoint: String, _ items: [(String, String)]) -> String {
        let query = items.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        // An endpoint that already has a query string gets ours appended.
        let separator = endpoint.contains("?") ? (endpoint.hasSuffix("?") || endpoint.hasSuffix("&") ? "" : "&") : "?"
        return endpoint + separator + query
    }

    /// Coordinates as short decimal text: at most 6 decimals, no trailing zeros, never "-0".
    static func number(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        if text == "-0" { text = "0" }
        return text
    }
}
