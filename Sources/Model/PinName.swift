import Foundation
import TextSafety

/// The one rule for a name the user gives a pin (the rename prompt, `vtourist rename`, an imported
/// file): spaces around it are dropped; nothing left means no name of its own (the pin is shown by
/// its nearest place); more than `maxLength` characters or a control character is refused.
public enum PinName {
    /// The longest name, in characters (what the user sees as one).
    public static let maxLength = 100

    /// The name to store (nil: none of its own), or why `text` cannot be one.
    public static func checked(_ text: String) throws(PinNameProblem) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // The terminal text rule decides what a control is: a name it would change is refused.
        if trimmed.strippingTerminalControls != trimmed { throw .controlCharacters }
        if trimmed.count > maxLength { throw .tooLong(trimmed.count) }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The name of its own to store for a pin whose nearest place is `nearestPlace`: as `checked`,
    /// and nil when it is that place's name (the pin then follows its place's name, as before).
    public static func own(_ text: String, nearestPlace: String?) throws(PinNameProblem) -> String? {
        let name = try checked(text)
        return name == nearestPlace ? nil : name
    }
}

/// Why a text cannot be a pin's name; the description is the message the user sees.
public enum PinNameProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case controlCharacters
    case tooLong(Int)

    public var description: String {
        switch self {
        case .controlCharacters: "a pin's name cannot hold control characters"
        case let .tooLong(count): "a pin's name has at most \(PinName.maxLength) characters (this one has \(count))"
        }
    }
}
