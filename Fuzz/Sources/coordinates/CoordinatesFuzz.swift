import FuzzSupport
import Gazetteer

/// Text typed at the go-to prompt (or given on the command line): a point on the globe, a reason
/// it cannot be one, or a place name, looked up in the bundled gazetteer as the prompt does
/// (completions, then the name itself); never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoordinates(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: fuzzData(data, size), as: UTF8.self)
    for result in [parseCoordinates(text), parseCoordinates(words: text.split(separator: " ").map(String.init))] {
        if case let .coordinate(point) = result {
            FuzzCheck.that((-90...90).contains(point.latitude) && (-180...180).contains(point.longitude),
                           "\(text.debugDescription) read as \(point)")
        }
    }
    // The prompt takes at most 80 characters.
    if text.count <= 80, parseCoordinates(text) == .notCoordinates, let gazetteer = GoTo.gazetteer {
        let found = gazetteer.complete(text, limit: 6)
        FuzzCheck.that(found.count <= 6, "\(found.count) completions")
        _ = gazetteer.place(named: text)
        _ = asciiSpelling(text)
    }
    return 0
}

enum GoTo {
    /// The bundled places, read once.
    static let gazetteer = try? Gazetteer.bundled()
}
