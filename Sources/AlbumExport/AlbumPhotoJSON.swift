import Model
import Store

/// A photo as `album PIN --json` lists it and as `credits.json` credits it: its record's fields, and
/// `large`, the size of its stored large image or null when none is stored.
public struct AlbumPhotoJSON: Encodable, Sendable {
    public var record: PhotoRecord
    public var large: LargeImageInfo?

    public init(record: PhotoRecord, large: LargeImageInfo?) {
        self.record = record
        self.large = large
    }

    public enum CodingKeys: String, CodingKey, CaseIterable { case large }

    public func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(large, forKey: .large)  // null rather than absent
    }

    /// Every key of a photo's object.
    public static var keys: Set<String> { PhotoRecord.jsonKeys.union(CodingKeys.allCases.map(\.stringValue)) }
}

/// One entry of `credits.json`: the saved file's name and the photo as `album --json` lists it.
public struct AlbumCredit: Encodable, Sendable {
    public var file: String
    public var photo: AlbumPhotoJSON

    public init(file: String, photo: AlbumPhotoJSON) {
        self.file = file
        self.photo = photo
    }

    public enum CodingKeys: String, CodingKey, CaseIterable { case file }

    public func encode(to encoder: any Encoder) throws {
        try photo.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
    }

    /// Every key of an entry.
    public static var keys: Set<String> { AlbumPhotoJSON.keys.union(CodingKeys.allCases.map(\.stringValue)) }
}
