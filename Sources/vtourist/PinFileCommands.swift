import AlbumService
import ArgumentParser
import Foundation
import Terminal
import Model
import PinFiles
import Store

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
            let store = try database.openExisting()
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
            are counted and skipped, and so is a point with the same name and the same coordinates \
            (to 7 decimals) as a pin already stored or an earlier point in the file. An album filter \
            (written by export) comes along, checked as drop checks it. A file with any bad point (out \
            of range, not numbers) or bad filter, malformed JSON or XML, or XML entity declarations \
            is refused whole: nothing is added. The summary goes to stderr.
            Without --wait the new albums are left downloading: an open app takes them up within a \
            few seconds, else the app fetches them when it next starts.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("A GeoJSON or GPX file (a pipe too), or - for standard input.", valueName: "file"))
    var file: String

    @Flag(name: .long, help: "Wait until every new album is in (progress on stderr).")
    var wait = false

    func run() throws {
        try reportingFailures {
            // The file first: a refused file leaves no database behind.
            let contents: PinFile
            do throws(PinFileError) {
                contents = try file == "-" ? PinFileReader.read(descriptor: STDIN_FILENO, path: file) : PinFileReader.read(path: file)
            } catch {
                let whole = error.isAboutContents ? "; nothing was imported" : ""
                let source = file == "-" ? "standard input" : PinTable.sanitized(file)
                throw CommandFailure("cannot import \(source): \(PinTable.sanitized("\(error)"))\(whole)",
                                     kind: CommandFailure.Kind(error))
            }
            let store = try database.open()
            defer { try? store.close() }
            let outcome: PinImport
            let points = ImportNaming.named(contents.points, places: ImportNaming.bundledPlaces())
            do { outcome = try store.importPins(points) } catch { throw CommandFailure("\(error)") }
            StandardStream.error.write(Import.summary(outcome, notPoints: contents.notPoints) + "\n")
            if wait, !outcome.added.isEmpty { try waitForAlbums(outcome.added, store: store) }
        }
    }

    static func summary(_ outcome: PinImport, notPoints: Int) -> String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return "added \(count(outcome.added.count, "pin", "pins")), "
            + "skipped \(count(outcome.duplicates, "duplicate", "duplicates")), "
            + "\(notPoints) not \(notPoints == 1 ? "a point" : "points")"
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
        if let first = failed.first {
            let reason = first.albumStatus.reason.map { ": \(PinTable.sanitized($0))" } ?? ""
            throw CommandFailure("the photo search failed for \(failed.count) of \(ids.count) imported pins (pin \(first.id)\(reason))")
        }
    }
}
