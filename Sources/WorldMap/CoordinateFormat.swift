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
            return String(format: "%.4f, %.4f", latitude, longitude)
        case let .hemispheres(degreeSign):
            let deg = degreeSign ? "\u{00B0}" : ""
            let lat = String(format: "%.4f", abs(latitude)) + deg + (latitude >= 0 ? "N" : "S")
            let lon = String(format: "%.4f", abs(longitude)) + deg + (longitude >= 0 ? "E" : "W")
            return lat + " " + lon
        }
    }
}
