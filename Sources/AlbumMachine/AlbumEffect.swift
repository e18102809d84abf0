import Geo
import Model

/// Work the runtime does for the album. HTTP and SQLite run elsewhere; outcomes come back as actions.
/// Effects are listed in the order the runtime should start them.
public enum AlbumEffect: Equatable, Sendable {
    /// Search around `place` for what `filter` asks; save what it finds through the store, then post
    /// `.searchAnswered` or `.searchFailed`.
    case search(pin: Int64, place: GeoPoint, page: Int, perPage: Int, filter: AlbumFilter, generation: Int)
    /// Fetch the image and store it, then post `.photoDownloaded`; or post `.photoFailed` with the failure
    /// classified, writing nothing (the machine decides whether it waits or is saved failed: `.markPhotoFailed`).
    case download(photo: Int64, url: String, generation: Int)
    /// Stop the pin's search; its answer, if one still comes, must not be saved.
    case cancelSearch(pin: Int64)
    case cancelDownloads([Int64])
    /// Save these failed photos as pending again (a retry); their downloads follow.
    case markPending([Int64])
    /// Delete these photos and their images from the store.
    case deletePhotos([Int64])
    /// Begin collection `generation` in the store: advance the album to it from the one before, save
    /// the collection's `filter` and delete every photo of the pin, in one transaction; refused when
    /// another process got there first.
    case clearAlbum(pin: Int64, generation: Int, filter: AlbumFilter)
    /// Save the album's summary exactly as decided: its status (with the reason when failed), page and page count.
    case saveStatus(pin: Int64, status: AlbumStatus, page: Int, pageCount: Int)
    /// Save the photo as failed for good with `reason` (refused by the store for an older generation).
    case markPhotoFailed(photo: Int64, reason: String, generation: Int)
    /// Post `.retryDue` at `at` on the retry clock (replacing the album's earlier timer); nil cancels it.
    case scheduleRetry(pin: Int64, at: Double?)
    /// Tell the user, where they are looking.
    case notify(String)
}
