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

/// One photo of a pin's album as stored; the image bytes live apart and are read one at a time.
public struct PhotoRecord: Identifiable, Hashable, Sendable {
    public typealias ID = Int64

    /// Where the photo's download is (SPEC 7). Stored as its raw string.
    public enum State: String, Codable, CaseIterable, Sendable {
        case pending, stored, failed
    }

    public var id: ID
    public var pinID: Pin.ID
    /// Order in the album grid, from 0; gaps remain after deletions.
    public var position: Int
    /// 'flickr' or 'commons', and that source's own id for the photo.
    public var source: String
    public var sourceID: String
    public var title: String?
    public var author: String?
    /// As the source gave it (Flickr's has no time zone, Commons' is free text), so it is not parsed.
    public var dateTaken: String?
    /// The image the grid shows.
    public var url: String
    /// A bigger image for the detail view, when the source offers one.
    public var largeURL: String?
    /// The photo's page on the source's web site.
    public var pageURL: String?
    public var license: String?
    public var width: Int?
    public var height: Int?
    public var state: State
    /// Why the download failed (state `.failed`).
    public var error: String?
    /// Size of the stored image; 0 when none is stored.
    public var byteCount: Int

    public init(id: ID, pinID: Pin.ID, position: Int, source: String, sourceID: String, title: String? = nil,
                author: String? = nil, dateTaken: String? = nil, url: String, largeURL: String? = nil,
                pageURL: String? = nil, license: String? = nil, width: Int? = nil, height: Int? = nil,
                state: State = .pending, error: String? = nil, byteCount: Int = 0) {
        self.id = id
        self.pinID = pinID
        self.position = position
        self.source = source
        self.sourceID = sourceID
        self.title = title
        self.author = author
        self.dateTaken = dateTaken
        self.url = url
        self.largeURL = largeURL
        self.pageURL = pageURL
        self.license = license
        self.width = width
        self.height = height
        self.state = state
        self.error = error
        self.byteCount = byteCount
    }
}
