import AlbumMachine
@testable import AlbumService
import Foundation
import HTTP
import PhotoSources
import XCTest

/// The one classification table (Failures.swift), row by row: what passes, what means no answer
/// from a host, and what waits for `r`.
final class FailureTableTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])
    private let notAJPEG: @Sendable (Data) -> String? = { $0.starts(with: [0xFF, 0xD8, 0xFF]) ? nil : "not a JPEG picture" }

    private func response(_ status: Int, headers: [String: String] = [:], body: Data = Data()) -> Result<HTTPResponse, HTTPError> {
        .success(HTTPResponse(status: status, headers: headers, body: body, url: "https://upload.example/a.jpg"))
    }

    private func download(_ result: Result<HTTPResponse, HTTPError>) -> FetchFailure? {
        downloadFailure(result, problem: notAJPEG, now: now)
    }

    // MARK: - Statuses

    func testStatusTable() {
        let rows: [(status: Int, kind: FetchFailure.Kind)] = [
            (500, .passing), (502, .passing), (503, .passing), (504, .passing), (599, .passing),
            (429, .passing), (408, .passing),
            (404, .permanent), (403, .permanent), (410, .permanent), (400, .permanent), (401, .permanent),
            (418, .permanent), (451, .permanent), (304, .permanent),
        ]
        for row in rows {
            let failure = FetchFailure.forStatus(row.status)
            XCTAssertEqual(failure.kind, row.kind, "HTTP \(row.status)")
            XCTAssertEqual(failure.reason, "HTTP \(row.status)")
            XCTAssertNil(failure.host, "HTTP \(row.status)")
        }
        XCTAssertEqual(FetchFailure.forStatus(429, retryAfter: 3).retryAfter, 3)
    }

    // MARK: - Downloads

    func testDownloadOfAPictureIsNoFailure() {
        XCTAssertNil(download(response(200, body: jpeg)))
    }

    func testDownloadStatusesHonourRetryAfterInBothForms() {
        XCTAssertEqual(download(response(429, headers: ["retry-after": "3"])), .passing("HTTP 429", retryAfter: 3))
        XCTAssertEqual(download(response(503, headers: ["retry-after": "Fri, 15 Jan 2027 08:00:10 GMT"])),
                       .passing("HTTP 503", retryAfter: 10))
        XCTAssertEqual(download(response(503)), .passing("HTTP 503"))
        XCTAssertEqual(download(response(500)), .passing("HTTP 500"))
        XCTAssertEqual(download(response(408)), .passing("HTTP 408"))
        XCTAssertEqual(download(response(404)), .permanent("HTTP 404"))
        XCTAssertEqual(download(response(403)), .permanent("HTTP 403"))
        XCTAssertEqual(download(response(410, headers: ["retry-after": "3"])), .permanent("HTTP 410"))
        // Only 200 is a picture: a 204 or 206 is not the whole image asked for.
        XCTAssertEqual(download(response(204, body: jpeg)), .permanent("HTTP 204"))
    }

    func testDownloadThatIsNoPictureIsPermanent() {
        XCTAssertEqual(download(response(200, body: Data("<html>".utf8))), .permanent("not a JPEG picture"))
    }

    func testUnreachableHostsAreNamed() {
        let rows: [(HTTPError, String)] = [
            (.connectionRefused(host: "127.0.0.1"), "127.0.0.1"),
            (.dnsFailed(host: "api.flickr.com"), "api.flickr.com"),
            (.proxyFailed(proxy: "http://10.0.0.1:3128 (https_proxy)", detail: "connection refused"), "10.0.0.1:3128"),
            (.proxyFailed(proxy: "http://me:secret@proxy.example:8080/ (HTTPS_PROXY)", detail: "no route"), "proxy.example:8080"),
            (.proxyFailed(proxy: "socks5h://[::1]:1080 (all_proxy)", detail: "refused"), "[::1]:1080"),
        ]
        for (error, host) in rows {
            let failure = download(.failure(error))
            XCTAssertEqual(failure?.kind, .unreachable, "\(error)")
            XCTAssertEqual(failure?.host, host, "\(error)")
            XCTAssertEqual(failure?.reason, error.description)
            XCTAssertEqual(error.failure, failure)
        }
    }

    func testBrokenOrSlowAnswersPass() {
        for error: HTTPError in [.timedOut, .connectionLost("Connection reset by peer"), .connectionLost("HTTP/2 stream 1 was not closed cleanly")] {
            XCTAssertEqual(error.failure, .passing(error.description), "\(error)")
            XCTAssertNil(error.failure.host)
        }
    }

    func testWhatAskingAgainCannotChangeIsPermanent() {
        let rows: [HTTPError] = [
            .tooLarge(limit: 4 << 20),
            .tls("SSL certificate problem: self-signed certificate"),
            .insecureURL("http://example.com/a.jpg"),
            .unsupportedScheme("ftp"),
            .invalidURL("https://"),
            .transport("too many redirects (more than 5)"),
        ]
        for error in rows {
            XCTAssertEqual(download(.failure(error)), .permanent(error.description), "\(error)")
        }
    }

    func testEndsTheAppMadeAreNoVerdictOnThePhoto() {
        XCTAssertEqual(HTTPError.cancelled.failure.kind, .passing)
        XCTAssertEqual(HTTPError.shuttingDown.failure.kind, .passing)
    }

    // MARK: - Searches

    func testSearchFailures() {
        let rows: [(PhotoSourceError, FetchFailure.Kind, Double?)] = [
            (.http(status: 503), .passing, nil),
            (.http(status: 429, retryAfter: 7), .passing, 7),
            (.http(status: 500), .passing, nil),
            (.http(status: 408), .passing, nil),
            (.http(status: 404), .permanent, nil),
            (.http(status: 403, retryAfter: 7), .permanent, nil),
            (.busy("Commons is lagging (Waiting for db1127: 6 seconds lagged)", retryAfter: 5), .passing, 5),
            (.flickr(code: 105, message: "Service currently unavailable"), .passing, nil),
            (.flickr(code: 106, message: "Write operation failed"), .passing, nil),
            (.flickr(code: 0, message: "Sorry, the Flickr API service is not currently available."), .passing, nil),
            (.flickr(code: 100, message: "Invalid API Key (Key has invalid format)"), .permanent, nil),
            (.flickr(code: 112, message: "Method \"x\" not found"), .permanent, nil),
            (.malformed("no \"photos\" in the Flickr answer"), .permanent, nil),
            (.transport("Couldn't connect"), .permanent, nil),
            (.network(.timedOut), .passing, nil),
            (.network(.connectionLost("reset")), .passing, nil),
            (.network(.tls("certificate has expired")), .permanent, nil),
        ]
        for (error, kind, retryAfter) in rows {
            XCTAssertEqual(error.failure.kind, kind, "\(error)")
            XCTAssertEqual(error.failure.retryAfter, retryAfter, "\(error)")
            XCTAssertEqual(error.failure.reason, error.description, "\(error)")
            XCTAssertNil(error.failure.host, "\(error)")
        }
    }

    func testSearchThatReachedNoHostNamesIt() {
        let refused = PhotoSourceError.network(.connectionRefused(host: "commons.wikimedia.org")).failure
        XCTAssertEqual(refused.kind, .unreachable)
        XCTAssertEqual(refused.host, "commons.wikimedia.org")
        XCTAssertEqual(refused.reason, "Could not reach the photo service: could not connect to commons.wikimedia.org")
        let dns = PhotoSourceError.network(.dnsFailed(host: "api.flickr.com")).failure
        XCTAssertEqual(dns.kind, .unreachable)
        XCTAssertEqual(dns.host, "api.flickr.com")
    }
}
