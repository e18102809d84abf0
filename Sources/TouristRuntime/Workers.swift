import Foundation
import Model
import Store
import Terminal
import TouristCore

/// Runs the loop's work through the clients: the one place where the runtime's decisions meet the
/// world. Outcomes come back to the loop through the mailbox, as messages.
struct Workers {
    let store: AppDatabase
    let storeWorker: StoreWorker
    let albums: AlbumsClient
    let pictures: PictureClient
    let largeImages: LargeImagesClient
    let pages: PageOpenerClient
    let photos: PhotoSaver
    let albumSaver: AlbumSaver
    let terminal: any AppTerminal
    let mailbox: Mailbox
    let log: AppLog
    let retry: WriteRetry
    let trace: Trace

    /// The store work, run on the store worker.
    private var jobs: StoreJobs { StoreJobs(store: store, mailbox: mailbox, retry: retry, trace: trace) }

    func run(_ work: [Work]) {
        for item in work { run(item) }
    }

    func run(_ work: Work) {
        switch work {
        case let .write(change, number):
            storeWorker.run { [jobs] in jobs.write(change, number: number) }
        case let .saveMapView(view):
            storeWorker.run { [jobs] in jobs.saveMapView(view) }
        case let .saveLastMapView(view):
            storeWorker.run { [store, log] in
                do { try store.saveMapView(view) } catch { log.write("Could not save the map view: \(error)") }
            }
        case let .loadAlbum(pin):
            storeWorker.run { [jobs] in jobs.loadAlbum(pin) }
        case let .poll(seen, issued):
            storeWorker.run { [jobs] in jobs.poll(seen: seen, issued: issued) }
        case let .savePhoto(id, title):
            storeWorker.run { [jobs, photos] in jobs.savePhoto(id, title: title, saver: photos) }
        case let .saveAlbum(pin):
            albumSaver.save(pin) { [mailbox] message in mailbox.post(.message(message)) }
        case let .albumAction(pin, action):
            storeWorker.run { [albums] in albums.send(action, pin) }
        case let .startAlbum(pin):
            albums.start(pin)
        case let .resumeAlbum(pin):
            albums.resume(pin)
        case let .focusAlbum(pin):
            albums.focus(pin)
        case .resumeInterrupted:
            albums.resumeInterrupted()
        case let .useSettings(settings):
            albums.use(settings)
        case let .testFlickrKey(settings):
            guard let key = albums.flickrKey(settings) else {
                return mailbox.post(.message(StatusMessage(
                    "No Flickr key to test: paste one in the \(SettingCatalog.standard[.flickrAPIKey].label) field. Wikimedia Commons needs none.",
                    kind: .error)))
            }
            albums.testFlickrKey(key) { [mailbox] text, worked in
                // What becomes of the refused key's field: it is typed anew, never added to.
                let said = worked ? text : text + " Enter on \(SettingCatalog.standard[.flickrAPIKey].label) types it anew (the field starts empty)."
                mailbox.post(.message(StatusMessage(said, kind: worked ? .info : .error)))
            }
        case let .wantPictures(keys):
            pictures.want(keys)
        case let .pictureTaken(key):
            pictures.taken(key)
        case let .encodeInline(request):
            pictures.encodeInline(request)
        case let .wantLargeImages(request):
            largeImages.want(request)
        case let .openPage(url):
            pages.open(url) { [mailbox] result in
                switch result {
                case .success: mailbox.post(.message(StatusMessage("Opened the photo's page.")))
                case let .failure(failure): mailbox.post(.pageNotOpened(url: url, reason: "\(failure)"))
                }
            }
        case let .reportPageNotOpened(url, reason):
            // The address is what the user needs: on the clipboard where the terminal takes it, on screen always.
            let copied = terminal.copyToClipboard(url)
            mailbox.post(.message(StatusMessage(LoopState.pageNotOpenedText(url: url, reason: reason, copied: copied),
                                                untilKey: true)))
        case let .log(text):
            log.write(text)
        }
    }
}

/// The store work the store worker runs, one job at a time; each posts its outcome to the mailbox.
struct StoreJobs: Sendable {
    let store: AppDatabase
    let mailbox: Mailbox
    let retry: WriteRetry
    /// Records each change once committed (the crash soak's acknowledgments).
    var trace: Trace = .none

    /// A change the user made. One that fails for a passing reason waits and is tried again
    /// (`WriteRetry`); the status line says so meanwhile. The answer is posted only once the store has
    /// committed the change: it is what lets the screen say the change is done.
    func write(_ change: StoreWrite, number: Int) {
        do throws(StoreError) {
            let (messages, waited) = try retry.attempt({ () throws(StoreError) in try apply(change, number: number) },
                                                        waiting: sayWaiting)
            // The waiting message goes first: the write's own acknowledgment ("Pin dropped at …"),
            // said now that it is stored, is the last word on the status line.
            if waited { sayWritable() }
            for message in messages { mailbox.post(message) }
        } catch {
            mailbox.post(.storeFailed("Could not save: \(error)"))
            if error.isTransient { retry.gaveUp("not saved: \(error)") }
            // Show what the store has; if it cannot be read either, the failure above is on screen.
            if let pins = try? store.pins() { mailbox.post(.pinsLoaded(pins)) }
            if case .saveSetting = change, let settings = try? store.settings() { mailbox.post(.settingsLoaded(settings)) }
        }
    }

    private func apply(_ change: StoreWrite, number: Int) throws(StoreError) -> [RuntimeMessage] {
        switch change {
        case let .insertPin(point, name):
            let pin = try store.insertPin(at: point, name: name)
            trace.record(.pinInserted(pin))
            return [.pinInserted(pin)]
        case let .movePin(id, to, name):
            if let pin = try store.movePin(id: id, to: to, name: name) {
                trace.record(.pinMoved(pin, generation: try? store.albumGeneration(pinID: id)))
                return [.action(.pinSaved(pin))]
            }
            return [.action(.pinRemoved(id))]
        case let .deletePin(id):
            if try store.deletePin(id: id) { trace.record(.pinDeleted(id)) }
            return [.action(.pinRemoved(id))]
        case let .renamePin(id, name):
            if let pin = try store.renamePin(id: id, to: name) { return [.action(.pinSaved(pin))] }
            return [.action(.pinRemoved(id))]
        case let .saveSetting(key, text):
            try store.saveSetting(key, text)
            trace.record(.settingSaved(key, text.flatMap { Settings.normalized(key, $0) }))
            // The others as the store has them: another process may have changed them meanwhile. Read
            // before a later write was issued (a second change on the screen), it is stale: dropped;
            // that this one is stored is never stale.
            return [.action(.settingSaved(key)), .action(.settingsLoaded(try store.settings()), readBeforeWrite: number)]
        }
    }

    func saveMapView(_ view: MapViewState) {
        do {
            let (_, waited) = try retry.attempt({ () throws(StoreError) in try store.saveMapView(view) }, waiting: sayWaiting)
            if waited { sayWritable() }
        } catch {
            mailbox.post(.storeFailed("Could not save the map view: \(error)", background: true))
        }
        mailbox.post(.mapViewSaved)
    }

    /// The album screen's view of a pin's album: what the store holds, the status the album state
    /// machine decided included.
    func loadAlbum(_ pin: Pin.ID) {
        do {
            if let stored = try store.album(pinID: pin) {
                mailbox.post(.albumLoaded(AlbumSnapshot(pinID: pin, photos: stored.photos, status: stored.status,
                                                        source: stored.source, filter: stored.pin.filter)))
            }
        } catch {
            mailbox.post(.storeFailed("Could not load the album: \(error)", pin: pin))
        }
        mailbox.post(.albumLoadFinished)
    }

    /// Picks up what another process (`vtourist drop`, a second window, `config set`) wrote.
    func poll(seen: Int?, issued: Int) {
        do throws(StoreError) {
            let version = try store.dataVersion()
            guard version != seen else { return mailbox.post(.pollFinished(.unchanged)) }
            let pins = try store.pins()
            let settings = try store.settings()
            mailbox.post(.pollFinished(.changed(version: version, pins: pins, settings: settings, readBeforeWrite: issued)))
        } catch {
            mailbox.post(.pollFinished(.failed(error)))
        }
    }

    /// Writes a photo's image to a file: its large image when one is stored, with the bytes as they were
    /// fetched (Exif and all), else the album's image.
    func savePhoto(_ id: PhotoRecord.ID, title: String, saver: PhotoSaver) {
        let bytes: Data
        do {
            if let large = try store.largeImage(photoID: id) {
                bytes = large.bytes
            } else if let stored = try store.imageBytes(photoID: id) {
                bytes = stored
            } else {
                return mailbox.post(.message(StatusMessage("The photo is not stored yet.")))
            }
        } catch {
            return mailbox.post(.storeFailed("Could not read the photo: \(error)"))
        }
        do {
            mailbox.post(.message(StatusMessage(try saver.save(bytes, title))))
        } catch {
            mailbox.post(.message(StatusMessage("Could not save the photo: \(error)", kind: .error)))
        }
    }

    /// Puts a write kept waiting by a passing failure on the status line.
    private func sayWaiting(_ error: StoreError) {
        mailbox.post(.storeFailed("Not saved yet: " + (error.waitingDescription ?? "\(error)")))
    }

    /// Takes the waiting write's message off the status line once it has landed.
    private func sayWritable() {
        mailbox.post(.message(StatusMessage("Saved: the database takes writes again.")))
    }
}
