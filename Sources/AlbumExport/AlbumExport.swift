import Foundation
import Geo
import Model
import Store

/// What an album saved as files holds: each stored photo's file name (`NN-<title>.jpg`, in album order),
/// `credits.json` and `index.html`. Pure: `AlbumSaving` writes it.
public struct AlbumExport: Sendable {
    /// A stored photo and the file it is saved as.
    public struct Item: Sendable {
        public var photo: AlbumPhotoJSON
        public var file: String
    }

    public static let creditsFile = "credits.json"
    public static let indexFile = "index.html"

    public var pin: Pin
    public var items: [Item]

    /// The album's stored photos, numbered from 01 in album order (more digits when there are 100 or more);
    /// `large`: the sizes of the large images stored for them.
    public init(_ album: StoredAlbum, large: [PhotoRecord.ID: LargeImageInfo]) {
        pin = album.pin
        let stored = album.photos.sorted { $0.position < $1.position }.filter { $0.state == .stored }
        let digits = max(2, String(stored.count).count)
        items = stored.enumerated().map { index, photo in
            let number = String(index + 1)
            let name = String(repeating: "0", count: digits - number.count) + number + "-"
                + SafeFileName.make(photo.title ?? "", fallback: "photo") + ".jpg"
            return Item(photo: AlbumPhotoJSON(record: photo, large: large[photo.id]), file: name)
        }
    }

    /// Every file the save writes, photos first.
    public var fileNames: [String] { items.map(\.file) + [Self.creditsFile, Self.indexFile] }

    /// The same album with only the items written, each with the large image it was written from
    /// (its file's name → that image's size, nil for the album's image): what the credits then say.
    public func written(_ large: [String: LargeImageInfo?]) -> AlbumExport {
        var copy = self
        copy.items = items.compactMap { item in
            guard let info = large[item.file] else { return nil }
            var item = item
            item.photo.large = info
            return item
        }
        return copy
    }

    // MARK: credits.json

    /// One entry per photo: its file and its fields as `album --json` writes them.
    public var credits: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let entries = items.map { AlbumCredit(file: $0.file, photo: $0.photo) }
        return ((try? encoder.encode(entries)) ?? Data("[]".utf8)) + Data("\n".utf8)
    }

    // MARK: index.html

    /// A contact sheet that needs nothing but the files beside it: inline CSS, no script, every
    /// picture from the folder, every text escaped. Each photo's page is a link (its credit, which
    /// licences such as CC BY ask for), followed only when clicked.
    public var indexHTML: String {
        let name = Self.escape(pin.displayName)
        var facts = [pin.coordinate.formatted(), items.count == 1 ? "1 photo" : "\(items.count) photos"]
        if !pin.filter.isEmpty { facts.append("filter: " + pin.filter.summary) }
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(name)</title>
            <style>
            body { font-family: sans-serif; margin: 1.5em; background: #f6f6f4; color: #222; }
            h1 { font-size: 1.5em; margin: 0 0 0.2em; }
            .where { color: #666; margin: 0 0 1.2em; }
            .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 1em; }
            figure { margin: 0; padding: 0.5em; background: #fff; border: 1px solid #ddd; }
            figure img { display: block; width: 100%; height: 200px; object-fit: cover; }
            figcaption { margin-top: 0.4em; font-size: 0.85em; overflow-wrap: anywhere; }
            .credit { color: #555; }
            </style>
            </head>
            <body>
            <h1>\(name)</h1>
            <p class="where">\(Self.escape(facts.joined(separator: " \u{00B7} ")))</p>
            <div class="grid">

            """
        for item in items {
            let record = item.photo.record
            let title = Self.escape(record.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled")
            let src = Self.escape(Self.percentEncoded(item.file))
            var credit: [String] = []
            if let author = record.author, !author.isEmpty { credit.append("by " + author) }
            if let license = record.license, !license.isEmpty { credit.append(license) }
            if let date = record.dateTaken, !date.isEmpty { credit.append("taken " + date) }
            credit.append(Self.sourceName(record.source))
            html += "<figure><a href=\"\(src)\"><img src=\"\(src)\" alt=\"\(title)\"></a>\n"
            html += "<figcaption><strong>\(title)</strong><br>\n"
            html += "<span class=\"credit\">\(Self.escape(credit.joined(separator: " \u{00B7} ")))</span>"
            if let page = record.pageURL.flatMap(Self.pageLink) {
                html += "<br>\n<a class=\"page\" rel=\"noreferrer\" href=\"\(Self.escape(page.address))\">"
                    + "\(Self.escape(page.text))</a>"
            }
            html += "</figcaption></figure>\n"
        }
        html += "</div>\n</body>\n</html>\n"
        return html
    }

    /// The source's name as people know it.
    static func sourceName(_ source: String) -> String {
        switch source {
        case "flickr": "Flickr"
        case "commons": "Wikimedia Commons"
        default: source
        }
    }

    /// A photo's page as the sheet links it: an http or https address with nothing in it a browser
    /// would read otherwise (spaces, controls, quotes), shown without its scheme
    /// (`www.flickr.com/photos/…`). Nil for anything else (`javascript:`, `data:`, a file).
    static func pageLink(_ url: String) -> (address: String, text: String)? {
        for scheme in ["https://", "http://"] where url.lowercased().hasPrefix(scheme) {
            let text = url.dropFirst(scheme.count)
            guard !text.isEmpty, !text.hasPrefix("/"),
                  !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || "\"'<>`\\".unicodeScalars.contains($0) })
            else { return nil }
            // Shown as a person reads it (`1@N01`, not `1%40N01`), where that is plain text.
            let readable = text.removingPercentEncoding.flatMap { decoded in
                decoded.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } ? nil : decoded
            }
            return (url, readable ?? String(text))
        }
        return nil
    }

    /// Text made safe inside HTML elements and quoted attributes.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A file name as a relative URL: every byte but letters, digits and `-._~` percent-encoded, so
    /// `#`, `?`, `%` and spaces name the file rather than a fragment or a query.
    static func percentEncoded(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
