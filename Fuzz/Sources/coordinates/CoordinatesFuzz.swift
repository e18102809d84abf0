import FuzzSupport
import Gazetteer
import Geo

/// Text typed at the go-to prompt (or given on the command line): a point on the globe, a reason
/// it cannot be one, or a place name, looked up in the bundled gazetteer as the prompt does
/// (completions, then the name itself); never a trap. Every point read, and one made from the
/// bytes, written in each of the app's forms reads back as itself (`CoordinateRoundTrip`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoordinates(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: fuzzData(data, size), as: UTF8.self)
    let read = parseCoordinates(text)
    for result in [read, parseCoordinates(words: text.split(separator: " ").map(String.init))] {
        if case let .coordinate(point) = result {
            FuzzCheck.that((-90...90).contains(point.latitude) && (-180...180).contains(point.longitude),
                           "\(text.debugDescription) read as \(point)")
            CoordinateRoundTrip.check(point)
        }
    }
    if case .coordinate = read { Acceptance.note(true) } else { Acceptance.note(false) }
    var input = FuzzBytes(data, size)
    CoordinateRoundTrip.check(CoordinateRoundTrip.point(&input))
    // The prompt takes at most 80 characters.
    if text.count <= 80, read == .notCoordinates, let gazetteer = GoTo.gazetteer {
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

enum CoordinateRoundTrip {
    /// Each way the app writes a point (the screens' four decimals, with or without hemispheres and
    /// degree signs; the files' and tables' `CoordinateNumber`), read by the go-to prompt's parser,
    /// gives the point back within half the last written decimal.
    static func check(_ point: GeoPoint) {
        let fourDecimals = 0.5e-4 + 1e-9
        let written: [(String, Double)] = [
            (point.formatted(.decimal), fourDecimals),
            (point.formatted(.hemispheres(degreeSign: true)), fourDecimals),
            (point.formatted(.hemispheres(degreeSign: false)), fourDecimals),
            (CoordinateNumber.text(point.latitude) + ", " + CoordinateNumber.text(point.longitude), 0.5e-7 + 1e-12),
            (CoordinateNumber.text(point.latitude) + " " + CoordinateNumber.text(point.longitude), 0.5e-7 + 1e-12),
        ]
        for (text, tolerance) in written {
            guard case let .coordinate(back) = parseCoordinates(text) else {
                return FuzzCheck.that(false, "\(point) written \(text.debugDescription) reads as \(parseCoordinates(text))")
            }
            FuzzCheck.that(abs(back.latitude - point.latitude) <= tolerance && abs(back.longitude - point.longitude) <= tolerance,
                           "\(point) written \(text.debugDescription) reads as \(back)")
        }
    }

    /// A point on the globe from the bytes: edges, tiny values, anything in range.
    static func point(_ input: inout FuzzBytes) -> GeoPoint {
        GeoPoint(latitude: degrees(&input, 90), longitude: degrees(&input, 180))
    }

    static func degrees(_ input: inout FuzzBytes, _ limit: Double) -> Double {
        switch input.int(in: 0...3) {
        case 0: return [-limit, 0, limit, -0.0, 1e-300, -4.9e-5, 5e-5][input.int(in: 0...6)]
        case 1:
            var bits: UInt64 = 0
            for _ in 0..<8 { bits = bits << 8 | UInt64(input.byte()) }
            let value = Double(bitPattern: bits)
            return value.isFinite && abs(value) <= limit ? value : 0
        default:
            let fraction = Double(input.int(in: 0...65_535) << 16 | input.int(in: 0...65_535)) / 4_294_967_295
            return fraction * 2 * limit - limit
        }
    }
}
