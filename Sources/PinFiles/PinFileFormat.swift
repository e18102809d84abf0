import Model

/// The files `vtourist export` writes and `vtourist import` reads.
public enum PinFileFormat: String, CaseIterable, Sendable {
    /// RFC 7946: a FeatureCollection of Point features.
    case geojson
    /// GPX 1.1 waypoints.
    case gpx
}

/// What a pin file holds: its points in order, and how many of its features were not points.
public struct PinFile: Equatable, Sendable {
    public var format: PinFileFormat
    public var points: [NewPin]
    /// GeoJSON features of other geometry types (or none); GPX routes and tracks.
    public var notPoints: Int

    public init(format: PinFileFormat, points: [NewPin], notPoints: Int) {
        self.format = format
        self.points = points
        self.notPoints = notPoints
    }
}
