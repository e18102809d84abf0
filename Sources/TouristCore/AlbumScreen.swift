import Foundation
import Terminal

/// What the album screen shows of one pin's album, as the store has it: the photos, and the
/// status the album state machine decided and the store saved. Nothing here decides a status.
public struct AlbumSnapshot: Equatable, Sendable {
    public var pinID: Pin.ID
    public var photos: [PhotoRecord]
    public var status: AlbumStatus
    public var source: String?

    public init(pinID: Pin.ID, photos: [PhotoRecord], status: AlbumStatus, source: String?) {
        self.pinID = pinID
        self.photos = photos
        self.status = status
        self.source = source
    }

    public var progress: AlbumProgress {
        AlbumProgress(photos.map(\.state))
    }

    /// Downloading with no photo waiting for its image: a search (the first, or Add more) is under way.
    public var isSearchPending: Bool {
        status == .downloading && !photos.contains { $0.state == .pending }
    }

    public var isNewCollectionEnabled: Bool { status.allowsNewCollection }
}

/// The album screen's own state: the snapshot, the selection and the marks.
public struct AlbumScreen: Equatable, Sendable {
    public var pinID: Pin.ID
    /// Nil until the first load arrives.
    public var snapshot: AlbumSnapshot?
    public var selected: Int = 0
    public var marked: Set<PhotoRecord.ID> = []
    /// First grid row shown (the grid scrolls to keep the selection visible).
    public var topRow: Int = 0
    /// The last store failure while this album was open: kept in its header until the album is left.
    public var storeProblem: String?

    public init(pinID: Pin.ID) {
        self.pinID = pinID
    }

    public var photos: [PhotoRecord] { snapshot?.photos ?? [] }

    public var selectedPhoto: PhotoRecord? {
        photos.indices.contains(selected) ? photos[selected] : nil
    }

    /// Takes a fresh snapshot, keeping the selection on the same photo where it still exists.
    public mutating func apply(_ fresh: AlbumSnapshot) {
        let keep = selectedPhoto?.id
        snapshot = fresh
        if let keep, let i = fresh.photos.firstIndex(where: { $0.id == keep }) {
            selected = i
        }
        selected = min(selected, max(0, fresh.photos.count - 1))
        marked.formIntersection(fresh.photos.map(\.id))
    }

    /// Removes photos at once (the store follows), so the grid flows up.
    public mutating func remove(_ ids: Set<PhotoRecord.ID>) {
        guard var snap = snapshot else { return }
        snap.photos.removeAll { ids.contains($0.id) }
        snapshot = snap
        marked.subtract(ids)
        selected = min(selected, max(0, snap.photos.count - 1))
    }
}

/// The grid's geometry in the area the album is drawn in (the layout's main area): the same numbers
/// for drawing and for moving.
public struct AlbumGrid: Equatable, Sendable {
    public static let cellWidth = 24
    public static let cellHeight = 7
    public static let gap = 1
    /// Header rows above the grid.
    public static let top = 3

    public var columns: Int
    public var visibleRows: Int

    public init(area: Rect) {
        columns = max(1, (area.width - 1) / (AlbumGrid.cellWidth + AlbumGrid.gap))
        visibleRows = max(1, (area.height - AlbumGrid.top) / (AlbumGrid.cellHeight + AlbumGrid.gap))
    }
}
