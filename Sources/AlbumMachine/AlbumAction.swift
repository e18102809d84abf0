import Geo
import Model

/// What happens to an album: the user's commands, the pin's fate, and the runtime's answers.
public enum AlbumAction: Equatable, Sendable {
    /// A pin was just dropped: search its first page.
    case start
    /// The album was loaded (app start, album opened): send what was interrupted, once.
    case resume
    /// The search for `generation` answered; the store has already saved `photos` (in grid order) and given them ids.
    case searchAnswered(generation: Int, pageCount: Int, photos: [SavedPhoto])
    /// The search for `generation` failed; a passing failure waits and retries by itself (`retryDue`).
    case searchFailed(generation: Int, failure: FetchFailure)
    /// The image is stored; the runtime wrote it before posting this.
    case photoDownloaded(generation: Int, id: Int64)
    /// The photo's download failed; a permanent failure (or a passing one past the policy's window)
    /// is saved by `.markPhotoFailed`, a passing one waits and retries by itself.
    case photoFailed(generation: Int, id: Int64, failure: FetchFailure)
    /// The retry timer (`.scheduleRetry`) rang at `now`: everything whose try is due starts again.
    case retryDue(now: Double)
    /// The network came back after the app was offline: what waits starts again now, with a fresh
    /// retry window; the runtime sends `.searches` to every album first, then `.photos`.
    case networkReturned(NetworkResume)
    case newCollection
    /// New Collection from a source other than the album's: the album's page count is the other
    /// source's, so the new collection starts at the first page.
    case newCollectionFromAnotherSource
    case addMore
    /// The album's filter becomes this one (saved with the pin) and a new collection is fetched with
    /// it from the first page; refused, as New Collection is, while the album downloads.
    case setFilter(AlbumFilter)
    case deletePhotos([Int64])
    /// Retries the search when it failed or was interrupted; otherwise the photo given, or every failed photo for nil.
    case retry(photo: Int64?)
    case pinMoved(GeoPoint)
    case pinDeleted
}

/// Which part of a waiting album `networkReturned` starts.
public enum NetworkResume: Equatable, Sendable {
    case searches
    case photos
}
