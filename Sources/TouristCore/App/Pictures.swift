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

/// Which of a photo's stored images a picture is made from.
public enum PictureImage: String, Hashable, Sendable {
    /// The album's image: always there once the photo is stored.
    case thumbnail
    /// The large image the photo view fetches on demand, when it is there.
    case large
}

/// One photo rendered for one box: what rendered pictures are kept under. A resize asks for a new
/// size (rendered once); moving the selection or scrolling asks for nothing new.
public struct PictureKey: Hashable, Sendable, CustomStringConvertible {
    public var photoID: PhotoRecord.ID
    public var size: PictureSize
    /// The stored image it is made from.
    public var image: PictureImage
    /// The part of that image it shows.
    public var crop: PictureCrop

    public init(photoID: PhotoRecord.ID, size: PictureSize, image: PictureImage = .thumbnail, crop: PictureCrop = .whole) {
        self.photoID = photoID
        self.size = size
        self.image = image
        self.crop = crop
    }

    public var description: String {
        "\(photoID)@\(size)" + (image == .large ? "/large" : "") + crop.description
    }
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

    /// A picture kept to be drawn in place of one of the same photo and box not rendered yet (the
    /// loop chooses it; pruning keeps it).
    public var standIn: PictureKey?

    /// The stand-in for a photo's picture in a box, if one is kept.
    public func standIn(for photoID: PhotoRecord.ID, size: PictureSize) -> Picture? {
        guard let key = standIn, key.photoID == photoID, key.size == size else { return nil }
        return pictures[key]
    }

    public var count: Int { pictures.count }

    public var keys: Dictionary<PictureKey, Picture>.Keys { pictures.keys }

    /// Drops every picture `keep` says no to.
    public mutating func prune(keeping keep: (PictureKey) -> Bool) {
        pictures = pictures.filter { keep($0.key) || $0.key == standIn }
    }
}

extension AlbumScreen {
    /// The pictures of the album's photos at these places, in this order, at one size: only photos
    /// whose image is stored (the others have nothing to render yet).
    func storedPictures(_ indices: [Int], size: PictureSize) -> [PictureKey] {
        indices.compactMap { i in
            guard photos.indices.contains(i), photos[i].state == .stored else { return nil }
            return PictureKey(photoID: photos[i].id, size: size)
        }
    }
}

extension AppState {
    /// The pictures the screen shows now, most wanted first (`ShowsPictures.wantedPictures`);
    /// none while the terminal is too small.
    public var wantedPictures: [PictureKey] { isTooSmall ? [] : (screen.feature as? any ShowsPictures)?.wantedPictures(self) ?? [] }

    /// Which kept pictures may still be wanted soon: the open album's photos at the grid's size
    /// (scrolling back needs no new decoding), and what is wanted now.
    public func picturesToKeep(wanted: [PictureKey]) -> @Sendable (PictureKey) -> Bool {
        let wanted = Set(wanted)
        guard let album = openAlbum else { return { wanted.contains($0) } }
        let photos = Set(album.photos.map(\.id))
        let gridSize = AlbumGrid(area: layout.main).pictureSize
        return { key in wanted.contains(key) || (key.size == gridSize && photos.contains(key.photoID)) }
    }

    /// The photo the screen shows and where its picture goes, when the terminal could show it as a
    /// real picture (`ShowsInlinePicture.inlinePicture`): nothing under help.
    public var inlinePictureSpot: (photoID: PhotoRecord.ID, area: Rect)? {
        guard overlay == nil, !isTooSmall else { return nil }
        return (screen.feature as? any ShowsInlinePicture)?.inlinePicture(self)
    }

    /// Whether the screen shows something that moves while it waits (`Animates.isAnimating`,
    /// a download placeholder in the album cells on screen). Nothing animates under help.
    public var isAnimating: Bool { overlay == nil && !isTooSmall && ((screen.feature as? any Animates)?.isAnimating(self) ?? false) }
}
