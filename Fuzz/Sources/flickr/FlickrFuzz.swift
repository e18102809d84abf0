import Foundation
import FuzzSupport
import PhotoSources

/// Bytes as a Flickr `flickr.photos.search` answer: photos that are safe to show, or an error
/// with a message; never a trap. The photos are checked against a reading of their own of the same
/// bytes (`FlickrReading`): which answers are errors, which photos come out, in which order, with
/// which ids and image URLs, and the total.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFlickr(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = fuzzData(data, size)
    // The page size asked for varies with the input, so the page arithmetic meets odd values too.
    let perPage = [1, 21, 250, 500][size % 4]
    let reading = FlickrReading(body)
    do {
        let page = try FlickrSource.parse(body, perPage: perPage)
        FuzzCheck.searchPage(page)
        reading.check(page)
        Acceptance.note(!page.photos.isEmpty)
    } catch {
        FuzzCheck.photoSourceError(error)
        FuzzCheck.that(!reading.mustParse, "a list of photos refused: \(error.description)")
        Acceptance.note(false)
    }
    return 0
}

/// The answer read with nothing but JSONSerialization and the API's documented shape
/// (https://www.flickr.com/services/api/response.json.html): `{"stat": "ok", "photos": {"photo": [...]}}`,
/// maybe wrapped in `jsonFlickrApi(...)`. Each photo is classed plainly good (a plain id and a plain
/// https URL of a size the search asks for: it must come out, as it is), plainly no photo (no
/// object, no id, no URL at all: it must not), or neither (the parser decides).
struct FlickrReading {
    enum Photo: Equatable {
        case good(id: String, urls: [String], title: String?)
        case none
        case unclear
    }

    /// Nil when the answer is not a JSON object with a list of photos.
    var photos: [Photo]?
    /// An answer of `"stat": "ok"` (or none) with `photos.photo` a list, absent or null.
    var mustParse = false
    var total: Int?

    init(_ body: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: Self.unwrapped(body)) as? [String: Any],
              let photosObject = object["photos"] as? [String: Any] else { return }
        if let stat = object["stat"] { guard (stat as? String) == "ok" else { return } }
        let list: [Any]
        switch photosObject["photo"] {
        case nil, is NSNull: list = []
        case let array as [Any]: list = array
        default: return
        }
        mustParse = true
        photos = list.map(Self.classify)
        total = Plain.integer(photosObject["total"])
    }

    /// The sizes the search asks for (its `extras`).
    static let sizes = FlickrSource.sizeExtras

    static func classify(_ value: Any) -> Photo {
        guard let photo = value as? [String: Any], let id = photo["id"] else { return .none }
        let urlKeys = photo.keys.filter { $0.hasPrefix("url_") }
        if urlKeys.isEmpty { return .none }
        guard let id = id as? String, Plain.id(id) else { return .unclear }
        let urls = sizes.compactMap { photo[$0] as? String }.filter(Plain.url)
        // Another size's value that is no plain URL might still be read as one: leave it to the parser.
        let allPlain = urlKeys.allSatisfy { key in !sizes.contains(key) || (photo[key] as? String).map(Plain.url) == true }
        let title = (photo["title"] as? String).flatMap { Plain.words($0) ? $0 : nil }
        return urls.isEmpty || !allPlain ? .unclear : .good(id: id, urls: urls, title: title)
    }

    func check(_ page: SearchPage) {
        guard let photos else { return }
        let good = photos.filter { if case .good = $0 { true } else { false } }.count
        let unclear = photos.filter { $0 == .unclear }.count
        FuzzCheck.that(page.photos.count >= good && page.photos.count <= good + unclear,
                       "\(page.photos.count) photos read; \(good) plainly good, \(unclear) unclear of \(photos.count)")
        if let total { FuzzCheck.that(page.total == max(total, 0), "total \(page.total), the answer says \(total)") }
        guard unclear == 0 else { return }
        // Every photo known: the same ones, in the answer's order, each with one of its own URLs.
        var read = page.photos.makeIterator()
        for case let .good(id, urls, title) in photos {
            guard let photo = read.next() else { return FuzzCheck.that(false, "photo \(id) missing") }
            FuzzCheck.that(photo.sourceID == id, "photo \(photo.sourceID.debugDescription) read where \(id) is")
            FuzzCheck.that(urls.contains(photo.url), "photo \(id) shown from \(photo.url), not one of \(urls)")
            if let title { FuzzCheck.that(photo.title == title, "photo \(id) titled \(photo.title.debugDescription), not \(title)") }
        }
    }

    /// `jsonFlickrApi( … );` with white space around it, as the JSON page describes the callback.
    static func unwrapped(_ body: Data) -> Data {
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var bytes = [UInt8](body)[...]
        while let first = bytes.first, space.contains(first) { bytes.removeFirst() }
        let prefix = Array("jsonFlickrApi(".utf8)
        guard bytes.starts(with: prefix) else { return body }
        bytes.removeFirst(prefix.count)
        while let last = bytes.last, space.contains(last) || last == UInt8(ascii: ";") { bytes.removeLast() }
        guard bytes.last == UInt8(ascii: ")") else { return body }
        return Data(bytes.dropLast())
    }
}
