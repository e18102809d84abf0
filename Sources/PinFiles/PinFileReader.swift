import Foundation
import Model
import WorldMap

/// Reads a GeoJSON or GPX file into pins to add. The format is told by the first character:
/// `{` GeoJSON, `<` XML (which must be a <gpx> document). Any bad point refuses the whole file.
public enum PinFileReader {
    /// Reads the file at `path`, refusing a missing file and a folder with a message that says so.
    public static func read(path: String) throws(PinFileError) -> PinFile {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .missing(path: path) }
        if isFolder.boolValue { throw .folder(path: path) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
            throw .unreadable(path: path, detail: oneLine(reason))
        }
        return try read(data)
    }

    public static func read(_ data: Data) throws(PinFileError) -> PinFile {
        var bytes = data[...]
        // A UTF-8 byte order mark is allowed before either format.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { !isWhitespace($0) }) else { throw .empty }
        switch first {
        case UInt8(ascii: "{"): return try GeoJSONReader.read(Data(bytes))
        case UInt8(ascii: "["): throw .jsonButNotGeoJSON(detail: "a JSON array, not a FeatureCollection")
        case UInt8(ascii: "<"): return try GPXReader.read(Data(bytes))
        default: throw .neitherFormat
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare Point. Points become pins; features
/// with other geometries (or none) are counted and skipped.
enum GeoJSONReader {
    static func read(_ data: Data) throws(PinFileError) -> PinFile {
        let top: Any
        do {
            top = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "not valid JSON"
            throw .malformedJSON(detail: PinFileReader.oneLine(detail))
        }
        guard let object = top as? [String: Any] else { throw .jsonButNotGeoJSON(detail: "not an object") }
        var reader = GeoJSONReader.State()
        switch object["type"] as? String {
        case "FeatureCollection":
            guard let features = object["features"] as? [Any] else {
                throw .jsonButNotGeoJSON(detail: "a FeatureCollection without a \"features\" array")
            }
            reader.points.reserveCapacity(features.count)
            for (i, feature) in features.enumerated() {
                try reader.feature(feature, place: "feature \(i + 1)")
            }
        case "Feature":
            try reader.feature(object, place: "feature 1")
        case let type? where geometryTypes.contains(type):
            try reader.geometry(object, properties: nil, place: "the geometry")
        case let type?:
            throw .jsonButNotGeoJSON(detail: "unknown type \"\(type.prefix(40))\"")
        case nil:
            throw .jsonButNotGeoJSON(detail: "no \"type\" (expected FeatureCollection, Feature or Point)")
        }
        return PinFile(format: .geojson, points: reader.points, notPoints: reader.notPoints)
    }

    static let geometryTypes: Set<String> = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection",
    ]

    struct State {
        var points: [NewPin] = []
        var notPoints = 0
        let times = PinFileText.TimeReader()

        mutating func feature(_ value: Any, place: String) throws(PinFileError) {
            guard let feature = value as? [String: Any], feature["type"] as? String == "Feature" else {
                throw .badPoint(place: place, detail: "not a Feature object")
            }
            let properties = feature["properties"] as? [String: Any]
            switch feature["geometry"] {
            case let geometry as [String: Any]:
                try self.geometry(geometry, properties: properties, place: place)
            case nil, is NSNull:
                notPoints += 1
            default:
                throw .badPoint(place: place, detail: "\"geometry\" is neither an object nor null")
            }
        }

        mutating func geometry(_ geometry: [String: Any], properties: [String: Any]?, place: String) throws(PinFileError) {
            guard let type = geometry["type"] as? String else {
                throw .badPoint(place: place, detail: "a geometry without a \"type\"")
            }
            guard type == "Point" else {
                notPoints += 1
                return
            }
            guard let position = geometry["coordinates"] as? [Any], position.count >= 2,
                  let longitude = number(position[0]), let latitude = number(position[1]) else {
                throw .badPoint(place: place, detail: "a Point's coordinates must be [longitude, latitude] numbers")
            }
            if let problem = PinFileText.rangeProblem(latitude: latitude, longitude: longitude) {
                throw .badPoint(place: place, detail: problem)
            }
            let name = PinFileText.name(properties?["name"] as? String)
            let created = (properties?["created"] as? String).flatMap(times.date)
            points.append(NewPin(coordinate: GeoPoint(latitude: latitude, longitude: longitude), name: name,
                                 createdAt: created))
        }

        /// A JSON number; true and false are not numbers (Foundation hands them over as NSNumbers too).
        func number(_ value: Any) -> Double? {
            guard let n = value as? NSNumber, !String(describing: type(of: n)).contains("Boolean") else { return nil }
            return n.doubleValue
        }
    }
}
