import AlbumService
import Foundation
import Model
import Store
import Terminal
import TouristCore
import WorldMap

/// The world outside the runtime, as clients: live parts in the app; in tests a scripted terminal,
/// a hand-moved clock, a temporary database and clients that answer at once on the loop's thread.
public struct RuntimeWorld {
    public var terminal: any AppTerminal
    public var clock: AppClock
    public var store: AppDatabase
    /// Runs store work in the order issued.
    public var storeWorker: StoreWorker
    /// Makes the albums client, whose events must go to the given handler.
    public var makeAlbums: (_ onEvent: @escaping @Sendable (AlbumEvent) -> Void) -> AlbumsClient
    public var geometry: WorldGeometry
    public var places: PlaceLookup
    /// Where store failures are written besides the screen.
    public var log: AppLog
    /// Saves photos as files (`PhotoSaver.folder(PhotoFile.picturesFolder(...))` in the app).
    public var photoSaver: PhotoSaver
    /// Saves whole albums as folders (`AlbumSaver.live(store:pictures:)` in the app).
    public var albumSaver: AlbumSaver
    /// Opens web pages in the browser.
    public var pageOpener: PageOpenerClient
    /// Renders photos for the screen.
    public var pictures: PicturePipeline
    /// Fetches the photo view's large images.
    public var largeImages: LargeImagePipeline
    /// Records each committed change the user made (the crash soak's acknowledgments; `.none` but there).
    public var trace: Trace

    public init(terminal: any AppTerminal, clock: AppClock = .live, store: AppDatabase,
                storeWorker: StoreWorker = .serialQueue(),
                makeAlbums: @escaping (_ onEvent: @escaping @Sendable (AlbumEvent) -> Void) -> AlbumsClient,
                geometry: WorldGeometry, places: PlaceLookup, log: AppLog = .none,
                photoSaver: PhotoSaver, pageOpener: PageOpenerClient, pictures: PicturePipeline = .live(),
                largeImages: LargeImagePipeline = .none, albumSaver: AlbumSaver = .none, trace: Trace = .none) {
        self.terminal = terminal
        self.clock = clock
        self.store = store
        self.storeWorker = storeWorker
        self.makeAlbums = makeAlbums
        self.geometry = geometry
        self.places = places
        self.log = log
        self.photoSaver = photoSaver
        self.albumSaver = albumSaver
        self.pageOpener = pageOpener
        self.pictures = pictures
        self.largeImages = largeImages
        self.trace = trace
    }
}

/// What the map starts with, read from the store before the terminal was taken.
public struct RuntimeStart: Sendable {
    public var pins: [Pin]
    public var view: MapViewState?
    public var settings: Settings
    /// Settings the environment decides instead: the variable's name.
    public var overrides: [SettingKey: String]
    /// An error shown in the status line at start (bad photo settings, say).
    public var problem: String?

    public init(pins: [Pin], view: MapViewState?, settings: Settings, overrides: [SettingKey: String] = [:],
                problem: String? = nil) {
        self.pins = pins
        self.view = view
        self.settings = settings
        self.overrides = overrides
        self.problem = problem
    }

    /// The app's first state for a terminal of this size.
    func state(size: (width: Int, height: Int), capabilities: TerminalCapabilities, reducer: AppReducer) -> AppState {
        let mapHeight = max(1, size.height - 1)
        var camera = view.map(MapCamera.init) ?? MapCamera.firstStart(width: size.width, height: mapHeight)
        camera.clampCenter(height: mapHeight)
        var state = AppState(camera: camera, width: size.width, height: size.height, capabilities: capabilities)
        state.pins = pins
        state.settings = settings
        state.settingOverrides = overrides
        reducer.updateCursorPlace(&state)
        if let problem {
            state.message = StatusMessage(problem, kind: .error)
        } else if pins.isEmpty {
            state.message = StatusMessage(MapKeys.firstStartHint(unicode: capabilities.unicode), untilKey: true)
        }
        return state
    }
}
