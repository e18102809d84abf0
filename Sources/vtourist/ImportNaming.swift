import Foundation
import Gazetteer
import Model
import TextSafety
import TouristCore

/// How imported pins are named: each by its nearest place, as a dropped pin is; the file's name
/// becomes the pin's own name when it is another (`PinName.own`), cut to `PinName.maxLength`
/// characters rather than refusing the file for it.
enum ImportNaming {
    static func named(_ points: [NewPin], places: PlaceLookup?) -> [NewPin] {
        points.map { point in
            var pin = point
            let place = places?.pinName(point.coordinate)
            pin.name = place
            pin.ownName = point.name.flatMap { text in
                let cut = String(text.strippingTerminalControls.prefix(PinName.maxLength))
                return try? PinName.own(cut, nearestPlace: place)
            }
            return pin
        }
    }

    /// The bundled places, or nil when they cannot be read (pins are then named by the file alone).
    static func bundledPlaces() -> PlaceLookup? {
        (try? Gazetteer.bundled()).map(PlaceLookup.live)
    }
}
