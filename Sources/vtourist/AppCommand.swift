import ArgumentParser
import Curses
import Foundation
import Gazetteer
import Store
import TouristCore
import WorldMap

struct App: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "The full-screen map (what plain `vtourist` starts).",
        shouldDisplay: false
    )

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        try reportingFailures {
            // Everything that can fail is opened before curses takes the screen,
            // so a failure is one readable line on stderr.
            let store = try database.open()
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
            let settings: Settings
            do {
                pins = try store.pins()
                view = try store.mapView()
                settings = try store.settings()
            } catch {
                throw CommandFailure("cannot read \(database.path()): \(error)")
            }
            let terminal: NcursesTerminal
            do {
                terminal = try NcursesTerminal()
            } catch {
                throw CommandFailure("\(error)")
            }
            let runtime = AppRuntime(terminal: terminal, store: store, geometry: geometry,
                                     places: .live(gazetteer), pins: pins, view: view, settings: settings)
            runtime.run()
            try? store.close()
        }
    }
}
