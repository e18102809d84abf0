import Foundation
import Model
import Geo

/// Reads a GeoJSON or GPX file into pins to add. The format is told by the first character:
/// `{` GeoJSON, `<` XML (which must be a <gpx> document). Any bad point refuses the whole file, and so
/// does a bad album filter: filters are checked as the editor checks them, against `today`. With
/// `readingLines` the points of tracks, routes and lines are read too (`PinFile.lines`), and checked
/// as points are; without it they are only counted, as before there were pins along them.
public enum PinFileReader {
    /// Reads the file at `path`, refusing a missing file and a folder with a message that says so.
    /// Anything that can be read from start to end will do: a pipe, `/dev/stdin`, `<(command)`.
    public static func read(path: String, today: CalendarDay = .today(), readingLines: Bool = false) throws(PinFileError) -> PinFile {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .missing(path: path) }
        if isFolder.boolValue { throw .folder(path: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, detail: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try read(descriptor: fd, path: path, today: today, readingLines: readingLines)
    }

    /// Reads an open descriptor (standard input for `-`) to its end.
    public static func read(descriptor fd: Int32, path: String, today: CalendarDay = .today(),
                            readingLines: Bool = false) throws(PinFileError) -> PinFile {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                data.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                break
            } else if errno != EINTR {
                throw .unreadable(path: path, detail: errno == EISDIR ? "a folder" : String(cString: strerror(errno)))
            }
        }
        return try read(data, today: today, readingLines: readingLines)
    }

    public static func read(_ data: Data, today: CalendarDay = .today(), readingLines: Bool = false) throws(PinFileError) -> PinFile {
        var bytes = data[...]
        // A UTF-8 byte order mark is allowed before either format.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { !isWhitespace($0) }) else { throw .empty }
        switch first {
        case UInt8(ascii: "{"): return try GeoJSONReader.read(Data(bytes), today: today, readingLines: readingLines)
        case UInt8(ascii: "["): throw .jsonButNotGeoJSON(detail: "a JSON array, not a FeatureCollection")
        case UInt8(ascii: "<"): return try GPXReader.read(Data(bytes), today: today, readingLines: readingLines)
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

/// GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare geometry. Points become pins; features
/// with other geometries (or none) are counted and skipped, except that with `readingLines` the
/// LineStrings and MultiLineStrings (bare or in a GeometryCollection) become lines. Decoded into small values rather than
/// Foundation objects: 100,000 features take tens of megabytes, not a gigabyte.
enum GeoJSONReader {
    static func read(_ data: Data, today: CalendarDay, readingLines: Bool = false) throws(PinFileError) -> PinFile {
        let decoder = JSONDecoder()
        decoder.userInfo[readingLinesKey] = readingLines
        let top: Top
        do {
            top = try decoder.decode(Top.self, from: data)
        } catch {
            throw .malformedJSON(detail: PinFileReader.oneLine(syntaxProblem(data) ?? detail(error)))
        }
        var points: [NewPin] = []
        var notPoints = 0
        var lineFeatures = 0
        var lines: [[GeoPoint]] = []
        let times = PinFileText.TimeReader()
        func add(_ item: Item, place: String) throws(PinFileError) {
            switch item.shape {
            case let .point(longitude, latitude):
                if let problem = PinFileText.rangeProblem(latitude: latitude, longitude: longitude) {
                    throw .badPoint(place: place, detail: problem)
                }
                let filter = try FilterReading.checked(item.filter, today: today, place: place)
                points.append(NewPin(coordinate: GeoPoint(latitude: latitude, longitude: longitude),
                                     name: PinFileText.name(item.name), createdAt: item.created.flatMap(times.date),
                                     filter: filter))
            case .notAPoint:
                notPoints += 1
            case let .lines(read):
                notPoints += 1
                lineFeatures += 1
                lines += read.filter { !$0.isEmpty }
            case let .bad(why):
                throw .badPoint(place: place, detail: why)
            }
        }
        switch top.type {
        case "FeatureCollection":
            guard let features = top.features else {
                throw .jsonButNotGeoJSON(detail: "a FeatureCollection without a \"features\" array")
            }
            points.reserveCapacity(features.count)
            for (i, feature) in features.enumerated() { try add(feature, place: "feature \(i + 1)") }
        case "Feature":
            try add(decodeAgain(Item.self, data, decoder), place: "feature 1")
        case let type? where geometryTypes.contains(type):
            try add(Item(geometry: decodeAgain(Geometry.self, data, decoder)), place: "the geometry")
        case let type?:
            throw .jsonButNotGeoJSON(detail: "unknown type \"\(type.prefix(40))\"")
        case nil:
            throw .jsonButNotGeoJSON(detail: "no \"type\" (expected FeatureCollection, Feature or Point)")
        }
        return PinFile(format: .geojson, points: points, notPoints: notPoints, lineFeatures: lineFeatures, lines: lines)
    }

    /// Tells `Geometry` to read the points of lines (a Bool in the decoder's user info).
    static let readingLinesKey = CodingUserInfoKey(rawValue: "readingLines")!

    /// A single Feature or geometry: the document already decoded once, so this cannot fail on syntax.
    private static func decodeAgain<T: Decodable>(_ type: T.Type, _ data: Data, _ decoder: JSONDecoder) throws(PinFileError) -> T {
        do { return try decoder.decode(type, from: data) } catch {
            throw .malformedJSON(detail: PinFileReader.oneLine(detail(error)))
        }
    }

    /// JSONSerialization says where the syntax breaks ("Unexpected end of file", "around character 43");
    /// the decoder only that it does. Asked only once the file has been found bad.
    static func syntaxProblem(_ data: Data) -> String? {
        do { _ = try JSONSerialization.jsonObject(with: data) } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        }
        return nil
    }

    /// The parser's own words (where it stopped), without Foundation's wrapping.
    static func detail(_ error: any Error) -> String {
        guard case let DecodingError.dataCorrupted(context) = error else { return "\(error)" }
        if let underlying = context.underlyingError as NSError?,
           let text = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
            return text
        }
        return context.debugDescription
    }

    static let geometryTypes: Set<String> = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection",
    ]

    enum Keys: String, CodingKey { case type, features, geometry, geometries, properties, coordinates, name, created, filter }

    struct Top: Decodable {
        var type: String?
        /// Nil when absent or not an array.
        var features: [Item]?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            type = try? c.decode(String.self, forKey: .type)
            features = try? c.decode([Item].self, forKey: .features)
        }
    }

    /// What one geometry is; never fails to decode, so one odd feature names itself instead of the file.
    struct Geometry: Decodable {
        /// Whether a LineString's (or a MultiLineString's part's) coordinates hold a position, looked at
        /// without decoding them; true too when they are not arrays (nothing can be told).
        static func holdsAPosition(_ c: KeyedDecodingContainer<Keys>, multi: Bool) -> Bool {
            guard var positions = try? c.nestedUnkeyedContainer(forKey: .coordinates) else { return true }
            guard multi else { return !positions.isAtEnd }
            while !positions.isAtEnd {
                // A part that is not an array is not stepped over by a failed look: stop there.
                guard let part = try? positions.nestedUnkeyedContainer() else { return true }
                if !part.isAtEnd { return true }
            }
            return false
        }

        var shape: Item.Shape
        /// Its `type`, empty when it has none.
        var type = ""

        init(from decoder: any Decoder) throws {
            guard let c = try? decoder.container(keyedBy: Keys.self) else {
                shape = .bad("\"geometry\" is neither an object nor null")
                return
            }
            guard let type = try? c.decode(String.self, forKey: .type) else {
                shape = .bad("a geometry without a \"type\"")
                return
            }
            self.type = type
            let reading = decoder.userInfo[GeoJSONReader.readingLinesKey] as? Bool ?? false
            switch type {
            case "Point":
                break
            case "LineString", "MultiLineString":
                guard reading else {
                    // Counted without reading its points; one without any position is no line (as a GPX
                    // track without points). Coordinates that are not arrays at all count: the reading
                    // that needs them refuses them.
                    shape = Self.holdsAPosition(c, multi: type == "MultiLineString") ? .lines([]) : .notAPoint
                    return
                }
                // Strict as for a Point: each position is [longitude, latitude, …] numbers on the globe.
                let parts: [[[Double]]]? = type == "LineString"
                    ? (try? c.decode([[Double]].self, forKey: .coordinates)).map { [$0] }
                    : try? c.decode([[[Double]]].self, forKey: .coordinates)
                guard let parts else {
                    shape = .bad("a \(type)'s coordinates must be [longitude, latitude] numbers")
                    return
                }
                var lines: [[GeoPoint]] = []
                lines.reserveCapacity(parts.count)
                for part in parts {
                    var line: [GeoPoint] = []
                    line.reserveCapacity(part.count)
                    for (i, position) in part.enumerated() {
                        guard position.count >= 2 else {
                            shape = .bad("a \(type)'s coordinates must be [longitude, latitude] numbers")
                            return
                        }
                        if let problem = PinFileText.rangeProblem(latitude: position[1], longitude: position[0]) {
                            shape = .bad("\(type) position \(i + 1): \(problem)")
                            return
                        }
                        line.append(GeoPoint(latitude: position[1], longitude: position[0]))
                    }
                    lines.append(line)
                }
                shape = lines.contains { !$0.isEmpty } ? .lines(lines) : .notAPoint
                return
            case "GeometryCollection":
                // Its lines count; its other members (points too) are skipped, as before.
                let members = (try? c.decode([Geometry].self, forKey: .geometries)) ?? []
                var lines: [[GeoPoint]] = []
                var hasLines = false
                for member in members {
                    switch member.shape {
                    case let .lines(l):
                        hasLines = true
                        lines += l
                    case let .bad(why) where reading && ["LineString", "MultiLineString", "GeometryCollection"].contains(member.type):
                        shape = .bad(why)
                        return
                    default:
                        break
                    }
                }
                shape = hasLines ? .lines(lines) : .notAPoint
                return
            default:
                shape = .notAPoint
                return
            }
            // Strict: strings and true/false are not numbers.
            guard let position = try? c.decode([Double].self, forKey: .coordinates), position.count >= 2 else {
                shape = .bad("a Point's coordinates must be [longitude, latitude] numbers")
                return
            }
            shape = .point(longitude: position[0], latitude: position[1])
        }
    }

    struct Item: Decodable {
        /// `lines` is a line geometry; its lines are empty unless they were read.
        enum Shape { case point(longitude: Double, latitude: Double), notAPoint, lines([[GeoPoint]]), bad(String) }
        var shape: Shape
        var name: String?
        var created: String?
        /// The `filter` property as decoded, not yet checked; `.none` when absent or null.
        var filter: Result<AlbumFilter, FilterReading.Problem> = .success(.none)

        init(geometry: Geometry) {
            shape = geometry.shape
        }

        init(from decoder: any Decoder) throws {
            guard let c = try? decoder.container(keyedBy: Keys.self),
                  (try? c.decode(String.self, forKey: .type)) == "Feature" else {
                shape = .bad("not a Feature object")
                return
            }
            if !c.contains(.geometry) || (try? c.decodeNil(forKey: .geometry)) == true {
                shape = .notAPoint
            } else {
                shape = (try? c.decode(Geometry.self, forKey: .geometry))?.shape
                    ?? .bad("\"geometry\" is neither an object nor null")
            }
            if let properties = try? c.nestedContainer(keyedBy: Keys.self, forKey: .properties) {
                name = try? properties.decode(String.self, forKey: .name)
                created = try? properties.decode(String.self, forKey: .created)
                if properties.contains(.filter), (try? properties.decodeNil(forKey: .filter)) != true {
                    filter = (try? properties.decode(FilterReading.Decoded.self, forKey: .filter))?.filter
                        ?? .failure(FilterReading.Problem(FilterReading.notAnObject))
                }
            }
        }
    }
}
