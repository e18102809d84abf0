import Model
import Store
import Terminal
import TouristCore

/// A message on screen and when it appeared, for its timeout.
struct ShownMessage: Equatable, Sendable {
    var message: StatusMessage
    var since: Double
}

/// What a message or the clock brings: actions for the reducer and work for the workers.
struct Outcome: Equatable, Sendable {
    var actions: [AppAction] = []
    var work: [Work] = []
}

/// Every decision the runtime makes besides the reducer's, as pure code: which store work goes
/// next, coalescing map-view saves and album reloads, which read is stale, when to poll, which
/// pictures to ask for and which to keep. Each call takes what happened and returns the work to
/// run; nothing here runs it (`Workers` does), so tests drive it with tables, without threads.
struct LoopState: Sendable {
    static let pollInterval = 1.0
    /// Seconds between animation steps while something on screen animates.
    static let tickInterval = 0.1

    var running = true
    /// Something not in the app state changed what is drawn (a picture arrived).
    var needsDraw = false
    /// The photos rendered for the screen.
    var pictures = PictureShelf()
    /// The photo screen's real picture (inline image protocol), the newest encoded.
    var inlinePicture: InlinePicture?

    /// Writes issued, so a read made before a write cannot undo it on screen.
    private(set) var writes = 0
    private(set) var lastPoll: Double
    /// When the albums were last asked to take up what no live process fetches.
    private(set) var lastAdoption: Double
    private(set) var lastTick: Double
    /// The clock at the turn under way: when a message of the turn came (a network report's countdown starts there).
    private(set) var turnTime: Double
    private(set) var isPolling = false
    /// The store's data version last seen.
    private(set) var seenVersion: Int?
    /// The last failure of the poll, reported once until it changes.
    private(set) var pollFailure: StoreError?
    /// The newest map view waiting to be written.
    private(set) var viewToSave: MapViewState?
    private(set) var isSavingView = false
    /// A snapshot of the open album is being read; `albumLoadAgain`: it changed since.
    private(set) var isLoadingAlbum = false
    private(set) var albumLoadAgain = false
    /// The pictures last asked of the picture pipeline (asked again only when the screen wants others).
    var lastWanted: [PictureKey] = []
    /// The inline picture the screen wants now.
    var inlineKey: String?
    /// Where the inline picture the screen wants goes (`InlineRequest.place`), and where the one
    /// encoded goes.
    var inlinePlace: String?
    var inlinePicturePlace: String?
    /// The area of the inline picture wanted, and the key of one that could not be made.
    var inlineArea: Rect?
    var inlineFailedKey: String?
    /// Counts the inline pictures asked for: each gets its own kitty image id.
    var imageSlot: Int
    /// The large images last asked of the large-image client.
    var lastLargeRequest = LargeImageRequest.none
    private(set) var shownMessage: ShownMessage?
    /// The store failures logged as they came this turn: their message is not logged again when shown.
    private var loggedThisTurn: [String] = []
    /// The settings the albums search with: always those the screen shows.
    private(set) var settingsInUse: Settings
    /// The album the albums serve first: always the one the screen shows (or keeps under the photo view).
    private(set) var focusedAlbum: Pin.ID?

    /// `imageSlot`: where the kitty image ids start (the app starts each run elsewhere, so that
    /// two windows in one terminal seldom pick the same).
    init(now: Double, settings: Settings, seenVersion: Int?, imageSlot: Int = 0) {
        self.imageSlot = imageSlot
        lastPoll = now
        lastAdoption = now
        lastTick = now
        turnTime = now
        settingsInUse = settings
        self.seenVersion = seenVersion
    }

    // MARK: - The first frame and the last

    /// Before the first frame: the pictures it shows, and its message's clock.
    mutating func started(_ state: AppState, now: Double, terminal: TerminalFacts) -> [Work] {
        shownMessage = state.message.map { ShownMessage(message: $0, since: now) }
        return logged(state.message) + requestPictures(state, terminal: terminal) + requestLargeImages(state, terminal: terminal) + focus(state)
    }

    /// At quit: the map view still waiting is written once more.
    mutating func finish() -> [Work] {
        guard let view = viewToSave else { return [] }
        viewToSave = nil
        return [.saveLastMapView(view)]
    }

    // MARK: - Effects

    /// The work an effect of the reducer asks for.
    mutating func perform(_ effect: AppEffect, _ state: AppState) -> [Work] {
        switch effect {
        case .quit:
            running = false
            return []
        case let .saveMapView(view):
            viewToSave = view
            return saveMapView()
        case let .insertPin(point, name): return write(.insertPin(point, name: name))
        case let .movePin(id, to, name): return write(.movePin(id, to: to, name: name))
        case let .deletePin(id): return write(.deletePin(id))
        case let .renamePin(id, name): return write(.renamePin(id, name: name))
        case let .saveSetting(key, text): return write(.saveSetting(key, text))
        case let .openAlbum(pin): return [.resumeAlbum(pin)] + loadAlbum(pin)
        case let .album(pin, action): return [.albumAction(pin, action)]
        case let .openPage(url): return [.openPage(url)]
        case let .savePhoto(id, title): return [.savePhoto(id, title: title)]
        case let .saveAlbum(pin): return [.saveAlbum(pin)]
        case let .testFlickrKey(settings): return [.testFlickrKey(settings)]
        }
    }

    private mutating func write(_ change: StoreWrite) -> [Work] {
        writes += 1
        return [.write(change, number: writes)]
    }

    /// The newest map view once the previous write is done.
    private mutating func saveMapView() -> [Work] {
        guard !isSavingView, let view = viewToSave else { return [] }
        viewToSave = nil
        isSavingView = true
        return [.saveMapView(view)]
    }

    /// Reads an album (once the read under way, if any, is done).
    private mutating func loadAlbum(_ pin: Pin.ID) -> [Work] {
        guard !isLoadingAlbum else {
            albumLoadAgain = true
            return []
        }
        isLoadingAlbum = true
        albumLoadAgain = false
        return [.loadAlbum(pin)]
    }

    private mutating func loadOpenAlbum(_ state: AppState) -> [Work] {
        guard let pin = state.openAlbum?.pinID else { return [] }
        return loadAlbum(pin)
    }

    // MARK: - Messages

    /// One turn of the loop: the messages the workers posted, the events read and what the clock
    /// makes due, as the actions to reduce in order and the work to run. The messages' actions come
    /// first: each was judged stale or not against the writes issued so far, so it is reduced before
    /// an event of this turn issues another write (a change read back before a second change on the
    /// screen would undo it, and the reply that would mend it is dropped as stale once a later write
    /// was issued).
    mutating func turn(messages: [RuntimeMessage], events: [AppAction], now: Double, animating: Bool,
                       _ state: AppState) -> Outcome {
        turnTime = now
        loggedThisTurn = []
        var outcome = Outcome()
        for message in messages {
            let one = receive(message, state)
            outcome.actions += one.actions
            outcome.work += one.work
        }
        outcome.actions += events
        let clock = due(now: now, animating: animating, state)
        outcome.actions += clock.actions
        outcome.work += clock.work
        return outcome
    }

    /// What a message from a worker means for the loop.
    mutating func receive(_ message: RuntimeMessage, _ state: AppState) -> Outcome {
        var outcome = take(message, state)
        // Every store failure reaches the screen through the reducer, and the log too.
        for case let .storeFailed(text, _, _) in outcome.actions {
            outcome.work.append(.log(text))
            loggedThisTurn.append(text)
        }
        return outcome
    }

    private mutating func take(_ message: RuntimeMessage, _ state: AppState) -> Outcome {
        switch message {
        case let .action(action, readBeforeWrite):
            guard readBeforeWrite >= writes else { return Outcome() }
            return Outcome(actions: [action], work: use(action))
        case let .pinInserted(pin):
            // Its album is fetched while the user keeps navigating.
            return Outcome(actions: [.pinSaved(pin)], work: [.startAlbum(pin)])
        case let .album(event):
            switch event {
            case let .notice(pin, text): return Outcome(actions: [.albumNotice(pin, text)])
            case let .storeFailed(pin, text): return Outcome(actions: [.storeFailed(text, pin: pin)])
            case let .network(report): return Outcome(actions: [.network(report, time: turnTime)])
            case let .photoCount(pin, count): return Outcome(actions: [.photoCount(pin, count)])
            case let .photosDeleted(pin, ids): return Outcome(actions: [.photosDeleted(pin, ids)])
            case let .albumCleared(pin, filter): return Outcome(actions: [.filterSaved(pin, filter)])
            case let .changed(pin):
                return Outcome(work: pin == state.openAlbum?.pinID ? loadAlbum(pin) : [])
            }
        case .albumLoadFinished:
            isLoadingAlbum = false
            return Outcome(work: albumLoadAgain ? loadOpenAlbum(state) : [])
        case let .pictureRendered(key, picture):
            // Kept only while still wanted: a picture for an album left meanwhile is dropped.
            if state.picturesToKeep(wanted: lastWanted)(key) {
                pictures[key] = picture
                needsDraw = true
            }
            return Outcome(work: [.pictureTaken(key)])
        case let .inlineReady(picture):
            if picture.key == inlineKey {
                inlinePicture = picture
                inlinePicturePlace = inlinePlace
                needsDraw = true
            }
            return Outcome()
        case let .inlineFailed(key):
            if key == inlineKey {
                inlineFailedKey = key
                needsDraw = true
            }
            return Outcome()
        case let .pageNotOpened(url, reason):
            return Outcome(work: [.reportPageNotOpened(url: url, reason: reason)])
        case .mapViewSaved:
            isSavingView = false
            return Outcome(work: saveMapView())
        case let .pollFinished(outcome):
            isPolling = false
            return pollFinished(outcome, state)
        }
    }

    private mutating func pollFinished(_ outcome: PollOutcome, _ state: AppState) -> Outcome {
        switch outcome {
        case .unchanged:
            pollFailure = nil
            return Outcome()
        case let .changed(version, pins, settings, readBeforeWrite):
            pollFailure = nil
            seenVersion = version
            // The open album may have been changed by another process too, and a pin `vtourist drop`
            // left downloading is taken up now.
            let work = loadOpenAlbum(state) + [.resumeInterrupted]
            guard readBeforeWrite >= writes else { return Outcome(work: work) }
            return Outcome(actions: [.pinsLoaded(pins), .settingsLoaded(settings)], work: use(.settingsLoaded(settings)) + work)
        case let .failed(error):
            guard error != pollFailure else { return Outcome() }
            pollFailure = error
            return Outcome(actions: [.storeFailed("Could not check the database for changes: \(error)")])
        }
    }

    /// Settings read from the store go to the albums at once, before any work a later message
    /// brings (a dropped pin's album searches with them).
    private mutating func use(_ action: AppAction) -> [Work] {
        guard case let .settingsLoaded(settings) = action, settings != settingsInUse else { return [] }
        settingsInUse = settings
        return [.useSettings(settings)]
    }

    /// What the message line says when no browser took a page.
    static func pageNotOpenedText(url: String, reason: String, copied: Bool) -> String {
        "Page: \(url) \u{00B7} no browser (\(reason))" + (copied ? "; copied to the clipboard" : "")
    }

    // MARK: - The clock

    /// What is due at `now`: an animation step, a message's timeout, the slideshow's next photo,
    /// the next second of a countdown, the poll for other processes' writes, the look for albums no
    /// live process fetches.
    mutating func due(now: Double, animating: Bool, _ state: AppState) -> Outcome {
        var outcome = Outcome()
        if let step = LoopState.slideshowDue(state), now >= step {
            outcome.actions.append(.slideshowStep(time: now))
        }
        if let step = LoopState.countdownStep(state, now: now) { outcome.actions.append(step) }
        if animating, now - lastTick >= LoopState.tickInterval {
            lastTick = now
            outcome.actions.append(.tick)
        }
        if let shown = shownMessage, shown.message.expires, now - shown.since >= StatusMessage.lifetime {
            outcome.actions.append(.messageExpired(shown.message))
        }
        // A process that stopped renewing its leases (crashed) writes nothing: its albums are looked for anyway.
        if now - lastAdoption >= AlbumLease.heartbeat {
            lastAdoption = now
            outcome.work.append(.resumeInterrupted)
        }
        if !isPolling, now - lastPoll >= LoopState.pollInterval {
            lastPoll = now
            isPolling = true
            outcome.work.append(.poll(seen: seenVersion, issued: writes))
        }
        return outcome
    }

    /// When the slideshow's next photo is due: its interval after the photo shown was shown; nil
    /// while no slideshow plays (or under help, or a terminal too small).
    static func slideshowDue(_ state: AppState) -> Double? {
        guard state.overlay == nil, !state.isTooSmall, let show = state.photo?.slideshow else { return nil }
        return show.since + Double(state.settings.slideshowSeconds)
    }

    /// When the countdown on screen shows its next second; nil while none is shown (or under
    /// help, or a terminal too small).
    static func countdownDue(_ state: AppState) -> Double? {
        guard state.overlay == nil, !state.isTooSmall else { return nil }
        return state.countdownDue
    }

    /// The countdown's step when the number it shows at `now` is not the one drawn: its next
    /// second came, or a wait came into view (an album opened) long after its report.
    static func countdownStep(_ state: AppState, now: Double) -> AppAction? {
        guard let second = countdownDue(state), now >= second else { return nil }
        return .countdown(time: now)
    }

    /// How long the loop may wait for an event: until the next thing due on the clock, within `longest`.
    static func waitMs(now: Double, longest: Int, _ state: AppState) -> Int {
        guard let due = [slideshowDue(state), countdownDue(state)].compactMap({ $0 }).min() else { return longest }
        return min(longest, max(0, Int(((due - now) * 1000).rounded(.up))))
    }

    // MARK: - After the reducer

    /// What follows from the state the reducer left: the pictures it shows, the message's clock,
    /// the settings the albums use.
    /// An error as it comes on the message line goes to the log whole: the line may have had to cut it.
    private func logged(_ message: StatusMessage?) -> [Work] {
        guard let message, message.kind == .error, !loggedThisTurn.contains(message.text) else { return [] }
        return [.log(message.text)]
    }

    mutating func settled(from before: AppState, to state: AppState, now: Double, terminal: TerminalFacts) -> [Work] {
        var work: [Work] = []
        if state != before {
            work += requestPictures(state, terminal: terminal)
            work += requestLargeImages(state, terminal: terminal)
            needsDraw = true
        }
        if state.message != shownMessage?.message {
            shownMessage = state.message.map { ShownMessage(message: $0, since: now) }
            work += logged(state.message)
        }
        if state.settings != settingsInUse {
            settingsInUse = state.settings
            work.append(.useSettings(state.settings))
        }
        return work + focus(state)
    }

    /// The album on screen, when it is not the one the albums serve first already.
    private mutating func focus(_ state: AppState) -> [Work] {
        let open = state.openAlbum?.pinID
        guard open != focusedAlbum else { return [] }
        focusedAlbum = open
        return [.focusAlbum(open)]
    }
}
