import Foundation
import Model
import Geo

/// GPX (1.0 or 1.1): every <wpt> becomes a pin, with its <name>, its <time> and the album filter of
/// its `<extensions><vtourist:filter>` (children text, tag…, from, to, sort); routes and tracks are
/// counted, and with `readingLines` each <trkseg>'s <trkpt>s and each <rte>'s <rtept>s become a line
/// (checked as waypoints are: one bad point refuses the file). A document that declares entities is refused before parsing, so nothing
/// can expand (billion laughs); external entities are never resolved (`XMLScanner` knows only the
/// predefined ones).
enum GPXReader {
    static func read(_ data: Data, today: CalendarDay, readingLines: Bool = false) throws(PinFileError) -> PinFile {
        if declaresEntities(data) { throw .entityDeclarations }
        var scanner = XMLScanner(data)
        var points: [NewPin] = []
        var notPoints = 0
        var lines: [[GeoPoint]] = []
        /// The points of the open <trkseg> or <rte>, when lines are read.
        var openLine: [GeoPoint]?
        /// Tracks and routes with a point; whether the open one has one yet.
        var lineFeatures = 0
        var openFeatureHasPoint = false
        var open: [String] = []
        var sawRoot = false
        var closedRoot = false
        let times = PinFileText.TimeReader()
        /// The open waypoint: where it is, the line it starts on, and its name, time and filter so far.
        var waypoint: (point: GeoPoint, line: Int, name: String?, time: Date?, filter: FilterElements?)?
        /// The text of the waypoint's <name> or <time>, or of a child of its filter, being read, if one is open.
        var field: (name: String, text: String)?

        func finish(_ name: String) throws(XMLScanner.Failure) {
            let depth = open.count
            if depth == 3, let f = field, f.name == name {
                if name == "name" { waypoint?.name = PinFileText.name(f.text) }
                if name == "time" { waypoint?.time = times.date(f.text) }
                field = nil
            } else if depth == 5, let f = field, f.name == name {
                waypoint?.filter?.add(name, f.text)
                field = nil
            } else if depth == 2, name == "wpt", let w = waypoint {
                var filter = AlbumFilter.none
                if let elements = w.filter {
                    do throws(PinFileError) {
                        filter = try FilterReading.checked(FilterReading.decode(elements.object), today: today, place: "line \(w.line)")
                    } catch {
                        throw error.asScanFailure
                    }
                }
                points.append(NewPin(coordinate: w.point, name: w.name, createdAt: w.time, filter: filter))
                waypoint = nil
            } else if (depth == 2 && name == "rte") || (depth == 3 && name == "trkseg"), let l = openLine {
                if !l.isEmpty { lines.append(l) }
                openLine = nil
            } else if depth == 1, name == "gpx" {
                closedRoot = true
            }
            if depth == 2, name == "rte" || name == "trk", openFeatureHasPoint {
                lineFeatures += 1
                openFeatureHasPoint = false
            }
            open.removeLast()
        }

        do throws(XMLScanner.Failure) {
            while let event = try scanner.next() {
                switch event {
                case let .text(text):
                    if open.isEmpty {
                        guard text.allSatisfy(\.isWhitespace) else {
                            throw XMLScanner.Failure(line: scanner.line, detail: sawRoot ? "text after the document" : "no document (empty or not XML)")
                        }
                    }
                    field?.text += text
                case let .start(name, attributes, line, selfClosing):
                    if open.isEmpty {
                        guard !sawRoot else { throw XMLScanner.Failure(line: line, detail: "a second document element") }
                        guard name == "gpx" else { throw PinFileError.neitherFormat.asScanFailure }
                        sawRoot = true
                    }
                    open.append(name)
                    let depth = open.count
                    switch name {
                    case "wpt" where depth == 2:
                        let point = try position(attributes, tag: name, what: "waypoint", line: line)
                        waypoint = (point, line, nil, nil, nil)
                    case "rte" where depth == 2, "trk" where depth == 2:
                        notPoints += 1
                        openFeatureHasPoint = false
                        if readingLines && name == "rte" { openLine = [] }
                    case "trkseg" where depth == 3 && readingLines && open[1] == "trk":
                        openLine = []
                    case "rtept" where depth == 3 && open[1] == "rte", "trkpt" where depth == 4 && open[1] == "trk" && open[2] == "trkseg":
                        openFeatureHasPoint = true
                        if readingLines {
                            openLine?.append(try position(attributes, tag: name, what: name == "rtept" ? "route point" : "track point", line: line))
                        }
                    case "name" where depth == 3 && waypoint != nil, "time" where depth == 3 && waypoint != nil:
                        field = (name, "")
                    case "filter" where depth == 4 && waypoint != nil && open[2] == "extensions":
                        waypoint?.filter = FilterElements()
                    case _ where depth == 5 && open[3] == "filter" && waypoint?.filter != nil && FilterElements.names.contains(name):
                        field = (name, "")
                    default:
                        break
                    }
                    if selfClosing { try finish(name) }
                case let .end(name, line):
                    guard open.last == name else {
                        throw XMLScanner.Failure(line: line, detail: "an element is not closed where it should be")
                    }
                    try finish(name)
                }
            }
        } catch {
            if let ours = error.pinFileError { throw ours }
            throw .malformedXML(line: max(1, error.line), detail: error.detail)
        }
        guard sawRoot else {
            if scanner.line == 1 && data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                throw .malformedXML(line: 1, detail: "no document (empty or not XML)")
            }
            throw .neitherFormat
        }
        guard closedRoot, open.isEmpty else {
            throw .malformedXML(line: max(1, scanner.lastTagLine), detail: "the document ends before </gpx> (truncated?)")
        }
        return PinFile(format: .gpx, points: points, notPoints: notPoints, lineFeatures: lineFeatures, lines: lines)
    }

    /// The point of a <wpt>, <trkpt> or <rtept>: numeric lat and lon attributes on the globe.
    static func position(_ attributes: [String: String], tag: String, what: String, line: Int) throws(XMLScanner.Failure) -> GeoPoint {
        guard let latText = attributes["lat"], let lonText = attributes["lon"],
              let latitude = Double(latText.trimmingCharacters(in: .whitespaces)),
              let longitude = Double(lonText.trimmingCharacters(in: .whitespaces)) else {
            throw PinFileError.badPoint(place: "line \(line)", detail: "a <\(tag)> needs numeric lat and lon attributes").asScanFailure
        }
        if let why = PinFileText.rangeProblem(latitude: latitude, longitude: longitude) {
            throw PinFileError.badPoint(place: "line \(line)", detail: "\(what) \(why)").asScanFailure
        }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// The children of a waypoint's <vtourist:filter> (prefixes are dropped, so by local name), put in
    /// the filter's JSON shape for `FilterReading`. Each text is trimmed; an empty one is left out,
    /// except a tag's, which the check refuses.
    struct FilterElements {
        static let names: Set<String> = ["text", "tag", "from", "to", "sort"]
        var text: String?
        var tags: [String] = []
        var from: String?
        var to: String?
        var sort: String?

        mutating func add(_ name: String, _ raw: String) {
            let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let given = value.isEmpty ? nil : value
            switch name {
            case "text": text = given
            case "tag": tags.append(value)
            case "from": from = given
            case "to": to = given
            case "sort": sort = given
            default: break
            }
        }

        var object: [String: Any] {
            let none: Any = NSNull()
            var object: [String: Any] = ["tags": tags, "taken": ["from": from ?? none, "to": to ?? none]]
            if let text { object["text"] = text }
            if let sort { object["sort"] = sort }
            return object
        }
    }

    /// True when a DOCTYPE declares any entity. Looks only at the prolog, before the first element.
    static func declaresEntities(_ data: Data) -> Bool {
        let needle = Array("<!ENTITY".utf8)
        return data.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= needle.count else { return false }
            for i in 0...(bytes.count - needle.count) where bytes[i] == UInt8(ascii: "<") {
                if zip(needle.indices, needle).allSatisfy({ bytes[i + $0] == $1 }) { return true }
            }
            return false
        }
    }
}

extension PinFileError {
    /// Carried through the scanner's loop: a problem of ours stops the reading as a scan failure does.
    var asScanFailure: XMLScanner.Failure { XMLScanner.Failure(line: 0, detail: "", pinFileError: self) }
}

extension XMLScanner.Failure {
    init(line: Int, detail: String, pinFileError: PinFileError?) {
        self.init(line: line, detail: detail)
        self.pinFileError = pinFileError
    }
}
