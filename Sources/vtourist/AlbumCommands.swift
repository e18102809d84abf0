import AlbumExport
import AlbumMachine
import AlbumService
import ArgumentParser
import Dispatch
import Foundation
import Locking
import Gazetteer
import HTTP
import PhotoSources
import Store
import Terminal
import TouristCore
import Geo
import Model

/// The User-Agent every request carries: the program, its version and the contact setting
/// (Wikimedia's User-Agent policy asks for a way to reach whoever runs the client).
func userAgent(_ settings: Settings) -> String {
    Settings.userAgent(version: VTourist.version, contact: settings.contact)
}

/// The HTTP client albums use: a collection comes from one image host, so allow every turn of the
/// album service's queue to it at once.
/// `VTOURIST_HTTP_SHARE=off` turns the shared DNS cache and TLS sessions off (to measure what they save);
/// the extra certificate authorities are trusted with the system's (`extraCertificateAuthorities`).
func makeHTTPClient(_ settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) -> HTTPClient {
    HTTPClient(userAgent: userAgent(settings), maxConnectionsPerHost: AlbumService.connectionsPerHost,
               maxTotalConnections: 2 * AlbumService.connectionsPerHost,
               extraCertificateAuthorities: NetworkSettings.caBundle(environment: environment, settings: settings),
               shareHandle: NetworkSettings.sharesConnections(environment: environment), environment: environment)
}

/// The stored settings, read once, and what the photo sources make of them with the environment's
/// overrides (SPEC 5). Bad stored values and bad variables are in `photos.problems`.
func readSettings(_ store: AppDatabase) throws -> (settings: Settings, photos: PhotoSourceSettings) {
    let texts: [SettingKey: String]
    do { texts = try store.storedSettingTexts() } catch { throw CommandFailure("cannot read the settings: \(error)") }
    let (settings, problems) = Settings.read(stored: texts)
    let photos = PhotoSourceSettings.resolve(environment: ProcessInfo.processInfo.environment, settings: settings,
                                             problems: problems)
    return (settings, photos)
}

struct Drop: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a pin and fetch its album without the full-screen app.",
        usage: """
            vtourist drop LAT LON [--wait [--timeout <seconds>]] [--again] [--db <path>] [<filter options>]
            vtourist drop PLACE [--wait [--timeout <seconds>]] [--again] [--db <path>] [<filter options>]
            """,
        discussion: """
            The place is read as the map's go-to prompt reads it: negative numbers as written \
            (drop -33.9 151.2), "LAT, LON" as one word, hemisphere letters (drop 51.5N 0.12W), \
            degrees and minutes (drop 40°51′N 14°16′E), or the name of a place or destination (drop Naples, \
            drop New York, drop Paris, Texas, drop Oslo Norway, drop Santorini, drop the Eiffel Tower): \
            \(PlaceArgument.nameRule). The place found is named on stderr; a destination also names the pin. \
            Where several go by the name, the most important comes first, as in the go-to prompt.
            Without --wait the album is left downloading: an open app takes it up within a few \
            seconds, else the app fetches it when it next starts.
            With --wait, failures that heal by themselves (the network down, a busy server) are tried \
            again with growing pauses for about ten minutes; while the network is gone it says \
            "offline" on stderr and keeps waiting. --timeout SECONDS bounds the wait: when it runs out \
            the album is left to resume (an open app takes it up, else the app when it next starts) \
            and the exit status is 75 (EX_TEMPFAIL). Photos that failed for good are counted at the end \
            ("3 of 21 photos could not be downloaded: HTTP 404"); when every one did, the exit status is 1.
            A place that already has a pin (within \(CoordinateNumber.text(samePlace)) degree in latitude \
            and longitude) is refused unless --again is given.
            --text, --tags, --taken and --sort give the album a filter, as f does in the album; it is \
            checked first, and a bad one adds no pin. Each takes one value: quote text of several words \
            (drop Naples --text "street food"). The place words end at the first of these options.
            """)

    /// How close to a pin a drop counts as a second pin at the same place (about 11 m).
    static let samePlace = 1e-4

    @OptionGroup var database: DatabaseOptions

    /// Every word that is not one of the options below. Not two `Double`
    /// arguments: the parser would take `-0.12` for an option, and a place
    /// name can be several words.
    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("LAT LON (e.g. -33.9 151.2, \"51.5, -0.12\", 51.5N 0.12W) or a place name.",
                                 valueName: "place"))
    var place: [String] = []

    @Flag(name: .long, help: "Wait until every photo is in (progress on stderr).")
    var wait = false

    @Option(name: .long, help: ArgumentHelp("With --wait: give up waiting after this many seconds (exit 75, the album left to resume).",
                                            valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .long, help: "Drop the pin even where a pin already is.")
    var again = false

    // The album's filter. Each collects every word up to the next option, so that a word the shell
    // split off a value, or a place word after it, is refused rather than taken for part of the place.
    @Option(name: .long, parsing: .upToNextOption,
            help: ArgumentHelp("Filter: only photos matching these words (quote several: --text \"street food\").", valueName: "words"))
    var text: [String] = []

    @Option(name: .long, parsing: .upToNextOption,
            help: ArgumentHelp("Filter: only photos with every one of these tags, separated by commas.", valueName: "a,b"))
    var tags: [String] = []

    @Option(name: .long, parsing: .upToNextOption,
            help: ArgumentHelp("Filter: when the photos were taken, FROM..TO, each YYYY, YYYY-MM or YYYY-MM-DD, either side open (2019..2023, 2019.., 2023).",
                               valueName: "from..to"))
    var taken: [String] = []

    @Option(name: .long, parsing: .upToNextOption,
            help: ArgumentHelp("Filter: the album's order, \(Drop.sortNames).", valueName: "order"),
            completion: .list(AlbumSort.allCases.map(\.rawValue)))
    var sort: [String] = []

    static let sortNames = "interesting (the default), recent (date taken, newest first) or relevant (best match for --text, which it needs)"

    /// The words that name the place: the options' own words are gone,
    /// and a lone `--` only marks where options end.
    var placeWords: [String] { place.filter { $0 != "--" } }

    func validate() throws {
        // `.allUnrecognized` also collects options nobody declared; refuse
        // them as the parser would. A dash before a digit is a minus sign.
        if let option = placeWords.first(where: Drop.isOption) {
            throw ValidationError("Unknown option '\(option)'")
        }
        if let timeout {
            guard wait else { throw ValidationError("--timeout bounds --wait: add --wait") }
            guard timeout.isFinite, timeout > 0 else {
                throw ValidationError("--timeout takes a number of seconds above 0, not \(PinTable.sanitized(String(timeout)))")
            }
        }
    }

    /// `--bogus` and `-x` are options; `-33.9`, `-.5` and `-` are not.
    static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let next = word[word.index(after: word.startIndex)]
        return !(next.isASCII && (next.isNumber || next == "."))
    }

    /// The filter the options give, checked as the album's editor checks it: a problem is bad input,
    /// one line naming the field. More than one word after an option is refused too.
    func filter(today: CalendarDay) throws -> AlbumFilter {
        for (option, values) in [("--text", text), ("--tags", tags), ("--taken", taken), ("--sort", sort)] where values.count > 1 {
            let first = PinTable.sanitized(values[0])
            let rest = values.dropFirst().map { "\u{201C}\(PinTable.sanitized($0))\u{201D}" }.joined(separator: " ")
            let how = option == "--text"
                ? "quote text of several words (--text \"\(PinTable.sanitized(values.joined(separator: " ")))\")"
                : "\(option) takes one value"
            throw CommandFailure.badInput("\(rest) \(values.count == 2 ? "follows" : "follow") \(option) \(first): \(how); "
                + "the place words go before the filter options")
        }
        do {
            return try AlbumFilter.make(text: text.first, tags: tags.first, taken: taken.first, sort: sort.first, today: today)
        } catch {
            throw CommandFailure.badInput(error.description)
        }
    }

    func run() throws {
        try reportingFailures {
            // Before anything is looked up or opened: a refused filter adds no pin and creates no database.
            let filter = try filter(today: .today())
            let gazetteer = Result { try Gazetteer.bundled() }
            let (point, destination) = try locate(gazetteer)
            let store = try database.open()
            defer { try? store.close() }
            // A destination names its pin; elsewhere the nearest place does, as on the map.
            let name = destination ?? (try? gazetteer.get()).flatMap { placeName(point, gazetteer: $0) }
            let pin: Pin
            do {
                // Saved with its search waiting, so an app takes it up if nobody waits here.
                if again {
                    pin = try store.insertPin(at: point, name: name, filter: filter)
                } else {
                    switch try store.insertPin(at: point, name: name, unlessWithin: Drop.samePlace, filter: filter) {
                    case let .added(added): pin = added
                    case let .alreadyThere(pins): throw Drop.alreadyThere(pins, at: point)
                    }
                }
            } catch let error as StoreError {
                throw CommandFailure("\(error)")
            }
            guard wait else {
                print(pin.id)
                return
            }
            let albums = try WaitedAlbums(store: store)
            defer { albums.service.shutdown() }
            albums.service.start(pin)
            let progress = ProgressLine(enabled: isatty(2) == 1)
            let clock = RetryClock.live
            let deadline = timeout.map { clock.now() + $0 }
            // The album state machine decides the status and the store saves it; this reads what was saved.
            var album: StoredAlbum?
            while true {
                do { album = try store.album(pinID: pin.id) } catch { throw CommandFailure("\(error)") }
                guard let album else { break }
                progress.show(album)
                if let line = albums.networkLine(now: clock.now()) { progress.say(line) }
                // What could not be saved ends the wait: the album's state on disk would not say so.
                if let failure = albums.firstStoreFailure {
                    progress.finish()
                    throw CommandFailure("pin \(pin.id)'s album could not be saved: \(failure)")
                }
                guard album.status == .downloading else { break }
                if let deadline, clock.now() >= deadline {
                    progress.finish()
                    throw CommandFailure("pin \(pin.id)'s album is not complete after \(CoordinateNumber.text(timeout ?? 0)) s; "
                        + "it is left to resume: the app takes it up", kind: .tempFail)
                }
                albums.waitForChange(until: deadline.map { $0 - clock.now() })
            }
            progress.finish()
            guard let album else { throw CommandFailure("pin \(pin.id) vanished while downloading") }
            if case let .failed(reason) = album.status {
                throw CommandFailure("the photo search for pin \(pin.id) failed: \(reason)")
            }
            if album.status == .empty {
                // A filter that finds nothing says so in the words the album screen uses.
                StandardStream.error.write(album.pin.filter.isEmpty
                    ? "no photos here: the search found none around pin \(pin.id)\n"
                    : "\(album.pin.filter.noMatchMessage) (pin \(pin.id))\n")
            }
            try PhotoFailures(album.photos).finish(kept: "pin \(pin.id) is kept")
            print(pin.id)
        }
    }

    /// The refusal of a second pin at a place: the pins there, and how to drop one anyway.
    static func alreadyThere(_ pins: [Pin], at point: GeoPoint) -> CommandFailure {
        let place = "within \(CoordinateNumber.text(samePlace))° of "
            + "\(CoordinateNumber.text(point.latitude)), \(CoordinateNumber.text(point.longitude))"
        let which: String
        if pins.count == 1, let pin = pins.first {
            which = "there is already a pin \(place): pin \(pin.id) (\(PinTable.sanitized(pin.displayName)))"
        } else {
            which = "there are already \(pins.count) pins \(place): pins " + pins.map { String($0.id) }.joined(separator: ", ")
        }
        return .badInput(which + "; add --again to drop another pin there")
    }

    /// The point the words name (`PlaceArgument.locate`), and the destination's name when it is one.
    func locate(_ gazetteer: Result<Gazetteer, any Error>) throws -> (point: GeoPoint, destination: String?) {
        try PlaceArgument.locate(placeWords, gazetteer: gazetteer,
                                 missing: "drop needs a place: LAT LON (e.g. drop -33.9 151.2) or a place name (e.g. drop Naples)")
    }

    func placeName(_ point: GeoPoint, gazetteer: Gazetteer) -> String? {
        PlaceLookup.live(gazetteer).pinName(point)
    }
}

/// The album service of a command that waits for albums (`drop --wait`, `import --wait`): the settings
/// read (their problems on stderr), every change signalled, the first store failure kept.
final class WaitedAlbums {
    let service: AlbumService
    private let signals: Signals

    private final class Signals: Sendable {
        let changed = DispatchSemaphore(value: 0)
        let storeFailure = Locked<String?>(nil)
        let network = Locked(NetworkReport.online)
    }
    /// The offline line said last, so each is said once.
    private var saidOffline: String?

    init(store: AppDatabase) throws {
        let (stored, settings) = try readSettings(store)
        let environment = ProcessInfo.processInfo.environment
        let scale = RetryScale.read(environment)
        for problem in settings.problems + [scale.problem].compactMap({ $0 }) {
            StandardStream.error.write("vtourist: \(problem)\n")
        }
        let signals = Signals()
        self.signals = signals
        service = AlbumService(store: store, http: makeHTTPClient(stored, environment: environment), settings: settings,
                               imageCheck: .live, retryPolicy: scale.policy,
                               userAgent: userAgent(stored), trace: Trace.from(environment: environment)) { event in
            switch event {
            case let .storeFailed(_, text): signals.storeFailure.withLock { $0 = $0 ?? text }
            case let .network(report): signals.network.withLock { $0 = report }
            case .changed, .notice, .photoCount, .photosDeleted, .albumCleared: break
            }
            signals.changed.signal()
        }
    }

    /// "offline: waiting for the network; next try in N s (reason)" when the app went offline or its
    /// next probe moved; nil when that was said already, or the network is there.
    func networkLine(now: Double) -> String? {
        guard let line = Self.offlineLine(signals.network.withLock { $0 }, now: now) else {
            saidOffline = nil
            return nil
        }
        guard line != saidOffline else { return nil }
        saidOffline = line
        return line
    }

    /// What stderr says while the app is offline (nil while it is not); `now` on the retry clock.
    static func offlineLine(_ report: NetworkReport, now: Double) -> String? {
        guard report.isOffline else { return nil }
        let next = report.nextProbe.map { "; next try in \(max(0, Int(($0 - now).rounded(.up)))) s" } ?? ""
        return PinTable.sanitized("offline: waiting for the network\(next)" + (report.reason.map { " (\($0))" } ?? ""))
    }

    /// What could not be saved ends a wait: the album's state on disk would not say so.
    var firstStoreFailure: String? { signals.storeFailure.withLock { $0 } }

    /// Until the service reports something, or half a second (or `limit` seconds, when sooner).
    func waitForChange(until limit: Double? = nil) {
        let seconds = min(0.5, max(0, limit ?? 0.5))
        _ = signals.changed.wait(timeout: .now() + seconds)
    }
}

/// `Downloading 7/21 [#######-------]` on stderr, redrawn in place on a terminal.
final class ProgressLine {
    let enabled: Bool
    private var last = ""

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ album: StoredAlbum) {
        let p = AlbumProgress(album.photos.map(\.state))
        let line: String
        if album.photos.isEmpty {
            guard album.status == .downloading else { return }
            line = "Searching for photos…"
        } else {
            let width = 30
            let filled = p.total == 0 ? width : width * p.stored / max(1, p.total)
            line = "Downloading \(p.stored)/\(p.total) [" + String(repeating: "#", count: filled)
                + String(repeating: "-", count: width - filled) + "]"
        }
        guard line != last else { return }
        last = line
        StandardStream.error.write(enabled ? "\r\u{1B}[K" + line : line + "\n")
    }

    func finish() {
        if enabled, !last.isEmpty { StandardStream.error.write("\n") }
    }

    /// A line of its own (the network gone), the progress drawn again under it.
    func say(_ line: String) {
        if enabled, !last.isEmpty {
            StandardStream.error.write("\r\u{1B}[K" + line + "\n" + last)
        } else {
            StandardStream.error.write(line + "\n")
        }
    }
}

struct AlbumSubcommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "List one pin's photos, or save them into a folder.",
        usage: """
            vtourist album <pin> [--json] [--db <path>]
            vtourist album <pin> --save <dir> [--force] [--db <path>]
            """,
        discussion: """
            --save DIR writes every stored photo into DIR as NN-<title>.jpg (numbered from 01 in album order), \
            the large image where one is stored, else the album's image, with the bytes as they were \
            fetched; then credits.json (each photo's file and its fields as --json lists them) and \
            index.html, a contact sheet to view offline. DIR is made when missing. A file already \
            there is never written over unless --force is given: nothing is written and the file is \
            named. A disk that fills up stops the save; the files written before are left in place \
            and named. Each file written is printed as it lands.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp(PinArgument.help, valueName: "pin")) var pin: String

    @Flag(name: .long, help: "Print a JSON object.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Save the stored photos, credits.json and index.html into this folder.",
                                            valueName: "dir"),
            completion: .directory)
    var save: String?

    @Flag(name: .long, help: "With --save: write over files already in the folder.")
    var force = false

    func validate() throws {
        if force, save == nil { throw ValidationError("--force goes with --save DIR") }
        if json, save != nil { throw ValidationError("--json lists the album; --save writes it: give one") }
        if let save, save.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--save needs a folder")
        }
    }

    func run() throws {
        try reportingFailures {
            let store = try database.openForReading()
            defer { try? store.close() }
            let found = try PinArgument.resolve(pin, in: store)
            if let save { return try saveAlbum(found, into: save, store: store) }
            let output: String?
            do {
                output = json ? try AlbumJSON.read(store, pinID: found.id, places: .bundled()) : try store.album(pinID: found.id).map(AlbumTable.render)
            } catch { throw CommandFailure("\(error)") }
            guard let output else { throw CommandFailure("pin \(found.id) is gone (deleted while this ran)") }
            print(output, terminator: json ? "\n" : "")
        }
    }

    /// `--save DIR`: each file written printed on stdout as it lands; a refusal or a failure in one line.
    func saveAlbum(_ pin: Pin, into folder: String, store: AppDatabase) throws {
        do {
            let saved = try AlbumSaving.save(store, pinID: pin.id, into: folder, force: force) { path in
                // Written at once, unbuffered: a failure later still leaves the list said.
                StandardStream.output.write(PinTable.sanitized(path) + "\n")
            }
            StandardStream.error.write("saved \(saved.photos) \(saved.photos == 1 ? "photo" : "photos"), "
                + "\(AlbumExport.creditsFile) and \(AlbumExport.indexFile) into \(PinTable.sanitized(folder))\n")
        } catch {
            let text = PinTable.sanitized(error.description)
            switch error {
            case .exists: throw CommandFailure.badInput(text + "; --force writes over it")
            default: throw CommandFailure(text)
            }
        }
    }
}

/// `album PIN --json` (SPEC 4).
enum AlbumJSON {
    struct Body: Encodable {
        var pin: PinJSON.Entry
        var state: String
        var error: String?
        var source: String?
        /// The album's filter, null for the plain album (the pin's own, as `pin.filter` says).
        var filter: AlbumFilter?
        /// Each photo's fields are its record's coding keys and `large` (`AlbumJSON.photoKeys`).
        var photos: [AlbumPhotoJSON]

        enum CodingKeys: String, CodingKey { case pin, state, error, source, filter, photos }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(pin, forKey: .pin)
            try c.encode(state, forKey: .state)
            try c.encode(error, forKey: .error)
            try c.encode(source, forKey: .source)
            try c.encode(filter, forKey: .filter)
            try c.encode(photos, forKey: .photos)
        }
    }

    /// Every key of a photo's object.
    static var photoKeys: Set<String> { AlbumPhotoJSON.keys }

    /// The pin's album as `album PIN --json` prints it, nil when there is no such pin.
    static func read(_ store: AppDatabase, pinID: Pin.ID, places: PinPlaces = .stored) throws(StoreError) -> String? {
        guard let album = try store.album(pinID: pinID) else { return nil }
        return encode(album, large: try store.largeImageInfos(pinID: pinID), places: places)
    }

    /// The album as one object; `large`: the sizes of the large images stored for its photos.
    static func encode(_ album: StoredAlbum, large: [PhotoRecord.ID: LargeImageInfo], places: PinPlaces = .stored) -> String {
        let pin = PinJSON.entry(album.pin, places: places)
        let body = Body(
            pin: pin, state: album.status.state.rawValue, error: album.status.reason,
            source: album.source, filter: pin.filter,
            photos: album.photos.map { AlbumPhotoJSON(record: $0, large: large[$0.id]) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(body), let text = String(data: data, encoding: .utf8) else { return "{}" }
        return text
    }
}

/// `album PIN` without --json.
enum AlbumTable {
    static func render(_ album: StoredAlbum) -> String {
        let p = album.pin
        var out = "Pin \(p.id): \(PinTable.sanitized(p.displayName))\n"
        out += "State: \(p.albumState.rawValue)"
        if let error = album.status.reason { out += " (\(PinTable.sanitized(error)))" }
        out += ", \(p.downloadedCount)/\(p.photoCount) photos stored\n"
        if !p.filter.isEmpty { out += "Filter: \(PinTable.sanitized(p.filter.summary))\n" }
        for photo in album.photos {
            let mark = photo.state == .stored ? "\(photo.byteCount) B" : photo.state.name
            out += "  \(photo.id)\t\(mark)\t\(PinTable.sanitized(photo.title ?? "(untitled)"))\n"
        }
        return out
    }
}
