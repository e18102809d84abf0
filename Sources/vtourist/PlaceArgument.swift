import Foundation
import Gazetteer
import Geo
import Terminal
import TouristCore

/// The words that name a place on the command line (`drop`, `move`): coordinates in any form the
/// go-to prompt reads, or the whole name of a place or destination (`Gazetteer.lookUp`). Nobody sees
/// suggestions here before the pin is stored, so a name that is not one is refused, not guessed.
enum PlaceArgument {
    /// What a name may be, for help texts.
    static let nameRule = "a place's or destination's own or alternate name (case, accents and punctuation aside, "
        + "a leading article optional; \"Paris, Texas\" or \"Oslo Norway\" says which); "
        + "any other name is refused with up to three suggestions"

    /// The point the words name, and the destination's name when they name one. The place found is
    /// named on stderr, so the match shows. `missing`: what to say when there are no words.
    static func locate(_ words: [String], gazetteer: Result<Gazetteer, any Error>, missing: String) throws
        -> (point: GeoPoint, destination: String?) {
        let text = PinTable.sanitized(words.joined(separator: " ").trimmingCharacters(in: .whitespaces))
        switch parseCoordinates(words: words) {
        case let .coordinate(point):
            return (point, nil)
        case let .outOfRange(why):
            throw CommandFailure.badInput("bad coordinates \u{201C}\(text)\u{201D}: \(why.prefix(1).lowercased() + why.dropFirst())")
        case .notCoordinates:
            guard !text.isEmpty else { throw CommandFailure.badInput(missing) }
            let places: Gazetteer
            do { places = try gazetteer.get() } catch {
                throw CommandFailure("cannot look up \u{201C}\(text)\u{201D}: \(error)")
            }
            let found = places.lookUp(text)
            if let problem = places.destinationsProblem {
                // Left aside, not fatal: the places still answer.
                StandardStream.error.write("vtourist: destinations left aside: \(PinTable.sanitized(problem.description))\n")
            }
            switch found {
            case let .unknown(suggestions):
                throw CommandFailure.badInput(unknownMessage(text, suggestions: suggestions))
            case let .found(feature):
                let p = feature.coordinate
                StandardStream.error.write("\(PinTable.sanitized(feature.displayName)) (\(p.formatted()))\n")
                if case .destination(let d) = feature { return (p, d.name) }
                return (p, nil)
            }
        }
    }

    /// "no place called “Lodnon”; did you mean London, England, GB?"
    static func unknownMessage(_ text: String, suggestions: [Feature]) -> String {
        let shown = "\u{201C}\(text.count > 60 ? text.prefix(60) + "…" : text)\u{201D}"
        let names = suggestions.map { PinTable.sanitized($0.displayName) }
        guard let last = names.last else {
            return "no place called \(shown), and not LAT LON either (e.g. -33.9 151.2, \"51.5, -0.12\", 51.5N 0.12W)"
        }
        // Names have commas in them: several are set apart by semicolons.
        let list = names.count == 1 ? last : names.dropLast().joined(separator: "; ") + "; or " + last
        return "no place called \(shown); did you mean \(list)?"
    }
}
