import Foundation
import Geo

/// A pin on the map, with a summary of its album.
public struct Pin: Identifiable, Hashable, Sendable {
    public typealias ID = Int64
    public var id: ID
    public var coordinate: GeoPoint
    /// The nearest known place when the pin was dropped or moved, if any was near.
    public var name: String?
    /// The name the user gave it (`PinName.checked`), shown instead of `name`; nil for none.
    public var ownName: String?
    public var createdAt: Date
    /// As the album state machine last decided it.
    public var albumStatus: AlbumStatus
    /// Photos in the album.
    public var photoCount: Int
    /// Photos whose image is stored.
    public var downloadedCount: Int
    /// What the album is narrowed to; `.none` for the plain album.
    public var filter: AlbumFilter

    public init(id: ID, coordinate: GeoPoint, name: String?, createdAt: Date = Date(),
                albumStatus: AlbumStatus = .empty, photoCount: Int = 0, downloadedCount: Int = 0,
                filter: AlbumFilter = .none, ownName: String? = nil) {
        self.filter = filter
        self.ownName = ownName
        self.id = id
        self.coordinate = coordinate
        self.name = name
        self.createdAt = createdAt
        self.albumStatus = albumStatus
        self.photoCount = photoCount
        self.downloadedCount = downloadedCount
    }

    public var albumState: AlbumState { albumStatus.state }

    /// The pin in words, wherever it is named (map, album header, messages, the command line).
    public var displayName: String { Pin.displayName(name: shownName, at: coordinate) }

    /// The name shown: the user's own, else the nearest place's; nil when it has neither. What
    /// `pins --json` and `export` write as its name, and what a PIN argument is matched against.
    public var shownName: String? { ownName ?? name }

    /// The words for a pin with this name at this place: its name, or where it is.
    public static func displayName(name: String?, at coordinate: GeoPoint) -> String {
        name ?? "Pin at " + coordinate.formatted()
    }
}

/// What the map shows, persisted so the next start looks the same.
public struct MapViewState: Hashable, Sendable, Codable {
    public var center: GeoPoint
    public var zoom: Int
    public var cursor: GeoPoint

    public init(center: GeoPoint, zoom: Int, cursor: GeoPoint) {
        self.center = center
        self.zoom = zoom
        self.cursor = cursor
    }
}
