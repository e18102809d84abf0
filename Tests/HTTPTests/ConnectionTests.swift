import CCurl
import Foundation
import TestSupport
import XCTest

@testable import HTTP

struct ConnectionStats: Decodable {
    var requests: Int
    var connections: Int
    var head_requests: Int
    var tls_resumed: Int
}

/// Broken connections, proxies, HEAD and connection statistics, with real libcurl against the
/// local test server. Proxies come from an explicit environment, never the test process's own.
final class ConnectionTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    private func makeClient(
        maxConnectionsPerHost: Int = 8,
        shareHandle: Bool = true,
        environment: [String: String] = [:],
        certificateAuthorities: String? = nil,
        extraCertificateAuthorities: String? = nil
    ) -> HTTPClient {
        let client = HTTPClient(
            userAgent: "vtourist-tests/1.0",
            maxConnectionsPerHost: maxConnectionsPerHost,
            certificateAuthorities: certificateAuthorities,
            extraCertificateAuthorities: extraCertificateAuthorities,
            shareHandle: shareHandle,
            environment: environment
        )
        addCleanup { client.shutdown() }
        return client
    }

    private func failure(_ client: HTTPClient, _ request: HTTPRequest,
                         file: StaticString = #filePath, line: UInt = #line) async -> HTTPError? {
        do {
            let response = try await client.fetch(request)
            XCTFail("expected an error, got status \(response.status) from \(request.url)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// The server's counters, read by a client of its own (its one connection counts too).
    private func serverStats(_ server: TestServer, https: Bool = false) async throws -> ConnectionStats {
        let probe = HTTPClient(userAgent: "vtourist-tests/1.0", certificateAuthorities: https ? TestCertificates.authority : nil,
                               shareHandle: false, environment: [:])
        defer { probe.shutdown() }
        let base = https ? "https://127.0.0.1:\(server.port)" : server.baseURL
        let response = try await probe.fetch(HTTPRequest(url: base + "/stats"))
        return try JSONDecoder().decode(ConnectionStats.self, from: response.body)
    }

    // MARK: - A connection that breaks

    func testServerClosingWithoutAnAnswerIsConnectionLost() async throws {
        let error = await failure(makeClient(), HTTPRequest(url: server.url("/close")))
        guard case .connectionLost(let detail)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(detail.contains("Empty reply"), detail)
    }

    func testConnectionResetIsConnectionLost() async throws {
        let error = await failure(makeClient(), HTTPRequest(url: server.url("/reset")))
        guard case .connectionLost(let detail)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(detail.lowercased().contains("reset"), detail)
    }

    func testClosedPortIsRefusedNotLost() async throws {
        let closed = try ClosedPort()
        let error = await failure(makeClient(), HTTPRequest(url: "http://127.0.0.1:\(closed.port)/bytes/10"))
        XCTAssertEqual(error, .connectionRefused(host: "127.0.0.1"))
    }

    /// curl's codes for a broken HTTP/2 connection cannot be made by the HTTP/1.1 test server: the table.
    func testErrorTableForCodesTheLocalServerCannotCause() {
        func map(_ code: CURLcode, proxy: ProxyChoice? = nil, proxyAnswer: Int = 0) -> HTTPError {
            NetworkLoop.error(for: code, detail: "why", host: "h.example", proxy: proxy, proxyAnswer: proxyAnswer,
                              exceededLimit: false, limit: 10, url: "https://h.example/")
        }
        for code in [CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE] {
            XCTAssertEqual(map(code), .connectionLost("why"), "\(code)")
        }
        let proxy = ProxyChoice(url: "http://p.example:3128", variable: "https_proxy")
        XCTAssertEqual(map(CURLE_COULDNT_RESOLVE_PROXY, proxy: proxy), .proxyFailed(proxy: "http://p.example:3128 (https_proxy)", detail: "why"))
        XCTAssertEqual(map(CURLE_PROXY, proxy: proxy), .proxyFailed(proxy: "http://p.example:3128 (https_proxy)", detail: "why"))
        // Without a proxy the same connect failure is the host's.
        XCTAssertEqual(map(CURLE_COULDNT_CONNECT), .connectionRefused(host: "h.example"))
        XCTAssertEqual(map(CURLE_COULDNT_CONNECT, proxy: proxy), .proxyFailed(proxy: "http://p.example:3128 (https_proxy)", detail: "why"))
        XCTAssertEqual(map(CURLE_COULDNT_RESOLVE_HOST), .dnsFailed(host: "h.example"))
        XCTAssertEqual(map(CURLE_RECV_ERROR, proxy: proxy, proxyAnswer: 403),
                       .transport("the proxy http://p.example:3128 (https_proxy) refused to connect to h.example (status 403)"))
    }

    // MARK: - Proxies

    func testProxyVariableAtAClosedPortFailsNamingTheProxyAndTheVariable() async throws {
        let closed = try ClosedPort()
        let proxy = "http://127.0.0.1:\(closed.port)"
        // The host is never contacted (nor looked up): curl only connects to the proxy.
        let client = makeClient(environment: ["https_proxy": proxy])
        let error = await failure(client, HTTPRequest(url: "https://photos.example.org/a.jpg"))
        guard case .proxyFailed(let named, let detail)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(named, "\(proxy) (https_proxy)")
        XCTAssertFalse(detail.isEmpty)
        XCTAssertTrue(error?.description.hasPrefix("could not reach the proxy \(proxy) (https_proxy): ") == true,
                      error?.description ?? "")
    }

    func testUpperCaseAndAllProxyVariablesAreNamedWithoutTheirPassword() async throws {
        let closed = try ClosedPort()
        for variable in ["HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            let client = makeClient(environment: [variable: "http://someone:secret@127.0.0.1:\(closed.port)"])
            let error = await failure(client, HTTPRequest(url: "https://photos.example.org/a.jpg"))
            XCTAssertEqual(error.map { if case .proxyFailed(let proxy, _) = $0 { proxy } else { "\($0)" } },
                           "http://127.0.0.1:\(closed.port) (\(variable))")
            XCTAssertFalse(error?.description.contains("secret") ?? true, variable)
        }
    }

    func testProxyThatRefusesTheTunnelIsNeitherUnreachableNorALostConnection() async throws {
        // The test server answers CONNECT with 501: a proxy that is there but will not tunnel
        // (curl reports it as a receive error, which would otherwise read as a lost connection).
        let proxy = server.baseURL
        let client = makeClient(environment: ["https_proxy": proxy])
        let error = await failure(client, HTTPRequest(url: "https://photos.example.org/a.jpg"))
        XCTAssertEqual(error, .transport("the proxy \(proxy) (https_proxy) refused to connect to photos.example.org (status 501)"))
    }

    func testLoopbackRequestsNeverUseTheProxy() async throws {
        let closed = try ClosedPort()
        let client = makeClient(environment: ["http_proxy": "http://127.0.0.1:\(closed.port)", "all_proxy": "http://127.0.0.1:\(closed.port)"])
        let response = try await client.fetch(HTTPRequest(url: server.url("/text?body=direct")))
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "direct")
    }

    func testProxyChoiceFollowsCurlsVariables() {
        func choose(_ scheme: String, host: String = "photos.example.org", _ environment: [String: String]) -> String? {
            ProxyChoice.choose(scheme: scheme, host: host, isLoopback: false, environment: environment)?.label
        }
        XCTAssertNil(choose("https", [:]))
        XCTAssertEqual(choose("https", ["https_proxy": "http://a:1", "HTTPS_PROXY": "http://b:2"]), "http://a:1 (https_proxy)")
        XCTAssertEqual(choose("https", ["HTTPS_PROXY": "http://b:2", "all_proxy": "http://c:3"]), "http://b:2 (HTTPS_PROXY)")
        XCTAssertEqual(choose("https", ["https_proxy": "", "all_proxy": "http://c:3"]), "http://c:3 (all_proxy)")
        // HTTP_PROXY is never read: a CGI request can set it (curl ignores it too).
        XCTAssertNil(choose("http", ["HTTP_PROXY": "http://b:2"]))
        XCTAssertEqual(choose("http", ["http_proxy": "http://a:1"]), "http://a:1 (http_proxy)")
        XCTAssertNil(choose("https", ["https_proxy": "http://a:1", "no_proxy": "example.org"]))
        XCTAssertNil(choose("https", ["https_proxy": "http://a:1", "NO_PROXY": ".example.org"]))
        XCTAssertNil(choose("https", ["https_proxy": "http://a:1", "no_proxy": "other.net, *"]))
        XCTAssertEqual(choose("https", ["https_proxy": "http://a:1", "no_proxy": "ample.org,other.net"]), "http://a:1 (https_proxy)")
        XCTAssertNil(choose("https", host: "10.1.2.3", ["https_proxy": "http://a:1", "no_proxy": "10.0.0.0/8"]))
        XCTAssertEqual(choose("https", host: "11.1.2.3", ["https_proxy": "http://a:1", "no_proxy": "10.0.0.0/8"]), "http://a:1 (https_proxy)")
        XCTAssertNil(ProxyChoice.choose(scheme: "http", host: "127.0.0.1", isLoopback: true, environment: ["http_proxy": "http://a:1"]))
        XCTAssertEqual(ProxyChoice.withoutCredentials("socks5h://u:p@q@proxy:1080/x"), "socks5h://proxy:1080/x")
        XCTAssertEqual(ProxyChoice.withoutCredentials("proxy:3128"), "proxy:3128")
    }

    // MARK: - HEAD

    func testHeadAsksForTheHeadersOnly() async throws {
        let client = makeClient()
        let response = try await client.fetch(HTTPRequest(url: server.url("/bytes/5000"), method: .head, maxBytes: 1000))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Data())
        // The declared length is past maxBytes, but no body comes: not tooLarge.
        XCTAssertEqual(response.headers["content-length"], "5000")
        // The connection is still good for the next request.
        let next = try await client.fetch(HTTPRequest(url: server.url("/bytes/10")))
        XCTAssertEqual(next.body.count, 10)
        let stats = try await serverStats(server)
        XCTAssertEqual(stats.head_requests, 1)
        XCTAssertEqual(stats.requests, 2)
        XCTAssertEqual(client.statistics().connectionsOpened, 1)
    }

    func testHeadToAClosedPortIsRefused() async throws {
        let closed = try ClosedPort()
        let error = await failure(makeClient(), HTTPRequest(url: "http://127.0.0.1:\(closed.port)/", method: .head))
        XCTAssertEqual(error, .connectionRefused(host: "127.0.0.1"))
    }

    // MARK: - Connections

    private func batch(_ client: HTTPClient, _ count: Int) async -> [Int] {
        let url = server.url("/bytes/1000?delay_ms=10")
        return await withTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { (try? await client.fetch(HTTPRequest(url: url)))?.status ?? -1 }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    func testStatisticsCountTransfersAndConnectionsAndASecondBatchReusesThem() async throws {
        let client = makeClient(maxConnectionsPerHost: 2)
        XCTAssertEqual(client.statistics(), HTTPStatistics())
        let first = await batch(client, 21)
        XCTAssertEqual(first, Array(repeating: 200, count: 21))
        let afterFirst = client.statistics()
        XCTAssertEqual(afterFirst.transfers, 21)
        XCTAssertTrue((1...2).contains(afterFirst.connectionsOpened), "\(afterFirst)")
        XCTAssertEqual(afterFirst.connectionsByHost, ["127.0.0.1": afterFirst.connectionsOpened])
        // What curl counted is what the server saw (plus the probe's own connection).
        let seen = try await serverStats(server)
        XCTAssertEqual(seen.connections, afterFirst.connectionsOpened + 1)

        let second = await batch(client, 21)
        XCTAssertEqual(second, Array(repeating: 200, count: 21))
        let afterSecond = client.statistics()
        XCTAssertEqual(afterSecond.transfers, 42)
        XCTAssertEqual(afterSecond.connectionsOpened, afterFirst.connectionsOpened, "the second batch reuses the open connections")
        let seenAgain = try await serverStats(server)
        XCTAssertEqual(seenAgain.connections, afterFirst.connectionsOpened + 2)
    }

    func testFailedAndRedirectedTransfersAreCounted() async throws {
        let client = makeClient()
        _ = try await client.fetch(HTTPRequest(url: server.url("/chain/2")))
        let closed = try ClosedPort()
        _ = await failure(client, HTTPRequest(url: "http://127.0.0.1:\(closed.port)/"))
        let stats = client.statistics()
        // Three hops and one refused transfer; a refused connect opens nothing.
        XCTAssertEqual(stats.transfers, 4)
        XCTAssertEqual(stats.connectionsByHost["127.0.0.1"], stats.connectionsOpened)
        XCTAssertEqual(stats.connectionsOpened, 1)
    }

    /// Each answer closes its connection, so every request opens a new one: with the share handle
    /// the TLS session of the first is resumed by the next; without it every handshake is full.
    func testSharedTLSSessionsAreResumedOnNewConnections() async throws {
        // With the extra authorities the store is a blob: sessions made with it must match it too.
        for (share, extra) in [(true, false), (false, false), (true, true)] {
            let tls = try TestServer(arguments: ["--tls-cert", TestCertificates.server])
            defer { tls.stop() }
            let client = extra
                ? makeClient(shareHandle: share, extraCertificateAuthorities: TestCertificates.authority)
                : makeClient(shareHandle: share, certificateAuthorities: TestCertificates.authority)
            for index in 0..<3 {
                let response = try await client.fetch(HTTPRequest(url: "https://127.0.0.1:\(tls.port)/bytes/10?close=1"))
                XCTAssertEqual(response.status, 200, "\(share) \(extra) \(index)")
            }
            XCTAssertEqual(client.statistics().connectionsOpened, 3)
            let stats = try await serverStats(tls, https: true)
            XCTAssertEqual(stats.connections, 4)
            if share {
                XCTAssertEqual(stats.tls_resumed, 2, "the second and third connection resume the session (extra: \(extra))")
            } else {
                XCTAssertEqual(stats.tls_resumed, 0)
            }
        }
    }
}
