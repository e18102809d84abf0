import Foundation
import Model

/// A record of the writes the user sees as done, for the crash soak (scripts/soak.py): one JSON line
/// per committed action, written after its transaction committed, never before. Off (`.none`) unless
/// the command line is given `VTOURIST_TRACE=FILE`.
public struct Trace: Sendable {
    private let write: @Sendable (() -> TraceEvent) -> Void

    public init(_ write: @escaping @Sendable (() -> TraceEvent) -> Void) {
        self.write = write
    }

    /// Records a committed action. The event is built only when tracing is on.
    public func record(_ event: @autoclosure () -> TraceEvent) {
        write(event)
    }

    /// No trace: nothing is built, nothing written.
    public static let none = Trace { _ in }

    /// Appends to the file at `path`, created if missing. Several processes may share the file: it is
    /// opened `O_APPEND` and each line is one `write`, which the kernel appends whole at the end, so
    /// lines of two processes never interleave. A file that cannot be opened traces nothing.
    public static func file(_ path: String) -> Trace {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .none }
        let pid = Int(getpid())
        return Trace { event in
            var fields = event().fields
            fields["pid"] = pid
            guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
            line.append(0x0A)
            _ = line.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        }
    }
}

/// A committed action, with the ids and values the soak checks the database against.
public enum TraceEvent: Sendable {
    case pinInserted(Pin)
    /// A pin moved: its photos of every generation below `generation` are gone.
    case pinMoved(Pin, generation: Int?)
    case pinDeleted(Pin.ID)
    /// A setting saved as stored (nil: removed, back to its default).
    case settingSaved(SettingKey, String?)
    /// A search's photos saved: a new collection's (`replaced`: the album's other photos are gone) or Add more's.
    case photosSaved(pin: Pin.ID, generation: Int, photos: [PhotoRecord], replaced: Bool)
    /// The user deleted photos.
    case photosDeleted(pin: Pin.ID, ids: [PhotoRecord.ID])
    /// New Collection began: the album's photos of every generation below `generation` are gone.
    case albumCleared(pin: Pin.ID, generation: Int)
    /// A downloaded image stored, with its bytes' checksum (`hash`).
    case imageStored(photo: PhotoRecord.ID, pin: Pin.ID, generation: Int, bytes: Data)

    var fields: [String: Any] {
        switch self {
        case let .pinInserted(pin):
            return ["event": "pin", "id": pin.id, "lat": pin.coordinate.latitude, "lon": pin.coordinate.longitude,
                    "name": pin.name as Any? ?? NSNull()]
        case let .pinMoved(pin, generation):
            return ["event": "move", "id": pin.id, "lat": pin.coordinate.latitude, "lon": pin.coordinate.longitude,
                    "name": pin.name as Any? ?? NSNull(), "generation": generation as Any? ?? NSNull()]
        case let .pinDeleted(id):
            return ["event": "unpin", "id": id]
        case let .settingSaved(key, value):
            return ["event": "setting", "key": key.rawValue, "value": value as Any? ?? NSNull()]
        case let .photosSaved(pin, generation, photos, replaced):
            return ["event": replaced ? "replace" : "append", "pin": pin, "generation": generation,
                    "photos": photos.map { ["id": $0.id, "url": $0.found.url, "title": $0.found.title as Any? ?? NSNull()] }]
        case let .photosDeleted(pin, ids):
            return ["event": "unphoto", "pin": pin, "ids": ids]
        case let .albumCleared(pin, generation):
            return ["event": "clear", "pin": pin, "generation": generation]
        case let .imageStored(photo, pin, generation, bytes):
            return ["event": "image", "photo": photo, "pin": pin, "generation": generation, "hash": Self.hash(bytes)]
        }
    }

    /// CRC-32 (IEEE, zlib's) and the byte count, `crc32:count` in hex and decimal: the soak reads the
    /// stored bytes the same way.
    static func hash(_ bytes: Data) -> String {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        let hex = String(crc ^ 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + ":\(bytes.count)"
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
