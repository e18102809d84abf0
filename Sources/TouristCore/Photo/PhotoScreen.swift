import Foundation
import Model
import Terminal

/// The photo screen's own state: the album it was opened from, kept whole so going back shows
/// exactly that album again, and the photo shown (its id, so a reloaded album keeps it).
public struct PhotoScreen: Equatable, Sendable {
    /// The album underneath; its selection follows the photo shown.
    public var album: AlbumScreen
    public var photoID: PhotoRecord.ID
    /// How far the photo is zoomed in, and where; fitted again for each photo shown.
    public var zoom: PhotoZoom = .fit
    /// The slideshow while it plays; nil while paused.
    public var slideshow: Slideshow?
    /// What is known of the large images of the photo shown and its neighbours (none yet: being
    /// fetched). A new opening starts with none, so a failed one is tried again.
    public var large: [PhotoRecord.ID: LargeImageStatus] = [:]

    public init(album: AlbumScreen, photoID: PhotoRecord.ID) {
        self.album = album
        self.photoID = photoID
    }

    /// Where the photo is in the album; nil once it is gone from it.
    public var index: Int? { album.photos.firstIndex { $0.id == photoID } }

    public var photo: PhotoRecord? { index.map { album.photos[$0] } }

    /// The part of the photo shown in a box of cells (`PhotoZoom.crop`); the whole while its size is unknown.
    public func crop(box: PictureSize, cellPixels: (width: Int, height: Int) = PhotoZoom.cellPixels) -> PictureCrop {
        guard let size = imageSize else { return .whole }
        return zoom.crop(imageWidth: size.width, imageHeight: size.height, box: box, cellPixels: cellPixels)
    }

    /// The pixel size of the photo's best image, as far as it is known: the large image's once ready,
    /// else what the source said of the album's image. The zoom's limit is counted in it.
    public var imageSize: (width: Int, height: Int)? {
        if let large = largeSize(photoID), large.width > 0, large.height > 0 { return large }
        guard let found = photo?.found, let width = found.width, let height = found.height, width > 0, height > 0
        else { return nil }
        return (width, height)
    }
}

/// A slideshow playing: the next photo comes when the interval has passed since this one was shown.
public struct Slideshow: Equatable, Sendable {
    /// When the photo shown now was shown (the loop's clock).
    public var since: Double

    public init(since: Double) {
        self.since = since
    }
}
