import TextSafety

/// Why a pin file was refused: one line, naming the point (1-based feature index or line) where there is one.
/// A refused file adds nothing.
public enum PinFileError: Error, Equatable, CustomStringConvertible, Sendable {
    case missing(path: String)
    case folder(path: String)
    case unreadable(path: String, detail: String)
    case empty
    case neitherFormat
    case jsonButNotGeoJSON(detail: String)
    case malformedJSON(detail: String)
    case malformedXML(line: Int, detail: String)
    case entityDeclarations
    /// `place` is "feature 3" (GeoJSON) or "line 12" (GPX).
    case badPoint(place: String, detail: String)
    /// The album filter of a point was refused: `detail` names the field (`taken: …`). `place` as for `badPoint`.
    case badFilter(place: String, detail: String)

    /// One line, whatever the file held: a value quoted from it (a `type` of "a\nb", an escape
    /// sequence) is cleaned by the one rule for untrusted text, its line breaks becoming spaces.
    public var description: String { text.strippingTerminalControls }

    private var text: String {
        switch self {
        case .missing: "no such file"
        case .folder: "a folder, not a GeoJSON or GPX file"
        case let .unreadable(_, detail): "cannot read it: \(detail)"
        case .empty: "the file is empty"
        case .neitherFormat: "neither GeoJSON nor GPX (expected a JSON object or a <gpx> document)"
        case let .jsonButNotGeoJSON(detail): "JSON but not GeoJSON: \(detail)"
        case let .malformedJSON(detail): "malformed JSON: \(detail.hasSuffix(".") ? String(detail.dropLast()) : detail)"
        case let .malformedXML(line, detail): "malformed XML at line \(line): \(detail)"
        case .entityDeclarations: "refused: the GPX declares XML entities (<!ENTITY>), which vtourist never expands"
        case let .badPoint(place, detail): "\(place): \(detail)"
        case let .badFilter(place, detail): "\(place): bad filter: \(detail)"
        }
    }

    /// True when the file was read and refused for what it holds (rather than missing or unreadable).
    public var isAboutContents: Bool {
        switch self {
        case .missing, .folder, .unreadable: false
        default: true
        }
    }
}
