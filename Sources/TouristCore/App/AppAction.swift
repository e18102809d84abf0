import Foundation
import Terminal
import Geo
import WorldMap
import Gazetteer
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

/// Place lookups the map needs: a struct of closures with a live value over
/// the bundled gazetteer and values tests control.
public struct PlaceLookup: Sendable {
    public var nearest: @Sendable (GeoPoint) -> (name: String, distanceKm: Double)?
    /// The nearest place if one is within that many kilometres (a bounded, cheaper search).
    public var nearestWithin: @Sendable (GeoPoint, Double) -> (name: String, distanceKm: Double)?
    public var complete: @Sendable (String, Int) -> [PlaceSuggestion]
    public var named: @Sendable (String) -> PlaceSuggestion?
    /// The names that may go on the map for a view (the runtime asks once per view).
    public var labels: @Sendable (Viewport) -> LabelCandidates
    /// Why the destinations are left aside (a damaged file), for the go-to prompt to say.
    public var problem: @Sendable () -> String?
    /// Gets `complete` ready in the background (the go-to prompt opens: a letter comes next).
    public var prepare: @Sendable () -> Void
    /// Waits for what `prepare` began (at quit).
    public var finishPreparing: @Sendable () -> Void

    public init(nearest: @escaping @Sendable (GeoPoint) -> (name: String, distanceKm: Double)?,
                complete: @escaping @Sendable (String, Int) -> [PlaceSuggestion],
                named: @escaping @Sendable (String) -> PlaceSuggestion?,
                labels: @escaping @Sendable (Viewport) -> LabelCandidates = { LabelCandidates(viewport: $0, items: []) },
                problem: @escaping @Sendable () -> String? = { nil },
                prepare: @escaping @Sendable () -> Void = {},
                finishPreparing: @escaping @Sendable () -> Void = {},
                nearestWithin: (@Sendable (GeoPoint, Double) -> (name: String, distanceKm: Double)?)? = nil) {
        self.nearest = nearest
        self.nearestWithin = nearestWithin ?? { point, km in nearest(point).flatMap { $0.distanceKm <= km ? $0 : nil } }
        self.complete = complete
        self.named = named
        self.labels = labels
        self.problem = problem
        self.prepare = prepare
        self.finishPreparing = finishPreparing
    }

    public static func live(_ gazetteer: Gazetteer) -> PlaceLookup {
        @Sendable func suggestion(_ f: Feature) -> PlaceSuggestion {
            PlaceSuggestion(name: f.name, displayName: f.displayName, coordinate: f.coordinate, population: f.weight,
                            kind: f.kind, extent: f.extent)
        }
        let countries = MapLabels.byArea(gazetteer.countries())
        let capitals = countries.compactMap { $0.capitalRank.flatMap(gazetteer.place(rank:)) }
        return PlaceLookup(
            nearest: { point in
                gazetteer.nearest(to: point).map { (name: $0.place.displayName, distanceKm: $0.distanceKm) }
            },
            // One ranking for the list, its Enter and `vtourist drop` (`Gazetteer.search`).
            complete: { text, limit in gazetteer.search(text, limit: limit).map { suggestion($0.feature) } },
            named: { text in gazetteer.feature(named: text).map(suggestion) },
            labels: { viewport in
                MapLabels.candidates(for: viewport, gazetteer: gazetteer, countries: countries, capitals: capitals)
            },
            problem: {
                guard case let .invalidDestinations(path, line, reason)? = gazetteer.destinationsProblem else {
                    return gazetteer.destinationsProblem.map { "Destinations left aside: \($0)" }
                }
                let file = URL(fileURLWithPath: path).lastPathComponent
                return "Destinations left aside: \(file)" + (line > 0 ? " line \(line)" : "") + ": \(reason)"
            },
            prepare: { gazetteer.prepareInBackground() },
            finishPreparing: { gazetteer.finishPreparing() },
            nearestWithin: { point, km in
                gazetteer.nearest(to: point, withinKm: km).map { (name: $0.place.displayName, distanceKm: $0.distanceKm) }
            }
        )
    }

    /// No places at all.
    public static let none = PlaceLookup(nearest: { _ in nil }, complete: { _, _ in [] }, named: { _ in nil })
}
