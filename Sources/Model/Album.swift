/// The names SPEC 7 gives an album's states, as the command line's JSON and the store write them.
public enum AlbumState: String, Codable, CaseIterable, Sendable {
    case downloading, ready, empty, failed
}

/// Where an album is in its life (SPEC 7), with the reason when its search failed.
/// The album state machine decides it; the store saves it; the screens and the command line read it.
public enum AlbumStatus: Hashable, Sendable {
    /// The search or some photos are pending.
    case downloading
    /// Every photo is stored or has failed for good.
    case ready
    /// No photos: the search found none, or the user deleted them all.
    case empty
    /// The search failed, and the album has no photos to show instead.
    case failed(reason: String)

    public var state: AlbumState {
        switch self {
        case .downloading: .downloading
        case .ready: .ready
        case .empty: .empty
        case .failed: .failed
        }
    }

    /// Why the search failed; nil unless `failed`.
    public var reason: String? {
        if case .failed(let reason) = self { return reason }
        return nil
    }

    /// New Collection is refused while anything is downloading.
    public var allowsNewCollection: Bool { self != .downloading }
}

/// One photo's download, as the grid cell shows it.
public enum PhotoState: Hashable, Sendable {
    case pending
    case stored
    /// Final until the user retries; transient network retries belong to the runtime.
    case failed(reason: String)

    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// Why the download failed; nil unless `failed`.
    public var reason: String? {
        if case .failed(let reason) = self { return reason }
        return nil
    }
}

/// Photos stored out of all photos, for `Downloading 7/21`.
public struct AlbumProgress: Hashable, Sendable {
    public var stored: Int
    public var total: Int

    public init(stored: Int, total: Int) {
        self.stored = stored
        self.total = total
    }

    /// Of photos in these states.
    public init(_ states: some Collection<PhotoState>) {
        self.init(stored: states.count { $0 == .stored }, total: states.count)
    }
}

/// The names of a photo's download states, as the command line's JSON and the store write them.
public enum PhotoStateName: String, Codable, CaseIterable, Sendable {
    case pending, stored, failed
}

extension PhotoState {
    public var stateName: PhotoStateName {
        switch self {
        case .pending: .pending
        case .stored: .stored
        case .failed: .failed
        }
    }

    /// `pending`, `stored` or `failed`, as the command line's JSON names it.
    public var name: String { stateName.rawValue }
}
