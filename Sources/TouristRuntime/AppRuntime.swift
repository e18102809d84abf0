import Foundation
import Model
import Store
import Terminal
import TouristCore
import WorldMap

/// The one UI loop (STYLE 3): events → actions → reduce → effects → draw. It is the only place
/// that reads events and draws. Its decisions are `LoopState`'s, pure; what they ask for runs
/// through the clients (`Workers`), and the outcomes come back through the mailbox as messages.
public final class AppRuntime {
    private var state: AppState
    private let reducer: AppReducer
    private var loop: LoopState
    private let terminal: any AppTerminal
    private let clock: AppClock
    private let mailbox: Mailbox
    private let workers: Workers
    private var map: MapCache

    public init(world: RuntimeWorld, start: RuntimeStart) {
        terminal = world.terminal
        clock = world.clock
        let reducer = AppReducer(places: world.places)
        self.reducer = reducer
        let mailbox = Mailbox(wakeUp: world.terminal.wakeUp)
        self.mailbox = mailbox
        state = start.state(size: world.terminal.size, capabilities: world.terminal.capabilities, reducer: reducer)
        // A failure here is reported by the first poll.
        loop = LoopState(now: world.clock.now(), settings: start.settings, seenVersion: try? world.store.dataVersion(),
                         imageSlot: Int(ProcessInfo.processInfo.processIdentifier))
        map = MapCache(geometry: world.geometry, places: world.places)
        let albums = world.makeAlbums { event in mailbox.post(.album(event)) }
        // Large images not stored are read from memory: the pictures and the large images share it.
        let memory = LargeImageMemory()
        let largeImages = world.largeImages.make(world.store, memory) { action in mailbox.post(action) }
        let pictures = world.pictures.make(.live(store: world.store, memory: memory), world.terminal.capabilities,
                                           { key, picture in mailbox.post(.pictureRendered(key, picture)) },
                                           { key, picture in mailbox.post(picture.map { .inlineReady($0) } ?? .inlineFailed(key)) })
        workers = Workers(store: world.store, storeWorker: world.storeWorker, albums: albums, pictures: pictures,
                          largeImages: largeImages,
                          pages: world.pageOpener, photos: world.photoSaver, albumSaver: world.albumSaver, terminal: world.terminal,
                          mailbox: mailbox, log: world.log, retry: WriteRetry(clock: world.clock), trace: world.trace)
        // Albums left downloading when the app last stopped (or by `vtourist drop`) go on.
        workers.run(.resumeInterrupted)
    }

    /// Runs until the user quits, then stops the albums, lets the store work issued finish and
    /// gives the terminal back.
    public func run() {
        defer { finish() }
        workers.run(loop.started(state, now: clock.now(), terminal: facts))
        draw()
        // What the go-to prompt and the map's landmarks need is read once the first frame is up.
        map.places.prepare()
        terminal.detectInlinePictures()
        if let hint = terminal.inlineHint { mailbox.post(.message(StatusMessage(hint))) }
        while loop.running {
            let animating = state.isAnimating
            let longest = animating ? Int(LoopState.tickInterval * 1000) : 250
            let read = events(waitingMs: LoopState.waitMs(now: clock.now(), longest: longest, state))
            let actions = take(loop.turn(messages: mailbox.drain(), events: read, now: clock.now(), animating: animating, state))
            if map.awaitsLabels { loop.needsDraw = true }
            guard !actions.isEmpty || loop.needsDraw else { continue }
            let before = state
            for action in actions {
                for effect in reducer.reduce(&state, action) { workers.run(loop.perform(effect, state)) }
                if !loop.running { return }
            }
            // A countdown that came into view is drawn from the clock, not from when its report came.
            if let step = LoopState.countdownStep(state, now: clock.now()) { _ = reducer.reduce(&state, step) }
            workers.run(loop.settled(from: before, to: state, now: clock.now(), terminal: facts))
            if loop.needsDraw { draw() }
        }
    }

    /// Waits for an event, then takes every event already waiting, to draw once for all.
    private func events(waitingMs: Int) -> [AppAction] {
        guard let event = terminal.nextEvent(timeoutMs: waitingMs) else { return [] }
        var actions: [AppAction] = [.event(event, time: clock.now())]
        while actions.count < 256, let more = terminal.nextEvent(timeoutMs: 0) {
            actions.append(.event(more, time: clock.now()))
        }
        return actions
    }

    /// Runs an outcome's work; its actions go to the reducer.
    private func take(_ outcome: Outcome) -> [AppAction] {
        workers.run(outcome.work)
        return outcome.actions
    }

    private var facts: TerminalFacts {
        TerminalFacts(inlineImages: terminal.capabilities.inlineImages, cellPixelSize: terminal.cellPixelSize,
                      colors: terminal.capabilities.colors)
    }

    private func finish() {
        workers.albums.shutdown()
        workers.largeImages.shutdown()
        workers.retry.stop()  // a write still waiting gets one more try
        workers.run(loop.finish())
        workers.storeWorker.wait()  // let pending writes finish before the process ends
        workers.albumSaver.finish()  // nor an album being saved half written
        map.places.finishPreparing()  // nor does it end with the destinations half read
        terminal.shutdown()
        // What the user did and could not be saved is said where they look now, the shell.
        for text in workers.retry.unsaved {
            workers.log.write(text)
            StandardStream.error.write("vtourist: \(text)\n")
        }
    }

    private func draw() {
        let (raster, labels) = map.frame(for: state)
        var frame = AppView.render(state, raster: raster, labels: labels, pictures: loop.pictures)
        let inline = loop.shownInline
        if let inline {
            Self.cover(&frame, with: inline, in: loop.inlineArea ?? inline.area)
        } else if let area = loop.inlineAwaited {
            Self.clear(&frame, area)
        }
        terminal.draw(frame)
        terminal.showInline(inline)
        loop.needsDraw = false
    }
}

extension AppRuntime {
    /// The frame's cells where a real picture is shown (`area`, the picture's place): blanks in the
    /// background around it, so that the cell picture underneath is not written for nothing (nor
    /// while the first picture of a place is on its way: `inlineAwaited`), and inside tmux the
    /// picture's placeholder cells.
    static func cover(_ frame: inout CellBuffer, with picture: InlinePicture, in area: Rect) {
        clear(&frame, area)
        if let cells = picture.cells { frame.draw(cells, x: picture.x, y: picture.y, skippingBlank: false) }
    }

    /// Blanks in the background left of `area` (the panel the picture is on).
    static func clear(_ frame: inout CellBuffer, _ area: Rect) {
        let around = frame.contains(x: area.x - 1, y: area.y) ? frame[area.x - 1, area.y].style.bg : .default
        frame.fill(x: area.x, y: area.y, width: area.width, height: area.height, with: Cell(" ", style: Style(bg: around)))
    }
}

/// The map drawn for the view shown, and the names that may go on it: made again only when the
/// view changes.
struct MapCache {
    let geometry: WorldGeometry
    let places: PlaceLookup
    private var raster: (viewport: Viewport, raster: MapRaster)?
    private var labels: LabelCandidates?

    init(geometry: WorldGeometry, places: PlaceLookup) {
        self.geometry = geometry
        self.places = places
    }

    mutating func frame(for state: AppState) -> (MapRaster?, LabelCandidates?) {
        guard !state.isTooSmall else { return (nil, labels) }
        let viewport = state.viewport
        if raster?.viewport != viewport {
            raster = (viewport, rasterize(geometry, viewport: viewport))
        }
        if state.map != nil, labels?.viewport != viewport || labels?.isComplete == false {
            labels = places.labels(viewport)
        }
        return (raster?.raster, labels)
    }

    /// The names shown are not all there yet (the destinations are still being read): the loop
    /// draws again at its next wake-up until they are.
    var awaitsLabels: Bool { labels?.isComplete == false }
}
