import Foundation

/// Values so plain that any reading of them must agree: what the cross-checks of the photo
/// sources' parsers expect to come out unchanged.
public enum Plain {
    /// An id of letters, digits, `@`, `_` and `-`, at most 64 characters.
    public static func id(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { isAlphanumeric($0) || "@_-".utf8.contains($0) }
    }

    /// `https://` and a host and path of letters, digits, `.`, `/`, `_` and `-`.
    public static func url(_ text: String) -> Bool {
        guard text.hasPrefix("https://"), text.utf8.count > 9, text.utf8.count <= 300 else { return false }
        return text.utf8.dropFirst(8).allSatisfy { isAlphanumeric($0) || "./_-".utf8.contains($0) }
    }

    /// Words of letters and digits with single spaces between them.
    public static func words(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.contains("  ") && text.utf8.count <= 100
            && text.utf8.allSatisfy { isAlphanumeric($0) || $0 == 0x20 }
    }

    /// A JSON integer, or a string of up to 15 digits (the APIs send numbers as strings too).
    public static func integer(_ value: Any?) -> Int? {
        switch value {
        case let text as String:
            guard !text.isEmpty, text.utf8.count <= 15, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(text)
        case let number as NSNumber:
            // true and false are numbers to JSONSerialization: not plain.
            guard String(cString: number.objCType) != "c" else { return nil }
            let d = number.doubleValue
            guard d.isFinite, d == d.rounded(), abs(d) < 1e15 else { return nil }
            return Int(d)
        default:
            return nil
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
