import Geo
import Model

/// The files `vtourist export` writes and `vtourist import` reads.
public enum PinFileFormat: String, CaseIterable, Sendable {
    /// RFC 7946: a FeatureCollection of Point features.
    case geojson
    /// GPX 1.1 waypoints.
    case gpx
}

/// What a pin file holds: its points in order, how many of its features were not points, and
/// its tracks, routes and lines (their points read only when asked: `PinFileReader`'s `readingLines`).
public struct PinFile: Equatable, Sendable {
    public var format: PinFileFormat
    public var points: [NewPin]
    /// GeoJSON features of other geometry types (or none); GPX routes and tracks.
    public var notPoints: Int
    /// Of `notPoints`, the GPX tracks and routes with at least one point and the GeoJSON features with
    /// a LineString or MultiLineString (bare or in a GeometryCollection): counted whether or not their
    /// points are read.
    public var lineFeatures: Int
    /// Each GPX track segment, each route, each LineString (a MultiLineString gives one per part), in
    /// file order; empty unless the file was read with `readingLines`. A line may hold a single point.
    public var lines: [[GeoPoint]]

    public init(format: PinFileFormat, points: [NewPin], notPoints: Int, lineFeatures: Int = 0, lines: [[GeoPoint]] = []) {
        self.format = format
        self.points = points
        self.notPoints = notPoints
        self.lineFeatures = lineFeatures
        self.lines = lines
    }

    /// How `lineFeatures` are called in this format, for a message.
    public var lineFeaturesNoun: (one: String, many: String) {
        switch format {
        case .gpx: ("track or route", "tracks or routes")
        case .geojson: ("line", "lines")
        }
    }
}
