/// One photo of a pin's album as stored; the image bytes live apart and are read one at a time.
public struct PhotoRecord: Identifiable, Hashable, Sendable {
    public typealias ID = Int64

    public var id: ID
    public var pinID: Pin.ID
    /// Order in the album grid, from 0; gaps remain after deletions.
    public var position: Int
    /// 'flickr' or 'commons', and that source's own id for the photo.
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
    public var width: Int?
    public var height: Int?
    public var state: PhotoState
    /// Size of the stored image; 0 when none is stored.
    public var byteCount: Int

    public init(id: ID, pinID: Pin.ID, position: Int, source: String, sourceID: String, title: String? = nil,
                author: String? = nil, dateTaken: String? = nil, url: String, largeURL: String? = nil,
                pageURL: String? = nil, license: String? = nil, width: Int? = nil, height: Int? = nil,
                state: PhotoState = .pending, byteCount: Int = 0) {
        self.id = id
        self.pinID = pinID
        self.position = position
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
        self.state = state
        self.byteCount = byteCount
    }

    /// Why the download failed; nil unless it did.
    public var error: String? { state.reason }
}

/// A photo found by a search, before it is stored.
public struct NewPhoto: Hashable, Sendable {
    public var source: String
    public var sourceID: String
    public var title: String?
    public var author: String?
    public var dateTaken: String?
    public var url: String
    public var largeURL: String?
    public var pageURL: String?
    public var license: String?
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
