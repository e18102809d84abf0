import AlbumMachine
import Dispatch
import Foundation
import HTTP
import PhotoSources
import Store
import Model
import Geo

/// What the album service tells its owner (the UI loop, or `drop --wait`).
public enum AlbumEvent: Sendable, Equatable {
    /// The album of this pin changed: its status, a photo, its progress.
    case changed(Pin.ID)
    /// The album of this pin now holds this many photos (said only when the number changes): the
    /// map's count, by which a move asks first.
    case photoCount(Pin.ID, Int)
    /// A message for the user about this pin's album.
    case notice(Pin.ID, String)
    /// The store refused a write of this pin's album: shown to the user and logged, never swallowed.
    case storeFailed(Pin.ID?, String)
    /// Whether the app is offline and which albums wait to retry, each time either changes.
    case network(NetworkReport)
    /// The store committed the deletion of these photos of the pin's album (what the screen may now say is done).
    case photosDeleted(Pin.ID, [Int64])
    /// The store committed a new collection's start with this filter (what the screen may now say is saved).
    case albumCleared(Pin.ID, AlbumFilter)
}

/// Runs every album's state machine (AlbumMachine): its effects become photo
/// searches, image downloads over libcurl and store writes, whose outcomes come
/// back as actions. One serial queue owns all album state.
/// `@unchecked`: every mutable property is touched only on `queue`, a confinement the compiler cannot check.
public final class AlbumService: @unchecked Sendable {
    private let queue = DispatchQueue(label: "vtourist.albums")
    private let store: AppDatabase
    private let http: HTTPClient
    // The source, its settings and the album environment change only on `queue` (`use`).
    private var source: any PhotoSource
    private var settings: PhotoSourceSettings
    private var environment: AlbumEnvironment
    private let userAgent: String
    private let imageCheck: ImageCheck
    private let onEvent: @Sendable (AlbumEvent) -> Void
    /// Records each committed write the user sees as done (the crash soak's acknowledgments).
    private let trace: Trace
    // Touched only on `queue`.
    private var albums: [Pin.ID: AlbumMachine.Album] = [:]
    /// The search under way for each album, with the collection it is for.
    private var searches: [Pin.ID: (generation: Int, task: Task<Void, Never>)] = [:]
    private var downloads: [Int64: TransferID] = [:]
    /// Where each album's collection comes from: its photos' source, fixed when the collection began.
    /// Add more asks the same source; only a new collection takes the source of the settings.
    private var collectionSources: [Pin.ID: PhotoSourceChoice] = [:]
    /// Albums whose collection under way a new filter began: it keeps the album's source, as Add more
    /// does; only New Collection (or a move) takes the settings' source.
    private var filteredCollections: Set<Pin.ID> = []
    /// This service's name in the album leases, and the clock their heartbeats are read by.
    private let leaseHolder: String
    private let leaseClock: @Sendable () -> Double
    /// The albums whose lease this service holds (touched only on `queue`), renewed at each beat of `heartbeat`.
    private var leased: Set<Pin.ID> = []
    private let heartbeat: LeaseHeartbeat
    /// Stops the beats; nil while none is wanted (touched only on `queue`).
    private var stopHeartbeat: (() -> Void)?
    /// The clock of retries and of the offline probe, and each waiting album's one timer (touched only on `queue`).
    private let retryClock: RetryClock
    private var retryTimers: [Pin.ID: () -> Void] = [:]
    /// Whether the app is offline, fed by every transfer's outcome (and whether a probe is out); its probe's timer.
    private var monitor = NetworkMonitor()
    private var probeTimer: (() -> Void)?
    /// What `.network` said last: a report goes out only when it changes.
    private var lastReport = NetworkReport.online
    /// Each waiting album's wait, kept up to date album by album as each is acted on (touched only on
    /// `queue`), so a report is built from it only when a wait or the monitor changed.
    private var waits: [Pin.ID: AlbumWait] = [:]
    private var networkChanged = false
    /// Album machines the network bookkeeping looked at (touched only on `queue`): what a test counts.
    private var visits = 0
    /// Searches and downloads waiting for a turn, the album on screen's first (touched only on `queue`).
    private var transfers: TransferQueue<Transfer>
    /// The album the user has open (`focus`); its transfers go ahead of every other album's.
    private var focused: Pin.ID?
    /// `shutdown` ran: nothing starts any more (touched only on `queue`).
    private var isShutDown = false
    /// A look for interrupted albums is being worked through, a share at a time; another was asked meanwhile.
    private var isResuming = false
    private var resumeAgain = false

    /// Albums read back as downloading with no photos, whose status the store holds already (touched
    /// only on `queue`): resuming one does not write it again, so a start taking up thousands of
    /// imported albums spends no write, each waiting for the disk, on saying nothing new.
    private var storedAsSearching: Set<Pin.ID> = []

    /// A search or a download waiting in `transfers` for its turn.
    private enum Transfer {
        case search(pin: Pin.ID, page: Int, generation: Int, endpoint: String, source: any PhotoSource, query: PhotoQuery)
        case download(photo: Int64, url: String, pin: Pin.ID, generation: Int)
    }

    /// Searches and downloads under way at once, every album together: with `focusReserve`, within the
    /// connections libcurl opens to one host (`connectionsPerHost`), so a transfer of the album on
    /// screen is never queued inside libcurl behind background ones, and a 21-photo album still
    /// downloads at once.
    public static let transfersAtOnce = 24
    /// Turns the album on screen's search gets beyond `transfersAtOnce` when the others' transfers take
    /// every one (images a server holds for as long as the low-speed limit lets it): it goes at once.
    /// Two: the album on screen's, and the one just left, whose search may still be under way.
    public static let focusReserve = 2
    /// The connections the albums' HTTP client may open to one host: every turn of the queue.
    public static let connectionsPerHost = transfersAtOnce + focusReserve

    /// Albums taken up in one turn of the service's queue by the look for interrupted albums: the
    /// user's actions (an album opened, quitting) wait for one share at most, not for thousands.
    static let resumeShare = 8

    /// Largest image accepted, in bytes. The album downloads grid-sized pictures (Flickr's url_z and
    /// smaller, Commons thumbnails), far below this; up to 24 downloads run at once, each may hold this
    /// much before it is refused, so 21 endless answers stay within about 150 MB (15 MB took 290).
    public static let maxImageBytes = 4 * 1024 * 1024

    public init(store: AppDatabase, http: HTTPClient, settings: PhotoSourceSettings, imageCheck: ImageCheck,
                environment: AlbumEnvironment? = nil, retryPolicy: RetryPolicy? = nil, retryClock: RetryClock = .live,
                userAgent: String,
                leaseClock: @escaping @Sendable () -> Double = AlbumLease.wallClock, heartbeat: LeaseHeartbeat = .timer,
                trace: Trace = .none, transfersAtOnce: Int = AlbumService.transfersAtOnce,
                onEvent: @escaping @Sendable (AlbumEvent) -> Void) {
        self.store = store
        self.transfers = TransferQueue(limit: transfersAtOnce, reserve: Self.focusReserve)
        self.trace = trace
        self.leaseHolder = LeaseHolder.make()
        self.leaseClock = leaseClock
        self.heartbeat = heartbeat
        self.http = http
        self.settings = settings
        self.userAgent = userAgent
        self.imageCheck = imageCheck
        self.source = settings.makeSource(http: CurlFetcher(client: http), userAgent: userAgent)
        var environment = environment ?? .live(perPage: settings.perPage, now: retryClock.now)
        // One clock for the machine's failure times and the timers that wake it.
        environment.now = retryClock.now
        if let retryPolicy { environment.retryPolicy = retryPolicy }
        self.environment = environment
        self.retryClock = retryClock
        self.onEvent = onEvent
    }

    /// The photo source in use ("flickr" or "commons"). Not from the service's own queue.
    public var sourceName: String { queue.sync { source.name } }

    /// New photo settings (the settings screen): the next search uses their source, area and count.
    /// Searches and downloads under way finish as they began.
    public func use(_ settings: PhotoSourceSettings) {
        queue.async {
            self.settings = settings
            self.source = settings.makeSource(http: CurlFetcher(client: self.http), userAgent: self.userAgent)
            self.environment.perPage = settings.perPage
        }
    }

    /// One Flickr search with `key` near a busy place, to tell whether the key works: `completion`
    /// gets what to say and whether it worked, on another thread.
    public func testFlickrKey(_ key: String, completion: @escaping @Sendable (String, Bool) -> Void) {
        queue.async {
            var trial = self.settings
            trial.kind = .flickr
            trial.flickrAPIKey = key
            let source = trial.makeSource(http: CurlFetcher(client: self.http), userAgent: self.userAgent)
            let query = trial.query(center: GeoPoint(latitude: 41.8902, longitude: 12.4922), perPage: 1)
            // A trial is a Flickr search too: it spends the budget every window shares (one that cannot be
            // read is said, and does not keep the key from being tried).
            let host = Self.hostKey(trial.flickrEndpoint) ?? trial.flickrEndpoint
            do {
                let wait = try self.store.spendRequest(host: host, now: self.leaseClock(), budget: .flickr)
                if wait > 0 {
                    return completion("Flickr's hourly limit of 3,600 requests is reached: try again in \(Int(wait.rounded(.up))) s.", false)
                }
            } catch {
                self.onEvent(.storeFailed(nil, "Could not spend a request of the Flickr budget: \(error)"))
            }
            Task {
                do throws(PhotoSourceError) {
                    _ = try await source.search(query)
                    completion("The Flickr key works.", true)
                } catch {
                    completion("The Flickr key does not work: \(error)", false)
                }
            }
        }
    }

    // MARK: - Driving albums

    /// A freshly dropped pin: search and download its album.
    public func start(_ pin: Pin) {
        queue.async {
            guard !self.isShutDown else { return }
            // Another process (a second window) may have taken it up already, or this one's look for
            // albums left downloading, between the pin's insert and now.
            guard self.albums[pin.id] == nil || !self.leased.contains(pin.id), self.holdLease(pin.id) else { return }
            self.albums[pin.id] = AlbumMachine.Album(pin: pin.id, place: pin.coordinate, filter: pin.filter)
            self.send(pin.id, .start)
        }
    }

    /// Picks up a stored album (app start, album opened) and resumes what was interrupted.
    public func resume(_ pinID: Pin.ID) {
        queue.async {
            // An album another live process is fetching is left to it.
            guard !self.isShutDown, self.holdLease(pinID) else { return }
            self.refresh(pinID)
            self.send(pinID, .resume)
        }
    }

    /// Resumes every album left downloading that no live process is fetching: left so when the app
    /// last stopped, by `vtourist drop`, or by a process that stopped renewing its lease. Called at
    /// start and again as the store changes.
    public func resumeInterrupted() {
        queue.async {
            guard !self.isShutDown else { return }
            // One look at a time: a look asked while one is worked through follows it.
            guard !self.isResuming else { self.resumeAgain = true; return }
            let interrupted: [Pin.ID]
            do {
                interrupted = try self.store.unheldInterruptedAlbums(now: self.leaseClock(), isGone: LeaseHolder.hasEnded)
            } catch {
                return self.onEvent(.storeFailed(nil, "Could not look for interrupted albums: \(error)"))
            }
            self.isResuming = true
            self.resumeShare(of: interrupted[...])
        }
    }

    /// Takes up a share of the interrupted albums, and leaves the rest to a later turn of the queue.
    private func resumeShare(of interrupted: ArraySlice<Pin.ID>) {
        guard !isShutDown else { return }
        // The share's leases in one transaction: each write waits for the disk, and a start may take up thousands.
        let share = interrupted.prefix(Self.resumeShare).filter { !leased.contains($0) }
        let taken = holdLeases(share)
        for pinID in share where taken.contains(pinID) {
            // This process's own collection, begun by the user while another process held the
            // lease, goes on as it is, now under the lease.
            if isFetching(pinID) { continue }
            // A machine kept from before another process took the album over is stale.
            stopWork(pinID)
            load(pinID)
            send(pinID, .resume)
        }
        let rest = interrupted.dropFirst(Self.resumeShare)
        guard rest.isEmpty else { return queue.async { self.resumeShare(of: rest) } }
        isResuming = false
        if resumeAgain {
            resumeAgain = false
            resumeInterrupted()
        }
    }

    /// The album the user has open (nil: none): its search and photos go ahead of every other album's.
    public func focus(_ pinID: Pin.ID?) {
        queue.async {
            self.focused = pinID
            self.startTransfers()
        }
    }

    /// An action from the user (New Collection, Add more, delete, retry, pin moved or deleted).
    public func send(_ action: AlbumAction, to pinID: Pin.ID) {
        queue.async {
            guard !self.isShutDown else { return }
            // The user's own action goes ahead; held, the album is not taken up by another window as well
            // (one that begins a new collection takes the lease from another window: `send(_:_:)`).
            _ = self.holdLease(pinID)
            // The user acts on the album as stored: one another process moved on is read again first.
            self.refresh(pinID)
            switch action {
            case .setFilter: self.filteredCollections.insert(pinID)
            case .newCollection, .pinMoved, .pinDeleted: self.filteredCollections.remove(pinID)
            default: break
            }
            self.send(pinID, action == .newCollection && self.isSourceSwitched(pinID) ? .newCollectionFromAnotherSource : action)
        }
    }

    /// The settings now name another source than the one the album's photos came from.
    private func isSourceSwitched(_ pinID: Pin.ID) -> Bool {
        guard let kind = collectionSources[pinID] else { return false }
        return kind != PhotoSourceChoice(rawValue: source.name) ?? settings.kind
    }

    /// The album as the machine sees it now (waits for queued work to be taken up).
    /// Not from `onEvent`: that runs on the service's queue, and this waits for it.
    public func album(_ pinID: Pin.ID) -> AlbumMachine.Album? {
        queue.sync { albums[pinID] }
    }

    /// How many album machines the network bookkeeping has looked at so far (tests count them).
    func bookkeepingVisits() -> Int {
        queue.sync { visits }
    }

    /// Stops every search and download; what was under way stays pending in the store and resumes
    /// at the next start. Not from `onEvent` (see `album`).
    public func shutdown() {
        queue.sync {
            isShutDown = true
            // What waited for its turn stays pending in the store, as what was under way does.
            transfers = TransferQueue(limit: transfers.limit, reserve: transfers.reserve)
            for search in searches.values { search.task.cancel() }
            searches.removeAll()
            stopHeartbeat?()
            stopHeartbeat = nil
            for cancel in retryTimers.values { cancel() }
            retryTimers.removeAll()
            probeTimer?()
            probeTimer = nil
            // What was under way is left for the next start, or another window, to take up at once.
            if !leased.isEmpty {
                do { try store.releaseAlbumLease(pinID: nil, holder: leaseHolder) } catch {
                    // Not lost: the leases expire by themselves, or are seen to be this ended process's.
                    onEvent(.storeFailed(nil, "Could not let the albums go: \(error)"))
                }
            }
            leased.removeAll()
        }
        http.shutdown()
    }

    // MARK: - On the queue

    /// Takes (or keeps) the lease of a pin's album; false when another live process holds it.
    private func holdLease(_ pinID: Pin.ID) -> Bool {
        leased.contains(pinID) || holdLeases([pinID]).contains(pinID)
    }

    /// Takes the lease of an album from whoever holds it (see `AppDatabase.seizeAlbumLease`).
    private func seizeLease(_ pinID: Pin.ID) {
        let taken: Bool
        do {
            taken = try store.seizeAlbumLease(pinID: pinID, holder: leaseHolder, now: leaseClock())
        } catch {
            return onEvent(.storeFailed(pinID, "Could not take up the album: \(error)"))
        }
        guard taken else { return }
        leased.insert(pinID)
        startHeartbeat()
    }

    /// Takes the leases of several albums in one transaction (see `holdLease`): the ones now held.
    private func holdLeases(_ pinIDs: [Pin.ID]) -> Set<Pin.ID> {
        let taken: Set<Pin.ID>
        do {
            taken = try store.takeAlbumLeases(pinIDs: pinIDs, holder: leaseHolder, now: leaseClock(), isGone: LeaseHolder.hasEnded)
        } catch {
            onEvent(.storeFailed(pinIDs.count == 1 ? pinIDs.first : nil, "Could not take up the album: \(error)"))
            return []
        }
        leased.formUnion(taken)
        if !taken.isEmpty { startHeartbeat() }
        return taken
    }

    /// Starts renewing the leases held, if not yet.
    private func startHeartbeat() {
        guard stopHeartbeat == nil else { return }
        stopHeartbeat = heartbeat.start(queue) { [weak self] in self?.renewLeases() }
    }

    /// The heartbeat: settled albums give their lease up, the others renew it; an album whose lease
    /// another process took over (this one stalled past the expiry) is left to it.
    private func renewLeases() {
        for pinID in leased where albums[pinID].map({ $0.status != .downloading }) ?? false { releaseLease(pinID) }
        guard !leased.isEmpty else { return }
        let held: Set<Pin.ID>
        do {
            held = try store.renewAlbumLeases(pinIDs: Array(leased), holder: leaseHolder, now: leaseClock())
        } catch {
            return onEvent(.storeFailed(nil, "Could not renew the albums' leases: \(error)"))
        }
        for lost in leased.subtracting(held) {
            leased.remove(lost)
            searches.removeValue(forKey: lost)?.task.cancel()
            retryTimers.removeValue(forKey: lost)?()
            transfers.withdraw(album: lost)
            albums.removeValue(forKey: lost)
            noteWait(lost)
        }
        reportNetwork()
    }

    private func releaseLease(_ pinID: Pin.ID) {
        guard leased.remove(pinID) != nil else { return }
        _ = storeWrite(pinID, "Could not let the album go") { try store.releaseAlbumLease(pinID: pinID, holder: leaseHolder) }
    }

    private func load(_ pinID: Pin.ID) {
        let stored: StoredAlbum?
        do {
            stored = try store.album(pinID: pinID)
        } catch {
            return storeFailed(pinID, "Could not read the album", error)
        }
        guard let stored else { return }  // the pin is gone
        let photos = stored.photos.map { AlbumPhoto(id: $0.id, url: $0.url, state: $0.state) }
        let place = stored.pin.coordinate
        albums[pinID] = AlbumMachine.Album(pin: pinID, place: place, status: stored.status, page: stored.page,
                                           pageCount: stored.pageCount, photos: photos, generation: stored.generation,
                                           filter: stored.pin.filter)
        collectionSources[pinID] = stored.source.flatMap(PhotoSourceChoice.init(rawValue:))
        if stored.status == .downloading && stored.photos.isEmpty {
            storedAsSearching.insert(pinID)
        } else {
            storedAsSearching.remove(pinID)
        }
        noteWait(pinID)
    }

    /// Loads the album unless its machine is at the stored generation already: the machine's number is
    /// a copy, and one behind (another process began a collection or moved the pin) has its work stopped.
    private func refresh(_ pinID: Pin.ID) {
        guard albums[pinID] != nil else { return load(pinID) }
        guard isBehind(pinID) else { return }
        stopWork(pinID)
        load(pinID)
    }

    /// The machine's generation is not the stored one (false when the store cannot say: the machine goes on).
    private func isBehind(_ pinID: Pin.ID) -> Bool {
        do {
            guard let stored = try store.albumGeneration(pinID: pinID) else { return false }
            return albums[pinID]?.generation != stored
        } catch {
            storeFailed(pinID, "Could not read the album", error)
            return false
        }
    }

    /// This process has a search or downloads under way for the album's current generation.
    private func isFetching(_ pinID: Pin.ID) -> Bool {
        guard let album = albums[pinID], !album.isEnded else { return false }
        let searching = if case .inFlight = album.search { true } else { false }
        return (searching || !album.inFlight.isEmpty) && !isBehind(pinID)
    }

    /// Cancels the album's search and downloads and forgets its machine.
    private func stopWork(_ pinID: Pin.ID) {
        searches.removeValue(forKey: pinID)?.task.cancel()
        retryTimers.removeValue(forKey: pinID)?()
        transfers.withdraw(album: pinID)
        if let album = albums.removeValue(forKey: pinID) {
            http.cancel(album.inFlight.compactMap { downloads.removeValue(forKey: $0) })
            noteWait(pinID)
        }
    }

    /// The store refused work of `generation` on an album another process moved on (New Collection in
    /// another window, the pin moved): when that is the machine's own, its work stops quietly and the
    /// album is left to whoever moved it; a late answer of an older one is only ignored. True when dropped.
    @discardableResult
    private func dropStale(_ pinID: Pin.ID, generation: Int) -> Bool {
        guard albums[pinID]?.generation == generation else { return false }
        stopWork(pinID)
        releaseLease(pinID)
        onEvent(.changed(pinID))
        return true
    }

    /// Tells the owner that a store write failed, so the user sees it where they look.
    private func storeFailed(_ pinID: Pin.ID, _ what: String, _ error: any Error) {
        onEvent(.storeFailed(pinID, "\(what): \(error)"))
    }

    /// Runs a store write for a pin's album; a failure is reported, and nil returned.
    private func storeWrite<T>(_ pinID: Pin.ID, _ what: String, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            storeFailed(pinID, what, error)
            return nil
        }
    }

    private func send(_ pinID: Pin.ID, _ action: AlbumAction) {
        guard var album = albums[pinID] else { return }
        let photosBefore = album.photos.count, generationBefore = album.generation
        let effects = AlbumMachine.reduce(&album, action, environment)
        albums[pinID] = album
        // A new collection begun here (New Collection, a filter, the pin moved) is this process's to
        // fetch, even while another window held the album: its work is of the older generation. Taken
        // before the collection is saved, so no window finds the album downloading and unheld meanwhile
        // and fetches its photos as well.
        if album.generation > generationBefore, !leased.contains(pinID) { seizeLease(pinID) }
        for effect in effects {
            // The store refused this generation's work on the way (another process moved the album on).
            guard albums[pinID]?.generation == album.generation else { break }
            perform(effect, pin: pinID)
        }
        onEvent(.changed(pinID))
        if let count = albums[pinID]?.photos.count, count != photosBefore { onEvent(.photoCount(pinID, count)) }
        // Only this album's wait can have changed: the others are not looked at.
        noteWait(pinID)
        reportNetwork()
    }

    private func perform(_ effect: AlbumEffect, pin pinID: Pin.ID) {
        switch effect {
        case let .search(pin, place, page, perPage, filter, generation):
            search(pin: pin, place: place, page: page, perPage: perPage, filter: filter, generation: generation)
        case let .download(photo, url, generation):
            download(photo: photo, url: url, pin: pinID, generation: generation)
        case let .cancelSearch(pin):
            searches.removeValue(forKey: pin)?.task.cancel()
            transfers.withdraw(.search(pin))
        case let .cancelDownloads(ids):
            for id in ids { transfers.withdraw(.photo(id)) }
            http.cancel(ids.compactMap { downloads.removeValue(forKey: $0) })
        case let .markPending(ids):
            _ = storeWrite(pinID, "Could not save the retry") { try store.markPhotosPending(ids: ids) }
        case let .deletePhotos(ids):
            if storeWrite(pinID, "Could not delete the photos", { try store.deletePhotos(ids: ids) }) != nil {
                trace.record(.photosDeleted(pin: pinID, ids: ids))
                onEvent(.photosDeleted(pinID, ids))
            }
        case let .clearAlbum(pin, generation, filter):
            // A new collection's page and source are the machine's to save.
            storedAsSearching.remove(pin)
            do throws(StoreError) {
                try store.clearAlbum(pinID: pin, generation: generation, filter: filter)
                trace.record(.albumCleared(pin: pin, generation: generation))
                onEvent(.albumCleared(pin, filter))
            } catch .staleAlbum {
                dropStale(pin, generation: generation)
                onEvent(.notice(pin, "Another window changed this album first: it shows that window's photos"))
            } catch {
                storeFailed(pin, "Could not clear the album", error)
            }
        case let .saveStatus(pin, status, page, pageCount):
            // Still searching, as the store says already: nothing new to write.
            if status == .downloading, albums[pin]?.photos.isEmpty == true, storedAsSearching.contains(pin) { return }
            storedAsSearching.remove(pin)
            if status != .downloading, adoptPendingPhotos(pin) { return }
            let albumSource = collectionSources[pin]?.rawValue ?? source.name
            guard let generation = albums[pin]?.generation else { return }
            do throws(StoreError) {
                try store.saveAlbumStatus(pinID: pin, generation: generation, status: status, page: page,
                                          pageCount: pageCount, source: albumSource)
            } catch .staleAlbum {
                dropStale(pin, generation: generation)
                return
            } catch {
                storeFailed(pin, "Could not save the album's state", error)
            }
            if status != .downloading { releaseLease(pin) }
        case let .markPhotoFailed(photo, reason, generation):
            do throws(StoreError) {
                try store.markPhotoFailed(photoID: photo, generation: generation, reason: reason)
            } catch .staleAlbum {
                dropStale(pinID, generation: generation)
            } catch {
                storeFailed(pinID, "Could not save a failed download", error)
            }
        case let .scheduleRetry(pin, at):
            scheduleRetry(pin, at: at)
        case let .notify(message):
            onEvent(.notice(pinID, message))
        }
    }

    /// Before an album is saved as settled: photos another process (a second window, `drop`) added
    /// are still to download, so the album is read again and resumed instead; saving this machine's
    /// settled view would leave them for ever (a start resumes only albums saved `downloading`).
    /// Only photos this machine has never seen count: its own that the store could not mark failed
    /// must not start the downloads over and over. True when it was resumed.
    private func adoptPendingPhotos(_ pinID: Pin.ID) -> Bool {
        guard let known = albums[pinID].map({ Set($0.photos.map(\.id)) }),
              let pending = try? store.pendingPhotos(pinID: pinID),
              pending.contains(where: { !known.contains($0.id) }) else { return false }
        // Photos of a newer collection are the process's that began it: this one's save is refused and it lets go.
        guard !isBehind(pinID) else { return false }
        load(pinID)
        send(pinID, .resume)
        return true
    }

    private func search(pin: Int64, place: GeoPoint, page: Int, perPage: Int, filter: AlbumFilter, generation: Int) {
        let query = settings.query(center: place, page: page, perPage: perPage, filter: filter)
        searches[pin]?.task.cancel()
        let source: any PhotoSource
        switch collectionSource(pin) {
        case let .success(found): source = found
        case let .failure(refusal):
            searches.removeValue(forKey: pin)
            // Reported after the effects of this action, as a source's own failure would be.
            queue.async { self.send(pin, .searchFailed(generation: generation, failure: .permanent(refusal.reason))) }
            return
        }
        let endpoint = source.name == PhotoSourceChoice.flickr.rawValue ? settings.flickrEndpoint : settings.commonsEndpoint
        searches.removeValue(forKey: pin)
        transfers.add(.search(pin: pin, page: page, generation: generation, endpoint: endpoint, source: source, query: query),
                      for: .search(pin), of: pin)
        startTransfers()
    }

    /// Starts what waits in `transfers` while turns are free, the focused album's first.
    private func startTransfers() {
        guard !isShutDown else { return }
        while let (ticket, transfer) = transfers.next(focus: focused) {
            switch transfer {
            case let .search(pin, page, generation, endpoint, source, query):
                startSearch(ticket: ticket, pin: pin, page: page, generation: generation, endpoint: endpoint,
                            source: source, query: query)
            case let .download(photo, url, pin, generation):
                startDownload(ticket: ticket, photo: photo, url: url, pin: pin, generation: generation)
            }
        }
    }

    /// A transfer handed out by `transfers` ended, whatever its outcome: its turn goes to the next.
    private func transferEnded(_ ticket: Int) {
        transfers.finished(ticket)
        startTransfers()
    }

    private func startSearch(ticket: Int, pin: Int64, page: Int, generation: Int, endpoint: String,
                             source: any PhotoSource, query: PhotoQuery) {
        // The Flickr budget is spent as the search goes out, not while it waits for its turn.
        if source.name == PhotoSourceChoice.flickr.rawValue, let wait = flickrBudgetWait(endpoint: endpoint, pin: pin) {
            transfers.finished(ticket)
            let failure = FetchFailure.passing("Flickr's hourly limit of 3,600 requests is reached", retryAfter: wait)
            queue.async { self.send(pin, .searchFailed(generation: generation, failure: failure)) }
            return
        }
        let task = Task { [weak self] in
            let outcome: Result<SearchPage, PhotoSourceError>
            do {
                outcome = .success(try await source.search(query))
            } catch let error as PhotoSourceError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(.transport("\(error)"))
            }
            // A cancelled search (pin moved or deleted, app quitting) has no outcome: its failure is not the album's.
            let cancelled = Task.isCancelled
            guard let service = self else { return }
            service.queue.async {
                service.transferEnded(ticket)
                guard !cancelled else { return }
                service.searchFinished(pin: pin, page: page, generation: generation, endpoint: endpoint, outcome)
            }
        }
        searches[pin] = (generation, task)
    }

    /// The source a search of this album asks: the settings' for a new collection (no photos yet),
    /// which it then keeps; the collection's own for Add more, so one album never mixes sources, and
    /// for a collection a new filter began (the filter editor describes the album's source).
    private func collectionSource(_ pin: Pin.ID) -> Result<any PhotoSource, AddMoreRefusal> {
        let current = PhotoSourceChoice(rawValue: source.name) ?? settings.kind
        let adding = albums[pin].map { !$0.photos.isEmpty } ?? false
        guard adding || filteredCollections.contains(pin), let kind = collectionSources[pin] else {
            collectionSources[pin] = current
            return .success(source)
        }
        if kind == current { return .success(source) }
        var own = settings
        own.kind = kind
        if kind == .flickr && own.flickrAPIKey == nil {
            return .failure(AddMoreRefusal(reason: "its photos come from Flickr, and there is no Flickr key now"
                + " (New Collection takes them from \(current.displayName))"))
        }
        return .success(own.makeSource(http: CurlFetcher(client: http), userAgent: userAgent))
    }

    private func searchFinished(pin: Int64, page: Int, generation: Int, endpoint: String,
                                _ outcome: Result<SearchPage, PhotoSourceError>) {
        // Only this collection's own search is done; a late answer leaves the current one cancellable.
        if searches[pin]?.generation == generation { searches.removeValue(forKey: pin) }
        let failure: FetchFailure?
        switch outcome {
        case let .failure(error): failure = Self.classified(error)
        case .success: failure = nil
        }
        // Whatever became of the album, the answer (or its absence) tells whether the network is there.
        observe(url: endpoint, failure)
        // An answer for a replaced collection or a moved or deleted pin is not saved.
        guard let album = albums[pin], album.generation == generation, album.isSearchPending, !album.isEnded else { return }
        switch outcome {
        case .failure:
            send(pin, .searchFailed(generation: generation, failure: failure ?? .permanent("the search failed")))
        case let .success(result):
            let fresh = result.photos
            let saved: [PhotoRecord]
            do throws(StoreError) {
                saved = album.photos.isEmpty
                    ? try store.replaceAlbum(pinID: pin, generation: generation, photos: fresh)
                    : try store.appendPhotos(pinID: pin, generation: generation, photos: fresh)
            } catch .staleAlbum {
                dropStale(pin, generation: generation)
                return
            } catch {
                storeFailed(pin, "Could not save the photos found", error)
                send(pin, .searchFailed(generation: generation, failure: .permanent("Could not save the photos found: \(error)")))
                return
            }
            trace.record(.photosSaved(pin: pin, generation: generation, photos: saved, replaced: album.photos.isEmpty))
            send(pin, .searchAnswered(generation: generation, pageCount: result.pageCount,
                                      photos: saved.map { SavedPhoto(id: $0.id, url: $0.url) }))
        }
    }

    private func download(photo: Int64, url: String, pin: Pin.ID, generation: Int) {
        if let old = downloads.removeValue(forKey: photo) { http.cancel(old) }
        transfers.add(.download(photo: photo, url: url, pin: pin, generation: generation), for: .photo(photo), of: pin)
        startTransfers()
    }

    private func startDownload(ticket: Int, photo: Int64, url: String, pin: Pin.ID, generation: Int) {
        let request = HTTPRequest(url: url, maxBytes: AlbumService.maxImageBytes)
        downloads[photo] = http.start(request) { [weak self] result in
            guard let service = self else { return }
            service.queue.async {
                service.transferEnded(ticket)
                service.downloadFinished(photo: photo, url: url, pin: pin, generation: generation, result)
            }
        }
    }

    private func downloadFinished(photo: Int64, url: String, pin: Pin.ID, generation: Int, _ result: Result<HTTPResponse, HTTPError>) {
        downloads.removeValue(forKey: photo)
        // Cancelled or cut off by shutdown: not the picture's fault; it stays pending and resumes later.
        if case .failure(.cancelled) = result { return }
        if case .failure(.shuttingDown) = result { return }
        // The machine decides what an outcome means (a late or deleted photo's is ignored); the store only records it.
        var failure = Self.classified(result, imageCheck: imageCheck)
        observe(url: url, failure)
        if failure == nil, case let .success(response) = result {
            do throws(StoreError) {
                if try store.storeImage(photoID: photo, generation: generation, bytes: response.body) {
                    trace.record(.imageStored(photo: photo, pin: pin, generation: generation, bytes: response.body))
                } else {
                    failure = .permanent("the photo was deleted")
                }
            } catch .staleAlbum {
                dropStale(pin, generation: generation)
                return
            } catch {
                storeFailed(pin, "Could not save a photo", error)
                failure = .permanent("could not be saved: \(error)")
            }
        }
        guard let failure else { return send(pin, .photoDownloaded(generation: generation, id: photo)) }
        send(pin, .photoFailed(generation: generation, id: photo, failure: failure))
    }

    // MARK: - Retries and the network (on the queue)

    /// What a failed search means: the one classification table (Failures.swift).
    static func classified(_ error: PhotoSourceError) -> FetchFailure {
        error.failure
    }

    /// What a finished download means (nil: a picture to keep): the one classification table (Failures.swift).
    static func classified(_ result: Result<HTTPResponse, HTTPError>, imageCheck: ImageCheck) -> FetchFailure? {
        downloadFailure(result, problem: imageCheck.problem, now: Date())
    }

    /// Seconds until the Flickr budget (kept in the store, shared by every window and command) has a
    /// request for this search, or nil when one was granted and spent.
    private func flickrBudgetWait(endpoint: String, pin: Pin.ID) -> Double? {
        let host = Self.hostKey(endpoint) ?? endpoint
        do {
            // The wall clock: every process spending the budget reads the same one (as the leases do).
            let wait = try store.spendRequest(host: host, now: leaseClock(), budget: .flickr)
            return wait > 0 ? wait : nil
        } catch {
            // Not a reason to stop the album: Flickr's own limit still answers 429, which waits too.
            storeFailed(pin, "Could not spend a request of the Flickr budget", error)
            return nil
        }
    }

    /// The album's one retry timer: `.retryDue` when it rings; nil cancels it.
    private func scheduleRetry(_ pinID: Pin.ID, at: Double?) {
        retryTimers.removeValue(forKey: pinID)?()
        guard let at else { return }
        retryTimers[pinID] = retryClock.schedule(at, queue) { [weak self] in self?.retryDue(pinID) }
    }

    private func retryDue(_ pinID: Pin.ID) {
        guard retryTimers.removeValue(forKey: pinID) != nil else { return }
        // Offline, the probe alone asks: the album starts again when the network returns (`resumeWaiting`).
        guard !monitor.isOffline else { return }
        send(pinID, .retryDue(now: retryClock.now()))
    }

    /// Feeds the network monitor with a transfer's outcome: any answer reaches its host; no answer at
    /// all (refused, DNS, connect timeout) marks the host that gave none unreachable.
    private func observe(url: String, _ failure: FetchFailure?) {
        guard let host = Self.hostKey(url, failure: failure) else { return }
        if let failure, failure.kind == .unreachable {
            network(.unreachable(host: host, reason: failure.reason))
        } else {
            network(.reached(host: host))
        }
    }

    /// The host a transfer to `url` talked to, as the monitor keys hosts: `host`, or `host:port` when
    /// the address names a port; the host the failure names when it is another (a redirect's, a proxy).
    static func hostKey(_ url: String, failure: FetchFailure? = nil) -> String? {
        let parts = URLComponents(string: url)
        let host = parts?.host?.lowercased()
        if let named = failure?.host, !named.isEmpty, named.lowercased() != host { return named }
        guard let host, !host.isEmpty else { return nil }
        return parts?.port.map { "\(host):\($0)" } ?? host
    }

    private func network(_ event: NetworkEvent) {
        let before = (monitor.isOffline, monitor.reason, monitor.nextProbe)
        let effects = reduce(&monitor, event, now: retryClock.now(), jitter: environment.jitter(),
                             policy: environment.retryPolicy)
        if before != (monitor.isOffline, monitor.reason, monitor.nextProbe) { networkChanged = true }
        for effect in effects {
            switch effect {
            case .probe:
                probe()
            case let .scheduleProbe(at):
                probeTimer?()
                probeTimer = nil
                if let at {
                    probeTimer = retryClock.schedule(at, queue) { [weak self] in
                        guard let service = self, service.probeTimer != nil else { return }
                        service.probeTimer = nil
                        service.network(.probeDue)
                    }
                }
            case .resumeWaiting:
                resumeWaiting()
            case .report:
                reportNetwork()
            }
        }
        reportNetwork()
    }

    /// One HEAD to the endpoint of the current source: any answer at all means the network is back.
    private func probe() {
        let url = settings.endpoint
        let host = Self.hostKey(url) ?? url
        var request = HTTPRequest(url: url, maxBytes: 64 * 1024, timeout: 30)
        request.method = .head
        http.start(request) { [weak self] result in
            guard let service = self else { return }
            service.queue.async { service.probeFinished(host: host, result) }
        }
    }

    private func probeFinished(host: String, _ result: Result<HTTPResponse, HTTPError>) {
        switch result {
        case .failure(.cancelled), .failure(.shuttingDown):
            return
        case .success:
            network(.probeReached(host: host))
        case let .failure(error):
            network(.probeFailed(host: host, reason: error.description))
        }
    }

    /// The network is back: every waiting album's search starts again, in the order the pins were
    /// dropped, and only then their photos (an album's photos need its search first).
    private func resumeWaiting() {
        for (pinID, part) in Self.resumeOrder(waits.keys) {
            send(pinID, .networkReturned(part))
        }
    }

    /// Every waiting album's search first, then every album's photos, each in the order the pins were dropped.
    static func resumeOrder(_ waiting: some Sequence<Pin.ID>) -> [(Pin.ID, NetworkResume)] {
        let pins = waiting.sorted()
        return pins.map { ($0, .searches) } + pins.map { ($0, .photos) }
    }

    /// Brings the album's entry of `waits` up to date: the one album acted on, never the others.
    private func noteWait(_ pinID: Pin.ID) {
        visits += 1
        let wait = albums[pinID]?.wait
        guard waits[pinID] != wait else { return }
        waits[pinID] = wait
        networkChanged = true
    }

    /// `.network` to the owner when being offline, the next probe or an album's wait changed; built
    /// only then, so an action that changed neither costs nothing here, however many albums there are.
    private func reportNetwork() {
        guard networkChanged else { return }
        networkChanged = false
        let report = monitor.report(waits: waits)
        guard report != lastReport else { return }
        lastReport = report
        onEvent(.network(report))
    }
}

/// What beats an album service's heartbeat, which renews its leases: in the app a timer every
/// `AlbumLease.heartbeat` seconds; in tests the test's own hand, so no test waits seconds for a beat.
public struct LeaseHeartbeat: Sendable {
    /// Starts beating: `beat` runs on `queue` at each beat until the returned closure, called on
    /// `queue`, stops it.
    public var start: @Sendable (_ queue: DispatchQueue, _ beat: @escaping @Sendable () -> Void) -> () -> Void

    public init(start: @escaping @Sendable (_ queue: DispatchQueue, _ beat: @escaping @Sendable () -> Void)
                    -> () -> Void) {
        self.start = start
    }

    /// A dispatch timer on the service's queue, every `AlbumLease.heartbeat` seconds.
    public static let timer = LeaseHeartbeat { queue, beat in
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + AlbumLease.heartbeat, repeating: AlbumLease.heartbeat)
        timer.setEventHandler(handler: beat)
        timer.resume()
        return { timer.cancel() }
    }
}

/// Why Add more cannot ask the album's own source.
struct AddMoreRefusal: Error {
    var reason: String
}

/// Names of album lease holders: `host:pid:random`, so a process of this machine that ended (killed,
/// crashed) is told at once from one that is only slow, and its albums taken up without waiting
/// for the lease's expiry.
enum LeaseHolder {
    static let host = ProcessInfo.processInfo.hostName

    static func make() -> String {
        "\(host):\(getpid()):\(UUID().uuidString)"
    }

    /// True for a holder of this machine whose process no longer exists; a holder of another machine,
    /// of this process, or one that cannot be read is left to its lease's expiry.
    @Sendable static func hasEnded(_ holder: String) -> Bool {
        let parts = holder.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, String(parts[0]) == host,
              let pid = Int32(parts[1]), pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}

/// The photo sources fetch through libcurl.
struct CurlFetcher: HTTPFetching {
    let client: HTTPClient

    func fetch(url: String, headers: [String: String], maxBytes: Int) async throws -> (status: Int, headers: [String: String], body: Data) {
        let response = try await client.fetch(HTTPRequest(url: url, headers: headers, maxBytes: maxBytes))
        return (response.status, response.headers, response.body)
    }
}


/// What tells a picture to keep from what is not one, before it is stored: given by the caller (the app
/// and `drop` pass `JPEGDecoder.downloadProblem`), so the service links no image library.
public struct ImageCheck: Sendable {
    /// Why the bytes are not a picture to keep, or nil when they are one.
    public let problem: @Sendable (Data) -> String?

    public init(_ problem: @escaping @Sendable (Data) -> String?) {
        self.problem = problem
    }
}
