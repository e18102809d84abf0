import ArgumentParser
import Foundation
import Gazetteer
import Store
import Geo
import Model
import Terminal
import TextSafety
import TouristCore

struct Pins: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the pins.")

    @OptionGroup var database: DatabaseOptions

    @Flag(name: .long, help: "Print a JSON array.")
    var json = false

    func run() throws {
        try reportingFailures {
            let store = try database.openForReading()
            defer { try? store.close() }  // folds the WAL back into the file
            let pins: [Pin]
            do { pins = try store.pins() } catch { throw CommandFailure("\(error)") }
            if json {
                print(PinJSON.encode(pins, places: .bundled()))
            } else {
                print(PinTable.render(pins), terminator: "")
            }
        }
    }
}

/// `pins --json`: the objects SPEC 4 names.
enum PinJSON {
    struct Entry: Encodable, Sendable {
        var id: Int64
        var latitude: Double
        var longitude: Double
        /// The name shown (`Pin.shownName`): the user's own, else the nearest place's.
        var name: String?
        /// The nearest place's name, whatever the pin is called (`PinPlaces`).
        var place: String?
        /// The destination (landmark, island, region) the pin was dropped on, if any.
        var destination: String?
        var state: String
        var photos: Int
        var downloaded: Int
        var createdAt: String
        /// Nil for the plain album (`AlbumFilter.isEmpty`), written as null.
        var filter: AlbumFilter?

        enum CodingKeys: String, CodingKey {
            case id, latitude, longitude, name, place, destination, state, photos, downloaded, createdAt, filter
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(CoordinateJSON(latitude), forKey: .latitude)
            try c.encode(CoordinateJSON(longitude), forKey: .longitude)
            try c.encode(name, forKey: .name)  // null rather than absent
            try c.encode(place, forKey: .place)
            try c.encode(destination, forKey: .destination)  // null rather than absent
            try c.encode(state, forKey: .state)
            try c.encode(photos, forKey: .photos)
            try c.encode(downloaded, forKey: .downloaded)
            try c.encode(createdAt, forKey: .createdAt)
            try c.encode(filter, forKey: .filter)  // null rather than absent
        }
    }

    /// One pin as one object, as `pins --json` lists it.
    static func encode(_ entry: Entry) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entry), let text = String(data: data, encoding: .utf8) else { return "{}" }
        return text
    }

    /// `dates` is passed in: making a formatter costs more than formatting, and a listing has 10,000 pins.
    static func entry(_ pin: Pin, dates: ISO8601DateFormatter = ISO8601DateFormatter(), places: PinPlaces = .stored) -> Entry {
        let (place, destination) = places.names(pin)
        return Entry(id: pin.id, latitude: pin.coordinate.latitude, longitude: pin.coordinate.longitude,
              name: pin.shownName, place: place, destination: destination, state: pin.albumState.rawValue, photos: pin.photoCount,
              downloaded: pin.downloadedCount, createdAt: dates.string(from: pin.createdAt),
              filter: pin.filter.isEmpty ? nil : pin.filter)
    }

    static func encode(_ pins: [Pin], places: PinPlaces = .stored) -> String {
        if pins.isEmpty { return "[]" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let dates = ISO8601DateFormatter()
        guard let data = try? encoder.encode(pins.map { entry($0, dates: dates, places: places) }),
              let text = String(data: data, encoding: .utf8) else {
            return "[]"
        }
        return text
    }
}

/// What the JSON says of where a pin is: `place`, the nearest town, as a pin is named
/// (`PlaceLookup.pinName`), and `destination`, the landmark, island or region it was dropped on
/// (a pin dropped on one is named by it: `Gazetteer.destination(named:near:)` tells it from a town).
struct PinPlaces: Sendable {
    let names: @Sendable (Pin) -> (place: String?, destination: String?)

    /// As stored, without the gazetteer: the pin's place name, no destination.
    static let stored = PinPlaces { ($0.name, nil) }

    static func live(_ gazetteer: Gazetteer) -> PinPlaces {
        let lookup = PlaceLookup.live(gazetteer)
        return PinPlaces { pin in
            // Named by its town, as nearly every pin is: nothing to look up (10,000 pins list at once).
            guard let name = pin.name, !isTownName(name) else { return (pin.name, nil) }
            // Only a pin named by a destination is looked up (the nearest town is a search); any
            // other name is the place as stored.
            guard let destination = gazetteer.destination(named: name, near: pin.coordinate) else { return (name, nil) }
            return (lookup.pinName(pin.coordinate) ?? name, destination.name)
        }
    }

    /// Is it a town's name as a pin gets it (`Place.displayName`: "Naples, Campania, IT", ending in
    /// the country's code), not a destination's ("Eiffel Tower")?
    static func isTownName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars.suffix(4))
        return scalars.count == 4 && scalars[0] == "," && scalars[1] == " "
            && scalars[2...].allSatisfy { ("A"..."Z").contains($0) || $0 == "?" }
    }

    /// Over the bundled gazetteer; as stored when it cannot be read.
    static func bundled() -> PinPlaces {
        (try? Gazetteer.bundled()).map(live) ?? .stored
    }
}

/// A latitude or longitude in JSON: the very number `CoordinateNumber.text` writes (a Double would
/// carry float noise, and tiny values would come out with an exponent).
struct CoordinateJSON: Encodable {
    let degrees: Double
    init(_ degrees: Double) { self.degrees = degrees }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        let rounded = CoordinateNumber.rounded(degrees)
        // The encoder writes a Double's shortest digits, which are CoordinateNumber's text, except
        // below 1e-4 where they take an exponent; a Decimal (twice as slow) writes the text itself.
        if rounded == 0 || abs(rounded) >= 1e-4 {
            try c.encode(rounded)
        } else if let number = Decimal(string: CoordinateNumber.text(degrees), locale: Locale(identifier: "en_US_POSIX")) {
            try c.encode(number)
        } else {
            try c.encode(rounded)
        }
    }
}

/// `pins` without --json: one aligned row per pin.
enum PinTable {
    static func render(_ pins: [Pin]) -> String {
        if pins.isEmpty { return "No pins yet.\n" }
        var out = row(["ID", "LAT", "LON", "STATE", "PHOTOS", "NAME"])
        for p in pins {
            out += row([String(p.id),
                        CoordinateNumber.text(p.coordinate.latitude),
                        CoordinateNumber.text(p.coordinate.longitude),
                        p.albumState.rawValue,
                        "\(p.downloadedCount)/\(p.photoCount)",
                        sanitized(p.displayName)])
        }
        return out
    }

    private static let widths = [6, 11, 12, 11, 7]

    private static func row(_ fields: [String]) -> String {
        var line = ""
        for (i, f) in fields.enumerated() {
            if i < widths.count {
                let pad = String(repeating: " ", count: max(0, widths[i] - f.count))
                line += (i == 3 ? f + pad : pad + f) + "  "
            } else {
                line += f
            }
        }
        return line + "\n"
    }

    /// Text from the store never carries control characters or escape sequences to the
    /// terminal; a Japanese name stays Japanese (output may be a file, not a grid of cells).
    static func sanitized(_ s: String) -> String {
        s.strippingTerminalControls
    }
}
