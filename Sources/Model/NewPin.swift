import Foundation
import Geo

/// A pin that comes from outside the app (an imported file): where, its name, and when it was made if known.
public struct NewPin: Hashable, Sendable {
    public var coordinate: GeoPoint
    /// The nearest place's name (as a dropped pin's), or the file's name until the importer names it.
    public var name: String?
    /// The name of its own the file gave it (`PinName.checked`), when it is not the nearest place's.
    public var ownName: String?
    /// Nil when the file did not say: the pin is then made now.
    public var createdAt: Date?
    /// The album's filter the file carried; `.none` when it had none.
    public var filter: AlbumFilter

    public init(coordinate: GeoPoint, name: String?, createdAt: Date? = nil, filter: AlbumFilter = .none,
                ownName: String? = nil) {
        self.filter = filter
        self.ownName = ownName
        self.coordinate = coordinate
        self.name = name
        self.createdAt = createdAt
    }
}

/// What makes two pins the same for an import: the same name and the same coordinates
/// as they are written (`CoordinateNumber`: 7 decimals, about a centimetre).
public struct PinIdentity: Hashable, Sendable {
    private let latitude: Int64
    private let longitude: Int64
    private let name: String?

    public init(_ coordinate: GeoPoint, name: String?) {
        latitude = CoordinateNumber.units(coordinate.latitude)
        longitude = CoordinateNumber.units(coordinate.longitude)
        self.name = name
    }
}
