import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Model
import WorldMap

/// GPX (1.0 or 1.1): every <wpt> becomes a pin, with its <name> and <time>; routes and tracks are
/// counted and skipped. A document that declares entities is refused before parsing, so nothing
/// can expand (billion laughs); external entities are never resolved.
enum GPXReader {
    static func read(_ data: Data) throws(PinFileError) -> PinFile {
        if declaresEntities(data) { throw .entityDeclarations }
        // A stream, read in chunks: libxml2 refuses a single chunk of more than 10 MB (100,000 waypoints).
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = true
        let delegate = Delegate()
        parser.delegate = delegate
        let parsed = parser.parse()
        // A problem of ours (a bad waypoint, not GPX) stops the parser: it comes first.
        if let problem = delegate.problem { throw problem }
        guard parsed else {
            let line = delegate.lastLine ?? parser.lineNumber
            throw .malformedXML(line: max(1, line), detail: describe(parser.parserError))
        }
        guard delegate.sawRoot else { throw .neitherFormat }
        // libxml2 through XMLParser may accept a document cut off after a closed element.
        guard delegate.isClosed else {
            throw .malformedXML(line: max(1, parser.lineNumber), detail: "the document ends before </gpx> (truncated?)")
        }
        return PinFile(format: .gpx, points: delegate.points, notPoints: delegate.notPoints)
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

    static func describe(_ error: (any Error)?) -> String {
        guard let error = error as NSError? else { return "the document ends too soon or is not XML" }
        // libxml2's codes (xmlParserErrors) for the mistakes people make.
        switch error.code {
        case 4: return "no document (empty or not XML)"
        case 5: return "the document ends too soon (truncated?)"
        case 76: return "an element is not closed where it should be"
        case 9: return "a character XML does not allow"
        case 68: return "an & that starts no entity (write &amp;)"
        case 73: return "a tag without its closing >"
        case 26: return "an undeclared entity"
        default: return "the XML parser's error \(error.code)"
        }
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var points: [NewPin] = []
        var notPoints = 0
        var problem: PinFileError?
        var sawRoot = false
        var lastLine: Int?
        private let times = PinFileText.TimeReader()

        /// The open waypoint: where it is, the line it starts on, and its name and time so far.
        private var waypoint: (point: GeoPoint, line: Int, name: String?, time: Date?)?
        /// The text of the waypoint's <name> or <time> being read, if one is open.
        private var field: (name: String, text: String)?
        private var depth = 0
        private var closedRoot = false
        var isClosed: Bool { closedRoot && depth == 0 }

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            if depth == 1 {
                guard element == "gpx" else {
                    fail(parser, .neitherFormat)
                    return
                }
                sawRoot = true
                return
            }
            switch element {
            case "wpt" where depth == 2:
                let line = parser.lineNumber
                guard let latText = attributes["lat"], let lonText = attributes["lon"],
                      let latitude = Double(latText.trimmingCharacters(in: .whitespaces)),
                      let longitude = Double(lonText.trimmingCharacters(in: .whitespaces)) else {
                    fail(parser, .badPoint(place: "line \(line)", detail: "a <wpt> needs numeric lat and lon attributes"))
                    return
                }
                if let why = PinFileText.rangeProblem(latitude: latitude, longitude: longitude) {
                    fail(parser, .badPoint(place: "line \(line)", detail: "waypoint \(why)"))
                    return
                }
                waypoint = (GeoPoint(latitude: latitude, longitude: longitude), line, nil, nil)
            case "rte" where depth == 2, "trk" where depth == 2:
                notPoints += 1
            case "name" where depth == 3 && waypoint != nil, "time" where depth == 3 && waypoint != nil:
                field = (element, "")
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            field?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            field?.text += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            defer { depth -= 1 }
            if depth == 1, element == "gpx" { closedRoot = true }
            if depth == 3, let open = field, open.name == element {
                if element == "name" { waypoint?.name = PinFileText.name(open.text) }
                if element == "time" { waypoint?.time = times.date(open.text) }
                field = nil
            } else if depth == 2, element == "wpt", let w = waypoint {
                points.append(NewPin(coordinate: w.point, name: w.name, createdAt: w.time))
                waypoint = nil
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if lastLine == nil { lastLine = parser.lineNumber }
        }

        private func fail(_ parser: XMLParser, _ error: PinFileError) {
            if problem == nil { problem = error }
            parser.abortParsing()
        }
    }
}
