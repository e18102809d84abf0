import Foundation
import Geo
import TextSafety

/// The KM of `import --along KM`: how far apart, on the ground, the pins along a line are.
public struct AlongSpacing: Equatable, Sendable {
    /// From a hundred metres to half the way round the Earth.
    public static let range: ClosedRange<Double> = 0.1...20_000

    public let km: Double

    /// "0.1 to 20000", for help and messages.
    public static let rangeText = "\(PinFileText.echoed(range.lowerBound)) to \(PinFileText.echoed(range.upperBound))"
    private static let allowed = "a distance in kilometres from \(rangeText)"

    /// Why a KM was refused: one line, saying what is allowed.
    public struct Problem: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(km: Double) throws(Problem) {
        let allowed = Self.allowed
        guard km.isFinite else { throw Problem(description: "--along takes \(allowed), not \(km.isNaN ? "nan" : "infinity")") }
        guard Self.range.contains(km) else {
            throw Problem(description: "--along \(PinFileText.echoed(km)) is out of range: it takes \(allowed)")
        }
        self.km = km
    }

    /// The option's text: a decimal number (`10`, `2.5`, `1e3`); anything else, and a number out of
    /// range, is refused with the reason.
    public init(parsing text: String) throws(Problem) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let decimal = !trimmed.isEmpty && trimmed.allSatisfy { "0123456789.eE+-".contains($0) }
        guard decimal, let km = Double(trimmed) else {
            let shown = String(text.prefix(40)).strippingTerminalControls
            let allowed = Self.allowed
            if ["nan", "inf", "infinity", "+inf", "-inf", "+infinity", "-infinity"].contains(trimmed.lowercased()) {
                throw Problem(description: "--along takes \(allowed), not \(shown)")
            }
            throw Problem(description: "--along takes \(allowed) (e.g. --along 10), not \u{201C}\(shown)\u{201D}")
        }
        try self.init(km: km)
    }
}

/// Pins along a trip: a point every KM measured on the ground along each line (interpolated on the
/// great circle within a segment), and one at each end. Then every point closer than KM/2 to one
/// kept before it is merged into it (left out), in this order of precedence:
/// 1. the file's own points (waypoints) and the pins already stored are always kept, so a trip
///    through a place already pinned, or past a waypoint, adds no pin beside it;
/// 2. each line's start, then its end, then the points between, line after line; so a short last
///    stretch drops the point before the end, not the end, and a loop back to its start keeps the start.
///
/// Closeness is the great-circle distance between the points, not the distance along the line: an
/// out-and-back route or a track that was also saved as a route gets its pins once. Lines crossing
/// the antimeridian (179.9 → -179.9) take the short way, as every segment does. Repeated points
/// (segments of no length) are passed over; a line of one point (or of one point repeated) gives one.
///
/// The work is linear in the points of the lines and in the pins, whatever their number, and holds
/// only the points it makes: at most `maximumPoints`, checked before any is made.
public enum AlongSampler {
    /// Beyond this many points along the lines the command is refused: a bigger KM is asked for.
    public static let maximumPoints = 10_000

    /// The refusal when the lines would give too many points.
    public struct TooMany: Error, Equatable, CustomStringConvertible, Sendable {
        /// The points the lines would give before merging (an upper bound).
        public var count: Int
        public var spacing: AlongSpacing
        /// The smallest round KM (1, 2, 5 × 10ⁿ) that would do, if any does.
        public var suggestedKm: Double?

        public var description: String {
            let head = "--along \(PinFileText.echoed(spacing.km)) would put up to \(count) points along the lines, "
                + "more than \(AlongSampler.maximumPoints)"
            guard let suggestedKm else { return head + ": the file has too many tracks, routes or lines for pins along them" }
            return head + ": try --along \(PinFileText.echoed(suggestedKm)) or more"
        }
    }

    /// The points along the lines before merging.
    public struct Plan: Sendable {
        public let spacing: AlongSpacing
        /// One array per line (non-empty): start, the points every KM, end (when the line has a length).
        public let lines: [[GeoPoint]]
    }

    /// What is left after merging.
    public struct Points: Equatable, Sendable {
        /// The points to become pins, line after line, in order along each.
        public var points: [GeoPoint]
        /// How many fewer points there are for the pins already stored: without them there would be
        /// this many more (the points along a trip imported twice are all "near stored" the second time).
        public var nearStored: Int

        public init(points: [GeoPoint], nearStored: Int) {
            self.points = points
            self.nearStored = nearStored
        }
    }

    /// Checks the count, then makes the points every KM along each line. Pure; refuses before
    /// making anything when there would be more than `maximumPoints`.
    public static func plan(_ lines: [[GeoPoint]], every spacing: AlongSpacing) throws(TooMany) -> Plan {
        let lines = lines.filter { !$0.isEmpty }
        let lengths = lines.map(length)
        let count = lengths.reduce(0) { $0 + samples(length: $1, km: spacing.km) }
        if count > maximumPoints {
            throw TooMany(count: count, spacing: spacing, suggestedKm: suggestion(lengths))
        }
        return Plan(spacing: spacing, lines: zip(lines, lengths).map { sample($0, length: $1, km: spacing.km) })
    }

    /// Merges the plan's points with the file's waypoints, the stored pins and one another (see above).
    public static func merge(_ plan: Plan, waypoints: [GeoPoint], stored: [GeoPoint]) -> Points {
        let points = kept(plan, clearOf: waypoints + stored)
        let without = stored.isEmpty ? points.count : kept(plan, clearOf: waypoints).count
        return Points(points: points, nearStored: max(0, without - points.count))
    }

    private static func kept(_ plan: Plan, clearOf others: [GeoPoint]) -> [GeoPoint] {
        var grid = ProximityGrid(radiusKm: plan.spacing.km / 2)
        for point in others { grid.insert(point) }
        var kept: [[Bool]] = plan.lines.map { [Bool](repeating: false, count: $0.count) }
        for (l, line) in plan.lines.enumerated() {
            let last = line.count - 1
            for i in [0] + (last > 0 ? [last] : []) + Array(1..<max(1, last)) where !grid.hasPoint(near: line[i]) {
                kept[l][i] = true
                grid.insert(line[i])
            }
        }
        var points: [GeoPoint] = []
        for (l, line) in plan.lines.enumerated() {
            for (i, point) in line.enumerated() where kept[l][i] { points.append(point) }
        }
        return points
    }

    /// Both steps at once, for a caller with everything in hand.
    public static func points(along lines: [[GeoPoint]], every spacing: AlongSpacing,
                              waypoints: [GeoPoint] = [], stored: [GeoPoint] = []) throws(TooMany) -> Points {
        merge(try plan(lines, every: spacing), waypoints: waypoints, stored: stored)
    }

    // MARK: Sampling

    /// A point every `km` strictly inside a line this long: one at an exact multiple of `km` from the
    /// start that falls on the end (to a billionth of `km`) is the end itself.
    static func interiorCount(length: Double, km: Double) -> Int {
        let inside = length - km * 1e-9
        guard inside > 0 else { return 0 }
        return max(0, Int((inside / km).rounded(.up)) - 1)
    }

    /// The points a line this long gives before merging: its start, the interior ones, its end.
    static func samples(length: Double, km: Double) -> Int {
        length > 0 ? 2 + interiorCount(length: length, km: km) : 1
    }

    /// The line's length on the ground, segment by segment.
    static func length(_ line: [GeoPoint]) -> Double {
        var total = 0.0
        for i in line.indices.dropFirst() { total += distanceKm(line[i - 1], line[i]) }
        return total
    }

    static func sample(_ line: [GeoPoint], length: Double, km: Double) -> [GeoPoint] {
        guard length > 0, let first = line.first, let last = line.last else { return Array(line.prefix(1)) }
        let interior = interiorCount(length: length, km: km)
        var out: [GeoPoint] = [first]
        out.reserveCapacity(interior + 2)
        var k = 1
        var travelled = 0.0  // along the line to the start of segment i-1 → i
        var i = 1
        while k <= interior, i < line.count {
            let a = line[i - 1], b = line[i]
            let d = distanceKm(a, b)
            let target = Double(k) * km
            if d > 0, target <= travelled + d {
                out.append(interpolate(a, b, fraction: (target - travelled) / d))
                k += 1
            } else {
                travelled += d
                i += 1
            }
        }
        out.append(last)
        return out
    }

    /// The point `fraction` of the way from `a` to `b` along the great circle between them. Two
    /// antipodal points have no one great circle: the nearer of the two is taken.
    static func interpolate(_ a: GeoPoint, _ b: GeoPoint, fraction f: Double) -> GeoPoint {
        let u = Vector(a), v = Vector(b)
        let angle = atan2(u.cross(v).norm, u.dot(v))
        let s = sin(angle)
        guard s > 1e-12 else { return angle < 1 ? a : (f < 0.5 ? a : b) }
        let p = u.scaled(sin((1 - f) * angle) / s).plus(v.scaled(sin(f * angle) / s))
        return p.point
    }

    /// The smallest round KM at which the lines give no more than `maximumPoints`, if one does.
    static func suggestion(_ lengths: [Double]) -> Double? {
        // Each line gives at most 2 + length / km points.
        let room = Double(maximumPoints - 2 * lengths.count)
        guard room > 0 else { return nil }
        let least = max(AlongSpacing.range.lowerBound, lengths.reduce(0, +) / room)
        var magnitude = pow(10, (log10(least)).rounded(.down))
        while true {
            for step in [1.0, 2, 5] where step * magnitude >= least * (1 - 1e-12) {
                let km = step * magnitude
                guard km <= AlongSpacing.range.upperBound else { return nil }
                if lengths.reduce(0, { $0 + samples(length: $1, km: km) }) <= maximumPoints { return km }
            }
            magnitude *= 10
        }
    }
}

/// A point on the unit sphere.
struct Vector {
    var x, y, z: Double

    init(x: Double, y: Double, z: Double) { (self.x, self.y, self.z) = (x, y, z) }

    init(_ p: GeoPoint) {
        let la = p.latitude * .pi / 180, lo = p.longitude * .pi / 180
        self.init(x: cos(la) * cos(lo), y: cos(la) * sin(lo), z: sin(la))
    }

    func dot(_ o: Vector) -> Double { x * o.x + y * o.y + z * o.z }
    func cross(_ o: Vector) -> Vector { Vector(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x) }
    var norm: Double { (x * x + y * y + z * z).squareRoot() }
    func scaled(_ k: Double) -> Vector { Vector(x: x * k, y: y * k, z: z * k) }
    func plus(_ o: Vector) -> Vector { Vector(x: x + o.x, y: y + o.y, z: z + o.z) }

    var point: GeoPoint {
        let n = norm
        let latitude = asin(max(-1, min(1, z / n))) * 180 / .pi
        var longitude = atan2(y, x) * 180 / .pi
        if longitude <= -180 { longitude = 180 }
        return GeoPoint(latitude: latitude, longitude: max(-180, min(180, longitude)))
    }
}

/// Points kept so far, found by closeness in constant time: cubes of the chord of the radius on the
/// unit sphere, so every point within the radius lies in the 27 cubes around a point (no trouble at
/// the poles or the antimeridian).
struct ProximityGrid {
    private struct Cell: Hashable { var x, y, z: Int }

    private let radiusKm: Double
    private let side: Double
    private var cells: [Cell: [GeoPoint]] = [:]

    init(radiusKm: Double) {
        self.radiusKm = radiusKm
        // The chord of the radius, on a sphere of the Earth's mean radius; never below a hair, so a
        // cell index stays in range.
        let angle = min(radiusKm / earthRadiusKm, .pi)
        side = max(2 * sin(angle / 2), 1e-9)
    }

    private func cell(_ v: Vector) -> Cell {
        Cell(x: Int((v.x / side).rounded(.down)), y: Int((v.y / side).rounded(.down)), z: Int((v.z / side).rounded(.down)))
    }

    mutating func insert(_ point: GeoPoint) {
        cells[cell(Vector(point)), default: []].append(point)
    }

    /// Whether a point closer than the radius is kept.
    func hasPoint(near point: GeoPoint) -> Bool {
        let c = cell(Vector(point))
        // Exactly the radius apart is not closer (to a billionth of it, for rounding).
        let limit = radiusKm * (1 - 1e-9)
        for dx in -1...1 {
            for dy in -1...1 {
                for dz in -1...1 {
                    for other in cells[Cell(x: c.x + dx, y: c.y + dy, z: c.z + dz)] ?? [] where distanceKm(point, other) < limit {
                        return true
                    }
                }
            }
        }
        return false
    }
}
