import Foundation
import Model
import Geo

/// Writes pins as GeoJSON or GPX: coordinates as `CoordinateNumber` writes them, the name, the album's size,
/// the pin's creation time and the album's filter when it has one.
public enum PinFileWriter {
    public static func write(_ pins: [Pin], as format: PinFileFormat, creator: String = "vtourist") -> String {
        switch format {
        case .geojson: geoJSON(pins)
        case .gpx: gpx(pins, creator: creator)
        }
    }

    /// RFC 7946: a FeatureCollection, one Point feature per line, [longitude, latitude].
    public static func geoJSON(_ pins: [Pin]) -> String {
        let dates = PinFileText.writer()
        let filters = PinFileText.filterEncoder()
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        out.reserveCapacity(pins.count * 180 + 64)
        for (i, pin) in pins.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "{\"type\":\"Feature\",\"id\":\(pin.id),\"geometry\":{\"type\":\"Point\",\"coordinates\":["
            out += CoordinateNumber.text(pin.coordinate.longitude) + "," + CoordinateNumber.text(pin.coordinate.latitude)
            out += "]},\"properties\":{\"name\":" + (pin.shownName.map(jsonString) ?? "null")
            out += ",\"photos\":\(pin.photoCount),\"created\":" + jsonString(dates.string(from: pin.createdAt))
            if !pin.filter.isEmpty, let data = try? filters.encode(pin.filter) {
                out += ",\"filter\":" + String(decoding: data, as: UTF8.self)
            }
            out += "}}"
        }
        out += pins.isEmpty ? "]}\n" : "\n]}\n"
        return out
    }

    /// GPX 1.1: one <wpt> per pin; the album's size and its filter in vtourist extensions.
    public static func gpx(_ pins: [Pin], creator: String = "vtourist") -> String {
        let dates = PinFileText.writer()
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(xmlEscaped(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:vtourist="\(gpxExtensionNamespace)">

            """
        out.reserveCapacity(pins.count * 200 + out.utf8.count)
        for pin in pins {
            out += "  <wpt lat=\"\(CoordinateNumber.text(pin.coordinate.latitude))\" lon=\"\(CoordinateNumber.text(pin.coordinate.longitude))\">\n"
            out += "    <time>\(dates.string(from: pin.createdAt))</time>\n"
            if let name = pin.shownName { out += "    <name>\(xmlEscaped(name))</name>\n" }
            out += "    <extensions><vtourist:photos>\(pin.photoCount)</vtourist:photos>"
            if !pin.filter.isEmpty { out += gpxFilter(pin.filter) }
            out += "</extensions>\n"
            out += "  </wpt>\n"
        }
        out += "</gpx>\n"
        return out
    }

    /// `<vtourist:filter>` with a child for each field set: text, one tag per tag, from, to, and sort
    /// always (GPXReader reads them back as the JSON shape's keys).
    static func gpxFilter(_ filter: AlbumFilter) -> String {
        func element(_ name: String, _ text: String) -> String { "<vtourist:\(name)>\(xmlEscaped(text))</vtourist:\(name)>" }
        var out = "<vtourist:filter>"
        if let text = filter.text { out += element("text", text) }
        for tag in filter.tags { out += element("tag", tag) }
        if let from = filter.taken.from { out += element("from", from.description) }
        if let to = filter.taken.to { out += element("to", to.description) }
        out += element("sort", filter.sort.rawValue)
        return out + "</vtourist:filter>"
    }

    /// The namespace of vtourist's GPX extension elements.
    public static let gpxExtensionNamespace = "urn:vtourist:gpx:1"

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Text for XML content or attributes: the five special characters escaped, and characters
    /// XML 1.0 cannot carry at all (most controls, U+FFFE, U+FFFF) left out.
    static func xmlEscaped(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case let c where c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
