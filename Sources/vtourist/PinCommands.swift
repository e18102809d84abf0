import ArgumentParser
import Foundation
import Gazetteer
import Geo
import Model
import Store
import Terminal
import TouristCore

struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete a pin and its album.",
        discussion: """
            Asks nothing (the app's confirm setting is for the map): the pin, its photos and their \
            images are gone at once. Prints one line on what went, or with --json the deleted pin \
            as `pins --json` lists it.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp(PinArgument.help, valueName: "pin")) var pin: String

    @Flag(name: .long, help: "Print the deleted pin as a JSON object.")
    var json = false

    func run() throws {
        try reportingFailures {
            let store = try database.openExisting()
            defer { try? store.close() }
            let found = try PinArgument.resolve(pin, in: store)
            // Said as it was just before it went: the album's counts with it.
            let entry = PinJSON.entry(found, places: .bundled())
            let deleted: Bool
            do { deleted = try store.deletePin(id: found.id) } catch { throw CommandFailure("\(error)") }
            guard deleted else { throw CommandFailure("pin \(found.id) is gone (deleted while this ran)") }
            if json {
                print(PinJSON.encode(entry))
            } else {
                let photos = found.photoCount == 1 ? "1 photo" : "\(found.photoCount) photos"
                print("deleted pin \(found.id) (\(PinTable.sanitized(found.displayName))) and its album of \(photos)")
            }
        }
    }
}

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move a pin; its album is fetched again for the new place.",
        usage: """
            vtourist move <pin> LAT LON [--json] [--db <path>]
            vtourist move <pin> PLACE [--json] [--db <path>]
            """,
        discussion: """
            The place is read as drop reads it: LAT LON in any form the go-to prompt takes \
            (move 3 -33.9 151.2, move Naples 40°51′N 14°16′E), or \(PlaceArgument.nameRule). \
            As on the map, the pin's photos are deleted and a new album is searched for at the new \
            place; the pin is named by its new place (a name of its own stays). The album is left \
            downloading, as after drop without --wait: an open app takes it up within a few seconds, \
            else the app fetches it when it next starts. Prints one line on where the pin went, or \
            with --json the moved pin as `pins --json` lists it.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp(PinArgument.help, valueName: "pin")) var pin: String

    /// Every other word (see `Drop.place`: negative numbers are not options).
    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("LAT LON (e.g. -33.9 151.2, \"51.5, -0.12\", 51.5N 0.12W) or a place name.",
                                 valueName: "place"))
    var place: [String] = []

    @Flag(name: .long, help: "Print the moved pin as a JSON object.")
    var json = false

    var placeWords: [String] { place.filter { $0 != "--" } }

    func validate() throws {
        if let option = placeWords.first(where: Drop.isOption) {
            throw ValidationError("Unknown option '\(option)'")
        }
    }

    func run() throws {
        try reportingFailures {
            // The place is read before the database is opened: a refused one changes nothing.
            let gazetteer = Result { try Gazetteer.bundled() }
            let (point, destination) = try PlaceArgument.locate(
                placeWords, gazetteer: gazetteer,
                missing: "move needs a place: LAT LON (e.g. move 3 -33.9 151.2) or a place name (e.g. move 3 Naples)")
            let store = try database.openExisting()
            defer { try? store.close() }
            let found = try PinArgument.resolve(pin, in: store)
            let places = (try? gazetteer.get()).map(PinPlaces.live) ?? .stored
            // Named as a drop there names a pin (the map's move does the same).
            let name = destination ?? (try? gazetteer.get()).flatMap { PlaceLookup.live($0).pinName(point) }
            let moved: Pin?
            do { moved = try store.movePin(id: found.id, to: point, name: name) } catch { throw CommandFailure("\(error)") }
            guard let moved else { throw CommandFailure("pin \(found.id) is gone (deleted while this ran)") }
            if json {
                print(PinJSON.encode(PinJSON.entry(moved, places: places)))
            } else {
                let photos = found.photoCount == 0 ? "" : " (its \(found.photoCount == 1 ? "photo" : "\(found.photoCount) photos") deleted)"
                print("moved pin \(moved.id) to \(PinTable.sanitized(moved.displayName)) at \(point.formatted())\(photos); "
                    + "a new album is on its way")
            }
        }
    }
}
