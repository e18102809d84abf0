import Foundation

/// The test-only certificates in Tests/Fixtures/tls (made by scripts/make_test_certs.sh).
/// Each server file holds a certificate and its key, for a test server's `--tls-cert`.
public enum TestCertificates {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/tls")

    /// The test certificate authority: trusted only by clients that are given this file.
    public static let authority = path("ca.pem")
    /// 127.0.0.1 and localhost, signed by `authority`.
    public static let server = path("server.pem")
    /// wrong-name.invalid, signed by `authority`.
    public static let wrongName = path("wrong-name.pem")
    /// 127.0.0.1 and localhost, signed by `authority`, expired on 1 January 2001.
    public static let expired = path("expired.pem")
    /// 127.0.0.1 and localhost, signed by its own key.
    public static let selfSigned = path("self-signed.pem")

    private static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
