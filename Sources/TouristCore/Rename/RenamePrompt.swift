import Model
import Terminal

/// The rename prompt: a pin's name being edited. The map (`R`) and the pins list (`e`) host it
/// as a mode of their own and act on what `key` returns.
public struct RenamePrompt: Equatable, Sendable {
    public var pinID: Pin.ID
    public var field: TextField
    /// The nearest place's name: what an empty name goes back to.
    public var placeName: String?
    /// Why the last Enter or paste did not go through.
    public var error: String?

    /// The prompt over `pin`, holding the name it shows now.
    public init(pin: Pin) {
        pinID = pin.id
        field = TextField(pin.shownName ?? "", maxLength: PinName.maxLength)
        placeName = pin.name
    }

    /// A key: still editing, or done.
    public func key(_ key: Key) -> RenameOutcome {
        var next = self
        switch RenameKeys.table.command(for: key) {
        case .cancel:
            return .cancel
        case .save:
            do throws(PinNameProblem) {
                return .save(pinID, try PinName.own(field.text, nearestPlace: placeName))
            } catch {
                next.error = "\(error)"
            }
        case let .edit(edit):
            next.changed(next.field.apply(edit))
        case nil:
            // Every other character is typed.
            guard case .char = key, let outcome = next.field.handle(key) else { return .editing(self) }
            next.changed(outcome)
        }
        return .editing(next)
    }

    /// Pasted text: one edit at the cursor.
    public func paste(_ text: String) -> RenamePrompt {
        var next = self
        next.changed(next.field.insert(text))
        return next
    }

    private mutating func changed(_ outcome: TextField.Outcome) {
        switch outcome {
        case .unchanged, .moved: break
        case .edited: error = nil
        case .cut: error = field.cutMessage
        }
    }
}

/// What a key in the rename prompt came to.
public enum RenameOutcome: Equatable, Sendable {
    case editing(RenamePrompt)
    /// Store this name of its own (nil: none, shown by its nearest place's name).
    case save(Pin.ID, String?)
    case cancel
}

/// What a key does in the rename prompt.
public enum RenameCommand: Equatable, Sendable {
    case save
    case cancel
    case edit(TextEdit)
}

/// The rename prompt's keys; its hint line is written from them.
public enum RenameKeys {
    public static let table = KeyTable<RenameCommand>([
        KeyBinding([[.enter]], .save, help: "save the name", hint: "saves"),
        KeyBinding([[.escape]], .cancel, help: "cancel", hint: "cancels"),
    ] + TextFieldKeys.bindings(RenameCommand.edit))
}

extension AppState {
    /// Renames a pin: shown at once, said renamed once the store has it (`renameSaved`).
    mutating func renamePin(_ id: Pin.ID, to ownName: String?) -> [AppEffect] {
        guard let index = pins.firstIndex(where: { $0.id == id }) else {
            message = StatusMessage("That pin was deleted elsewhere.", kind: .error)
            return []
        }
        let before = pins[index].displayName
        pins[index].ownName = ownName
        let after = pins[index].displayName
        let ack = ownName.map { Acknowledgment.pinRenamed(from: before, to: $0) } ?? .pinNamedByPlace(after)
        message = StatusMessage(ack.onItsWay)
        pendingRenames.append(PendingRename(pin: id, ownName: ownName, ack: ack))
        return [.renamePin(id, name: ownName)]
    }

    /// The store saved a pin: if it is the answer to a rename made here, the rename is said now.
    mutating func renameSaved(_ pin: Pin) {
        guard let i = pendingRenames.firstIndex(where: { $0.pin == pin.id && $0.ownName == pin.ownName }) else { return }
        message = StatusMessage(pendingRenames.remove(at: i).ack.done)
    }
}
