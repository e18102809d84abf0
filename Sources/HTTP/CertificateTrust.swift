import CCurl
import Foundation

/// What curl is told to trust, decided once per client.
enum CertificateTrust: Sendable, Equatable {
    /// libcurl's built-in bundle and directory (Debian: /etc/ssl/certs/ca-certificates.crt and /etc/ssl/certs).
    case system
    /// Only the authorities of this file (CAINFO), and no directory.
    case only(file: String)
    /// These PEM bytes (CAINFO_BLOB, which replaces the bundle file), read from `sources` in order;
    /// `keepsSystemDirectory`: libcurl's built-in directory (CAPATH) is consulted as well.
    case bundle(pem: Data, sources: [String], keepsSystemDirectory: Bool)
    /// Every https transfer fails with this reason, before any traffic.
    case unusable(String)

    /// `extra` is trusted IN ADDITION to the base (the system's, or `only`): curl 7.88 with OpenSSL
    /// takes one CA file or one blob, so the base bundle and the extra file are joined into one blob;
    /// the system directory stays as libcurl has it.
    static func resolve(only: String?, extra: String?, systemBundle: String?,
                        read: (String) throws -> Data = { try Data(contentsOf: URL(fileURLWithPath: $0)) }) -> CertificateTrust {
        guard let extra else { return only.map { .only(file: $0) } ?? .system }
        let extraPEM: Data
        do {
            extraPEM = try read(extra)
        } catch {
            return .unusable("cannot read the extra certificate authorities \(extra): \(reason(error))")
        }
        guard extraPEM.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            return .unusable("the extra certificate authorities file \(extra) holds no PEM certificate")
        }
        var pem = Data()
        var sources: [String] = []
        if let only {
            do {
                pem = try read(only)
            } catch {
                return .unusable("cannot read the certificate authorities \(only): \(reason(error))")
            }
            sources.append(only)
        } else if let systemBundle, let system = try? read(systemBundle) {
            // Unreadable or absent: the system directory alone still holds the system's authorities.
            pem = system
            sources.append(systemBundle)
        }
        if !pem.isEmpty, pem.last != UInt8(ascii: "\n") { pem.append(UInt8(ascii: "\n")) }
        pem.append(extraPEM)
        sources.append(extra)
        return .bundle(pem: pem, sources: sources, keepsSystemDirectory: only == nil)
    }

    private static func reason(_ error: Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        let cocoa = error as NSError
        if cocoa.domain == NSCocoaErrorDomain, cocoa.code == NSFileReadNoSuchFileError { return "no such file" }
        if cocoa.domain == NSCocoaErrorDomain, cocoa.code == NSFileReadNoPermissionError { return "permission denied" }
        return error.localizedDescription
    }

    /// libcurl's built-in CA bundle and directory (CURLINFO_CAINFO/CAPATH, libcurl 7.84+).
    static func builtIn() -> (bundle: String?, directory: String?) {
        guard let easy = vt_curl_easy_init() else { return (nil, nil) }
        defer { vt_curl_easy_cleanup(easy) }
        var bundle: UnsafeMutablePointer<CChar>?
        var directory: UnsafeMutablePointer<CChar>?
        let gotBundle = vt_easy_getinfo_string(easy, CURLINFO_CAINFO, &bundle) == CURLE_OK
        let gotDirectory = vt_easy_getinfo_string(easy, CURLINFO_CAPATH, &directory) == CURLE_OK
        return (gotBundle ? bundle.map { String(cString: $0) } : nil,
                gotDirectory ? directory.map { String(cString: $0) } : nil)
    }
}
