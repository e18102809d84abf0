import Foundation
import FuzzSupport
import Geo
import Model
import PinFiles

/// Bytes as a file given to `vtourist import`: pins on the globe, or one line saying why the file
/// is refused; never a trap (GeoJSON through JSONDecoder, GPX through XMLScanner). Then the round
/// trip `export` → `import`: the pins read (or, when none, pins made from the same bytes as values),
/// written in each format and read back, are the same pins (`PinRoundTrip`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPinFiles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Each time written and read costs date formatters: one set of pins per input.
    var pins: [Pin] = []
    let bytes = fuzzData(data, size)
    var plain: PinFile?
    defer { AlongCheck.check(bytes, plain: plain) }
    do {
        let file = try PinFileReader.read(bytes)
        plain = file
        FuzzCheck.that(file.notPoints >= 0, "notPoints \(file.notPoints)")
        for pin in file.points {
            let p = pin.coordinate
            FuzzCheck.that((-90...90).contains(p.latitude) && (-180...180).contains(p.longitude), "a pin at \(p)")
        }
        pins = file.points.prefix(8).enumerated().map { i, point in
            Pin(id: Pin.ID(i + 1), coordinate: point.coordinate, name: point.name,
                createdAt: point.createdAt ?? PinRoundTrip.someTime, photoCount: i)
        }
    } catch {
        FuzzCheck.that(!error.description.contains("\n"), "a message of more than one line: \(error.description)")
    }
    Acceptance.note(!pins.isEmpty)
    if pins.isEmpty {
        var input = FuzzBytes(data, size)
        pins = PinRoundTrip.pins(&input)
    }
    if !pins.isEmpty { PinRoundTrip.check(pins) }
    return 0
}

enum PinRoundTrip {
    static let someTime = Date(timeIntervalSince1970: 1_764_000_000.123)

    /// Written in each format and read back: as many points, each within the format's precision of
    /// its pin (`CoordinateNumber`'s decimals, the time to the millisecond), its name as it was
    /// (in GPX unless it holds a character XML cannot carry: then read back once more, it stays).
    static func check(_ pins: [Pin]) {
        for format in PinFileFormat.allCases {
            let back = readBack(pins, format)
            for (pin, point) in zip(pins, back) {
                let what = "\(format) pin \(pin.id) \(pin.name.debugDescription) at \(pin.coordinate) on \(pin.createdAt.timeIntervalSince1970)"
                FuzzCheck.that(CoordinateNumber.units(point.coordinate.latitude) == CoordinateNumber.units(pin.coordinate.latitude)
                               && CoordinateNumber.units(point.coordinate.longitude) == CoordinateNumber.units(pin.coordinate.longitude),
                               "\(what) read back at \(point.coordinate)")
                if format == .geojson || !(pin.name?.unicodeScalars.contains(where: notInXML) ?? false) {
                    FuzzCheck.that(point.name.map { Array($0.unicodeScalars) } == pin.name.map { Array($0.unicodeScalars) },
                                   "\(what) read back named \(point.name.debugDescription)")
                }
                let time = point.createdAt?.timeIntervalSince1970
                FuzzCheck.that(time.map { abs($0 - pin.createdAt.timeIntervalSince1970) < 0.001 } ?? false,
                               "\(what) read back made \(time.map { "\($0)" } ?? "at no time")")
            }
            // A name XML cannot carry as it is was written as it can: once read back, it stays.
            guard format == .gpx, pins.contains(where: { $0.name?.unicodeScalars.contains(where: notInXML) ?? false }) else { continue }
            let again = back.enumerated().map { i, point in
                Pin(id: Pin.ID(i + 1), coordinate: point.coordinate, name: point.name, createdAt: point.createdAt ?? someTime)
            }
            FuzzCheck.that(readBack(again, format) == back, "\(format): a second round trip changed the pins")
        }
    }

    static func readBack(_ pins: [Pin], _ format: PinFileFormat) -> [NewPin] {
        let text = PinFileWriter.write(pins, as: format)
        do {
            let file = try PinFileReader.read(Data(text.utf8))
            FuzzCheck.that(file.format == format && file.notPoints == 0 && file.points.count == pins.count,
                           "\(pins.count) pins written as \(format), \(file.points.count) read as \(file.format), \(file.notPoints) not points")
            return file.points
        } catch {
            FuzzCheck.that(false, "\(pins.count) pins written as \(format) refused: \(error.description)\n\(text)")
            return []
        }
    }

    /// What XML 1.0 cannot carry at all: controls other than tab and line breaks, U+FFFE, U+FFFF.
    static func notInXML(_ s: Unicode.Scalar) -> Bool {
        (s.value < 0x20 && s != "\t" && s != "\n" && s != "\r") || s.value == 0xFFFE || s.value == 0xFFFF
    }

    /// Up to four pins made from the bytes: anywhere on the globe (edges and tiny values too), any
    /// name a file can give (trimmed, none when blank, as `import` stores it), any time from year 1 to 9999.
    static func pins(_ input: inout FuzzBytes) -> [Pin] {
        (0..<input.int(in: 0...4)).map { i in
            let latitude = degrees(&input, 90), longitude = degrees(&input, 180)
            let name = input.bool() ? nil : input.text(maxLength: 40).trimmingCharacters(in: .whitespacesAndNewlines)
            let seconds = Double(input.int(in: 0...65_535) << 16 | input.int(in: 0...65_535)) / 4_294_967_295
                * (253_402_300_799 + 62_135_596_800) - 62_135_596_800
            return Pin(id: Pin.ID(i + 1), coordinate: GeoPoint(latitude: latitude, longitude: longitude),
                       name: name?.isEmpty == false ? name : nil,
                       createdAt: Date(timeIntervalSince1970: input.bool() ? seconds.rounded() : seconds),
                       photoCount: input.int(in: 0...60))
        }
    }

    static func degrees(_ input: inout FuzzBytes, _ limit: Double) -> Double {
        switch input.int(in: 0...7) {
        case 0: return [-limit, 0, limit, -0.0][input.int(in: 0...3)]
        case 1:
            // Any double in range: subnormals, values just under a rounding boundary.
            var bits: UInt64 = 0
            for _ in 0..<8 { bits = bits << 8 | UInt64(input.byte()) }
            let value = Double(bitPattern: bits)
            return value.isFinite && abs(value) <= limit ? value : 0
        case 2:
            // Halfway between two written values, give or take the last bit.
            let units = Double(input.int(in: -65_535...65_535)) + 0.5
            return min(max((units / 10_000_000).nextUp, -limit), limit)
        default:
            let fraction = Double(input.int(in: 0...65_535) << 16 | input.int(in: 0...65_535)) / 4_294_967_295
            return fraction * 2 * limit - limit
        }
    }
}

/// The same bytes read with their lines, as `import --along` reads them: the same points, or refused
/// only for a bad point of a line; every line point on the globe; the points every KM along them on
/// the globe (no NaN at the antimeridian, the poles or antipodes) and never closer than KM/2 to one
/// another or to a waypoint.
enum AlongCheck {
    static func check(_ bytes: Data, plain: PinFile?) {
        let file: PinFile
        do { file = try PinFileReader.read(bytes, readingLines: true) } catch {
            if plain != nil {
                guard case .badPoint = error else {
                    FuzzCheck.that(false, "read with its lines, a file read without them is refused: \(error.description)")
                    return
                }
            }
            return
        }
        guard let plain else {
            FuzzCheck.that(false, "a file refused without its lines is read with them")
            return
        }
        FuzzCheck.that(file.points == plain.points && file.notPoints == plain.notPoints && file.lineFeatures == plain.lineFeatures,
                       "reading the lines changed the points or the counts")
        FuzzCheck.that(file.lines.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isValid) }, "a line point off the globe, or an empty line")
        // KM from 0.1 to 13107.2, chosen by the input's length.
        guard let spacing = try? AlongSpacing(km: 0.1 * pow(2, Double(bytes.count % 18))) else { return }
        let waypoints = file.points.map(\.coordinate)
        guard let along = try? AlongSampler.points(along: file.lines, every: spacing, waypoints: waypoints) else { return }
        FuzzCheck.that(along.points.allSatisfy(\.isValid), "a point along a line off the globe")
        FuzzCheck.that(along.nearStored == 0, "near stored pins with none stored")
        let kept = waypoints + along.points
        for (i, p) in along.points.prefix(200).enumerated() {
            for q in kept[..<(waypoints.count + i)] where distanceKm(p, q) < spacing.km / 2 * (1 - 1e-6) {
                FuzzCheck.that(false, "points along a line \(distanceKm(p, q)) km apart at --along \(spacing.km): \(p), \(q)")
            }
        }
    }
}
