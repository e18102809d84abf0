// The PhotoSources module: photo searches near a pin on Flickr or Wikimedia
// Commons, over any HTTP fetcher. See docs/photo-sources.md.
import Foundation
import Model
import Geo

/// Anything that can GET a URL: the app's libcurl client, or a fake in tests.
public protocol HTTPFetching: Sendable {
    /// Fetches `url` with extra request `headers`, reading at most `maxBytes`
    /// of body. Throws for transport failures (no status line at all).
    func fetch(url: String, headers: [String: String], maxBytes: Int) async throws -> (status: Int, body: Data)
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
    /// The server answered with a status other than 2xx.
    case http(status: Int)
    /// Flickr answered `stat: fail` (100 invalid key, 105 unavailable, …).
    case flickr(code: Int, message: String)
    /// The body was not JSON, or not the shape the API documents.
    case malformed(String)
    /// No answer at all: connection refused, DNS, timeout, …
    case transport(String)

    public var description: String {
        switch self {
        case let .http(status):
            return "The photo service answered HTTP \(status)."
        case let .flickr(code, message):
            switch code {
            case 100: return "Flickr refused the API key (100: \(message)). Check the key in the settings."
            case 105: return "Flickr is unavailable right now (105: \(message)). Try again later."
            default: return "Flickr error \(code): \(message)"
            }
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

/// Runs one GET, turning thrown errors and non-2xx statuses into PhotoSourceError.
func fetchOK(_ http: any HTTPFetching, url: String, headers: [String: String]) async throws(PhotoSourceError) -> Data {
    let answer: (status: Int, body: Data)
    do {
        answer = try await http.fetch(url: url, headers: headers, maxBytes: searchResponseLimit)
    } catch let error as PhotoSourceError {
        throw error
    } catch {
        throw .transport(TextCleaner.clean(String(describing: error), maxLength: 300))
    }
    guard (200..<300).contains(answer.status) else { throw .http(status: answer.status) }
    return answer.body
}
