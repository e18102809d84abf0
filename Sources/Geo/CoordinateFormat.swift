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

/// How a latitude or longitude is written as a number (JSON, GeoJSON, GPX, the command line's tables):
/// at most seven decimals, about a centimetre, so a stored 14.268110000000007 reads 14.26811.
public enum CoordinateNumber {
    /// Decimals written, and kept when two coordinates are compared as written.
    public static let decimals = 7
    private static let scale: Int64 = 10_000_000

    /// The value in units of the last written decimal (1e-7 degree), rounded half away from zero;
    /// 0 for what is not a number. Exact for every valid coordinate.
    public static func units(_ degrees: Double) -> Int64 {
        guard degrees.isFinite, abs(degrees) < 1e9 else { return 0 }
        return Int64((degrees * Double(scale)).rounded())
    }

    /// A plain decimal: no exponent, no trailing zeros, no `-0` (`40.85`, `-0.12`, `180`).
    public static func text(_ degrees: Double) -> String {
        let u = units(degrees)
        let magnitude = u.magnitude
        let whole = magnitude / UInt64(scale)
        var fraction = String(magnitude % UInt64(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (u < 0 ? "-" : "") + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// The value the text stands for, for JSON encoders that take numbers, not text.
    public static func rounded(_ degrees: Double) -> Double {
        Double(units(degrees)) / Double(scale)
    }
}
