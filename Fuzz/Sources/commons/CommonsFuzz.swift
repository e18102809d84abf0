import Foundation
import FuzzSupport
import PhotoSources

/// Bytes as a Wikimedia Commons geosearch answer, read as page 1…3: photos that are safe to
/// show, or an error with a message; never a trap. Checked against a reading of its own of the
/// same bytes (`CommonsReading`): which answers are errors, how many files were found, and, paging
/// through them all, which photos come out in which order with which ids, image URLs and titles.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommons(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = fuzzData(data, size)
    let perPage = [1, 21, 250, 500][size % 4]
    let page = 1 + (size / 4) % 3
    let reading = CommonsReading(body)
    do {
        let answer = try CommonsSource.parse(body, page: page, perPage: perPage)
        FuzzCheck.searchPage(answer)
        reading.check(total: answer.total)
        reading.checkEveryPage(body, perPage: perPage)
        // Accepted: the first page has photos (the page read above may lie past the last).
        let first = page == 1 ? answer : try? CommonsSource.parse(body, page: 1, perPage: perPage)
        Acceptance.note(first?.photos.isEmpty == false)
    } catch {
        FuzzCheck.photoSourceError(error)
        FuzzCheck.that(!reading.mustParse, "an answer with a list of files refused: \(error.description)")
        Acceptance.note(false)
    }
    return 0
}

/// The answer read with nothing but JSONSerialization and the API's documented shape
/// (`query.pages`, a list with formatversion=2 or an object by page id with 1, each page with its
/// `pageid`, `index`, `coordinates[0].dist` and `imageinfo[0]`). A file is plainly a photo when its
/// `imageinfo` says `image/jpeg` and gives a plain https thumbnail (or, without one, original);
/// plainly none without `imageinfo`, with another type or with no URL at all; else unclear.
struct CommonsReading {
    enum Kind: Equatable {
        case photo(url: String, title: String?)
        case none
        case unclear
    }

    struct File {
        var id: Int
        var kind: Kind
        /// Nearest first, then in the generator's order, then by page id; nil when not plain.
        var order: (Double, Int)?
    }

    /// No error object and every part in its documented shape.
    var mustParse = false
    /// The files by page id; nil when some page's id is not plain or comes twice.
    var files: [Int: File]?

    init(_ body: Data) {
        guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return }
        if root["error"] is [String: Any] || (root["errors"] as? [Any])?.first is [String: Any] { return }
        if let more = root["continue"], !(more is [String: Any]) { return }
        let pages: [Any]
        switch root["query"] {
        case nil: pages = []
        case let query as [String: Any]:
            switch query["pages"] {
            case nil, is NSNull: pages = []
            case let list as [Any]: pages = list
            case let byID as [String: Any]: pages = Array(byID.values)
            default: return
            }
        default: return
        }
        mustParse = true
        var files: [Int: File] = [:]
        for value in pages {
            guard let page = value as? [String: Any], let rawID = page["pageid"] else { continue }
            // An id twice: which one counts may hang on the order of an object's members.
            guard let id = Plain.integer(rawID), files[id] == nil else { return }
            files[id] = File(id: id, kind: Self.kind(page), order: Self.order(page))
        }
        self.files = files
    }

    static func kind(_ page: [String: Any]) -> Kind {
        guard let info = (page["imageinfo"] as? [Any])?.first as? [String: Any] else { return .none }
        guard let mime = info["mime"] as? String else { return info["mime"] == nil ? .none : .unclear }
        guard mime.lowercased() == "image/jpeg" else { return .none }
        let thumb = info["thumburl"], original = info["url"]
        if thumb == nil && original == nil { return .none }
        let url: String
        if let thumb = thumb as? String, Plain.url(thumb) {
            url = thumb
        } else if thumb == nil, let original = original as? String, Plain.url(original) {
            url = original
        } else {
            return .unclear
        }
        let meta = info["extmetadata"] as? [String: Any]
        let name = (meta?["ObjectName"] as? [String: Any])?["value"] as? String
        return .photo(url: url, title: name.flatMap { Plain.words($0) ? $0 : nil })
    }

    static func order(_ page: [String: Any]) -> (Double, Int)? {
        var distance = Double.infinity
        if let coordinates = page["coordinates"] {
            guard let first = (coordinates as? [Any])?.first as? [String: Any], let dist = first["dist"] as? NSNumber,
                  String(cString: dist.objCType) != "c", dist.doubleValue.isFinite else { return nil }
            distance = dist.doubleValue
        }
        var index = Int.max
        if let raw = page["index"] {
            guard let plain = Plain.integer(raw) else { return nil }
            index = plain
        }
        return (distance, index)
    }

    func check(total: Int) {
        guard let files else { return }
        FuzzCheck.that(total == files.count, "total \(total) of \(files.count) files")
    }

    /// Every page of the answer, read one after the other, gives each photo once, nearest first.
    func checkEveryPage(_ body: Data, perPage: Int) {
        guard let files, files.count <= 40 * perPage else { return }
        var shown: [NewPhotoSummary] = []
        var page = 1
        while (page - 1) * perPage < files.count {
            guard let answer = try? CommonsSource.parse(body, page: page, perPage: perPage) else {
                return FuzzCheck.that(false, "page \(page) refused, page 1 read")
            }
            shown += answer.photos.map { NewPhotoSummary(id: $0.sourceID, url: $0.url, title: $0.title) }
            page += 1
        }
        FuzzCheck.that(Set(shown.map(\.id)).count == shown.count, "a photo on two pages: \(shown.map(\.id))")
        let all = Array(files.values)
        let photos = all.filter { if case .photo = $0.kind { true } else { false } }
        let unclear = all.filter { $0.kind == .unclear }.count
        FuzzCheck.that(shown.count >= photos.count && shown.count <= photos.count + unclear,
                       "\(shown.count) photos on every page; \(photos.count) plainly photos, \(unclear) unclear of \(all.count) files")
        guard unclear == 0, all.allSatisfy({ $0.order != nil }) else { return }
        let expected = photos.sorted { a, b in
            let (x, y) = (a.order!, b.order!)
            return (x.0, x.1, a.id) < (y.0, y.1, b.id)
        }
        FuzzCheck.that(shown.map(\.id) == expected.map { String($0.id) },
                       "photos in the order \(shown.map(\.id)), nearest first is \(expected.map(\.id))")
        for (photo, file) in zip(shown, expected) {
            guard case let .photo(url, title) = file.kind else { continue }
            FuzzCheck.that(photo.url == url, "photo \(file.id) shown from \(photo.url), not \(url)")
            if let title { FuzzCheck.that(photo.title == title, "photo \(file.id) titled \(photo.title.debugDescription), not \(title)") }
        }
    }

    struct NewPhotoSummary {
        var id: String
        var url: String
        var title: String?
    }
}
