import Model
import Terminal

/// A picture's box in cells.
public struct PictureSize: Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var description: String { "\(columns)x\(rows)" }
}

/// One photo rendered for one box: what rendered pictures are kept under. A resize asks for a new
/// size (rendered once); moving the selection or scrolling asks for nothing new.
public struct PictureKey: Hashable, Sendable, CustomStringConvertible {
    public var photoID: PhotoRecord.ID
    public var size: PictureSize

    public init(photoID: PhotoRecord.ID, size: PictureSize) {
        self.photoID = photoID
        self.size = size
    }

    public var description: String { "\(photoID)@\(size)" }
}

/// A photo's stored image as the screen shows it.
public enum Picture: Equatable, Sendable {
    /// Exactly the key's columns × rows cells: the picture fitted and centred, the rest blank.
    case cells(CellBuffer)
    /// The image could not be shown; why, short enough for an album cell ("not a JPEG (a web page)").
    case failed(String)
}

/// The rendered pictures the runtime keeps (the views only read them): at most the open album's
/// photos at the grid's size, and the photo screen's few at its size.
public struct PictureShelf: Sendable {
    private var pictures: [PictureKey: Picture] = [:]

    public init() {}

    public subscript(_ key: PictureKey) -> Picture? {
        get { pictures[key] }
        set { pictures[key] = newValue }
    }

    public var count: Int { pictures.count }

    public var keys: Dictionary<PictureKey, Picture>.Keys { pictures.keys }

    /// Drops every picture `keep` says no to.
    public mutating func prune(keeping keep: (PictureKey) -> Bool) {
        pictures = pictures.filter { keep($0.key) }
    }
}

extension AppState {
    /// The pictures the screen shows now, most wanted first: the photo screen's photo, then the
    /// album cells on screen, then a row of cells either side (ready before the grid scrolls), then
    /// the photos before and after the one shown. Only photos whose image is stored.
    public var wantedPictures: [PictureKey] {
        if let feature = screen.feature { return isTooSmall ? [] : feature.wantedPictures(self) }
        guard !isTooSmall, let album = openAlbum else { return [] }
        let photos = album.photos
        var wanted: [PictureKey] = []
        func want(_ index: Int, _ size: PictureSize) {
            guard photos.indices.contains(index), photos[index].state == .stored else { return }
            wanted.append(PictureKey(photoID: photos[index].id, size: size))
        }
        let layout = self.layout
        if case .album = screen {
            let grid = AlbumGrid(area: layout.main)
            let onScreen = grid.indices(topRow: album.topRow, count: photos.count)
            for i in onScreen { want(i, grid.pictureSize) }
            for i in grid.indices(topRow: album.topRow, count: photos.count, margin: 1) where !onScreen.contains(i) {
                want(i, grid.pictureSize)
            }
        }
        return wanted
    }

    /// Which kept pictures may still be wanted soon: the open album's photos at the grid's size
    /// (scrolling back needs no new decoding), and what is wanted now.
    public func picturesToKeep(wanted: [PictureKey]) -> @Sendable (PictureKey) -> Bool {
        let wanted = Set(wanted)
        guard let album = openAlbum else { return { wanted.contains($0) } }
        let photos = Set(album.photos.map(\.id))
        let gridSize = AlbumGrid(area: layout.main).pictureSize
        return { key in wanted.contains(key) || (key.size == gridSize && photos.contains(key.photoID)) }
    }

    /// The photo the photo screen shows and where its picture goes, when the terminal could show it
    /// as a real picture: nothing under help, nor for a photo whose image is not stored.
    public var inlinePictureSpot: (photoID: PhotoRecord.ID, area: Rect)? {
        guard overlay == nil, !isTooSmall, case let .photo(screen) = self.screen, let photo = screen.photo,
              photo.state == .stored else { return nil }
        let area = PhotoView.pictureArea(layout)
        guard area.width > 0, area.height > 0 else { return nil }
        return (photo.id, area)
    }

    /// Whether the screen shows something that moves while it waits: a download placeholder in
    /// the album cells on screen. Nothing animates under help, on the map, or when all is in.
    public var isAnimating: Bool {
        if let feature = screen.feature { return overlay == nil && !isTooSmall && feature.isAnimating(self) }
        guard overlay == nil, !isTooSmall, let album = album else { return false }
        let grid = AlbumGrid(area: layout.main)
        let photos = album.photos
        return grid.indices(topRow: album.topRow, count: photos.count).contains { photos[$0].state == .pending }
    }
}
