import Foundation

/// How the app writes a coordinate: one place, so every screen agrees.
public enum CoordinateFormat: Sendable {
    /// `40.8522, 14.2681`: what the go-to prompt and `drop` read back.
    case decimal
    /// `40.8522°N 14.2681°E` (`40.8522N 14.2681E` without the degree sign).
    case hemispheres(degreeSign: Bool)
}

extension GeoPoint {
    /// The coordinate written with four decimals (about 11 m).
    public func formatted(_ format: CoordinateFormat = .decimal) -> String {
        switch format {
        case .decimal:
            return Self.degrees(latitude) + ", " + Self.degrees(longitude)
        case let .hemispheres(degreeSign):
            let deg = degreeSign ? "\u{00B0}" : ""
            let lat = Self.degrees(abs(latitude)) + deg + (latitude >= 0 ? "N" : "S")
            let lon = Self.degrees(abs(longitude)) + deg + (longitude >= 0 ? "E" : "W")
            return lat + " " + lon
        }
    }

    /// One latitude or longitude with four decimals, for tables that give each its own column.
    public static func degrees(_ value: Double) -> String { String(format: "%.4f", value) }
}
