import Foundation

/// The proxy a request goes through, chosen from the environment by vtourist (not by curl),
/// so that a failure can name the proxy and the variable it came from.
struct ProxyChoice: Sendable, Equatable {
    /// As the variable gives it: handed to curl unchanged.
    var url: String
    /// The variable it came from, e.g. `https_proxy`.
    var variable: String

    /// `http://proxy:3128 (https_proxy)`, without any user name or password.
    var label: String { "\(Self.withoutCredentials(url)) (\(variable))" }

    static func withoutCredentials(_ url: String) -> String {
        let schemeEnd = url.range(of: "://").map(\.upperBound) ?? url.startIndex
        let authorityEnd = url[schemeEnd...].firstIndex(where: { "/?#".contains($0) }) ?? url.endIndex
        guard let at = url[schemeEnd..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd]) + String(url[url.index(after: at)...])
    }

    /// curl's rules (lib/url.c, detect_proxy): `<scheme>_proxy`, its upper-case form except for
    /// `HTTP_PROXY` (which a CGI request can set), then `all_proxy`/`ALL_PROXY`; `no_proxy`/`NO_PROXY`
    /// exempts hosts. Empty values count as unset. Loopback hosts never use a proxy.
    static func choose(scheme: String, host: String, isLoopback: Bool, environment: [String: String]) -> ProxyChoice? {
        guard !isLoopback else { return nil }
        func value(_ name: String) -> ProxyChoice? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return ProxyChoice(url: text, variable: name)
        }
        let lower = scheme.lowercased() + "_proxy"
        var candidates = [lower]
        if lower != "http_proxy" { candidates.append(lower.uppercased()) }
        candidates += ["all_proxy", "ALL_PROXY"]
        guard let choice = candidates.lazy.compactMap(value).first else { return nil }
        let exempt = value("no_proxy") ?? value("NO_PROXY")
        if let exempt, isExempt(host: host, noProxy: exempt.url) { return nil }
        return choice
    }

    /// `*` exempts every host; otherwise a comma-separated list of names (a leading dot is
    /// optional: `example.org` also covers `a.example.org`) or IPv4 addresses with an optional `/bits`.
    static func isExempt(host: String, noProxy: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for raw in noProxy.split(separator: ",") {
            var entry = raw.trimmingCharacters(in: .whitespaces).lowercased()
            if entry == "*" { return true }
            if entry.hasPrefix(".") { entry.removeFirst() }
            guard !entry.isEmpty else { continue }
            if let slash = entry.firstIndex(of: "/") {
                if let bits = Int(entry[entry.index(after: slash)...]), let network = ipv4(String(entry[..<slash])),
                   let address = ipv4(host), (0...32).contains(bits) {
                    let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
                    if network & mask == address & mask { return true }
                }
                continue
            }
            if host == entry || host.hasSuffix("." + entry) { return true }
        }
        return false
    }

    private static func ipv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }
}
