import Foundation
import Gazetteer
import Model
import Store

/// PIN as every command that takes one reads it: a pin's id, or its name (any case; then, when no pin
/// has it so, with accents and punctuation folded as place names are: `zurich` finds "Zürich").
enum PinArgument {
    static let help = "The pin's id or its name, case, accents and punctuation aside (see `vtourist pins`)."

    /// The pin `text` names. A whole number is an id first, then a name. A name that several pins
    /// share is bad input (status 64, their ids listed); no such pin is a failure (status 1).
    static func resolve(_ text: String, in store: AppDatabase) throws -> Pin {
        let wanted = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !wanted.isEmpty else { throw CommandFailure.badInput("no pin given: give its id or its name (see `vtourist pins`)") }
        let shown = "\u{201C}\(wanted.count > 60 ? wanted.prefix(60) + "…" : wanted)\u{201D}"
        do {
            if let id = Int64(wanted), id > 0, let pin = try store.pin(id: id) { return pin }
            var named = try store.pins(named: wanted)
            if named.isEmpty { named = try foldedMatches(wanted, in: store) }
            if named.count > 1 {
                let ids = named.map { String($0.id) }.joined(separator: ", ")
                throw CommandFailure.badInput("\(named.count) pins are called \(shown) (ids \(ids)); give the id of one")
            }
            if let pin = named.first { return pin }
        } catch let error as StoreError {
            throw CommandFailure("\(error)")
        }
        if let id = Int64(wanted) { throw CommandFailure("no pin \(id) (see `vtourist pins`)") }
        throw CommandFailure("no pin called \(shown) (see `vtourist pins`)")
    }

    /// Pins whose shown name folds (`SearchFolder`) to what `text` folds to, oldest first.
    private static func foldedMatches(_ text: String, in store: AppDatabase) throws(StoreError) -> [Pin] {
        var folder = SearchFolder()
        let wanted = folder.fold(text)
        guard !wanted.isEmpty else { return [] }
        var found: [Pin] = []
        for pin in try store.pins() {
            if let name = pin.shownName, folder.fold(name) == wanted { found.append(pin) }
        }
        return found
    }
}
