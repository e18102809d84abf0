/// One photo of a pin's album as stored: what the search found, where it is in the grid and how far
/// its download got. The image bytes live apart and are read one at a time.
@dynamicMemberLookup
public struct PhotoRecord: Identifiable, Hashable, Sendable {
    public typealias ID = Int64

    public var id: ID
    public var pinID: Pin.ID
    /// Order in the album grid, from 0; gaps remain after deletions.
    public var position: Int
    /// Source, title, author, URLs… as the search gave them; read them as `photo.title`.
    public var found: NewPhoto
    public var state: PhotoState
    /// Size of the stored image; 0 when none is stored.
    public var byteCount: Int

    public init(id: ID, pinID: Pin.ID, position: Int, found: NewPhoto, state: PhotoState = .pending, byteCount: Int = 0) {
        self.id = id
        self.pinID = pinID
        self.position = position
        self.found = found
        self.state = state
        self.byteCount = byteCount
    }

    public subscript<Value>(dynamicMember field: KeyPath<NewPhoto, Value>) -> Value { found[keyPath: field] }

    /// Why the download failed; nil unless it did.
    public var error: String? { state.reason }
}

/// A photo found by a search, before it is stored. Every text is already cleaned for the terminal.
/// Its coding keys are the photo's fields, once: the store's columns and `album --json` both read them.
public struct NewPhoto: Hashable, Sendable, Codable {
    /// 'flickr' or 'commons' (`PhotoSourceChoice`), and that source's own id for the photo.
    public var source: String
    public var sourceID: String
    public var title: String?
    public var author: String?
    /// As the source gave it (Flickr's has no time zone, Commons' is free text), so it is not parsed.
    public var dateTaken: String?
    /// The image the grid shows.
    public var url: String
    /// A bigger image for the detail view, when the source offers one.
    public var largeURL: String?
    /// The photo's page on the source's web site.
    public var pageURL: String?
    public var license: String?
    /// Pixel size of the `url` image when the source tells it.
    public var width: Int?
    public var height: Int?

    public init(source: String, sourceID: String, title: String? = nil, author: String? = nil,
                dateTaken: String? = nil, url: String, largeURL: String? = nil, pageURL: String? = nil,
                license: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.source = source
        self.sourceID = sourceID
        self.title = title
        self.author = author
        self.dateTaken = dateTaken
        self.url = url
        self.largeURL = largeURL
        self.pageURL = pageURL
        self.license = license
        self.width = width
        self.height = height
    }

    /// The fields, named as the store's columns and the command line's JSON name them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case source, sourceID = "sourceId", title, author, dateTaken, url, largeURL, pageURL, license, width, height
    }

    /// Every field, a missing one as null: the store clears a column, the JSON shows the key.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(sourceID, forKey: .sourceID)
        try c.encode(title, forKey: .title)
        try c.encode(author, forKey: .author)
        try c.encode(dateTaken, forKey: .dateTaken)
        try c.encode(url, forKey: .url)
        try c.encode(largeURL, forKey: .largeURL)
        try c.encode(pageURL, forKey: .pageURL)
        try c.encode(license, forKey: .license)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
    }
}

/// A stored photo as `album --json` lists it (SPEC 4): the found fields, then how far its download got.
extension PhotoRecord: Encodable {
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case id, state, error, downloaded, bytes
    }

    public func encode(to encoder: any Encoder) throws {
        try found.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(state.name, forKey: .state)
        try c.encode(error, forKey: .error)
        try c.encode(state == .stored, forKey: .downloaded)
        try c.encode(byteCount, forKey: .bytes)
    }

    /// Every key of a photo's JSON object.
    public static var jsonKeys: Set<String> {
        Set(NewPhoto.CodingKeys.allCases.map(\.stringValue) + CodingKeys.allCases.map(\.stringValue))
    }
}
