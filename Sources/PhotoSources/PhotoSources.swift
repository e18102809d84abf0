// The PhotoSources module: photo searches near a pin on Flickr or Wikimedia
// Commons, over any HTTP fetcher. See docs/photo-sources.md.
import Foundation
import Model
import Geo
import HTTP

/// Anything that can GET a URL: the app's libcurl client, or a fake in tests.
public protocol HTTPFetching: Sendable {
    /// Fetches `url` with extra request `headers`, reading at most `maxBytes`
    /// of body. Throws for transport failures (no status line at all): the app's client throws
    /// `HTTPError`, which the search keeps as `.network` so its failure can be classified.
    /// The answer's header names may be in any case (`Retry-After` is looked up without it).
    func fetch(url: String, headers: [String: String], maxBytes: Int) async throws -> (status: Int, headers: [String: String], body: Data)
}

/// One search: the area around a pin and which page of results.
public struct PhotoQuery: Sendable, Equatable {

    public var center: GeoPoint
    /// Half the side of the search square, in degrees (within `Settings.areaHalfWidthRange`).
    public var halfWidthDegrees: Double
    /// Photos per page (within `Settings.photosPerCollectionRange`).
    public var perPage: Int
    /// 1-based result page.
    public var page: Int
    /// What the album is narrowed to and its order; `.none` for the plain album.
    public var filter: AlbumFilter

    /// Out-of-range values are clamped so a query is always one a source can send.
    public init(center: GeoPoint, halfWidthDegrees: Double = Settings.defaultAreaHalfWidth,
                perPage: Int = Settings.defaultPhotosPerCollection, page: Int = 1, filter: AlbumFilter = .none) {
        self.filter = filter
        self.center = GeoPoint(
            latitude: center.latitude.isFinite ? min(max(center.latitude, -90), 90) : 0,
            longitude: center.longitude.isFinite ? min(max(center.longitude, -180), 180) : 0)
        self.halfWidthDegrees = halfWidthDegrees.isFinite
            ? min(max(halfWidthDegrees, Settings.areaHalfWidthRange.lowerBound), Settings.areaHalfWidthRange.upperBound)
            : Settings.defaultAreaHalfWidth
        self.perPage = min(max(perPage, Settings.photosPerCollectionRange.lowerBound), Settings.photosPerCollectionRange.upperBound)
        self.page = max(page, 1)
    }
}

/// One page of results.
public struct SearchPage: Sendable, Equatable {
    /// Every text field is already cleaned for the terminal (no control characters); every URL
    /// comes from the response itself.
    public var photos: [NewPhoto]
    /// The page these photos are (1-based).
    public var page: Int
    /// Pages worth asking for (at least 1). Flickr: capped to the ~4,000
    /// results it serves per query. Commons: `page + 1` while more may exist.
    public var pageCount: Int
    /// Results the source reports (Commons: how many it found so far).
    public var total: Int

    public init(photos: [NewPhoto], page: Int, pageCount: Int, total: Int) {
        self.photos = photos
        self.page = page
        self.pageCount = pageCount
        self.total = total
    }
}

/// Why a search failed; `description` is a message for the user.
public enum PhotoSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with a status other than 2xx; `retryAfter` is what its `Retry-After`
    /// asked, in seconds, when it said.
    case http(status: Int, retryAfter: Double? = nil)
    /// The service asked to be left alone for a while (Commons `maxlag`): try again after
    /// `retryAfter` seconds.
    case busy(String, retryAfter: Double?)
    /// Flickr answered `stat: fail` (100 invalid key, 0/105/106 unavailable for now, …).
    case flickr(code: Int, message: String)
    /// The body was not JSON, or not the shape the API documents.
    case malformed(String)
    /// No answer from the app's HTTP client, as it failed (refused, DNS, timeout, TLS, …).
    case network(HTTPError)
    /// No answer at all, from another fetcher: described only.
    case transport(String)

    /// Flickr's codes for "unavailable for now": 105 "Service currently unavailable" and 106 "a
    /// temporary issue" (every method page's "Error Codes"), and 0, no documented error: what a
    /// failure without a code reads as, an answer of a service not working as it should.
    public static let flickrUnavailableCodes: Set<Int> = [0, 105, 106]

    public var description: String {
        switch self {
        case let .http(status, _):
            return "The photo service answered HTTP \(status)."
        case let .busy(why, _):
            return "The photo service is busy: \(why)"
        case let .flickr(code, message):
            switch code {
            case 100: return "Flickr refused the API key (100: \(message)). Check the key in the settings."
            case let code where Self.flickrUnavailableCodes.contains(code):
                return "Flickr is unavailable right now (\(code): \(message))."
            default: return "Flickr error \(code): \(message)"
            }
        case let .network(error):
            return "Could not reach the photo service: \(error)"
        case let .malformed(why):
            return "The photo service sent an unreadable answer: \(why)"
        case let .transport(why):
            return "Could not reach the photo service: \(why)"
        }
    }
}

extension PhotoSourceError {
    /// The same error with the API key masked (as the settings show it) wherever its text quotes
    /// the key: after `api_key=` as the search URL sends it, and anywhere for a key long enough not
    /// to be an ordinary word.
    func hiding(apiKey: String) -> PhotoSourceError {
        let key = apiKey.trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { return self }
        let masked = Settings.masked(apiKey: key)
        func hide(_ text: String) -> String {
            var text = text.replacingOccurrences(of: "api_key=" + QueryString.encode(key), with: "api_key=" + masked)
            if key.count >= 8 { text = text.replacingOccurrences(of: key, with: masked) }
            return text
        }
        switch self {
        case .http: return self
        case let .busy(why, retryAfter): return .busy(hide(why), retryAfter: retryAfter)
        case let .network(error): return .network(error.hiding(hide))
        case let .flickr(code, message): return .flickr(code: code, message: hide(message))
        case let .malformed(why): return .malformed(hide(why))
        case let .transport(why): return .transport(hide(why))
        }
    }
}

/// A place to search photos near a point.
public protocol PhotoSource: Sendable {
    /// "flickr" or "commons".
    var name: String { get }
    func search(_ query: PhotoQuery) async throws(PhotoSourceError) -> SearchPage
}

/// Response bodies are capped so an endless body cannot eat the memory.
let searchResponseLimit = 8 << 20

/// One answer of a source's API: any status, with what its `Retry-After` asks.
struct APIAnswer {
    var status: Int
    var body: Data
    /// Seconds from when it arrived, when the header is there and readable.
    var retryAfter: Double?

    var isSuccess: Bool { (200..<300).contains(status) }
}

/// Runs one GET, turning thrown errors into PhotoSourceError; any status is returned.
func fetchAnswer(_ http: any HTTPFetching, url: String, headers: [String: String]) async throws(PhotoSourceError) -> APIAnswer {
    let answer: (status: Int, headers: [String: String], body: Data)
    do {
        answer = try await http.fetch(url: url, headers: headers, maxBytes: searchResponseLimit)
    } catch let error as PhotoSourceError {
        throw error
    } catch let error as HTTPError {
        throw .network(error)
    } catch {
        throw .transport(TextCleaner.clean(String(describing: error), maxLength: 300))
    }
    let retryAfter = answer.headers.first { $0.key.lowercased() == "retry-after" }
        .flatMap { RetryAfter.seconds($0.value, now: Date()) }
    return APIAnswer(status: answer.status, body: answer.body, retryAfter: retryAfter)
}

/// Runs one GET, turning thrown errors and non-2xx statuses into PhotoSourceError.
func fetchOK(_ http: any HTTPFetching, url: String, headers: [String: String]) async throws(PhotoSourceError) -> Data {
    let answer = try await fetchAnswer(http, url: url, headers: headers)
    guard answer.isSuccess else { throw .http(status: answer.status, retryAfter: answer.retryAfter) }
    return answer.body
}

extension HTTPError {
    /// The same error with `hide` applied to every text that may quote a URL.
    func hiding(_ hide: (String) -> String) -> HTTPError {
        switch self {
        case let .invalidURL(url): return .invalidURL(hide(url))
        case let .insecureURL(url): return .insecureURL(hide(url))
        case let .connectionLost(detail): return .connectionLost(hide(detail))
        case let .proxyFailed(proxy, detail): return .proxyFailed(proxy: proxy, detail: hide(detail))
        case let .tls(detail): return .tls(hide(detail))
        case let .transport(detail): return .transport(hide(detail))
        case .unsupportedScheme, .dnsFailed, .connectionRefused, .timedOut, .tooLarge, .cancelled, .shuttingDown:
            return self
        }
    }
}
