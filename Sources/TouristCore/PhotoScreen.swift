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

    public init(album: AlbumScreen, photoID: PhotoRecord.ID) {
        self.album = album
        self.photoID = photoID
    }

    /// Where the photo is in the album; nil once it is gone from it.
    public var index: Int? { album.photos.firstIndex { $0.id == photoID } }

    public var photo: PhotoRecord? { index.map { album.photos[$0] } }

    /// The pixel size of the image the picture is made from, as far as it is known: what the source
    /// said of the album's image. The zoom's limit is counted in it.
    public var imageSize: (width: Int, height: Int)? {
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
