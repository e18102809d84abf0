import Model
import Terminal

/// What the photo view knows of a photo's large image (its sharp picture, fetched on demand).
public enum LargeImageStatus: Equatable, Sendable {
    /// Stored, or kept in memory where it could not be: its pixel size.
    case ready(width: Int, height: Int)
    /// The fetch failed (why, one line): the thumbnail stays, and the next opening tries again.
    case failed(String)
}

/// A photo whose large image the photo view wants, with what its source said of it.
public struct LargeImageWant: Equatable, Sendable {
    public var photoID: PhotoRecord.ID
    public var photo: NewPhoto
    /// The photo shown (the others are prefetched neighbours).
    public var shown: Bool

    public init(photoID: PhotoRecord.ID, photo: NewPhoto, shown: Bool) {
        self.photoID = photoID
        self.photo = photo
        self.shown = shown
    }
}

extension PhotoScreen {
    /// The album places whose large images the view wants: the photo shown, then the next, then the
    /// previous (so `→` is sharp at once).
    var largeWindow: [Int] {
        guard let index else { return [] }
        return [index, index + 1, index - 1].filter { album.photos.indices.contains($0) }
    }

    /// The photos whose large images the view wants, most wanted first.
    public var wantedLargeImages: [LargeImageWant] {
        largeWindow.map { i in
            let photo = album.photos[i]
            return LargeImageWant(photoID: photo.id, photo: photo.found, shown: photo.id == photoID)
        }
    }

    /// The size of a photo's large image once it is ready.
    public func largeSize(_ id: PhotoRecord.ID) -> (width: Int, height: Int)? {
        guard case let .ready(width, height)? = large[id] else { return nil }
        return (width, height)
    }

    /// What is known of photos out of the window is forgotten: going back to one asks again (its
    /// large image comes from the store at once when stored, a failed one is tried again).
    mutating func forgetLargeOutsideWindow() {
        let kept = Set(largeWindow.map { album.photos[$0].id })
        large = large.filter { kept.contains($0.key) }
    }
}

extension PhotoReducer {
    /// A large image is ready or failed: kept for the photos the view wants now.
    func largeImage(_ id: PhotoRecord.ID, _ status: LargeImageStatus, _ state: inout AppState) {
        guard var screen = state.photo, screen.wantedLargeImages.contains(where: { $0.photoID == id }) else { return }
        screen.large[id] = status
        state.screen = .photo(screen)
    }
}

extension PhotoView {
    /// The picture the view draws for a photo: the large image's once rendered, where it is worth
    /// it; the thumbnail's until then.
    static func pictureKeys(_ screen: PhotoScreen, index: Int, size: PictureSize) -> [PictureKey] {
        let photo = screen.album.photos[index]
        var keys: [PictureKey] = []
        if let large = screen.largeSize(photo.id), largeIsSharper(photo, large: large, size: size) {
            keys.append(PictureKey(photoID: photo.id, size: size, image: .large))
        }
        if photo.state == .stored { keys.append(PictureKey(photoID: photo.id, size: size)) }
        return keys
    }

    /// Cells show the large image when the box at 8×8 pixels a cell holds more than the thumbnail
    /// has (its size unknown: always), and the large image has more than the thumbnail.
    static func largeIsSharper(_ photo: PhotoRecord, large: (width: Int, height: Int), size: PictureSize) -> Bool {
        guard let width = photo.width, let height = photo.height, width > 0, height > 0 else { return true }
        let boxExceeds = size.columns * 8 > width || size.rows * 8 > height
        return boxExceeds && large.width > width
    }

    /// The rendered picture to draw: the first of `keys` that is on the shelf as cells, else the
    /// last there at all (the thumbnail's failure says why).
    static func shownPicture(_ keys: [PictureKey], _ pictures: PictureShelf) -> Picture? {
        for key in keys { if case .cells? = pictures[key] { return pictures[key] } }
        return keys.lazy.compactMap { pictures[$0] }.last
    }

    /// The details row's word on the large image: its size once ready, why it failed.
    static func largeNote(_ status: LargeImageStatus?) -> String? {
        switch status {
        case let .ready(width, height)?: return "large \(width)\u{00D7}\(height)"
        case let .failed(reason)?: return "large image failed: " + reason
        case nil: return nil
        }
    }
}
