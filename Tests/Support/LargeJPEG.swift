import Foundation

/// Tests/Fixtures/images/large_1024x768_exif.jpg (scripts/make_large_fixture.c): a real 1024×768 JPEG of
/// about 300 KB with an Exif segment, as a photo's large size is; and distinct copies of it.
public enum LargeJPEG {
    public static let width = 1024
    public static let height = 768
    public static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/images/large_1024x768_exif.jpg")

    /// The fixture's bytes (empty when it cannot be read: every test that stores them then fails).
    public static let bytes: Data = (try? Data(contentsOf: url)) ?? Data()

    /// The fixture with a comment segment naming `number` after its Exif segment: a different file of
    /// the same picture, still a valid JPEG with its Exif first.
    public static func copy(_ number: Int) -> Data {
        let data = [UInt8](bytes)
        // SOI, then the APP1 segment: marker, two length bytes (the length counts themselves).
        guard data.count > 6, data[2] == 0xFF, data[3] == 0xE1 else { return bytes }
        let afterExif = 4 + (Int(data[4]) << 8 | Int(data[5]))
        let text = Array("vtourist test copy \(number)".utf8)
        let comment: [UInt8] = [0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)] + text
        return Data(data[..<afterExif] + comment + data[afterExif...])
    }
}
