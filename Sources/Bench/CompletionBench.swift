import Foundation
import Gazetteer
import TouristCore
import WorldMap

/// `vtourist-bench completion [DESTINATIONS]`: the go-to prompt's suggestions
/// as a traveller types, letter by letter, over the whole gazetteer (the
/// bundled places and the destinations file beside them, or DESTINATIONS).
enum CompletionBench {
    static let targetMs = 5.0

    static func run(destinations: String?) throws {
        let gazetteer: Gazetteer
        if let destinations {
            let places = try placesURL()
            gazetteer = try Gazetteer.load(from: places, destinations: URL(fileURLWithPath: destinations))
        } else {
            gazetteer = try Gazetteer.bundled()
        }
        let lookup = PlaceLookup.live(gazetteer)
        // The first use reads the destinations file; the first keystroke indexes the big places' names.
        var problem: GazetteerError?
        let readMs = milliseconds { problem = gazetteer.destinationsProblem }
        var first: [PlaceSuggestion] = []
        let firstMs = milliseconds { first = lookup.complete("V", 6) }
        let names = typedNames(gazetteer)
        var samples: [Double] = []
        var slowest: [(ms: Double, text: String)] = []
        var sink = first.count
        for name in names {
            var typed = ""
            for c in name {
                typed.append(c)
                let text = typed
                let ms = milliseconds { sink &+= lookup.complete(text, 6).count }
                samples.append(ms)
                slowest.append((ms, text))
            }
        }
        slowest.sort { $0.ms > $1.ms }
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print("Completion: the go-to prompt's 6 suggestions after each letter of \(names.count) names "
              + "(\(gazetteer.count) places, \(gazetteer.destinations.count) destinations)")
        if let problem { print("  destinations left aside: \(problem)") }
        print(String(format: "  reading the destinations at their first use: %.3f ms", readMs))
        print(String(format: "  first keystroke (indexes the big places' names): %.3f ms", firstMs))
        print(String(format: "  completion p95 %.3f ms  (median %.3f, p99 %.3f, max %.3f, n=%d)  [target < %g ms]",
                     percentile(0.95), percentile(0.5), percentile(0.99), sorted.last ?? 0, samples.count, targetMs)
              + (sink == 42 ? " " : ""))
        print("  slowest: " + slowest.prefix(8).map { "\u{201C}\($0.text)\u{201D} " + String(format: "%.1f ms", $0.ms) }
            .joined(separator: ", "))
    }

    /// The places file `bundled()` would use.
    private static func placesURL() throws -> URL {
        guard let url = ResourceLocator.url(for: Gazetteer.resourceName) else {
            throw GazetteerError.missingResource(Gazetteer.resourceName)
        }
        return url
    }

    /// What travellers type: places of every size, every destination (up to 400), some with a
    /// typo, a leading article, spaces left out, or a qualifier.
    static func typedNames(_ gazetteer: Gazetteer) -> [String] {
        var names: [String] = []
        let step = max(1, gazetteer.count / 300)
        for rank in stride(from: 0, to: gazetteer.count, by: step) {
            if let place = gazetteer.place(rank: rank) { names.append(place.name) }
        }
        let destinations = gazetteer.destinations
        let dstep = max(1, destinations.count / 400)
        for d in stride(from: 0, to: destinations.count, by: dstep).map({ destinations[$0] }) {
            names.append(d.name)
            if let alternate = d.alternates.first { names.append(alternate) }
        }
        names += ["Paris, Texas", "Naples, Florida", "the Eiffel Tower", "The Hague", "Machupicchu", "Newyork",
                  "Santorni", "Barcelnoa", "Eifel Tower", "Lodnon", "Veince", "Mount Fuij", "Sao Paulo", "Zürich",
                  "東京", "Москва", "Xyzzyq"]
        return names
    }
}
