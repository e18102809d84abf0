import Foundation
import Terminal
import Geo
import WorldMap
import AlbumMachine
import Model

/// Something that happened: a key, a mouse report, a resize, or the result
/// of work done elsewhere (the store).
public enum AppAction: Equatable, Sendable {
    case event(Event, time: Double)
    case pinsLoaded([Pin])
    case pinSaved(Pin)
    case pinRemoved(Pin.ID)
    /// The store committed the deletion of these photos of the pin's album.
    case photosDeleted(Pin.ID, [PhotoRecord.ID])
    /// The store committed the start of the pin's new collection with this filter.
    case filterSaved(Pin.ID, AlbumFilter)
    /// The store committed the write of this setting changed here.
    case settingSaved(SettingKey)
    /// A store read or write failed; `pin` is the album it was for, if any.
    /// `background`: the write nobody asked for (the map's view, saved as it moves); its failure does
    /// not cover the failure of one somebody did, already on the status line.
    case storeFailed(String, pin: Pin.ID? = nil, background: Bool = false)
    /// The open album as the store and the album machine have it now.
    case albumLoaded(AlbumSnapshot)
    /// The album service's count of a pin's photos changed (a search came in, photos went): the map's
    /// pin knows it at once, not at the next poll, so a move asks by it.
    case photoCount(Pin.ID, Int)
    /// A message from the album machine about a pin's album.
    case albumNotice(Pin.ID, String)
    /// How work the runtime did for a key went (a page opened, a photo saved), for the message line.
    case message(StatusMessage)
    /// The settings as the store has them now (after a change saved here, or made elsewhere).
    case settingsLoaded(Settings)
    /// Time passed while something on screen animates (the runtime sends it only then).
    case tick
    /// This message has been shown for its lifetime: it goes, if it is still the one shown.
    case messageExpired(StatusMessage)
    /// The slideshow's interval has passed since its photo was shown (the loop's clock, `time`).
    case slideshowStep(time: Double)
    /// A photo's large image is ready (stored or kept in memory) or could not be fetched.
    case largeImage(PhotoRecord.ID, LargeImageStatus)
    /// The album service's view of the network changed; `time`: the loop's clock when it came.
    case network(NetworkReport, time: Double)
    /// A countdown on screen reached its next second (the loop's clock, `time`).
    case countdown(time: Double)
}

/// Work the runtime does for the reducer; results come back as actions.
public enum AppEffect: Equatable, Sendable {
    case insertPin(GeoPoint, name: String?)
    case movePin(Pin.ID, to: GeoPoint, name: String?)
    case deletePin(Pin.ID)
    /// Give the pin a name of its own (nil: none; it goes by its nearest place's name).
    case renamePin(Pin.ID, name: String?)
    case saveMapView(MapViewState)
    /// Load the album (and resume what was interrupted) for the album screen.
    case openAlbum(Pin.ID)
    /// An action for a pin's album machine.
    case album(Pin.ID, AlbumAction)
    /// Open a web page (http or https) in the browser.
    case openPage(String)
    /// Save a stored photo's image as a file named after its title.
    case savePhoto(PhotoRecord.ID, title: String)
    /// Save every stored photo of the pin's album, its credits.json and index.html into a new folder
    /// of the pictures folder.
    case saveAlbum(Pin.ID)
    /// Store one setting the user changed (nil: remove it), and only that one; the next search
    /// uses the settings the store then has.
    case saveSetting(SettingKey, String?)
    /// One search with the Flickr key these settings (the environment's say applied) put in effect;
    /// the answer comes back as a message.
    case testFlickrKey(Settings)
    case quit
}
