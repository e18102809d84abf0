import Geo
import Model

/// A photo of the album: its store id, the image to fetch, and how far its download got.
public struct AlbumPhoto: Equatable, Sendable, Identifiable {
    public let id: Int64
    public let url: String
    public internal(set) var state: PhotoState

    public init(id: Int64, url: String, state: PhotoState = .pending) {
        self.id = id
        self.url = url
        self.state = state
    }
}

/// A photo a search found, already saved by the store, which gave it its id.
public struct SavedPhoto: Equatable, Sendable {
    public let id: Int64
    public let url: String

    public init(id: Int64, url: String) {
        self.id = id
        self.url = url
    }
}

/// The album's search: at most one is ever under way.
public enum AlbumSearch: Equatable, Sendable {
    /// Nothing to ask.
    case idle
    /// Interrupted before it answered (the app stopped): `resume` or `retry` sends it again; or, with a
    /// `searchPlan`, failed in passing and sent again by itself when the plan is due.
    case waiting(page: Int)
    /// Sent; its answer or failure is awaited.
    case inFlight(page: Int)
    /// The collection's search failed; `retry` sends it again.
    case failed(page: Int, reason: String)
}

/// How a search or a photo is tried again after passing failures (`RetryPolicy`): one per target.
public struct RetryPlan: Equatable, Sendable {
    /// Passing failures in a row.
    public internal(set) var attempts: Int
    /// When the first of them happened: the give-up window counts from here.
    public internal(set) var firstFailure: Double
    /// When the latest happened, and its reason.
    public internal(set) var lastFailure: Double
    public internal(set) var reason: String
    /// When the next try starts; nil while that try is under way.
    public internal(set) var due: Double?

    public init(attempts: Int, firstFailure: Double, lastFailure: Double, reason: String, due: Double?) {
        self.attempts = attempts
        self.firstFailure = firstFailure
        self.lastFailure = lastFailure
        self.reason = reason
        self.due = due
    }
}

/// One pin's photo album: the state `reduce` drives.
public struct Album: Equatable, Sendable {
    /// Flickr serves at most about this many results for one query.
    public static let maxResults = 4000

    public let pin: Int64
    public internal(set) var place: GeoPoint
    /// What the album is narrowed to: every search of the collection asks with it; a new one
    /// (`setFilter`) begins a new collection. A copy of the pin's filter in the store.
    public internal(set) var filter: AlbumFilter
    /// In grid order.
    public internal(set) var photos: [AlbumPhoto]
    public internal(set) var search: AlbumSearch
    /// The collection's latest page: its first page as soon as asked, then each page Add more brought; 0 before any.
    public internal(set) var page: Int
    /// The page the collection started at; Add more wraps round and stops before reaching it again.
    public internal(set) var firstPage: Int
    /// Usable result pages (what the source reported, capped at `maxResults / perPage`); 0 while unknown.
    public internal(set) var pageCount: Int
    /// Photos per page for this collection, so Add more pages line up after a settings change; 0 while unknown.
    public internal(set) var perPage: Int
    /// Bumped for every new collection; answers tagged with an older one are late and ignored.
    /// A copy of the album's generation in the store, which is the truth: a loaded album starts from
    /// the stored number, and the store refuses work tagged with any other.
    public internal(set) var generation: Int
    /// Photos whose download was requested and has not answered yet.
    public internal(set) var inFlight: Set<Int64>
    /// The pin was deleted: every action is ignored from now on.
    public internal(set) var isEnded: Bool
    /// The search's retries after passing failures (the search is `waiting`, or in flight again).
    public internal(set) var searchPlan: RetryPlan?
    /// Each pending photo's retries after passing failures, by photo id.
    public internal(set) var photoPlans: [Int64: RetryPlan]

    /// A freshly dropped pin's album, with the filter it was stored with; send `.start` to search. Its
    /// first collection is generation 1, the number the store gives a new pin.
    public init(pin: Int64, place: GeoPoint, filter: AlbumFilter = .none) {
        self.pin = pin
        self.place = place
        self.filter = filter
        self.photos = []
        self.search = .idle
        self.page = 0
        self.firstPage = 0
        self.pageCount = 0
        self.perPage = 0
        self.generation = 0
        self.inFlight = []
        self.isEnded = false
        self.searchPlan = nil
        self.photoPlans = [:]
    }

    /// An album read back from the store (app start, album open); send `.resume` to continue its downloads.
    /// - Parameters:
    ///   - status: as last saved; `downloading` with no photos means the search was interrupted.
    ///   - page: the collection's latest page, as saved.
    ///   - pageCount: as saved.
    ///   - generation: the album's generation as stored.
    ///   - filter: the pin's filter as stored.
    public init(pin: Int64, place: GeoPoint, status: AlbumStatus, page: Int?, pageCount: Int?, photos: [AlbumPhoto],
                generation: Int = 0, filter: AlbumFilter = .none) {
        self.init(pin: pin, place: place, filter: filter)
        self.generation = generation
        self.photos = photos
        self.page = max(page ?? 0, 0)
        self.firstPage = max(page ?? 1, 1)
        self.pageCount = max(pageCount ?? 0, 0)
        // Only an album without photos can be waiting for, or failed at, its search.
        switch (status, photos.isEmpty) {
        case (.downloading, true): search = .waiting(page: firstPage)
        case (.failed(let reason), true): search = .failed(page: firstPage, reason: reason)
        default: search = .idle
        }
    }

    /// Derived from the search and the photos, never set by hand; `saveStatus` carries it to the store.
    public var status: AlbumStatus {
        if case .failed(_, let reason) = search, photos.isEmpty { return .failed(reason: reason) }
        if isSearchPending || photos.contains(where: { $0.state == .pending }) { return .downloading }
        return photos.isEmpty ? .empty : .ready
    }

    public var isSearchPending: Bool {
        switch search {
        case .waiting, .inFlight: true
        case .idle, .failed: false
        }
    }

    /// When the retry timer must ring: the earliest due plan; nil when nothing waits for a retry.
    public var nextRetry: Double? {
        ([searchPlan?.due] + photoPlans.values.map(\.due)).compactMap { $0 }.min()
    }

    /// What the album waits for after passing failures; nil when nothing waits (a retry under way is
    /// not waiting). Its reason is the latest failure's.
    public var wait: AlbumWait? {
        let search = searchPlan.flatMap { $0.due == nil ? nil : $0 }
        let waitingPhotos = photos.compactMap { photoPlans[$0.id] }.filter { $0.due != nil }
        let waiting = (search.map { [$0] } ?? []) + waitingPhotos
        guard let nextTry = nextRetry, let latest = waiting.max(by: { $0.lastFailure < $1.lastFailure }) else { return nil }
        return AlbumWait(reason: latest.reason, nextTry: nextTry, isSearch: search != nil, photos: waitingPhotos.count)
    }

    public var progress: AlbumProgress {
        AlbumProgress(photos.map(\.state))
    }

    /// New Collection, and a new filter (which begins one), are refused while anything is downloading.
    public var isNewCollectionEnabled: Bool { !isEnded && status.allowsNewCollection }

    /// What a refused New Collection says.
    public static let newCollectionRefusal = "Still downloading: New Collection is available once every photo is in"
    /// What a refused filter change (`f`, `F`) says.
    public static let filterRefusal = "Still downloading: the filter can be changed once every photo is in"
}
