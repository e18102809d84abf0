import Foundation
import XCTest

@testable import HTTP

final class TLSTests: XCTestCase {
    private static let certificate = TestServer.script.deletingLastPathComponent()
        .appendingPathComponent("self-signed.pem").path

    private func error(_ url: String) async -> HTTPError? {
        let client = HTTPClient(userAgent: "vtourist-tests/1.0")
        defer { client.shutdown() }
        do {
            let response = try await client.fetch(HTTPRequest(url: url, timeout: 30))
            XCTFail("expected a TLS error, got status \(response.status)")
            return nil
        } catch {
            return error
        }
    }

    func testUntrustedCertificateIsRefused() async throws {
        let server = try TestServer(arguments: ["--tls-cert", Self.certificate])
        defer { server.stop() }
        for host in ["127.0.0.1", "localhost"] {
            let error = await error("https://\(host):\(server.port)/bytes/10")
            guard case .tls(let detail) = error else { return XCTFail("\(host): \(String(describing: error))") }
            XCTAssertFalse(detail.isEmpty)
        }
    }

    func testHTTPSToAPlainServerIsATLSError() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let error = await error("https://127.0.0.1:\(server.port)/bytes/10")
        guard case .tls = error else { return XCTFail("\(String(describing: error))") }
    }
}
