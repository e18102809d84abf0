import Foundation
import Synchronization
import TestSupport
import XCTest

@testable import HTTP

/// Collects completions from any thread.
final class Completions: Sendable {
    private let results = Mutex<[Int: [Result<HTTPResponse, HTTPError>]]>([:])

    func record(_ key: Int, _ result: Result<HTTPResponse, HTTPError>) {
        results.withLock { $0[key, default: []].append(result) }
    }

    var all: [Int: [Result<HTTPResponse, HTTPError>]] { results.withLock { $0 } }
}

struct ServerStats: Decodable {
    var requests: Int
    var connections: Int
    var in_flight: Int
    var max_in_flight: Int
}

final class HTTPClientTests: XCTestCase {
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
        lowSpeedLimit: Int = 100,
        lowSpeedTime: TimeInterval = 20
    ) -> HTTPClient {
        let client = HTTPClient(
            userAgent: "vtourist-tests/1.0",
            maxConnectionsPerHost: maxConnectionsPerHost,
            lowSpeedLimit: lowSpeedLimit,
            lowSpeedTime: lowSpeedTime
        )
        addCleanup { client.shutdown() }
        return client
    }

    private func result(_ client: HTTPClient, _ request: HTTPRequest) async -> Result<HTTPResponse, HTTPError> {
        do {
            return .success(try await client.fetch(request))
        } catch {
            return .failure(error)
        }
    }

    private func error(_ client: HTTPClient, _ url: String, maxBytes: Int = HTTPRequest.defaultMaxBytes,
                       timeout: TimeInterval = 30) async -> HTTPError? {
        switch await result(client, HTTPRequest(url: url, maxBytes: maxBytes, timeout: timeout)) {
        case .success(let response):
            XCTFail("expected an error, got status \(response.status) from \(url)")
            return nil
        case .failure(let error):
            return error
        }
    }

    private func stats(_ client: HTTPClient) async throws -> ServerStats {
        let response = try await client.fetch(HTTPRequest(url: server.url("/stats")))
        return try JSONDecoder().decode(ServerStats.self, from: response.body)
    }

    /// Waits until the server holds `count` requests (its own /stats, through a client of its own).
    /// The limit only ends a hang.
    private func waitUntilInFlight(_ count: Int, file: StaticString = #filePath, line: UInt = #line) {
        let probe = HTTPClient(userAgent: "vtourist-tests/1.0")
        defer { probe.shutdown() }
        let deadline = Date().addingTimeInterval(30)
        var last = -1
        while Date() < deadline {
            let answered = DispatchSemaphore(value: 0)
            let answer = Completions()
            probe.start(HTTPRequest(url: server.url("/stats"))) { answer.record(0, $0); answered.signal() }
            answered.wait()
            if case .success(let response)? = answer.all[0]?.first,
               let stats = try? JSONDecoder().decode(ServerStats.self, from: response.body) {
                last = stats.in_flight
                if last >= count { return }
            }
            usleep(20_000)
        }
        XCTFail("the server never held \(count) requests (last seen \(last))", file: file, line: line)
    }

    private func resetStats(_ client: HTTPClient) async throws {
        _ = try await client.fetch(HTTPRequest(url: server.url("/stats/reset")))
    }

    private static func pattern(_ count: Int) -> Data {
        Data((0..<count).map { UInt8($0 % 256) })
    }

    // MARK: - Answers

    func testOKResponseCarriesBodyHeadersAndURL() async throws {
        let client = makeClient()
        let response = try await client.fetch(HTTPRequest(url: server.url("/bytes/1000")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Self.pattern(1000))
        XCTAssertEqual(response.headers["content-type"], "application/octet-stream")
        XCTAssertEqual(response.headers["content-length"], "1000")
        XCTAssertEqual(response.url, server.url("/bytes/1000"))
    }

    func testEmptyBody() async throws {
        let response = try await makeClient().fetch(HTTPRequest(url: server.url("/bytes/0")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Data())
    }

    func testUserAgentCustomHeadersAndCompressionAreSent() async throws {
        let client = makeClient()
        let request = HTTPRequest(url: server.url("/headers"), headers: ["X-Album": "pin 7", "Accept": "application/json"])
        let response = try await client.fetch(request)
        let sent = try JSONDecoder().decode([String: String].self, from: response.body)
        XCTAssertEqual(sent["user-agent"], "vtourist-tests/1.0")
        XCTAssertEqual(sent["x-album"], "pin 7")
        XCTAssertEqual(sent["accept"], "application/json")
        XCTAssertTrue(sent["accept-encoding"]?.contains("gzip") ?? false, "\(sent)")
    }

    func testHeaderValuesCannotInjectLines() async throws {
        let client = makeClient()
        let request = HTTPRequest(url: server.url("/headers"), headers: ["X-Title": "a\r\nX-Injected: 1", "Bad Name": "x"])
        let sent = try JSONDecoder().decode([String: String].self, from: try await client.fetch(request).body)
        XCTAssertNil(sent["x-injected"])
        XCTAssertNil(sent["bad name"])
        XCTAssertEqual(sent["x-title"], "a  X-Injected: 1")
    }

    func testGzipBodyIsDecoded() async throws {
        let response = try await makeClient().fetch(HTTPRequest(url: server.url("/gzip?n=5000")))
        XCTAssertEqual(response.headers["content-encoding"], "gzip")
        XCTAssertEqual(response.body, Data(repeating: UInt8(ascii: "a"), count: 5000))
    }

    func testClientAndServerErrorsComeBackAsResponses() async throws {
        let client = makeClient()
        for code in [400, 404, 429, 500, 503] {
            let response = try await client.fetch(HTTPRequest(url: server.url("/status/\(code)")))
            XCTAssertEqual(response.status, code)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "status \(code)")
        }
    }

    func testRedirectsAreFollowed() async throws {
        let client = makeClient()
        let response = try await client.fetch(HTTPRequest(url: server.url("/chain/5")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "done")
        XCTAssertEqual(response.url, server.url("/chain/0"))
    }

    func testMoreThanFiveRedirectsFail() async throws {
        let error = await error(makeClient(), server.url("/chain/6"))
        guard case .transport(let detail) = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(detail.contains("redirects"), detail)
    }

    func testRedirectToPlainHTTPOnARemoteHostIsRefused() async throws {
        let target = "http://example.com/photo.jpg"
        // Followed only once the policy is known to refuse it: a test never leaves loopback.
        guard case .failure(.insecureURL) = URLPolicy.check(target) else { return XCTFail("the policy lets \(target) through") }
        let url = server.url("/redirect?to=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        let error = await error(makeClient(), url)
        XCTAssertEqual(error, .insecureURL(target))
    }

    func testRedirectToAnotherSchemeIsRefused() async throws {
        let error = await error(makeClient(), server.url("/redirect?to=ftp%3A%2F%2F127.0.0.1%2Fx"))
        XCTAssertEqual(error, .unsupportedScheme("ftp"))
    }

    func testRelativeRedirectToLoopbackIsFollowed() async throws {
        let response = try await makeClient().fetch(HTTPRequest(url: server.url("/redirect?to=%2Fbytes%2F3&code=307")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Self.pattern(3))
    }

    func testCredentialsAreNotForwardedToAnotherHost() async throws {
        let client = makeClient()
        let headers = ["Authorization": "secret", "X-Album": "7"]
        let sameHost = server.url("/redirect?to=%2Fheaders")
        let same = try await client.fetch(HTTPRequest(url: sameHost, headers: headers))
        let sentSame = try JSONDecoder().decode([String: String].self, from: same.body)
        XCTAssertEqual(sentSame["authorization"], "secret")

        let otherHost = "http://localhost:\(server.port)/headers"
        let other = try await client.fetch(HTTPRequest(
            url: server.url("/redirect?to=" + (otherHost.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")),
            headers: headers))
        let sentOther = try JSONDecoder().decode([String: String].self, from: other.body)
        XCTAssertEqual(other.url, otherHost)
        XCTAssertNil(sentOther["authorization"])
        XCTAssertEqual(sentOther["x-album"], "7")
    }

    // MARK: - Failures

    func testConnectionRefused() async throws {
        // A bound socket that never listens: nobody else can take the port while the test runs.
        let closed = try ClosedPort()
        let error = await error(makeClient(), "http://127.0.0.1:\(closed.port)/")
        XCTAssertEqual(error, .connectionRefused(host: "127.0.0.1"))
    }

    func testServerThatNeverAnswersTimesOut() async throws {
        // libcurl's own timer against a real socket, in milliseconds: a fifth of a second is enough.
        let error = await error(makeClient(), server.url("/hang"), timeout: 0.2)
        XCTAssertEqual(error, .timedOut)
    }

    func testTooSlowBodyTimesOut() async throws {
        let client = makeClient(lowSpeedLimit: 1000, lowSpeedTime: 1)
        let error = await error(client, server.url("/trickle?bytes=100&interval_ms=100"))
        XCTAssertEqual(error, .timedOut)
    }

    func testEndlessBodyIsTooLarge() async throws {
        let error = await error(makeClient(), server.url("/endless"), maxBytes: 1_000_000)
        XCTAssertEqual(error, .tooLarge(limit: 1_000_000))
    }

    func testDeclaredLengthOverTheLimitIsTooLarge() async throws {
        let error = await error(makeClient(), server.url("/huge-declared"), maxBytes: 1_000_000)
        XCTAssertEqual(error, .tooLarge(limit: 1_000_000))
    }

    func testBodyAtTheLimitIsAcceptedAndOneByteMoreIsNot() async throws {
        let client = makeClient()
        let atLimit = try await client.fetch(HTTPRequest(url: server.url("/bytes/4096"), maxBytes: 4096))
        XCTAssertEqual(atLimit.body.count, 4096)
        let over = await error(client, server.url("/bytes/4097"), maxBytes: 4096)
        XCTAssertEqual(over, .tooLarge(limit: 4096))
    }

    func testDecodedBodyOverTheLimitIsTooLarge() async throws {
        // 200 KB of "a" compresses to a few hundred bytes: the limit is on what callers receive.
        let error = await error(makeClient(), server.url("/gzip?n=200000"), maxBytes: 100_000)
        XCTAssertEqual(error, .tooLarge(limit: 100_000))
    }

    func testTruncatedBodyIsConnectionLost() async throws {
        let error = await error(makeClient(), server.url("/truncated?declared=1000&sent=10"))
        guard case .connectionLost(let detail)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(detail.contains("990 bytes remaining"), detail)
        XCTAssertTrue(error?.description.hasPrefix("the connection broke: ") == true)
    }

    func testPlainHTTPToRemoteHostsIsRefusedBeforeAnyTraffic() async throws {
        let client = makeClient()
        // Without the check these would fail as DNS or connection errors, not insecureURL.
        for url in ["http://example.com/", "http://10.0.0.1/x", "http://[::2]/", "http://localhost.example.invalid/",
                    "HTTP://flickr.com/"] {
            // Fetched only once the policy is known to refuse it: a test never leaves loopback.
            guard case .failure(.insecureURL) = URLPolicy.check(url) else {
                XCTFail("the policy lets \(url) through")
                continue
            }
            let error = await error(client, url)
            XCTAssertEqual(error, .insecureURL(url), url)
        }
    }

    func testOnlyHTTPAndHTTPSAreFetched() async throws {
        let client = makeClient()
        for (url, scheme) in [("ftp://127.0.0.1/x", "ftp"), ("file:///etc/passwd", "file"),
                              ("gopher://127.0.0.1/", "gopher"), ("mailto:a@b.c", "mailto")] {
            let error = await error(client, url)
            XCTAssertEqual(error, .unsupportedScheme(scheme), url)
        }
    }

    func testMalformedURLsAreInvalid() async throws {
        let client = makeClient()
        for url in ["", "not a url", "http://", "https://exa mple.com/", "://x"] {
            let error = await error(client, url)
            XCTAssertEqual(error, .invalidURL(url), url)
        }
    }

    func testLoopbackHosts() {
        for host in ["127.0.0.1", "127.255.0.3", "localhost", "LOCALHOST.", "[::1]", "[::ffff:127.0.0.1]"] {
            XCTAssertTrue(URLPolicy.isLoopback(host: host), host)
        }
        for host in ["128.0.0.1", "10.0.0.1", "example.com", "[::2]", "localhost.example.com", "127.0.0.1.nip.io", ""] {
            XCTAssertFalse(URLPolicy.isLoopback(host: host), host)
        }
        // curl normalises numeric forms, so they are judged by the address they name.
        XCTAssertEqual(try URLPolicy.check("http://0x7f000001:8080/a").get().url, "http://127.0.0.1:8080/a")
        XCTAssertEqual(URLPolicy.check("http://0x0a000001/"), .failure(.insecureURL("http://0x0a000001/")))
    }

    func testBadTimeoutsAndLimitsDoNotCrash() async throws {
        let client = makeClient()
        // No time at all (or no number) times out before asking; endless time is a long limit, not a crash.
        for timeout: TimeInterval in [.nan, -1, 0, -.infinity] {
            let outcome = await result(client, HTTPRequest(url: server.url("/bytes/10"), timeout: timeout))
            XCTAssertEqual(outcome, Result<HTTPResponse, HTTPError>.failure(.timedOut), "\(timeout)")
        }
        for timeout: TimeInterval in [.infinity, 1e300, Double(Int32.max)] {
            let outcome = await result(client, HTTPRequest(url: server.url("/bytes/10"), timeout: timeout))
            XCTAssertEqual(try outcome.get().status, 200, "\(timeout)")
            XCTAssertEqual(try outcome.get().body.count, 10, "\(timeout)")
        }
        let negative = await error(client, server.url("/bytes/10"), maxBytes: -5)
        XCTAssertEqual(negative, .tooLarge(limit: 0))
    }

    func testErrorDescriptionsAreOneReadableLine() {
        let errors: [HTTPError] = [
            .invalidURL("x\ny"), .insecureURL("http://evil/\u{1B}[2J"), .unsupportedScheme("ftp"),
            .dnsFailed(host: "a.invalid"), .connectionRefused(host: "127.0.0.1"), .timedOut,
            .tooLarge(limit: 20 * 1024 * 1024), .tls("bad certificate\r\n"), .transport("x\u{9B}y"),
            .cancelled, .shuttingDown,
        ]
        for error in errors {
            let text = error.description
            XCTAssertFalse(text.isEmpty)
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, text)
        }
        XCTAssertEqual(HTTPError.tooLarge(limit: 20 * 1024 * 1024).description,
                       "the response is larger than the limit of 20 MB")
    }

    // MARK: - Cancellation and shutdown

    func testCancelEndsATransferOnce() throws {
        let client = makeClient()
        let completions = Completions()
        let done = expectation(description: "cancelled")
        let id = client.start(HTTPRequest(url: server.url("/hang"))) { result in
            completions.record(0, result)
            done.fulfill()
        }
        client.cancel(id)
        client.cancel(id)
        wait(for: [done], timeout: 30)
        // A late second cancel and a round trip later, still one completion.
        client.cancel(id)
        let later = expectation(description: "later request")
        client.start(HTTPRequest(url: server.url("/bytes/1"))) { _ in later.fulfill() }
        wait(for: [later], timeout: 30)
        XCTAssertEqual(completions.all[0]?.count, 1)
        guard case .failure(.cancelled) = completions.all[0]?.first else {
            return XCTFail("\(String(describing: completions.all[0]))")
        }
    }

    func testCancelAfterTransferStarted() throws {
        let client = makeClient()
        let done = expectation(description: "cancelled")
        let completions = Completions()
        let id = client.start(HTTPRequest(url: server.url("/hang"))) { result in
            completions.record(0, result)
            done.fulfill()
        }
        // Cancel once the server holds the request; the expectation timeout only ends a hang.
        waitUntilInFlight(1)
        client.cancel(id)
        wait(for: [done], timeout: 30)
        guard case .failure(.cancelled) = completions.all[0]?.first else {
            return XCTFail("\(String(describing: completions.all[0]))")
        }
    }

    func testCancellingTheTaskCancelsTheFetch() async throws {
        let client = makeClient()
        let url = server.url("/hang")
        let task = Task { () -> Result<HTTPResponse, HTTPError> in
            do throws(HTTPError) {
                return .success(try await client.fetch(HTTPRequest(url: url)))
            } catch {
                return .failure(error)
            }
        }
        task.cancel()
        let outcome = await task.value
        guard case .failure(.cancelled) = outcome else { return XCTFail("\(outcome)") }
    }

    func testCompletionIsNeverCalledInsideStart() throws {
        let client = makeClient()
        let lock = NSRecursiveLock()
        let returned = Completions()
        let done = expectation(description: "completed")
        done.expectedFulfillmentCount = 2
        lock.lock()
        for url in ["ftp://x/", server.url("/bytes/1")] {
            client.start(HTTPRequest(url: url)) { result in
                // Called inside start (same thread) this would see no record yet.
                lock.lock()
                returned.record(1, result)
                lock.unlock()
                done.fulfill()
            }
            returned.record(0, .failure(.cancelled))
        }
        lock.unlock()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(returned.all[0]?.count, 2)
    }

    func testShutdownWithTransfersInFlightCallsEveryCompletionOnce() throws {
        let client = HTTPClient(userAgent: "vtourist-tests/1.0")
        let completions = Completions()
        let done = expectation(description: "all completed")
        done.expectedFulfillmentCount = 12
        for index in 0..<10 {
            client.start(HTTPRequest(url: server.url(index % 2 == 0 ? "/hang" : "/bytes/10?delay_ms=5000"))) {
                completions.record(index, $0)
                done.fulfill()
            }
        }
        // Shut down once the server holds a transfer (the others wait in the client: with the
        // first request unanswered, curl does not yet know the host speaks only HTTP/1.1).
        waitUntilInFlight(1)
        client.start(HTTPRequest(url: "ftp://x/")) { completions.record(10, $0); done.fulfill() }
        client.shutdown()
        client.shutdown()
        client.start(HTTPRequest(url: server.url("/bytes/1"))) { completions.record(11, $0); done.fulfill() }
        wait(for: [done], timeout: 30)

        let all = completions.all
        XCTAssertEqual(all.count, 12)
        for index in 0..<10 {
            XCTAssertEqual(all[index]?.count, 1)
            guard case .failure(.shuttingDown) = all[index]?.first else {
                return XCTFail("\(index): \(String(describing: all[index]))")
            }
        }
        XCTAssertEqual(all[10]?.count, 1)
        guard case .failure(.shuttingDown) = all[11]?.first else {
            return XCTFail("\(String(describing: all[11]))")
        }
    }

    func testShutdownFromACompletionDoesNotDeadlock() throws {
        let client = HTTPClient(userAgent: "vtourist-tests/1.0")
        let done = expectation(description: "completed")
        client.start(HTTPRequest(url: server.url("/bytes/1"))) { _ in
            client.shutdown()
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        client.shutdown()
    }

    func testDroppingTheClientStopsItsThread() throws {
        let completions = Completions()
        do {
            let client = HTTPClient(userAgent: "vtourist-tests/1.0")
            client.start(HTTPRequest(url: server.url("/hang"))) { completions.record(0, $0) }
            waitUntilInFlight(1)
        }
        guard case .failure(.shuttingDown) = completions.all[0]?.first else {
            return XCTFail("\(String(describing: completions.all[0]))")
        }
    }

    // MARK: - Concurrency

    func testParallelRequestsAreInFlightTogether() async throws {
        let client = makeClient(maxConnectionsPerHost: 20)
        try await resetStats(client)
        let url = server.url("/bytes/100?delay_ms=100")
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { (try? await client.fetch(HTTPRequest(url: url)))?.status ?? -1 }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 20))
        let seen = try await stats(client)
        XCTAssertEqual(seen.requests, 20)
        XCTAssertGreaterThanOrEqual(seen.max_in_flight, 8)
    }

    func testPerHostConnectionLimitHolds() async throws {
        let client = makeClient(maxConnectionsPerHost: 4)
        try await resetStats(client)
        let url = server.url("/bytes/10?delay_ms=100")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask { _ = try? await client.fetch(HTTPRequest(url: url)) }
            }
        }
        let seen = try await stats(client)
        XCTAssertEqual(seen.requests, 12)
        XCTAssertLessThanOrEqual(seen.max_in_flight, 4)
        XCTAssertGreaterThanOrEqual(seen.max_in_flight, 2)
    }

    func testConnectionsAreReused() async throws {
        let client = makeClient()
        try await resetStats(client)
        for _ in 0..<10 {
            _ = try await client.fetch(HTTPRequest(url: server.url("/bytes/10")))
        }
        let seen = try await stats(client)
        XCTAssertEqual(seen.requests, 10)
        XCTAssertLessThanOrEqual(seen.connections, 2)
    }

    func testManyRequestsFromManyThreads() throws {
        let client = makeClient()
        let completions = Completions()
        let threads = 8
        let perThread = 25
        let done = expectation(description: "all completed")
        done.expectedFulfillmentCount = threads * perThread
        let baseURL = server.baseURL
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let key = thread * perThread + index
                client.start(HTTPRequest(url: "\(baseURL)/echo?key=\(key)")) {
                    completions.record(key, $0)
                    done.fulfill()
                }
            }
        }
        wait(for: [done], timeout: 60)
        let all = completions.all
        XCTAssertEqual(all.count, threads * perThread)
        for (key, results) in all {
            XCTAssertEqual(results.count, 1)
            guard case .success(let response) = results.first,
                  let echoed = try? JSONDecoder().decode([String: String].self, from: response.body) else {
                return XCTFail("\(key): \(results)")
            }
            XCTAssertEqual(echoed["key"], String(key))
        }
    }
}
