import Foundation
import TestSupport
import XCTest

@testable import HTTP

/// Real libcurl against the local test server speaking https with the certificates of
/// Tests/Fixtures/tls: only the test certificate authority is trusted, and only by the
/// clients that are given it.
final class TLSTests: XCTestCase {
    private func fetch(_ url: String, trusting authorities: String? = TestCertificates.authority) async -> Result<HTTPResponse, HTTPError> {
        let client = HTTPClient(userAgent: "vtourist-tests/1.0", certificateAuthorities: authorities)
        defer { client.shutdown() }
        do {
            return .success(try await client.fetch(HTTPRequest(url: url, timeout: 30)))
        } catch {
            return .failure(error)
        }
    }

    /// The detail of the `.tls` error that fetching `path` from a server with `certificate` ends in.
    private func refusal(_ certificate: String, host: String = "127.0.0.1", trusting authorities: String? = TestCertificates.authority,
                         file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let server = try TestServer(arguments: ["--tls-cert", certificate])
        defer { server.stop() }
        let result = await fetch("https://\(host):\(server.port)/bytes/10", trusting: authorities)
        guard case .failure(.tls(let detail)) = result else {
            XCTFail("expected a TLS error, got \(result)", file: file, line: line)
            return ""
        }
        XCTAssertFalse(detail.isEmpty, file: file, line: line)
        // What the user reads: one line that says the secure connection failed, and why.
        XCTAssertTrue(HTTPError.tls(detail).description.hasPrefix("secure connection failed: "), file: file, line: line)
        return detail
    }

    func testCertificateFromTheTrustedAuthorityServesTheBody() async throws {
        let server = try TestServer(arguments: ["--tls-cert", TestCertificates.server])
        defer { server.stop() }
        for host in ["127.0.0.1", "localhost"] {
            let response = try await fetch("https://\(host):\(server.port)/text?body=over%20tls").get()
            XCTAssertEqual(response.status, 200, host)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "over tls", host)
            XCTAssertTrue(response.url.hasPrefix("https://\(host):"), response.url)
        }
    }

    func testCertificateForAnotherNameIsRefused() async throws {
        let detail = try await refusal(TestCertificates.wrongName)
        XCTAssertTrue(detail.contains("name") && detail.contains("127.0.0.1"), detail)
    }

    func testExpiredCertificateIsRefused() async throws {
        let detail = try await refusal(TestCertificates.expired)
        XCTAssertTrue(detail.contains("expired"), detail)
    }

    func testSelfSignedCertificateIsRefused() async throws {
        for host in ["127.0.0.1", "localhost"] {
            let detail = try await refusal(TestCertificates.selfSigned, host: host)
            XCTAssertTrue(detail.contains("self-signed") || detail.contains("self signed"), detail)
        }
    }

    /// The system's authorities do not include the test one: without it the same server is refused.
    func testTestAuthorityIsNotTrustedByDefault() async throws {
        let detail = try await refusal(TestCertificates.server, trusting: nil)
        XCTAssertTrue(detail.contains("certificate"), detail)
    }

    func testMissingAuthorityFileFailsAsTLS() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-no-such-ca-\(UUID().uuidString).pem").path
        let detail = try await refusal(TestCertificates.server, trusting: missing)
        XCTAssertTrue(detail.contains(missing), "names the file: \(detail)")
    }

    func testHTTPSToAPlainServerIsATLSError() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let result = await fetch("https://127.0.0.1:\(server.port)/bytes/10")
        guard case .failure(.tls) = result else { return XCTFail("\(result)") }
    }

    // MARK: - Extra authorities, in addition to the system's

    private func fetch(_ url: String, extra: String) async -> Result<HTTPResponse, HTTPError> {
        let client = HTTPClient(userAgent: "vtourist-tests/1.0", extraCertificateAuthorities: extra, environment: [:])
        defer { client.shutdown() }
        do {
            return .success(try await client.fetch(HTTPRequest(url: url, timeout: 30)))
        } catch {
            return .failure(error)
        }
    }

    func testExtraAuthorityIsTrusted() async throws {
        let server = try TestServer(arguments: ["--tls-cert", TestCertificates.server])
        defer { server.stop() }
        let response = try await fetch("https://127.0.0.1:\(server.port)/text?body=extra", extra: TestCertificates.authority).get()
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "extra")
    }

    /// What curl is given: the system's bundle, whole, then the extra file; and the system's directory stays.
    func testExtraAuthoritiesKeepTheSystemStore() throws {
        let builtIn = CertificateTrust.builtIn()
        let bundle = try XCTUnwrap(builtIn.bundle, "libcurl names its built-in CA bundle")
        let system = try Data(contentsOf: URL(fileURLWithPath: bundle))
        let extra = try Data(contentsOf: URL(fileURLWithPath: TestCertificates.authority))
        let trust = CertificateTrust.resolve(only: nil, extra: TestCertificates.authority, systemBundle: bundle)
        guard case .bundle(let pem, let sources, let keepsSystemDirectory) = trust else { return XCTFail("\(trust)") }
        XCTAssertEqual(sources, [bundle, TestCertificates.authority])
        XCTAssertTrue(keepsSystemDirectory)
        XCTAssertEqual(pem.prefix(system.count), system)
        XCTAssertEqual(pem.suffix(extra.count), extra)
        func certificates(_ data: Data) -> Int {
            String(decoding: data, as: UTF8.self).components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        }
        XCTAssertGreaterThan(certificates(system), 50, "the system bundle is the real one")
        XCTAssertEqual(certificates(pem), certificates(system) + 1)
        // Without an extra file nothing is changed; with `only` the system is left out.
        XCTAssertEqual(CertificateTrust.resolve(only: nil, extra: nil, systemBundle: bundle), .system)
        guard case .bundle(_, let onlySources, false) = CertificateTrust.resolve(
            only: TestCertificates.authority, extra: TestCertificates.authority, systemBundle: bundle) else { return XCTFail() }
        XCTAssertEqual(onlySources, [TestCertificates.authority, TestCertificates.authority])
    }

    /// The system bundle joined with the extra one is still a usable store (every certificate parses):
    /// a server signed by neither is refused for its certificate, not for a broken store.
    func testExtraAuthorityThatDidNotSignTheServerIsRefused() async throws {
        let server = try TestServer(arguments: ["--tls-cert", TestCertificates.server])
        defer { server.stop() }
        let result = await fetch("https://127.0.0.1:\(server.port)/bytes/10", extra: TestCertificates.selfSigned)
        guard case .failure(.tls(let detail)) = result else { return XCTFail("\(result)") }
        XCTAssertTrue(detail.contains("certificate"), detail)
    }

    func testUnreadableExtraAuthoritiesFailEveryHTTPSTransferNamingTheFile() async throws {
        let server = try TestServer(arguments: ["--tls-cert", TestCertificates.server])
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.pem").path
        let notPEM = folder.appendingPathComponent("not.pem").path
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
        let cases = [(missing, "cannot read the extra certificate authorities \(missing): no such file"),
                     (folder.path, "cannot read the extra certificate authorities \(folder.path): "),
                     (notPEM, "the extra certificate authorities file \(notPEM) holds no PEM certificate")]
        for (file, expected) in cases {
            let result = await fetch("https://127.0.0.1:\(server.port)/bytes/10", extra: file)
            guard case .failure(.tls(let detail)) = result else { XCTFail("\(result)"); continue }
            XCTAssertTrue(detail.hasPrefix(expected), detail)
        }
        // Plain http to loopback does not depend on the authorities.
        let plain = try TestServer()
        defer { plain.stop() }
        let response = try await fetch(plain.url("/bytes/10"), extra: missing).get()
        XCTAssertEqual(response.body.count, 10)
    }
}
