import AlbumMachine
import AlbumService
import Model
import PhotoSources

/// The album service as the runtime uses it: a struct of closures with a live value over
/// `AlbumService` and values tests make (they record what is asked and answer as they like).
public struct AlbumsClient: Sendable {
    /// A freshly dropped pin: search and download its album.
    public var start: @Sendable (Pin) -> Void
    /// A stored album opened: resume what was interrupted.
    public var resume: @Sendable (Pin.ID) -> Void
    /// Take up every album left downloading that no live process fetches.
    public var resumeInterrupted: @Sendable () -> Void
    /// The album on screen (nil: none): its search and photos go ahead of every other album's.
    public var focus: @Sendable (Pin.ID?) -> Void
    /// An action from the user for a pin's album.
    public var send: @Sendable (AlbumAction, Pin.ID) -> Void
    /// The settings the next searches use.
    public var use: @Sendable (Settings) -> Void
    /// The Flickr key these settings put in effect (the environment's say applied), if any.
    public var flickrKey: @Sendable (Settings) -> String?
    /// One search with a key; the completion gets what to say and whether it worked.
    public var testFlickrKey: @Sendable (String, @escaping @Sendable (String, Bool) -> Void) -> Void
    /// Stops every search and download (they resume at the next start).
    public var shutdown: @Sendable () -> Void

    public init(start: @escaping @Sendable (Pin) -> Void = { _ in },
                resume: @escaping @Sendable (Pin.ID) -> Void = { _ in },
                resumeInterrupted: @escaping @Sendable () -> Void = {},
                focus: @escaping @Sendable (Pin.ID?) -> Void = { _ in },
                send: @escaping @Sendable (AlbumAction, Pin.ID) -> Void = { _, _ in },
                use: @escaping @Sendable (Settings) -> Void = { _ in },
                flickrKey: @escaping @Sendable (Settings) -> String? = { $0.flickrAPIKey },
                testFlickrKey: @escaping @Sendable (String, @escaping @Sendable (String, Bool) -> Void) -> Void = { _, _ in },
                shutdown: @escaping @Sendable () -> Void = {}) {
        self.start = start
        self.resume = resume
        self.resumeInterrupted = resumeInterrupted
        self.focus = focus
        self.send = send
        self.use = use
        self.flickrKey = flickrKey
        self.testFlickrKey = testFlickrKey
        self.shutdown = shutdown
    }

    /// The album service. `photoSettings` turns app settings into the sources' settings (the
    /// environment's overrides applied); nil: settings changed on screen wait for a restart.
    public static func live(_ service: AlbumService,
                            photoSettings: (@Sendable (Settings) -> PhotoSourceSettings)?) -> AlbumsClient {
        AlbumsClient(
            start: { service.start($0) },
            resume: { service.resume($0) },
            resumeInterrupted: { service.resumeInterrupted() },
            focus: { service.focus($0) },
            send: { service.send($0, to: $1) },
            use: { settings in if let photoSettings { service.use(photoSettings(settings)) } },
            flickrKey: { settings in photoSettings?(settings).flickrAPIKey },
            testFlickrKey: { service.testFlickrKey($0, completion: $1) },
            shutdown: { service.shutdown() })
    }
}
