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
public struct NewPhoto: Hashable, Sendable {
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
}
