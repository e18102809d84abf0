import Foundation
import WorldMap

/// Where an album is in its life (SPEC 7). Stored as its raw string.
public enum AlbumState: String, Codable, CaseIterable, Sendable {
    case downloading, ready, empty, failed
}

/// A pin on the map, with a summary of its album.
public struct Pin: Identifiable, Hashable, Sendable {
    public typealias ID = Int64
    public var id: ID
    public var coordinate: GeoPoint
    /// The nearest known place when the pin was dropped or moved, if any was near.
    public var name: String?
    public var createdAt: Date
    public var albumState: AlbumState
    /// Photos in the album.
    public var photoCount: Int
    /// Photos whose image is stored.
    public var downloadedCount: Int

    public init(id: ID, coordinate: GeoPoint, name: String?, createdAt: Date = Date(),
                albumState: AlbumState = .empty, photoCount: Int = 0, downloadedCount: Int = 0) {
        self.id = id
        self.coordinate = coordinate
        self.name = name
        self.createdAt = createdAt
        self.albumState = albumState
        self.photoCount = photoCount
        self.downloadedCount = downloadedCount
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
