import Foundation
import Geo
import Gazetteer
import WorldMap

/// Place lookups the map needs: a struct of closures with a live value over
/// the bundled gazetteer and values tests control.
public struct PlaceLookup: Sendable {
    public var nearest: @Sendable (GeoPoint) -> (name: String, distanceKm: Double)?
    /// The nearest place if one is within that many kilometres (a bounded, cheaper search).
    public var nearestWithin: @Sendable (GeoPoint, Double) -> (name: String, distanceKm: Double)?
    public var complete: @Sendable (String, Int) -> [PlaceSuggestion]
    public var named: @Sendable (String) -> PlaceSuggestion?
    /// The names that may go on the map for a view (the runtime asks once per view).
    public var labels: @Sendable (Viewport) -> LabelCandidates
    /// Why the destinations are left aside (a damaged file), for the go-to prompt to say.
    public var problem: @Sendable () -> String?
    /// Gets `complete` ready in the background (the go-to prompt opens: a letter comes next).
    public var prepare: @Sendable () -> Void
    /// Waits for what `prepare` began (at quit).
    public var finishPreparing: @Sendable () -> Void

    public init(nearest: @escaping @Sendable (GeoPoint) -> (name: String, distanceKm: Double)?,
                complete: @escaping @Sendable (String, Int) -> [PlaceSuggestion],
                named: @escaping @Sendable (String) -> PlaceSuggestion?,
                labels: @escaping @Sendable (Viewport) -> LabelCandidates = { LabelCandidates(viewport: $0, items: []) },
                problem: @escaping @Sendable () -> String? = { nil },
                prepare: @escaping @Sendable () -> Void = {},
                finishPreparing: @escaping @Sendable () -> Void = {},
                nearestWithin: (@Sendable (GeoPoint, Double) -> (name: String, distanceKm: Double)?)? = nil) {
        self.nearest = nearest
        self.nearestWithin = nearestWithin ?? { point, km in nearest(point).flatMap { $0.distanceKm <= km ? $0 : nil } }
        self.complete = complete
        self.named = named
        self.labels = labels
        self.problem = problem
        self.prepare = prepare
        self.finishPreparing = finishPreparing
    }

    public static func live(_ gazetteer: Gazetteer) -> PlaceLookup {
        @Sendable func suggestion(_ f: Feature) -> PlaceSuggestion {
            PlaceSuggestion(name: f.name, displayName: f.displayName, coordinate: f.coordinate, population: f.weight,
                            kind: f.kind, extent: f.extent)
        }
        let countries = MapLabels.byArea(gazetteer.countries())
        let capitals = countries.compactMap { $0.capitalRank.flatMap(gazetteer.place(rank:)) }
        return PlaceLookup(
            nearest: { point in
                gazetteer.nearest(to: point).map { (name: $0.place.displayName, distanceKm: $0.distanceKm) }
            },
            // One ranking for the list, its Enter and `vtourist drop` (`Gazetteer.search`).
            complete: { text, limit in gazetteer.search(text, limit: limit).map { suggestion($0.feature) } },
            named: { text in gazetteer.feature(named: text).map(suggestion) },
            labels: { viewport in
                MapLabels.candidates(for: viewport, gazetteer: gazetteer, countries: countries, capitals: capitals)
            },
            problem: {
                guard case let .invalidDestinations(path, line, reason)? = gazetteer.destinationsProblem else {
                    return gazetteer.destinationsProblem.map { "Destinations left aside: \($0)" }
                }
                let file = URL(fileURLWithPath: path).lastPathComponent
                return "Destinations left aside: \(file)" + (line > 0 ? " line \(line)" : "") + ": \(reason)"
            },
            prepare: { gazetteer.prepareInBackground() },
            finishPreparing: { gazetteer.finishPreparing() },
            nearestWithin: { point, km in
                gazetteer.nearest(to: point, withinKm: km).map { (name: $0.place.displayName, distanceKm: $0.distanceKm) }
            }
        )
    }

    /// No places at all.
    public static let none = PlaceLookup(nearest: { _ in nil }, complete: { _, _ in [] }, named: { _ in nil })
}

extension PlaceLookup {
    /// A pin dropped farther than this from any known place gets no name.
    public static let namingRadiusKm = 100.0

    /// The name a pin at this point gets: the nearest known place, if one is near enough.
    public func pinName(_ point: GeoPoint) -> String? {
        nearestWithin(point, PlaceLookup.namingRadiusKm)?.name
    }
}
