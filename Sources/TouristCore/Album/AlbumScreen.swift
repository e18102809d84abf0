import Foundation
import Model
import Terminal

/// What the album screen shows of one pin's album, as the store has it: the photos, and the
/// status the album state machine decided and the store saved. Nothing here decides a status.
public struct AlbumSnapshot: Equatable, Sendable {
    public var pinID: Pin.ID
    public var photos: [PhotoRecord]
    public var status: AlbumStatus
    public var source: String?
    /// The album's filter as stored with the pin.
    public var filter: AlbumFilter

    public init(pinID: Pin.ID, photos: [PhotoRecord], status: AlbumStatus, source: String?, filter: AlbumFilter = .none) {
        self.filter = filter
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

extension PhotoRecord {
    /// The title as the album, the photo view and messages show it.
    public var displayTitle: String { found.title?.isEmpty == false ? found.title ?? "" : "(untitled)" }
}

/// What the album asks before doing: photos go either way.
public enum AlbumConfirmation: Equatable, Sendable {
    /// New Collection would replace this many photos.
    case newCollection(Int)
    /// Delete these marked photos.
    case deleteMarked([PhotoRecord.ID])
    /// Leave the album, dropping this many marks.
    case leave(marks: Int)
    /// A new collection with this filter (`.none`: cleared) would replace this many photos.
    case setFilter(AlbumFilter, photos: Int)
}

/// A click on an album photo: which, and when.
public struct AlbumClick: Equatable, Sendable {
    public var index: Int
    public var time: Double
}

/// The album screen's own state: the snapshot, the selection and the marks.
public struct AlbumScreen: Equatable, Sendable {
    public var pinID: Pin.ID
    /// Nil until the first load arrives.
    public var snapshot: AlbumSnapshot?
    /// The selected photo, by identity: deletions and reloads that move it keep it selected.
    public var selectedID: PhotoRecord.ID?
    public var marked: Set<PhotoRecord.ID> = []
    /// First grid row shown (the grid scrolls to keep the selection visible).
    public var topRow: Int = 0
    /// The first row as the user left it, while only resizes have scrolled the grid since: each
    /// size scrolls from this one, so sizes that come and go leave the grid where it was.
    public var topRowBeforeResize: Int?
    /// The last store failure while this album was open: kept in its header until the album is left.
    public var storeProblem: String?
    /// The last click on a photo, for a double click.
    public var lastClick: AlbumClick?
    /// What the album is asking before it does it (the confirm-delete setting).
    public var confirming: AlbumConfirmation?
    /// The screen the album was opened from and goes back to (the pins list); nil for the map.
    public var returnTo: PluggedScreen?
    /// Photos deleted here whose deletion the store has not answered yet: said deleted once it has.
    public var pendingDeletions: [PendingPhotoDeletion] = []
    /// A filter sent here that the store has not answered yet: said saved once it has.
    public var pendingFilter: AlbumFilter?

    public init(pinID: Pin.ID) {
        self.pinID = pinID
    }

    public var photos: [PhotoRecord] { snapshot?.photos ?? [] }

    /// Where the selected photo is in the grid (the first photo while nothing is selected).
    public var selected: Int {
        get { selectedID.flatMap { id in photos.firstIndex { $0.id == id } } ?? 0 }
        set { selectedID = photos.isEmpty ? nil : photos[min(max(0, newValue), photos.count - 1)].id }
    }

    public var selectedPhoto: PhotoRecord? {
        photos.indices.contains(selected) ? photos[selected] : nil
    }

    /// Takes a fresh snapshot, keeping the selection on the same photo where it still exists, and
    /// on its nearest survivor where it does not.
    public mutating func apply(_ fresh: AlbumSnapshot) {
        let old = photos
        snapshot = fresh
        selectedID = AlbumScreen.survivor(of: selectedID, in: old, keeping: Set(fresh.photos.map(\.id)))
            ?? fresh.photos.first?.id
        marked.formIntersection(fresh.photos.map(\.id))
    }

    /// Removes photos at once (the store follows), so the grid flows up; the selection stays on its
    /// photo, or moves to its nearest survivor.
    public mutating func remove(_ ids: Set<PhotoRecord.ID>) {
        guard var snap = snapshot else { return }
        let old = snap.photos
        snap.photos.removeAll { ids.contains($0.id) }
        snapshot = snap
        marked.subtract(ids)
        selectedID = AlbumScreen.survivor(of: selectedID, in: old, keeping: Set(snap.photos.map(\.id)))
            ?? snap.photos.first?.id
    }

    /// The photo the selection goes to when only `kept` of `old` remain: the selected photo itself,
    /// else the next kept one after it, else the previous kept one; nil when none is left or the
    /// selected photo was not in `old`.
    static func survivor(of id: PhotoRecord.ID?, in old: [PhotoRecord], keeping kept: Set<PhotoRecord.ID>) -> PhotoRecord.ID? {
        guard let id else { return nil }
        if kept.contains(id) { return id }
        guard let at = old.firstIndex(where: { $0.id == id }) else { return nil }
        return old[(at + 1)...].first { kept.contains($0.id) }?.id ?? old[..<at].last { kept.contains($0.id) }?.id
    }
}

/// The grid's geometry in the area the album is drawn in (the layout's main area): the same numbers
/// for drawing and for moving.
public struct AlbumGrid: Equatable, Sendable {
    /// The narrowest cell: its picture is then 22 columns wide.
    public static let minimumCellWidth = 24
    public static let gap = 1
    /// Header rows above the grid.
    public static let top = 3
    /// Rows of a cell besides its picture: the frame above and below, the title.
    public static let chrome = 3
    /// A picture's rows per column at most: a 4:3 photo in cells twice as tall as wide.
    static let rowsPerColumn = 3.0 / 8.0

    public var columns: Int
    public var visibleRows: Int
    /// One cell, frame included; the width spreads the row's spare columns over its cells.
    public var cellWidth: Int
    public var cellHeight: Int

    public init(area: Rect) {
        let width = max(0, area.width - 1)
        columns = max(1, width / (AlbumGrid.minimumCellWidth + AlbumGrid.gap))
        cellWidth = max(4, width / columns - AlbumGrid.gap)
        let body = max(0, area.height - AlbumGrid.top)
        // As tall as a 4:3 photo wants at most, and as many rows of cells as fill the height best
        // (at least two where the screen is low).
        let ideal = Int((Double(cellWidth - 2) * AlbumGrid.rowsPerColumn).rounded())
        let perRow = ideal + AlbumGrid.chrome + AlbumGrid.gap
        let rows = max(2, Int((Double(body) / Double(perRow)).rounded()))
        cellHeight = AlbumGrid.chrome + max(3, min(ideal, body / rows - AlbumGrid.chrome - AlbumGrid.gap))
        visibleRows = max(1, body / (cellHeight + AlbumGrid.gap))
    }

    /// The picture's size inside a cell: the key its rendered cells are cached under.
    public var pictureSize: PictureSize {
        PictureSize(columns: max(1, cellWidth - 2), rows: max(1, cellHeight - AlbumGrid.chrome))
    }

    /// Where the photo at `index` is drawn when the grid shows rows from `topRow` in `body`; nil when off screen.
    public func cell(_ index: Int, topRow: Int, in body: Rect) -> Rect? {
        let row = index / columns - topRow
        guard index >= 0, row >= 0, row < visibleRows else { return nil }
        let col = index % columns
        return Rect(x: body.x + 1 + col * (cellWidth + AlbumGrid.gap), y: body.y + row * (cellHeight + AlbumGrid.gap),
                    width: cellWidth, height: cellHeight)
    }

    /// The photos on screen (and a row either side, to have them ready when the grid scrolls).
    public func indices(topRow: Int, count: Int, margin: Int = 0) -> Range<Int> {
        let first = max(0, (topRow - margin) * columns)
        let end = min(count, (topRow + visibleRows + margin) * columns)
        return first < end ? first..<end : 0..<0
    }
}
