import AlbumMachine
import Foundation
import Gazetteer
import Terminal
import Geo
import Model
import WorldMap

/// The screen that has the keyboard, owning its own state (STYLE 9). What each
/// screen does comes from its feature (`Screen.feature`).
public enum Screen: Equatable, Sendable {
    case map(MapScreen)
    case album(AlbumScreen)
    /// One photo of an album, which it returns to.
    case photo(PhotoScreen)
    case settings(SettingsScreen)
    /// A screen whose state lives in its feature value (`ScreenFeature`).
    case plugged(PluggedScreen)
}

/// Something drawn over the current screen, which stays as it is underneath:
/// closing the overlay shows exactly that screen again.
public enum Overlay: Equatable, Sendable {
    /// The keys of the screen underneath.
    case help
}

/// The map screen's own state: what it is in the middle of, and a mouse
/// button held down on it.
public struct MapScreen: Equatable, Sendable {
    public var mode: MapMode
    /// When the left button went down on the map, for press-and-hold.
    public var mousePress: MousePress?

    public init(mode: MapMode = .browsing, mousePress: MousePress? = nil) {
        self.mode = mode
        self.mousePress = mousePress
    }
}

/// What the map screen is in the middle of.
public enum MapMode: Equatable, Sendable {
    case browsing
    /// A pin is picked up; it follows the cursor until dropped or put back.
    case dragging(pin: Pin.ID, from: GeoPoint)
    /// A pin with photos dropped at `to`: asked before its album is replaced (the confirm-delete setting).
    case confirmMove(pin: Pin.ID, from: GeoPoint, to: GeoPoint)
    case confirmDelete(pin: Pin.ID)
    case goTo(GoToPrompt)
    case rename(RenamePrompt)
}

/// A place offered by the go-to prompt.
public struct PlaceSuggestion: Equatable, Sendable {
    public var name: String
    /// "Naples, Campania, IT"; "Santorini — island, GR".
    public var displayName: String
    public var coordinate: GeoPoint
    /// A place's population, a destination's weight.
    public var population: Int
    /// What sort of destination it is; nil for a populated place.
    public var kind: DestinationKind?
    /// What it covers (an island, a park, a region): going there shows all of it. Nil for a point.
    public var extent: GeoBox?

    public init(name: String, displayName: String, coordinate: GeoPoint, population: Int,
                kind: DestinationKind? = nil, extent: GeoBox? = nil) {
        self.name = name
        self.displayName = displayName
        self.coordinate = coordinate
        self.population = population
        self.kind = kind
        self.extent = extent
    }
}

/// A short message on the message line: gone at the next key that acts, when the screen changes,
/// and, for a note, after `lifetime` seconds. An error (and a hint marked `untilKey`) stays until a key.
public struct StatusMessage: Equatable, Sendable {
    public enum Kind: Sendable { case info, error }
    public var text: String
    public var kind: Kind
    /// Kept until a key even when it is a note (the first start's hint).
    public var untilKey: Bool

    /// Seconds a note stays on the message line.
    public static let lifetime = 5.0

    public init(_ text: String, kind: Kind = .info, untilKey: Bool = false) {
        self.text = text
        self.kind = kind
        self.untilKey = untilKey
    }

    /// Whether it goes by itself after `lifetime` seconds.
    public var expires: Bool { kind == .info && !untilKey }
}

/// The known place nearest a point.
public struct NearPlace: Equatable, Sendable {
    public var name: String
    public var distanceKm: Double

    public init(name: String, distanceKm: Double) {
        self.name = name
        self.distanceKm = distanceKm
    }
}

/// A pin dropped on the map, on its way to the store.
public struct PendingDrop: Equatable, Sendable {
    public var coordinate: GeoPoint
    /// Enter was pressed on it: its album opens once the store has saved it.
    public var openWhenSaved = false
    /// What the message line says of it, on its way and once stored.
    public var ack: Acknowledgment

    public init(coordinate: GeoPoint, openWhenSaved: Bool = false, ack: Acknowledgment) {
        self.coordinate = coordinate
        self.openWhenSaved = openWhenSaved
        self.ack = ack
    }
}

/// A pin moved here whose move the store has not answered yet: the message line says it moved once
/// the move is stored.
public struct PendingMove: Equatable, Sendable {
    public var pin: Pin.ID
    public var coordinate: GeoPoint

    public init(pin: Pin.ID, coordinate: GeoPoint) {
        self.pin = pin
        self.coordinate = coordinate
    }
}

/// Where and when the left mouse button went down, and the pin it went down on (a drag moves it).
public struct MousePress: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var time: Double
    public var pin: Pin.ID? = nil
}

/// Everything the app shows, in one value.
public struct AppState: Equatable, Sendable {
    /// The screen shown, with its state.
    public var screen: Screen = .map(MapScreen())
    /// Drawn over `screen`, which keeps the keyboard only once it is closed.
    public var overlay: Overlay?
    /// The help's first line shown, where it scrolls (`HelpReducer`); 0 whenever it opens.
    public var helpTop = 0
    /// The map's view; it stays while other screens are shown.
    public var camera: MapCamera
    /// The view as the user left it, while only resizes have changed `camera` since: each size
    /// fits this one anew, so sizes that come and go (a window dragged, down to 1×1) leave the
    /// map where it was. A key or a click makes `camera` the user's again.
    public var cameraBeforeResize: MapCamera?
    public var pins: [Pin] = []
    /// Pins dropped here whose insert the store has not answered yet: keys that come before the
    /// answer (Enter right after `p`) act on them once it comes, and none is dropped twice.
    public var pendingDrops: [PendingDrop] = []
    /// Pins moved here whose move the store has not answered yet.
    public var pendingMoves: [PendingMove] = []
    /// Pins deleted here whose deletion the store has not answered yet: said deleted once it has.
    public var pendingDeletions: [Pin.ID: Acknowledgment] = [:]
    /// Pins renamed here whose rename the store has not answered yet.
    public var pendingRenames: [PendingRename] = []
    /// Settings changed here whose writes the store has not answered yet, in the order written.
    public var pendingSettings: [PendingSetting] = []
    /// The settings in effect (SPEC 2.3), as stored.
    public var settings = Settings()
    /// Settings an environment variable decides instead of the stored value: the variable's name.
    public var settingOverrides: [SettingKey: String] = [:]
    public var width: Int
    public var height: Int
    public var capabilities: TerminalCapabilities
    public var message: StatusMessage?
    /// Name of the place nearest the cursor and how far it is.
    public var cursorPlace: NearPlace?
    /// Where the go-to prompt went this run, most recent first (kept in memory only).
    public var goToHistory: [String] = []
    /// The destination the go-to prompt last went to: a pin dropped with the cursor still on it
    /// takes its name ("Stonehenge"), as `vtourist drop Stonehenge` names it, not the nearest town's.
    public var wentToDestination: PlaceSuggestion?
    /// Steps of the download placeholders' shimmer; it moves only while `isAnimating`.
    public var animationFrame = 0
    /// The network as the album service last reported it: offline or not, and the albums that wait for it.
    public var network = NetworkReport.online
    /// The runtime's clock when the network report came or its countdown last moved: what the
    /// countdowns are shown against (the report's times are on the same clock).
    public var networkClock = 0.0

    public init(camera: MapCamera, width: Int, height: Int,
                capabilities: TerminalCapabilities = TerminalCapabilities(unicode: true, colors: .indexed256)) {
        self.camera = camera
        self.width = width
        self.height = height
        self.capabilities = capabilities
    }

    /// The smallest terminal the app draws in.
    public static let minimumWidth = 40
    public static let minimumHeight = 12

    public var isTooSmall: Bool { width < AppState.minimumWidth || height < AppState.minimumHeight }

    /// Rows given to the map (the last row is the status line).
    public var mapHeight: Int { max(0, height - 1) }

    public var viewport: Viewport { camera.viewport(width: width, height: mapHeight) }

    public var cursorCell: (col: Int, row: Int) { camera.cursorCell(width: width, height: mapHeight) }

    public func pin(_ id: Pin.ID) -> Pin? { pins.first { $0.id == id } }

    /// The map screen's state, when the map is shown.
    public var map: MapScreen? { screen.map }

    /// The open album, when the album screen is shown.
    public var album: AlbumScreen? { screen.album }

    /// The photo screen's state, when a photo is shown.
    public var photo: PhotoScreen? { screen.photo }

    /// The settings screen's state, when it is shown.
    public var settingsScreen: SettingsScreen? { screen.settings }

    /// Whether two screens are the same screen (the map, the album of one pin, …), whatever their state.
    func isSameScreen(as other: Screen) -> Bool { screen.feature.isSameScreen(screen, as: other) }

    /// The album open on screen or under the photo shown.
    public var openAlbum: AlbumScreen? { (screen.feature as? any ShowsAlbum)?.openAlbum(self) }

    /// Changes the open album's state, shown or under the photo shown; nothing on the map.
    mutating func updateAlbum(_ change: (inout AlbumScreen) -> Void) {
        (screen.feature as? any ShowsAlbum)?.updateAlbum(&self, change)
    }
}

extension Screen {
    // The typed reads of each case's own state: how a screen's reducer and view read their state.
    public var map: MapScreen? {
        if case let .map(map) = self { return map }
        return nil
    }

    public var album: AlbumScreen? {
        if case let .album(album) = self { return album }
        return nil
    }

    public var photo: PhotoScreen? {
        if case let .photo(photo) = self { return photo }
        return nil
    }

    public var settings: SettingsScreen? {
        if case let .settings(settings) = self { return settings }
        return nil
    }
}
