import Foundation
import Model

/// The photo screen's own state: the album it was opened from, kept whole so going back shows
/// exactly that album again, and the photo shown (its id, so a reloaded album keeps it).
public struct PhotoScreen: Equatable, Sendable {
    /// The album underneath; its selection follows the photo shown.
    public var album: AlbumScreen
    public var photoID: PhotoRecord.ID
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
}
