import Foundation
import Model

/// The album filter a pin file carries, read in the JSON shape `album --json` prints, through
/// `AlbumFilter`'s own decoder (GPX's elements are put in that shape first), then checked as every
/// filter from outside is (`validated(today:)`). A problem is one line that names the field.
enum FilterReading {
    struct Problem: Error, Equatable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    static let notAnObject = "must be an object with text, tags, taken and sort (or null)"

    /// The filter where it stands in a document; never fails, so a bad one is reported with its point's place.
    struct Decoded: Decodable {
        var filter: Result<AlbumFilter, Problem>

        init(from decoder: any Decoder) throws {
            let depth = decoder.codingPath.count
            do {
                filter = .success(try AlbumFilter(from: decoder))
            } catch let error as DecodingError {
                filter = .failure(FilterReading.problem(error, below: depth))
            } catch {
                filter = .failure(Problem("\(error)"))
            }
        }
    }

    /// The decoded filter checked against `today`; a problem refuses the file, naming `place` and the field.
    static func checked(_ decoded: Result<AlbumFilter, Problem>, today: CalendarDay,
                        place: String) throws(PinFileError) -> AlbumFilter {
        switch decoded {
        case let .failure(problem):
            throw .badFilter(place: place, detail: problem.text)
        case let .success(filter):
            do { return try filter.validated(today: today) } catch { throw .badFilter(place: place, detail: error.description) }
        }
    }

    /// An object of the JSON shape (GPX's elements), decoded as a GeoJSON `filter` property is.
    static func decode(_ object: [String: Any]) -> Result<AlbumFilter, Problem> {
        guard let data = try? JSONSerialization.data(withJSONObject: object),
              let decoded = try? JSONDecoder().decode(Decoded.self, from: data) else { return .failure(Problem(notAnObject)) }
        return decoded.filter
    }

    /// The decoder's complaint in the filter's words: `AlbumFilter`'s own line for a bad date or order,
    /// else what the field `depth` keys down should hold.
    static func problem(_ error: DecodingError, below depth: Int) -> Problem {
        switch error {
        case let .dataCorrupted(context):
            return Problem(context.debugDescription)
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return Problem(expectation(context.codingPath.dropFirst(depth).first?.stringValue))
        case let .keyNotFound(key, _):
            return Problem(expectation(key.stringValue))
        @unknown default:
            return Problem(notAnObject)
        }
    }

    static func expectation(_ key: String?) -> String {
        switch key.flatMap(AlbumFilter.Field.init(rawValue:)) {
        case .text: "text: must be a string (or null)"
        case .tags: "tags: must be a list of strings"
        case .taken: "taken: must be {\"from\": …, \"to\": …}, each a date as a string or null"
        case .sort: "sort: must be one of " + AlbumSort.allCases.map(\.rawValue).joined(separator: ", ")
        case nil: notAnObject
        }
    }
}
