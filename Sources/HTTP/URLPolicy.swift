import CCurl
import Foundation

/// Which URLs may be fetched: https anywhere, plain http only on loopback hosts.
public enum URLPolicy {
    /// A URL that passed the policy, normalised by curl's own parser.
    public struct Checked: Sendable, Equatable {
        public var url: String
        public var host: String
        public var isLoopback: Bool
    }

    /// Parses with the parser curl itself uses, so the host checked is the host contacted.
    public static func check(_ url: String) -> Result<Checked, HTTPError> {
        guard let handle = vt_curl_url() else {
            return .failure(.transport(vt_curl_load_error().map { String(cString: $0) } ?? "out of memory"))
        }
        defer { vt_curl_url_cleanup(handle) }
        // Accept any scheme while parsing so an unknown one is reported as such.
        let flags = UInt32(CURLU_NON_SUPPORT_SCHEME)
        guard vt_curl_url_set(handle, CURLUPART_URL, url, flags) == CURLUE_OK else {
            if let scheme = schemeWithoutAuthority(url) { return .failure(.unsupportedScheme(scheme)) }
            return .failure(.invalidURL(url))
        }
        guard let scheme = part(handle, CURLUPART_SCHEME)?.lowercased() else {
            return .failure(.invalidURL(url))
        }
        guard scheme == "http" || scheme == "https" else {
            return .failure(.unsupportedScheme(scheme))
        }
        guard let host = part(handle, CURLUPART_HOST), !host.isEmpty,
              let normalised = part(handle, CURLUPART_URL) else {
            return .failure(.invalidURL(url))
        }
        let loopback = isLoopback(host: host)
        if scheme == "http" && !loopback {
            return .failure(.insecureURL(url))
        }
        return .success(Checked(url: normalised, host: host, isLoopback: loopback))
    }

    /// 127.0.0.0/8, ::1 (also IPv4-mapped loopback) and `localhost`, which curl never resolves over DNS.
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" { return true }
        if name.hasPrefix("[") && name.hasSuffix("]") {
            name = String(name.dropFirst().dropLast())
        }
        if let zone = name.firstIndex(of: "%") { name = String(name[..<zone]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
            let mapped = bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
            return mapped && bytes[12] == 127
        }
        return false
    }

    /// "mailto:x", "data:...": a scheme curl will not parse, reported as a scheme rather than as garbage.
    private static func schemeWithoutAuthority(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        let rest = url[url.index(after: colon)...]
        guard let first = scheme.unicodeScalars.first, CharacterSet.letters.contains(first),
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)) }),
              let next = rest.first, !next.isNumber else { return nil }
        let lowered = scheme.lowercased()
        // "http:foo" is a malformed web address, not another scheme.
        return lowered == "http" || lowered == "https" ? nil : lowered
    }

    private static func part(_ handle: OpaquePointer, _ which: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard vt_curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { vt_curl_free(value) }
        return String(cString: value)
    }
}
