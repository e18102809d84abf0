import AlbumService
import ArgumentParser
import Curses
import Foundation
import PhotoSources
import Gazetteer
import Model
import Store
import TouristCore
import TouristRuntime
import WorldMap

/// The full-screen map: what plain `vtourist` starts.
enum FullScreenApp {
    static func run(database: DatabaseOptions) throws {
        // Everything that can fail is opened before curses takes the screen,
        // so a failure is one readable line on stderr.
        let store = try database.openAllowingReadOnly()
        let geometry: WorldGeometry
        let gazetteer: Gazetteer
        do {
            geometry = try WorldGeometry.bundled()
            gazetteer = try Gazetteer.bundled()
        } catch {
            throw CommandFailure("cannot load the bundled map data: \(error)")
        }
        let pins: [Pin]
        let view: MapViewState?
        do {
            pins = try store.pins()
            view = try store.mapView()
        } catch {
            throw CommandFailure("cannot read \(database.path()): \(error)")
        }
        let (settings, photos) = try readSettings(store)
        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal()
        } catch {
            throw CommandFailure("\(error)")
        }
        let environment = ProcessInfo.processInfo.environment
        let trace = Trace.from(environment: environment)
        let scale = RetryScale.read(environment)
        let world = RuntimeWorld(terminal: terminal, store: store, makeAlbums: { onEvent in
            var albums = AlbumsClient.live(
                AlbumService(store: store, http: makeHTTPClient(settings, environment: environment), settings: photos,
                             imageCheck: .live, retryPolicy: scale.policy,
                             userAgent: userAgent(settings), trace: trace, onEvent: onEvent),
                photoSettings: { PhotoSourceSettings.resolve(environment: environment, settings: $0) })
            if store.isReadOnly {
                // Taking an album up is a write (its lease): a read-only database shows its albums as stored.
                albums.resume = { _ in }
                albums.resumeInterrupted = {}
            }
            return albums
        }, geometry: geometry, places: .live(gazetteer), log: .beside(databasePath: store.path),
           photoSaver: .folder(PhotoFile.picturesFolder(environment: environment)), pageOpener: .live,
           largeImages: .live(http: makeHTTPClient(settings), commonsEndpoint: photos.commonsEndpoint,
                              userAgent: userAgent(settings)),
           albumSaver: .live(store: store, pictures: PhotoFile.picturesFolder(environment: environment)),
           trace: trace)
        // Also on the status line: curses takes the screen right after stderr said so.
        var problems: [String] = store.readOnlyNote.map { [$0] } ?? []
        problems += store.permissionNotes.map(\.description) + photos.problems + [scale.problem].compactMap { $0 }
        let start = RuntimeStart(pins: pins, view: view, settings: settings,
                                 overrides: EnvironmentOverrides(environment: ProcessInfo.processInfo.environment).overridden,
                                 problem: problems.isEmpty ? nil : problems.joined(separator: " "))
        let runtime = AppRuntime(world: world, start: start)
        runtime.run()
        try? store.close()
    }
}

/// The runtime's terminal is ncurses.
extension NcursesTerminal: AppTerminal {}
