import Foundation
import Model

/// Where a photo's large image (the photo view's sharp picture) comes from: a URL the search
/// returned, or, for a Commons file whose stored one is no thumbnail of a suitable size, a new
/// `imageinfo` request for a thumbnail at the terminal's pixel width. No URL is ever built or
/// rewritten here: each comes from an answer of the source.
public enum LargeImagePlan: Sendable, Equatable {
    /// Download this URL, as the search returned it.
    case download(String)
    /// Ask Commons for a thumbnail of the file (its page id) this many pixels wide.
    case askCommons(pageID: String, width: Int)

    /// The largest width asked of any source.
    public static let maxWidth = 2048
    /// The smallest width asked of Commons: a narrow terminal still gets more than the grid's thumbnail.
    public static let minCommonsWidth = 640

    /// The plan for `photo` on a terminal `screenWidth` pixels wide.
    public static func plan(for photo: NewPhoto, screenWidth: Int) -> LargeImagePlan {
        let stored = photo.largeURL ?? photo.url
        guard photo.source == PhotoSourceChoice.commons.rawValue else { return .download(stored) }
        let width = min(max(screenWidth, minCommonsWidth), maxWidth)
        if let thumb = photo.largeURL.flatMap(CommonsSource.thumbnailWidth), thumb >= width, thumb <= maxWidth {
            return .download(stored)
        }
        return .askCommons(pageID: photo.sourceID, width: width)
    }
}

/// A large thumbnail of one Commons file, as `imageinfo` answered it.
public struct LargeImageAddress: Sendable, Equatable {
    public var url: String
    /// Its size when the answer tells it (the image tells it anyway).
    public var width: Int?
    public var height: Int?

    public init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}

extension CommonsSource {
    /// The request for one file's thumbnail `width` pixels wide.
    public static func largeImageURL(pageID: String, width: Int, endpoint: String = defaultEndpoint) -> String {
        QueryString.url(endpoint, requestHead + [
            ("pageids", pageID),
            ("prop", "imageinfo"),
            ("iiprop", "url|size|mime"),
            ("iiurlwidth", String(min(max(width, 1), LargeImagePlan.maxWidth))),
        ])
    }

    /// Asks for one file's thumbnail `width` pixels wide (MediaWiki gives the original when it is
    /// narrower).
    public func largeImage(pageID: String, width: Int) async throws(PhotoSourceError) -> LargeImageAddress {
        let url = Self.largeImageURL(pageID: pageID, width: width, endpoint: endpoint)
        return try Self.largeImage(in: try await fetchBatch(url))
    }

    /// The thumbnail an `imageinfo` answer for one file gives: `thumburl`, else `url` (the original).
    public static func parseLargeImage(_ data: Data) throws(PhotoSourceError) -> LargeImageAddress {
        try largeImage(in: try parseBatch(data))
    }

    static func largeImage(in batch: Batch) throws(PhotoSourceError) -> LargeImageAddress {
        guard let info = batch.entries.values.first(where: { $0.info != nil })?.info else {
            throw .malformed("no image info for the file")
        }
        if let mime = Lenient.string(info["mime"]), mime.lowercased() != "image/jpeg" {
            throw .malformed("the file is not a JPEG (\(TextCleaner.clean(mime, maxLength: 40)))")
        }
        if let thumb = Lenient.url(info["thumburl"]) {
            return LargeImageAddress(url: thumb, width: Lenient.int(info["thumbwidth"]), height: Lenient.int(info["thumbheight"]))
        }
        guard let original = Lenient.url(info["url"]) else { throw .malformed("no image URL for the file") }
        return LargeImageAddress(url: original, width: Lenient.int(info["width"]), height: Lenient.int(info["height"]))
    }

    /// The width of a MediaWiki thumbnail read from its URL (`…/640px-Name.jpg`); nil for anything
    /// else (an original). Read only, to judge a stored URL: never used to make one.
    public static func thumbnailWidth(of url: String) -> Int? {
        guard let path = url.split(separator: "?", maxSplits: 1).first,
              let name = path.split(separator: "/").last,
              let px = name.range(of: "px-") else { return nil }
        let digits = name[name.startIndex..<px.lowerBound]
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let width = Int(digits) else { return nil }
        return width > 0 ? width : nil
    }
}
