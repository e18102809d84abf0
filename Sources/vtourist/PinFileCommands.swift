import AlbumService
import ArgumentParser
import Foundation
import Gazetteer
import Geo
import Terminal
import Model
import PinFiles
import Store
import TouristCore

extension PinFileFormat: ExpressibleByArgument {}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write every pin to stdout as GeoJSON or GPX.",
        discussion: """
            GeoJSON (RFC 7946): a FeatureCollection of Point features, [longitude, latitude], with the \
            properties name, photos (the album's size), created and, for an album with a filter, filter \
            (as album --json prints it). GPX 1.1: one <wpt> per pin with <time>, <name>, and the album's \
            size and filter in <extensions>. See docs/manual.md.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "geojson or gpx.")
    var format: PinFileFormat = .geojson

    func run() throws {
        try reportingFailures {
            let store = try database.openForReading()
            defer { try? store.close() }
            let pins: [Pin]
            do { pins = try store.pins() } catch { throw CommandFailure("\(error)") }
            let text = PinFileWriter.write(pins, as: format, creator: "vtourist \(VTourist.version)")
            StandardStream.output.write(text)
        }
    }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add pins from a GeoJSON or GPX file; their albums download as for a drop.",
        discussion: """
            GeoJSON Point features and GPX waypoints become pins; other geometries, routes and tracks \
            are counted and skipped (but see --along), and so is a point with the same name and the same coordinates \
            (to 7 decimals) as a pin already stored or an earlier point in the file. An album filter \
            (written by export) comes along, checked as drop checks it. A file with any bad point (out \
            of range, not numbers) or bad filter, malformed JSON or XML, or XML entity declarations \
            is refused whole: nothing is added. The summary goes to stderr; a file with tracks, routes or \
            lines but no points is told to try --along 10.
            --along KM also drops a pin every KM kilometres along each GPX track segment and route and \
            each GeoJSON LineString and MultiLineString (in a feature, bare or in a GeometryCollection), \
            measured on the ground, and one at each end; each is named by its nearest place, as drop names \
            a pin. A point closer than KM/2 to a waypoint of the file, to a pin already stored (counted as \
            a duplicate) or to another point along the lines is left out, an end before the points between. \
            The lines' points are checked as waypoints are; more than \(AlongSampler.maximumPoints) points along the lines is \
            refused, with a KM that would do.
            Without --wait the new albums are left downloading: an open app takes them up within a \
            few seconds, else the app fetches them when it next starts. With --wait the photos that \
            failed for good are counted over every new album as drop --wait counts them.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("A GeoJSON or GPX file (a pipe too), or - for standard input.", valueName: "file"))
    var file: String

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Also drop a pin every KM kilometres (\(AlongSpacing.rangeText)) along tracks, routes and lines, and one at each end.",
                               valueName: "km"))
    var along: String?

    @Flag(name: .long, help: "Wait until every new album is in (progress on stderr).")
    var wait = false

    func run() throws {
        try reportingFailures {
            // The options and the file first: a refused one leaves no database behind.
            let spacing: AlongSpacing?
            do throws(AlongSpacing.Problem) { spacing = try along.map(AlongSpacing.init(parsing:)) } catch {
                throw CommandFailure.badInput(error.description)
            }
            let contents: PinFile
            do throws(PinFileError) {
                let lines = spacing != nil
                contents = try file == "-" ? PinFileReader.read(descriptor: STDIN_FILENO, path: file, readingLines: lines)
                                           : PinFileReader.read(path: file, readingLines: lines)
            } catch {
                let whole = error.isAboutContents ? "; nothing was imported" : ""
                throw CommandFailure("cannot import \(source): \(PinTable.sanitized("\(error)"))\(whole)",
                                     kind: CommandFailure.Kind(error))
            }
            // Counted before anything is stored: too many points along the lines is bad input too.
            var plan: AlongSampler.Plan?
            if let spacing {
                do throws(AlongSampler.TooMany) { plan = try AlongSampler.plan(contents.lines, every: spacing) } catch {
                    throw CommandFailure.badInput("cannot import \(source): \(error)")
                }
            }
            let store = try database.open()
            defer { try? store.close() }
            // Named as drop names a pin: the nearest place, if one is near enough; a point's name of its
            // own is kept (ImportNaming).
            let places = ImportNaming.bundledPlaces()
            var pins = ImportNaming.named(contents.points, places: places)
            var along: AlongSampler.Points?
            if let plan {
                let stored: [GeoPoint]
                do { stored = try store.pins().map(\.coordinate) } catch { throw CommandFailure("\(error)") }
                let merged = AlongSampler.merge(plan, waypoints: pins.map(\.coordinate), stored: stored)
                pins += merged.points.map { NewPin(coordinate: $0, name: places?.pinName($0)) }
                along = merged
            }
            let outcome: PinImport
            do { outcome = try store.importPins(pins) } catch { throw CommandFailure("\(error)") }
            StandardStream.error.write(Import.summary(outcome, notPoints: contents.notPoints, along: along,
                                                      lineFeatures: contents.lineFeatures) + "\n")
            if spacing == nil, contents.points.isEmpty, contents.lineFeatures > 0 {
                StandardStream.error.write(Import.alongHint(contents) + "\n")
            }
            if wait, !outcome.added.isEmpty { try waitForAlbums(outcome.added, store: store) }
        }
    }

    var source: String { file == "-" ? "standard input" : PinTable.sanitized(file) }

    /// "added 3 pins, skipped 1 duplicate, 2 not points"; with --along, "added 14 pins (12 along
    /// tracks), skipped 1 duplicate, 0 not points or lines", a point along a line left out for a
    /// stored pin beside it counting as a duplicate.
    static func summary(_ outcome: PinImport, notPoints: Int, along: AlongSampler.Points? = nil, lineFeatures: Int = 0) -> String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        guard let along else {
            return "added \(count(outcome.added.count, "pin", "pins")), "
                + "skipped \(count(outcome.duplicates, "duplicate", "duplicates")), "
                + "\(notPoints) not \(notPoints == 1 ? "a point" : "points")"
        }
        // The points along the lines are KM/2 or more from every pin and point: none is a duplicate.
        let others = notPoints - lineFeatures
        return "added \(count(outcome.added.count, "pin", "pins")) (\(along.points.count) along tracks), "
            + "skipped \(count(outcome.duplicates + along.nearStored, "duplicate", "duplicates")), "
            + "\(others) not \(others == 1 ? "a point or line" : "points or lines")"
    }

    /// Said after the summary when a file has lines but no points, and --along was not given.
    static func alongHint(_ contents: PinFile) -> String {
        let n = contents.lineFeatures
        let noun = contents.lineFeaturesNoun
        return "the file has no points, only \(n) \(n == 1 ? noun.one : noun.many): "
            + "add --along 10 to drop a pin every 10 km along \(n == 1 ? "it" : "them")"
    }

    /// Runs the new pins' albums as `drop --wait` runs one, until none is downloading.
    func waitForAlbums(_ ids: [Pin.ID], store: AppDatabase) throws {
        let albums = try WaitedAlbums(store: store)
        defer { albums.service.shutdown() }
        for id in ids {
            let pin: Pin?
            do { pin = try store.pin(id: id) } catch { throw CommandFailure("\(error)") }
            if let pin { albums.service.start(pin) }
        }
        let wanted = Set(ids)
        let onTerminal = isatty(2) == 1
        var last = ""
        var failed: [Pin] = []
        while true {
            let pins: [Pin]
            do { pins = try store.pins().filter { wanted.contains($0.id) } } catch { throw CommandFailure("\(error)") }
            if let failure = albums.firstStoreFailure {
                throw CommandFailure("an imported pin's album could not be saved: \(failure)")
            }
            let done = pins.filter { $0.albumState != .downloading }
            let line = "Albums \(done.count)/\(pins.count) done"
            if let offline = albums.networkLine(now: RetryClock.live.now()) {
                // On a line of its own; the count is drawn again under it.
                StandardStream.error.write((onTerminal ? "\r\u{1B}[K" : "") + offline + "\n")
                last = ""
            }
            if line != last {
                last = line
                StandardStream.error.write(onTerminal ? "\r\u{1B}[K" + line : line + "\n")
            }
            if done.count == pins.count {
                failed = pins.filter { $0.albumState == .failed }
                break
            }
            albums.waitForChange()
        }
        if onTerminal { StandardStream.error.write("\n") }
        // Said before a failed search is: both are how the wait ended.
        let photos = try PhotoFailures(albumsOf: ids, in: store)
        if !failed.isEmpty, let line = photos.line { StandardStream.error.write(line + "\n") }
        if let first = failed.first {
            let reason = first.albumStatus.reason.map { ": \(PinTable.sanitized($0))" } ?? ""
            throw CommandFailure("the photo search failed for \(failed.count) of \(ids.count) imported pins (pin \(first.id)\(reason))")
        }
        try photos.finish(kept: ids.count == 1 ? "the imported pin is kept" : "the \(ids.count) imported pins are kept")
    }
}
