import ArgumentParser
import Foundation
import Model
import Store
import Terminal

struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give a pin a name of its own.",
        discussion: """
            The name is shown on the map, in the pins list, in `pins` and in exports instead of the \
            nearest place's. An empty NAME (or the nearest place's own name) removes it: the pin goes \
            by its nearest place's name again. At most \(PinName.maxLength) characters, no control \
            characters.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp(PinArgument.help, valueName: "pin")) var pin: String

    @Argument(help: ArgumentHelp("The new name; \"\" for none.", valueName: "name")) var name: String

    func run() throws {
        try reportingFailures {
            // Checked before the database is opened: a refused name changes nothing.
            do throws(PinNameProblem) { _ = try PinName.checked(name) } catch {
                throw CommandFailure.badInput("\(error)")
            }
            let store = try database.openExisting()
            defer { try? store.close() }
            let found = try PinArgument.resolve(pin, in: store)
            let ownName: String?
            do throws(PinNameProblem) { ownName = try PinName.own(name, nearestPlace: found.name) } catch {
                throw CommandFailure.badInput("\(error)")
            }
            let renamed: Pin?
            do { renamed = try store.renamePin(id: found.id, to: ownName) } catch { throw CommandFailure("\(error)") }
            guard let renamed else { throw CommandFailure("pin \(found.id) is gone (deleted while this ran)") }
            let shown = PinTable.sanitized(renamed.displayName)
            StandardStream.error.write(ownName == nil
                ? "pin \(renamed.id) goes by its place's name: \(shown)\n"
                : "pin \(renamed.id) is now called \(shown)\n")
        }
    }
}
