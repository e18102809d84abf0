import Foundation
import XCTest
import Geo
import Model
import HTTP
import TestSupport
@testable import PhotoSources

/// `search` end to end over a fake fetcher (no network).
final class SearchTests: XCTestCase {
    let rome = GeoPoint(latitude: 41.9, longitude: 12.5)

    func search(_ source: any PhotoSource, _ query: PhotoQuery) async -> Result<SearchPage, PhotoSourceError> {
        do throws(PhotoSourceError) {
            return .success(try await source.search(query))
        } catch {
            return .failure(error)
        }
    }

    func testFlickrSearchUsesKeyAndEndpoint() async throws {
        let http = FakeHTTP([.body(200, Fixture.flickrSuccess)])
        let flickr = FlickrSource(apiKey: "key-1", endpoint: "http://127.0.0.1:8123/flickr/rest", http: http)
        XCTAssertEqual(flickr.name, "flickr")
        let page = try await search(flickr, PhotoQuery(center: rome, perPage: 21, page: 2)).get()
        XCTAssertEqual(page.photos.count, 2)
        let request = try XCTUnwrap(http.requests.first)
        XCTAssertEqual(http.requests.count, 1)
        XCTAssertTrue(request.url.hasPrefix("http://127.0.0.1:8123/flickr/rest?"))
        XCTAssertEqual(queryItems(request.url)["api_key"], "key-1")
        XCTAssertEqual(queryItems(request.url)["page"], "2")
        XCTAssertGreaterThan(request.maxBytes, 0)
    }

    func testHTTPErrorsAndStatFail() async {
        let cases: [(FakeHTTP.Reply, PhotoSourceError)] = [
            (.body(500, "<html>Internal error</html>"), .http(status: 500)),
            (.body(404, ""), .http(status: 404)),
            (.body(429, "slow down"), .http(status: 429)),
            (.body(200, Fixture.flickrInvalidKey), .flickr(code: 100, message: "Invalid API Key (Key has invalid format)")),
            (.body(200, Fixture.flickrUnavailable), .flickr(code: 105, message: "Service currently unavailable (Site Disabled)")),
        ]
        for (reply, expected) in cases {
            let flickr = FlickrSource(apiKey: "k", http: FakeHTTP([reply]))
            let result = await search(flickr, PhotoQuery(center: rome))
            XCTAssertEqual(result, .failure(expected))
        }
    }

    func testMalformedBodiesThroughSearch() async {
        for body in [Fixture.flickrTruncated, Fixture.flickrPhotosIsList, "", "\u{1B}[2J"] {
            let flickr = FlickrSource(apiKey: "k", http: FakeHTTP([.body(200, body)]))
            guard case .failure(.malformed) = await search(flickr, PhotoQuery(center: rome)) else {
                return XCTFail("expected malformed for \(body.debugDescription)")
            }
        }
    }

    /// Issue 10: a redirect to plain http off loopback is refused with the URL it named, which holds
    /// the key the search sent; the reason shown and stored must not.
    func testATransportErrorQuotingTheSearchURLNeverShowsTheKey() async {
        let key = "0123456789abcdef0123456789abcdef"
        let quoted = QuotedURL(url: "http://elsewhere.example/rest?method=flickr.photos.search&api_key=\(key)&bbox=1")
        let flickr = FlickrSource(apiKey: key, http: FakeHTTP([.fail(quoted)]))
        guard case let .failure(error) = await search(flickr, PhotoQuery(center: rome)) else { return XCTFail("no failure") }
        XCTAssertFalse(error.description.contains(key), error.description)
        XCTAssertFalse(error.description.contains("0123456789ab"), error.description)
        XCTAssertTrue(error.description.contains("api_key=\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}cdef"), error.description)
        // A short key is masked where the URL has it, and ordinary words that contain it are left alone.
        let short = FlickrSource(apiKey: "k", http: FakeHTTP([.fail(QuotedURL(url: "http://x.example/?api_key=k&kind=k"))]))
        guard case let .failure(shortError) = await search(short, PhotoQuery(center: rome)) else { return XCTFail("no failure") }
        XCTAssertTrue(shortError.description.contains("api_key=\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}&kind=k"),
                      shortError.description)
    }

    func testAWebPageInsteadOfJSONIsCalledOne() async {
        let flickr = FlickrSource(apiKey: "k", http: FakeHTTP([.body(200, "\n  <!DOCTYPE html><html><body>Sign in</body></html>")]))
        guard case let .failure(.malformed(why)) = await search(flickr, PhotoQuery(center: rome)) else { return XCTFail("not malformed") }
        XCTAssertTrue(why.hasPrefix("a web page, not JSON"), why)
        let garbage = FlickrSource(apiKey: "k", http: FakeHTTP([.body(200, "\u{1}\u{2}binary")]))
        guard case let .failure(.malformed(other)) = await search(garbage, PhotoQuery(center: rome)) else { return XCTFail("not malformed") }
        XCTAssertTrue(other.hasPrefix("not JSON"), other)
    }

    func testTransportErrors() async {
        let flickr = FlickrSource(apiKey: "k", http: FakeHTTP([.fail(ConnectionRefused())]))
        let result = await search(flickr, PhotoQuery(center: rome))
        XCTAssertEqual(result, .failure(.transport("Couldn't connect to server (connection refused)")))

        // A fetcher may throw PhotoSourceError itself; it passes through unchanged.
        let commons = CommonsSource(userAgent: testUserAgent, http: FakeHTTP([.fail(PhotoSourceError.transport("timed out"))]))
        let again = await search(commons, PhotoQuery(center: rome))
        XCTAssertEqual(again, .failure(.transport("timed out")))
        XCTAssertTrue(PhotoSourceError.transport("timed out").description.contains("timed out"))
    }

    func testCommonsSendsUserAgentAndParses() async throws {
        let http = FakeHTTP([.body(200, Fixture.commonsNoContinue)])
        let commons = CommonsSource(endpoint: "http://127.0.0.1:8124/commons/api.php", userAgent: "vtourist-test/1", http: http)
        XCTAssertEqual(commons.name, "commons")
        let page = try await search(commons, PhotoQuery(center: rome)).get()
        XCTAssertEqual(page.photos.map(\.sourceID), ["10", "11"])
        let request = try XCTUnwrap(http.requests.first)
        XCTAssertEqual(request.headers["User-Agent"], "vtourist-test/1")
        XCTAssertTrue(request.url.hasPrefix("http://127.0.0.1:8124/commons/api.php?"))
        XCTAssertEqual(http.requests.count, 1)
    }

    func testCommonsBuiltFromTheSettingsSendsTheOneUserAgent() async throws {
        let http = FakeHTTP([.body(200, Fixture.commonsEmpty)])
        let agent = Settings.userAgent(version: "1.0", contact: "me@example.org")
        let source = PhotoSourceSettings.resolve(environment: [:], stored: [:]).makeSource(http: http, userAgent: agent)
        _ = try await search(source, PhotoQuery(center: rome)).get()
        XCTAssertEqual(http.requests.first?.headers["User-Agent"], "vtourist/1.0 (terminal Virtual Tourist; me@example.org)")
    }

    func testCommonsStopsWhenThePageIsComplete() async throws {
        // 21 asked, all with image info, a continue present: no second request.
        let body = Fixture.commonsMany(count: 21, withInfo: Set(0..<21), continueWith: "P9999.jpg|20240101000000")
        let http = FakeHTTP([.body(200, body)])
        let page = try await search(CommonsSource(userAgent: testUserAgent, http: http), PhotoQuery(center: rome, perPage: 21)).get()
        XCTAssertEqual(page.photos.count, 21)
        XCTAssertEqual(page.pageCount, 2)
        XCTAssertEqual(http.requests.count, 1)
    }

    func testCommonsFollowsContinueForThumbnailsBeyondFifty() async throws {
        // Page 2 of 30: the 60 nearest, of which the first answer renders only 50 thumbnails.
        let first = Fixture.commonsMany(count: 60, withInfo: Set(0..<50), continueWith: "P1050.jpg|20240101000000")
        let second = Fixture.commonsMany(count: 60, withInfo: Set(50..<60), continueWith: nil)
        let http = FakeHTTP([.body(200, first), .body(200, second)])
        let page = try await search(CommonsSource(userAgent: testUserAgent, http: http), PhotoQuery(center: rome, perPage: 30, page: 2)).get()
        XCTAssertEqual(http.requests.count, 2)
        XCTAssertNil(queryItems(http.requests[0].url)["iicontinue"])
        XCTAssertEqual(queryItems(http.requests[0].url)["ggslimit"], "60")
        XCTAssertEqual(queryItems(http.requests[1].url)["iicontinue"], "P1050.jpg|20240101000000")
        XCTAssertEqual(queryItems(http.requests[1].url)["continue"], "||")
        // Nearest 31st to 60th, in distance order.
        XCTAssertEqual(page.photos.map(\.sourceID), (1030..<1060).map(String.init))
        XCTAssertEqual(page.page, 2)
        XCTAssertEqual(page.pageCount, 3)
        XCTAssertEqual(page.total, 60)
    }

    func testCommonsContinueLoopIsBounded() async throws {
        // A server that always says "continue" with the same token can't loop us forever.
        let body = Fixture.commonsMany(count: 60, withInfo: [], continueWith: "P1000.jpg|1")
        let http = FakeHTTP([.body(200, body)])
        let page = try await search(CommonsSource(userAgent: testUserAgent, http: http), PhotoQuery(center: rome, perPage: 60)).get()
        XCTAssertEqual(page.photos, [])
        XCTAssertLessThanOrEqual(http.requests.count, 2)

        // One that changes the token each time is cut off at the request budget.
        var replies: [FakeHTTP.Reply] = (0..<40).map {
            .body(200, Fixture.commonsMany(count: 60, withInfo: [], continueWith: "P\($0).jpg|1"))
        }
        replies.append(.body(200, Fixture.commonsEmpty))
        let endless = FakeHTTP(replies)
        _ = try await search(CommonsSource(userAgent: testUserAgent, http: endless), PhotoQuery(center: rome, perPage: 60)).get()
        XCTAssertEqual(endless.requests.count, CommonsSource.maxRequests)
    }

    func testCommonsErrors() async {
        let cases: [(FakeHTTP.Reply, (PhotoSourceError) -> Bool)] = [
            (.body(500, "oops"), { $0 == .http(status: 500) }),
            (.body(503, ""), { $0 == .http(status: 503) }),
            (.body(200, Fixture.commonsError), { if case .malformed = $0 { return true } else { return false } }),
            (.body(200, "{\"query\":{\"pa"), { if case .malformed = $0 { return true } else { return false } }),
            (.fail(URLError(.cannotFindHost)), { if case .transport = $0 { return true } else { return false } }),
        ]
        for (reply, check) in cases {
            let result = await search(CommonsSource(userAgent: testUserAgent, http: FakeHTTP([reply])), PhotoQuery(center: rome))
            guard case let .failure(error) = result else { return XCTFail("expected failure for \(reply)") }
            XCTAssertTrue(check(error), "\(error)")
        }
    }

    /// Commons is asked to refuse while its replicas lag (`maxlag=5`); its refusal, with HTTP 200
    /// or 503, is `.busy` for what `Retry-After` asked, in either form.
    func testCommonsMaxlagIsBusyForWhatRetryAfterAsks() async throws {
        let maxlag = try String(decoding: APISamples.data("commons-error-maxlag.json"), as: UTF8.self)
        let reason = "Commons is lagging (Waiting for 10.64.48.35: 6.2 seconds lagged)"
        let date = RetryAfterDate.inSeconds(30)
        let cases: [(FakeHTTP.Reply, PhotoSourceError)] = [
            (.answer(200, ["Retry-After": "7", "X-Database-Lag": "6"], maxlag), .busy(reason, retryAfter: 7)),
            (.answer(503, ["retry-after": "9"], maxlag), .busy(reason, retryAfter: 9)),
            (.answer(200, [:], maxlag), .busy(reason, retryAfter: CommonsSource.maxLagPause)),
            (.answer(503, ["Retry-After": "4"], "<html>Our servers are currently under maintenance</html>"), .http(status: 503, retryAfter: 4)),
            (.answer(429, ["Retry-After": "soon"], ""), .http(status: 429)),
        ]
        for (reply, expected) in cases {
            let result = await search(CommonsSource(userAgent: testUserAgent, http: FakeHTTP([reply])), PhotoQuery(center: rome))
            XCTAssertEqual(result, .failure(expected), "\(reply)")
        }
        let dated = await search(CommonsSource(userAgent: testUserAgent, http: FakeHTTP([.answer(200, ["Retry-After": date], maxlag)])),
                                 PhotoQuery(center: rome))
        guard case let .failure(.busy(_, retryAfter)) = dated, let seconds = retryAfter else { return XCTFail("\(dated)") }
        XCTAssertTrue((25...30).contains(seconds), "\(seconds)")
        // A large image's request is refused the same way.
        let large = CommonsSource(userAgent: testUserAgent, http: FakeHTTP([.answer(200, ["Retry-After": "6"], maxlag)]))
        do throws(PhotoSourceError) {
            _ = try await large.largeImage(pageID: "1", width: 800)
            XCTFail("a maxlag answer gave an image")
        } catch {
            XCTAssertEqual(error, .busy(reason, retryAfter: 6))
        }
    }

    /// Every request to Commons carries maxlag=5: the first, each continuation, and a large image's.
    func testEveryCommonsRequestCarriesMaxlag() async throws {
        let http = FakeHTTP([.body(200, Fixture.commonsMany(count: 3, withInfo: [0], continueWith: "a")),
                             .body(200, Fixture.commonsMany(count: 3, withInfo: [1, 2], continueWith: nil))])
        let commons = CommonsSource(userAgent: testUserAgent, http: http)
        _ = try await search(commons, PhotoQuery(center: rome, perPage: 3)).get()
        _ = await search(commons, PhotoQuery(center: rome, perPage: 3, filter: AlbumFilter(text: "castle")))
        _ = try? await commons.largeImage(pageID: "1", width: 800)
        XCTAssertEqual(http.requests.count, 4)
        for request in http.requests {
            XCTAssertEqual(queryItems(request.url)["maxlag"], "5", request.url)
        }
        // Flickr has no such parameter.
        XCTAssertNil(queryItems(FlickrSource.searchURL(PhotoQuery(center: rome), apiKey: "k"))["maxlag"])
    }

    /// Flickr's 429 and 503 keep what Retry-After asked; the app client's errors are kept as they
    /// came (so the failure table can tell an unreachable host), with the key hidden in their text.
    func testFlickrStatusesAndClientErrorsKeepWhatTheyTell() async {
        let busy = FlickrSource(apiKey: "k", http: FakeHTTP([.answer(429, ["Retry-After": "3"], "")]))
        let limited = await search(busy, PhotoQuery(center: rome))
        XCTAssertEqual(limited, .failure(.http(status: 429, retryAfter: 3)))
        let down = FlickrSource(apiKey: "k", http: FakeHTTP([.fail(HTTPError.connectionRefused(host: "api.flickr.com"))]))
        let refusedConnection = await search(down, PhotoQuery(center: rome))
        XCTAssertEqual(refusedConnection, .failure(.network(.connectionRefused(host: "api.flickr.com"))))
        let key = "0123456789abcdef0123456789abcdef"
        let refused = FlickrSource(apiKey: key, http: FakeHTTP([.fail(HTTPError.insecureURL("http://x.example/rest?api_key=\(key)"))]))
        guard case let .failure(.network(.insecureURL(url))) = await search(refused, PhotoQuery(center: rome)) else {
            return XCTFail("not kept as the client's error")
        }
        XCTAssertFalse(url.contains(key), url)
    }

    func testCommonsPageBeyondReachAsksNothing() async throws {
        let http = FakeHTTP([.body(500, "")])
        let page = try await search(CommonsSource(userAgent: testUserAgent, http: http), PhotoQuery(center: rome, perPage: 60, page: 10)).get()
        XCTAssertEqual(page.photos, [])
        XCTAssertEqual(page.pageCount, 8)
        XCTAssertEqual(http.requests.count, 0)
    }
}

/// An HTTP-date `seconds` from now, as `Retry-After` may send it.
enum RetryAfterDate {
    static func inSeconds(_ seconds: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date().addingTimeInterval(seconds))
    }
}

/// A transport error whose text quotes a URL, as the HTTP client's refusals do.
private struct QuotedURL: Error, CustomStringConvertible {
    var url: String
    var description: String { "refusing unencrypted http to a non-local host (https is required): \(url)" }
}
