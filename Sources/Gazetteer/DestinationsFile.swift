import Foundation
import Geo

/// Reads Resources/destinations.tsv (format in docs/data-places.md): one
/// destination a line, 8 tab-separated columns, `#` comments.
public enum DestinationsFile {
    public static let resourceName = "destinations.tsv"
    /// A bigger file is refused before it is read, so a wrong file cannot fill memory.
    public static let maxBytes = 32 << 20
    /// Longest name or alternate, in bytes.
    static let maxNameBytes = 200
    /// Most alternates one destination may have (a lake has 93 in the shipped file).
    static let maxAlternates = 1000

    /// The destinations in the file at `url`, heaviest first (then by name).
    public static func load(from url: URL) throws(GazetteerError) -> [Destination] {
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
            guard size <= maxBytes else {
                throw GazetteerError.invalidDestinations(path: url.path, line: 0,
                                                         reason: "file is \(size) bytes, more than the \(maxBytes) allowed")
            }
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // Reads one byte past the limit so a file that grew since the check is still caught.
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch let error as GazetteerError {
            throw error
        } catch {
            throw GazetteerError.unreadable(path: url.path, reason: "\(error.localizedDescription)")
        }
        guard data.count <= maxBytes else {
            throw GazetteerError.invalidDestinations(path: url.path, line: 0, reason: "file is more than \(maxBytes) bytes")
        }
        return try parse(data, path: url.path)
    }

    /// The destinations in `data`, heaviest first (then by name); `path` names the file in errors.
    public static func parse(_ data: Data, path: String) throws(GazetteerError) -> [Destination] {
        let parsed = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<[Destination], GazetteerError> in
            let bytes = raw.bindMemory(to: UInt8.self)
            var out: [Destination] = []
            var folder = SearchFolder()
            var lineNumber = 0
            // Split on bytes: as Characters, "\r\n" would be one and hide a CRLF file. A tab or
            // line feed byte is never part of a longer UTF-8 sequence.
            for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                lineNumber += 1
                guard String(validating: line, as: UTF8.self) != nil else {
                    return .failure(.invalidDestinations(path: path, line: lineNumber, reason: "not UTF-8"))
                }
                if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
                do throws(LineError) {
                    out.append(try destination(line, &folder))
                } catch {
                    return .failure(.invalidDestinations(path: path, line: lineNumber, reason: error.reason))
                }
            }
            return .success(out)
        }
        // The file is sorted so already; sorting again keeps the order whatever wrote it.
        let destinations: [Destination] = try parsed.get()
        return destinations.enumerated().sorted { a, b in
            (a.element.weight, b.element.name, b.offset) > (b.element.weight, a.element.name, a.offset)
        }.map { $0.element }
    }

    private struct LineError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The text of a column with the spaces around it taken off.
    private static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var column = bytes[...]
        while column.first == 0x20 { column = column.dropFirst() }
        while column.last == 0x20 { column = column.dropLast() }
        return String(decoding: column, as: UTF8.self)
    }

    private static func destination(_ line: Slice<UnsafeBufferPointer<UInt8>>, _ folder: inout SearchFolder) throws(LineError) -> Destination {
        if line.last == UInt8(ascii: "\r") { throw LineError("ends in a carriage return (the file must use LF line ends)") }
        let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        let columns = fields.map(text)
        guard columns.count == 8 else { throw LineError("\(columns.count) tab-separated columns, expected 8") }
        let name = columns[0]
        guard !name.isEmpty else { throw LineError("empty name") }
        guard name.utf8.count <= maxNameBytes else { throw LineError("name longer than \(maxNameBytes) bytes") }
        guard !folder.fold(name).isEmpty else { throw LineError("name \u{201C}\(name)\u{201D} has no letters to search by") }
        guard let kind = DestinationKind(rawValue: columns[1]) else {
            throw LineError("unknown kind \u{201C}\(columns[1])\u{201D} (one of "
                            + DestinationKind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        let country = columns[2]
        guard country.isEmpty || (country.utf8.count == 2 && country.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }) else {
            throw LineError("country \u{201C}\(country)\u{201D} is not an ISO 3166-1 alpha-2 code")
        }
        let lat = try number(columns[3][...], "latitude", -90...90)
        let lon = try number(columns[4][...], "longitude", -180...180)
        var extent: GeoBox?
        if !columns[5].isEmpty {
            let parts = columns[5].split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 4 else { throw LineError("extent \u{201C}\(columns[5])\u{201D} is not south,west,north,east") }
            let box = GeoBox(south: try number(parts[0], "extent south", -90...90),
                             west: try number(parts[1], "extent west", -180...180),
                             north: try number(parts[2], "extent north", -90...90),
                             east: try number(parts[3], "extent east", -180...180))
            guard box.south <= box.north else { throw LineError("extent's south \(box.south) is north of its north \(box.north)") }
            extent = box
        }
        guard let weight = Int(columns[6]), weight >= 0 else {
            throw LineError("weight \u{201C}\(columns[6])\u{201D} is not a whole number of at least 0")
        }
        let alternates = fields[7].split(separator: UInt8(ascii: "|")).map(text).filter { !$0.isEmpty }
        guard alternates.count <= maxAlternates else { throw LineError("more than \(maxAlternates) alternate names") }
        if let long = alternates.first(where: { $0.utf8.count > maxNameBytes }) {
            throw LineError("alternate name \u{201C}\(long.prefix(40))…\u{201D} longer than \(maxNameBytes) bytes")
        }
        return Destination(name: name, kind: kind, countryCode: country.isEmpty ? nil : country,
                           coordinate: GeoPoint(latitude: lat, longitude: lon), extent: extent,
                           weight: weight, alternates: alternates)
    }

    private static func number(_ text: Substring, _ what: String, _ range: ClosedRange<Double>) throws(LineError) -> Double {
        guard let value = Double(text), value.isFinite else { throw LineError("\(what) \u{201C}\(text)\u{201D} is not a number") }
        guard range.contains(value) else {
            throw LineError("\(what) \(text) is outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
        }
        return value
    }
}
