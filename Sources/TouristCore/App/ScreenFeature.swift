import Model
import Terminal
import WorldMap

/// One screen as a feature: what every screen must answer. The router looks the shown screen's
/// feature up (`Screen.feature`) instead of switching over the screens; a new screen is a value of
/// this protocol. What only some screens do comes from the small protocols below, which a screen
/// adopts with the method that does it: the mouse (`TakesMouse`), pasted text (`TakesPaste`), a
/// legend in help (`HasHelpLegend`), photos (`ShowsPictures`, `ShowsInlinePicture`), animation
/// (`Animates`), the pins changing (`FollowsPins`), a resize (`FollowsResize`), an album shown or
/// kept underneath (`ShowsAlbum`). A screen that adopts none of them has no empty method to write.
public protocol ScreenFeature: Equatable, Sendable {
    /// The help overlay's rows for the screen, written from its key table.
    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow]
    /// A key while the screen has the keyboard (no overlay shown).
    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect]
    /// Draws the screen into the layout's areas.
    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer)
    /// Whether `other` is this same screen (`screen` is the one this feature serves), whatever their
    /// state. One screen per feature type unless the feature says otherwise.
    func isSameScreen(_ screen: Screen, as other: Screen) -> Bool
}

extension ScreenFeature {
    /// One screen per feature type, by default.
    public func isSameScreen(_ screen: Screen, as other: Screen) -> Bool { type(of: other.feature) == Self.self }

    /// Whether another feature is this same value (a screen's state kept in its feature).
    func isEqual(to other: any ScreenFeature) -> Bool { (other as? Self) == self }
}

/// A screen whose glyphs and colours help explains under its keys.
public protocol HasHelpLegend: ScreenFeature {
    func helpLegend(_ state: AppState, theme: Theme) -> [LegendRow]
}

/// A screen the mouse acts on (no overlay shown).
public protocol TakesMouse: ScreenFeature {
    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect]
}

/// A screen with a text field that takes pasted text (no overlay shown).
public protocol TakesPaste: ScreenFeature {
    func paste(_ text: String, _ state: inout AppState, _ context: ReduceContext)
}

/// A screen that shows photos.
public protocol ShowsPictures: ScreenFeature {
    /// The photos the screen shows now, most wanted first.
    func wantedPictures(_ state: AppState) -> [PictureKey]
}

/// A screen that shows one photo as one picture, which a terminal may draw for real.
public protocol ShowsInlinePicture: ScreenFeature {
    /// The photo and where, when there is one to draw.
    func inlinePicture(_ state: AppState) -> (photoID: PhotoRecord.ID, area: Rect)?
}

/// A screen where something may move while it waits.
public protocol Animates: ScreenFeature {
    func isAnimating(_ state: AppState) -> Bool
}

/// A screen that points at pins: when they are loaded anew, it lets go of any deleted elsewhere.
public protocol FollowsPins: ScreenFeature {
    func pinsChanged(_ state: inout AppState)
}

/// A screen that fixes its scroll when the terminal changes size (already in the state).
public protocol FollowsResize: ScreenFeature {
    func resized(_ state: inout AppState)
}

/// A screen that shows an album or keeps one underneath (the album, the photo view, the filter
/// editor). It says which album and how to change it; the album's reloads, its pin's deletion and
/// resizes reach that album, written once here.
public protocol ShowsAlbum: FollowsPins, FollowsResize {
    /// The album the screen shows or keeps underneath.
    func openAlbum(_ state: AppState) -> AlbumScreen?
    /// Changes the album `openAlbum` gives, in place.
    func updateAlbum(_ state: inout AppState, _ change: (inout AlbumScreen) -> Void)
    /// A fresh snapshot of an album came from the store, for whichever album the screen shows.
    func albumLoaded(_ snapshot: AlbumSnapshot, _ state: inout AppState)
}

/// A screen that opens a dropped pin's album once the store has saved the pin (Enter on a drop).
public protocol OpensSavedDrops: ScreenFeature {
    /// `drop` asked for its album to open, and its pin is saved.
    func dropSaved(_ drop: PendingDrop, pin: Pin, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect]
}

/// A screen with a slideshow: the clock's step reaches it.
public protocol PlaysSlideshow: ScreenFeature {
    func slideshowStep(time: Double, _ state: inout AppState)
}

/// A screen that shows large images: where each one it asked for got to.
public protocol ShowsLargeImages: ScreenFeature {
    func largeImage(_ id: PhotoRecord.ID, _ status: LargeImageStatus, _ state: inout AppState)
}

extension ShowsAlbum {
    /// The album's pin deleted elsewhere: the screen leaves.
    public func pinsChanged(_ state: inout AppState) { state.leaveAlbumIfPinDeleted() }
    /// The album takes the snapshot (`AlbumScreenReducer.loaded`).
    public func albumLoaded(_ snapshot: AlbumSnapshot, _ state: inout AppState) { AlbumScreenReducer().loaded(snapshot, &state) }
    /// The album keeps its selection in view.
    public func resized(_ state: inout AppState) { AlbumScreenReducer().keepSelectionVisible(&state) }
}

/// What a screen's reducer may use besides the state.
public struct ReduceContext: Sendable {
    /// The place lookups (names for dropped pins, the go-to prompt).
    public var places: PlaceLookup
    /// When the event being reduced happened (the loop's clock).
    public var time: Double
    /// Today where the user is (the wall clock when the event is reduced): what the filter's dates are checked against.
    public var today: CalendarDay

    public init(places: PlaceLookup, time: Double = 0, today: CalendarDay = .today()) {
        self.places = places
        self.time = time
        self.today = today
    }
}

/// What a screen's view draws from besides the state.
public struct RenderContext: Sendable {
    public var theme: Theme
    /// The screen's areas.
    public var layout: ScreenLayout
    /// The photos rendered so far.
    public var pictures: PictureShelf
    /// The map for `state.viewport`, and the names that may go on it.
    public var raster: MapRaster?
    public var labels: LabelCandidates?
}

/// A screen that keeps its state in its feature value: it needs no case of its own in `Screen`.
public struct PluggedScreen: Equatable, Sendable {
    public var feature: any ScreenFeature

    public init(_ feature: any ScreenFeature) {
        self.feature = feature
    }

    public static func == (lhs: PluggedScreen, rhs: PluggedScreen) -> Bool { lhs.feature.isEqual(to: rhs.feature) }
}

/// Where a screen asks to go; the router builds the target screen, so no screen builds another's state.
public enum Destination: Equatable, Sendable {
    case map
    /// A pin's album, opened afresh (its photos come with `albumLoaded`).
    case album(of: Pin.ID)
    /// A pin's album opened from a plugged screen (the pins list): leaving the album returns to that screen as it was.
    case albumReturning(to: PluggedScreen, pin: Pin.ID)
    /// Out of an album: to the screen it was opened from, else the map.
    case leaveAlbum(AlbumScreen)
    /// Back to an album already open, its selection scrolled into view.
    case backToAlbum(AlbumScreen)
    /// The album's selected photo, with the album kept underneath.
    case photo(of: AlbumScreen)
    case settings
    /// A screen that keeps its state in its feature.
    case plugged(PluggedScreen)
}

extension Screen {
    /// The registry: the feature that serves this screen. The one switch over the screens that
    /// decides what they do; everything else asks the feature.
    public var feature: any ScreenFeature {
        switch self {
        case .map: return MapFeature()
        case .album: return AlbumFeature()
        case .photo: return PhotoFeature()
        case .settings: return SettingsFeature()
        case let .plugged(plugged): return plugged.feature
        }
    }
}

extension AppState {
    /// Goes where a screen asked: the one place that builds a screen for another.
    public mutating func go(to destination: Destination) {
        switch destination {
        case .map:
            screen = .map(MapScreen())
        case let .album(pinID):
            screen = .album(AlbumScreen(pinID: pinID))
        case let .albumReturning(from, pinID):
            var album = AlbumScreen(pinID: pinID)
            album.returnTo = from
            screen = .album(album)
        case let .leaveAlbum(album):
            guard let from = album.returnTo else {
                screen = .map(MapScreen())
                return
            }
            screen = .plugged(from)
            // The pins may have changed while the album was shown (its counts, a deletion elsewhere).
            (screen.feature as? any FollowsPins)?.pinsChanged(&self)
        case let .backToAlbum(album):
            var album = album
            album.keepSelectionVisible(AlbumGrid(area: layout.main))
            screen = .album(album)
        case let .photo(album):
            guard let photo = album.selectedPhoto else {
                message = StatusMessage("No photo to open.")
                return
            }
            screen = .photo(PhotoScreen(album: album, photoID: photo.id))
        case .settings:
            screen = .settings(SettingsScreen())
        case let .plugged(plugged):
            screen = .plugged(plugged)
        }
    }
}
