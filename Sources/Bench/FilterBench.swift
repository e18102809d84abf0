import AlbumService
import Dispatch
import Foundation
import HTTP
import Model
import PhotoSources
import Geo

/// `vtourist-bench filter [RUNS]`: a filtered search against an unfiltered one, through the real
/// sources, libcurl and parsers against the stand-in photo server (Tests/Support/photo_server.py),
/// page 1 of 21 photos near Naples. Filtered and unfiltered searches alternate, so both see the
/// same machine; each line prints both medians and their ratio (filtered / unfiltered).
/// Judged: Flickr with every field set, Commons with text and tags (CirrusSearch instead of
/// geosearch). Printed but not judged: Commons with a taken range, which looks at four times as
/// many files to fill a page (docs/photo-sources.md) and so makes more requests.
enum FilterBench {
    static let perPage = 21
    static let naples = GeoPoint(latitude: 40.85, longitude: 14.27)

    struct Fetcher: HTTPFetching {
        let client: HTTPClient
        func fetch(url: String, headers: [String: String], maxBytes: Int) async throws -> (status: Int, headers: [String: String], body: Data) {
            let response = try await client.fetch(HTTPRequest(url: url, headers: headers, maxBytes: maxBytes))
            return (response.status, response.headers, response.body)
        }
    }

    static func run(runs: Int) throws {
        let server = try BenchPhotoServer(delayMs: 0, arguments: ["--tcp-nodelay"])
        defer { server.stop() }
        let client = HTTPClient(userAgent: "vtourist-bench")
        defer { client.shutdown() }
        let http = Fetcher(client: client)
        let flickr = FlickrSource(apiKey: "bench-key", endpoint: server.base + "/flickr/rest", http: http)
        let commons = CommonsSource(endpoint: server.base + "/commons/api.php", userAgent: "vtourist-bench", http: http)
        let taken = try TakenRange.parse("2016..2024")
        print("Filtered search vs unfiltered: page 1 of \(perPage) photos near Naples, search and parse through libcurl "
              + "against the stand-in server, \(runs) runs each, alternating")
        let cases: [(label: String, source: any PhotoSource, filter: AlbumFilter, judged: Bool)] = [
            ("Flickr, text + tags + taken + recent", flickr,
             AlbumFilter(text: "street food", tags: ["market", "night"], taken: taken, sort: .recent), true),
            ("Commons, text + tags (CirrusSearch)", commons, AlbumFilter(text: "castle", tags: ["sea"]), true),
            ("Commons, text + taken filtered here", commons, AlbumFilter(text: "castle", taken: taken), false),
        ]
        for item in cases {
            var plain: [Double] = [], filtered: [Double] = []
            var found = (plain: 0, filtered: 0)
            // One of each first, unmeasured: connections made, server code warm.
            found.plain = try timed(item.source, AlbumFilter.none).count
            found.filtered = try timed(item.source, item.filter).count
            for _ in 0..<runs {
                plain.append(try timed(item.source, .none).ms)
                filtered.append(try timed(item.source, item.filter).ms)
            }
            let a = median(filtered), b = median(plain)
            print(String(format: "  %@: filtered median %.2f ms (%d photos), unfiltered %.2f ms (%d photos): ratio %.3f%@",
                         item.label, a, found.filtered, b, found.plain, a / b, item.judged ? " [target <= 1.10]" : " (not judged)"))
        }
    }

    /// One search's wall time and its photo count.
    static func timed(_ source: any PhotoSource, _ filter: AlbumFilter) throws -> (ms: Double, count: Int) {
        let query = PhotoQuery(center: naples, perPage: perPage, page: 1, filter: filter)
        let t0 = DispatchTime.now().uptimeNanoseconds
        let page = try blocking { try await source.search(query) }
        return (Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6, page.photos.count)
    }

    /// Runs `body` on the cooperative pool and waits for it (the bench's main thread is not async).
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    final class ResultBox<T>: @unchecked Sendable {
        // Written once by the task before the semaphore is signalled, read after the wait.
        var result: Result<T, any Error>?
    }
}
