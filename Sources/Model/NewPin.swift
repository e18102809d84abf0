import Foundation
import WorldMap

/// A pin that comes from outside the app (an imported file): where, its name, and when it was made if known.
public struct NewPin: Hashable, Sendable {
    public var coordinate: GeoPoint
    public var name: String?
    /// Nil when the file did not say: the pin is then made now.
    public var createdAt: Date?

    public init(coordinate: GeoPoint, name: String?, createdAt: Date? = nil) {
        self.coordinate = coordinate
        self.name = name
        self.createdAt = createdAt
    }
}

/// What makes two pins the same for an import: the same name and the same coordinates
/// when both are rounded to 7 decimals (about a centimetre).
public struct PinIdentity: Hashable, Sendable {
    private let latitude: Int64
    private let longitude: Int64
    private let name: String?

    public init(_ coordinate: GeoPoint, name: String?) {
        latitude = Self.units(coordinate.latitude)
        longitude = Self.units(coordinate.longitude)
        self.name = name
    }

    /// Tens of nanodegrees; coordinates are validated before they get here, so this never overflows.
    private static func units(_ degrees: Double) -> Int64 {
        degrees.isFinite ? Int64((degrees * 1e7).rounded()) : 0
    }
}
