import Foundation
import Geo

/// Web Mercator in world units: x and y both run 0…1 over the whole map,
/// x eastwards from longitude −180, y southwards from latitude +85.0511.
public enum Mercator {
    public static let maxLatitude = 85.05112877980659

    public static func x(longitude: Double) -> Double {
        (longitude + 180) / 360
    }

    public static func y(latitude: Double) -> Double {
        let lat = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        return (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2
    }

    public static func longitude(x: Double) -> Double {
        x * 360 - 180
    }

    public static func latitude(y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }

    public static func project(_ p: GeoPoint) -> (x: Double, y: Double) {
        (x(longitude: p.longitude), y(latitude: p.latitude))
    }

    public static func unproject(x: Double, y: Double) -> GeoPoint {
        var lon = longitude(x: x - floor(x))
        if lon >= 180 { lon -= 360 }
        return GeoPoint(latitude: latitude(y: min(max(y, 0), 1)), longitude: lon)
    }
}

/// What part of the world a map of `width`×`height` cells shows.
/// Each cell holds 2×4 braille dots; dots are square on a terminal whose
/// cells are twice as tall as wide, so the map is drawn in dot space.
public struct Viewport: Hashable, Sendable {
    public static let dotsPerCellX = 2
    public static let dotsPerCellY = 4
    public static let minZoom = 0
    public static let maxZoom = 15
    /// Dots across the whole world at zoom 0.
    public static let baseWorldDots = 64.0

    /// Centre in world units (x wraps, y within 0…1).
    public var centerX: Double
    public var centerY: Double
    public var zoom: Int
    public var width: Int
    public var height: Int

    public init(centerX: Double, centerY: Double, zoom: Int, width: Int, height: Int) {
        self.centerX = centerX
        self.centerY = centerY
        self.zoom = min(max(zoom, Viewport.minZoom), Viewport.maxZoom)
        self.width = width
        self.height = height
    }

    public init(center: GeoPoint, zoom: Int, width: Int, height: Int) {
        let p = Mercator.project(center)
        self.init(centerX: p.x, centerY: p.y, zoom: zoom, width: width, height: height)
    }

    public var center: GeoPoint { Mercator.unproject(x: centerX, y: centerY) }

    /// Dots across the whole world at this zoom.
    public var worldDots: Double { Viewport.baseWorldDots * Double(1 << zoom) }

    /// Degrees of longitude per dot: picks the level of detail.
    public var degreesPerDot: Double { 360 / worldDots }

    /// World units per dot.
    public var unitsPerDot: Double { 1 / worldDots }

    public var widthDots: Int { width * Viewport.dotsPerCellX }
    public var heightDots: Int { height * Viewport.dotsPerCellY }

    /// World position of the top-left corner of the map (x not wrapped).
    public var originX: Double { centerX - Double(widthDots) / 2 / worldDots }
    public var originY: Double { centerY - Double(heightDots) / 2 / worldDots }

    /// The cell (column, row) that shows a world position, taking the copy
    /// of the wrapping world nearest the centre. May lie outside the map.
    public func cell(x: Double, y: Double) -> (col: Int, row: Int) {
        var dx = x - centerX
        dx -= (dx + 0.5).rounded(.down)  // nearest copy: −0.5 ≤ dx < 0.5
        let dotX = (centerX + dx - originX) * worldDots
        let dotY = (y - originY) * worldDots
        return (Int((dotX / Double(Viewport.dotsPerCellX)).rounded(.down)),
                Int((dotY / Double(Viewport.dotsPerCellY)).rounded(.down)))
    }

    public func cell(for p: GeoPoint) -> (col: Int, row: Int) {
        let w = Mercator.project(p)
        return cell(x: w.x, y: w.y)
    }

    /// The world position at the centre of a cell.
    public func worldPosition(col: Int, row: Int) -> (x: Double, y: Double) {
        let x = originX + (Double(col) + 0.5) * Double(Viewport.dotsPerCellX) / worldDots
        let y = originY + (Double(row) + 0.5) * Double(Viewport.dotsPerCellY) / worldDots
        return (x, y)
    }

    public func geoPoint(col: Int, row: Int) -> GeoPoint {
        let w = worldPosition(col: col, row: row)
        return Mercator.unproject(x: w.x, y: w.y)
    }
}
