import AlbumMachine
import AlbumService
import Foundation
import Geo
import Locking
import Model
import Store
import Terminal
import TouristCore

/// What the workers tell the UI loop, through the mailbox.
enum RuntimeMessage: Sendable {
    /// An action for the reducer. `readBeforeWrite` is the count of writes issued when the
    /// data was read; the action is dropped if a write was issued since (it could undo it on screen).
    case action(AppAction, readBeforeWrite: Int = .max)
    /// A pin the user dropped is stored: shown, and its album started.
    case pinInserted(Pin)
    /// The album service's news of an album.
    case album(AlbumEvent)
    /// The open album's snapshot load finished (loaded or failed).
    case albumLoadFinished
    /// A map view write finished (saved or failed).
    case mapViewSaved
    /// A check for other processes' writes finished.
    case pollFinished(PollOutcome)
    /// A photo's picture is rendered for a box of cells.
    case pictureRendered(PictureKey, Picture)
    /// The photo screen's photo, encoded for the terminal's inline image protocol.
    case inlineReady(InlinePicture)
    /// The inline picture with this key could not be made (the image is not there or not a JPEG).
    case inlineFailed(String)
    /// No browser took a page: its address goes to the clipboard and the message line.
    case pageNotOpened(url: String, reason: String)
}

enum PollOutcome: Sendable, Equatable {
    case unchanged
    case changed(version: Int, pins: [Pin], settings: Settings, readBeforeWrite: Int)
    case failed(StoreError)
}

/// One input or output the loop decided on: every one starts as a value of this type, made by
/// `LoopState` from an effect, a message or the clock, and is run by `Workers` through the clients.
enum Work: Equatable, Sendable {
    // The store worker, in the order issued.
    /// A change the user made; `number` counts the writes issued, this one included (what it reads
    /// back is stale once a later write is issued).
    case write(StoreWrite, number: Int)
    /// The map view, coalesced: one at a time, the newest wins.
    case saveMapView(MapViewState)
    /// The newest map view not yet written, at quit (a failure goes to the log: no screen is left).
    case saveLastMapView(MapViewState)
    /// A snapshot of a pin's album for the album screen.
    case loadAlbum(Pin.ID)
    /// Whether another process wrote since `seen`; `issued` is the count of writes issued so far.
    case poll(seen: Int?, issued: Int)
    /// A stored photo written to a file.
    case savePhoto(PhotoRecord.ID, title: String)
    /// A pin's stored album written to a new folder of the pictures folder.
    case saveAlbum(Pin.ID)
    /// An album action, after the store writes issued before it (a moved pin's photos are deleted
    /// before its new search can save anything).
    case albumAction(Pin.ID, AlbumAction)

    // The albums client.
    case startAlbum(Pin)
    case resumeAlbum(Pin.ID)
    /// The album on screen (nil: none), whose search and photos go ahead of every other album's.
    case focusAlbum(Pin.ID?)
    /// Take up albums left downloading that no live process fetches.
    case resumeInterrupted
    /// The settings the next searches use.
    case useSettings(Settings)
    case testFlickrKey(Settings)

    // The picture pipeline.
    case wantPictures([PictureKey])
    case pictureTaken(PictureKey)
    case encodeInline(InlineRequest)

    // The large-image client.
    /// The photo screen's large images, replacing what was asked before (nothing: cancel all).
    case wantLargeImages(LargeImageRequest)

    // The rest of the world.
    case openPage(String)
    /// A page no browser took: its address on the clipboard where the terminal allows, and said.
    case reportPageNotOpened(url: String, reason: String)
    /// A store failure written to the log besides the screen.
    case log(String)
}

/// The writes the user's actions make.
enum StoreWrite: Equatable, Sendable {
    case insertPin(GeoPoint, name: String?)
    case movePin(Pin.ID, to: GeoPoint, name: String?)
    case deletePin(Pin.ID)
    case renamePin(Pin.ID, name: String?)
    case saveSetting(SettingKey, String?)
}

/// The photo screen's photo to encode for the terminal's inline image protocol.
struct InlineRequest: Equatable, Sendable {
    var photoID: PhotoRecord.ID
    var area: Rect
    var imageProtocol: InlineProtocol
    var cellWidth: Int
    var cellHeight: Int
    /// The stored image it is made from, and the part of it shown.
    var image: PictureImage = .thumbnail
    var crop: PictureCrop = .whole
    /// kitty: the id the picture is sent, placed and deleted by.
    var imageID: UInt32 = 1
    /// kitty's Unicode placeholders: the cells' colour, which carries `imageID`.
    var placeholderColor: Color = PlaceholderID.color(slot: PlaceholderID.slots.lowerBound)

    /// What the picture is known by: the same image and part of it in the same place at the same cell size.
    var key: String {
        place + (image == .large ? "/large" : "") + crop.description
    }

    /// The photo, where it goes and at which cell size: a picture of the same place may stand in
    /// for another image or part of the photo until that one is encoded.
    var place: String {
        "\(photoID)@\(area.x),\(area.y),\(area.width)x\(area.height)/\(cellWidth)x\(cellHeight)"
    }
}

/// The one channel from other threads back to the UI loop: messages are taken
/// in the order they were posted, and each post wakes the loop.
final class Mailbox: Sendable {
    private let messages = Locked<[RuntimeMessage]>([])
    private let wakeUp: @Sendable () -> Void

    init(wakeUp: @escaping @Sendable () -> Void) {
        self.wakeUp = wakeUp
    }

    func post(_ message: RuntimeMessage) {
        messages.withLock { $0.append(message) }
        wakeUp()
    }

    func post(_ action: AppAction) {
        post(.action(action))
    }

    /// Everything posted since the last call, oldest first.
    func drain() -> [RuntimeMessage] {
        messages.withLock { messages in
            let out = messages
            messages.removeAll()
            return out
        }
    }
}
