import Foundation

/// A place on Earth in degrees.
public struct GeoPoint: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}

/// The Earth's mean radius (IUGG), the sphere every distance here is measured on.
public let earthRadiusKm = 6371.0088

/// Great-circle distance in kilometres.
public func distanceKm(_ a: GeoPoint, _ b: GeoPoint) -> Double {
    let r = earthRadiusKm
    let la1 = a.latitude * .pi / 180, la2 = b.latitude * .pi / 180
    let dLat = la2 - la1
    let dLon = (b.longitude - a.longitude) * .pi / 180
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(la1) * cos(la2) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * r * asin(min(1, sqrt(h)))
}
