import Foundation
import Model
import Store

/// PIN as every command that takes one reads it: a pin's id, or its name (exact, any case).
enum PinArgument {
    static let help = "The pin's id or its name, any case (see `vtourist pins`)."

    /// The pin `text` names. A whole number is an id first, then a name. A name that several pins
    /// share is bad input (status 64, their ids listed); no such pin is a failure (status 1).
    static func resolve(_ text: String, in store: AppDatabase) throws -> Pin {
        let wanted = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !wanted.isEmpty else { throw CommandFailure.badInput("no pin given: give its id or its name (see `vtourist pins`)") }
        let shown = "\u{201C}\(wanted.count > 60 ? wanted.prefix(60) + "…" : wanted)\u{201D}"
        do {
            if let id = Int64(wanted), id > 0, let pin = try store.pin(id: id) { return pin }
            let named = try store.pins(named: wanted)
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
}
