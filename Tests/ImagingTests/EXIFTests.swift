import Foundation
import Imaging
import TestSupport
import XCTest

/// EXIF orientation read from hand-made segments, and damaged files that must not crash.
final class EXIFTests: XCTestCase {
    /// A 64×48 JPEG without Exif.
    private func plainJPEG() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images/progressive_64x48.jpg")
        return Array(try Data(contentsOf: url))
    }

    /// An APP1 segment: the marker, its length, then `payload`.
    private func app1(_ payload: [UInt8], claimedLength: Int? = nil) -> [UInt8] {
        let length = claimedLength ?? payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// An Exif payload whose IFD0 holds one Orientation entry of `type` with `value`.
    private func exif(bigEndian: Bool, type: UInt16 = 3, value: UInt32, ifdOffset: UInt32 = 8) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? b : b.reversed()
        }
        let valueField = type == 3 ? u16(UInt16(value)) + [0, 0] : u32(value)
        let tiff = Array((bigEndian ? "MM" : "II").utf8) + u16(42) + u32(ifdOffset)
            + u16(1) + u16(0x0112) + u16(type) + u32(1) + valueField + u32(0)
        return Array("Exif".utf8) + [0, 0] + tiff
    }

    /// The JPEG with `segments` put right after SOI.
    private func jpeg(with segments: [UInt8]...) throws -> Data {
        let plain = try plainJPEG()
        return Data(plain[0..<2] + segments.joined() + plain[2...])
    }

    private func size(_ data: Data) throws -> String {
        let d = try JPEGDecoder.dimensions(data)
        let image = try JPEGDecoder.decode(data, fitting: 64, 64)
        XCTAssertEqual(d.width, image.width)
        XCTAssertEqual(d.height, image.height)
        return "\(d.width)×\(d.height)"
    }

    func testOrientationInEitherByteOrderAndAsALong() throws {
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: true, value: 6)))), "48×64")
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: false, value: 8)))), "48×64")
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: false, type: 4, value: 5)))), "48×64")
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: true, value: 3)))), "64×48")
    }

    func testXMPBeforeExifIsSkippedAndTheFirstExifWins() throws {
        let xmp = app1(Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8))
        XCTAssertEqual(try size(jpeg(with: xmp, app1(exif(bigEndian: true, value: 6)))), "48×64")
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: true, value: 1)), app1(exif(bigEndian: true, value: 6)))),
                       "64×48")
    }

    func testBadExifLeavesThePictureUpright() throws {
        // Orientation values outside 1–8, a wrong type, an IFD beyond the segment,
        // a bad byte-order mark, an Exif header with nothing after it.
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: true, value: 9)))), "64×48")
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: true, value: 0)))), "64×48")
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: true, type: 2, value: 6)))), "64×48")
        XCTAssertEqual(try size(jpeg(with: app1(exif(bigEndian: false, value: 6, ifdOffset: 4000)))), "64×48")
        var badMark = exif(bigEndian: true, value: 6)
        badMark[6] = 0x58
        XCTAssertEqual(try size(jpeg(with: app1(badMark))), "64×48")
        XCTAssertEqual(try size(jpeg(with: app1(Array("Exif".utf8) + [0, 0]))), "64×48")
    }

    func testAnExifSegmentLongerThanTheFileDoesNotCrash() throws {
        let plain = try plainJPEG()
        let cut = Data(plain[0..<2] + app1(exif(bigEndian: true, value: 6), claimedLength: 60000))
        XCTAssertThrowsError(try JPEGDecoder.decode(cut, fitting: 80, 48))
        XCTAssertThrowsError(try JPEGDecoder.dimensions(cut))
    }

    /// Seeded damage to real files: every decode returns a picture of a sane size or an `ImageError`.
    func testDamagedFilesNeverCrash() throws {
        var random = SeededRandom(testNamed: "EXIFTests.testDamagedFilesNeverCrash", fallback: 7)
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        let originals = try ["photo1.jpg", "images/progressive_64x48.jpg", "images/cmyk_64x48.jpg",
                             "images/orientation6_48x32.jpg", "images/grey_64x48.jpg"]
            .map { Array(try Data(contentsOf: folder.appendingPathComponent($0))) }
        var decoded = 0, refused = 0
        for round in 0..<300 {
            var bytes = originals[round % originals.count]
            switch Int.random(in: 0..<3, using: &random) {
            case 0:  // flip a few bytes
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 1:  // cut short
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
            default:  // damage the headers
                let i = Int.random(in: 2..<min(bytes.count, 300), using: &random)
                bytes[i] = UInt8.random(in: 0...255, using: &random)
            }
            do {
                let image = try JPEGDecoder.decode(Data(bytes), fitting: 40, 30, pixelBudget: 4_000_000)
                XCTAssertEqual(image.pixels.count, image.width * image.height * 3)
                XCTAssertLessThanOrEqual(image.width * image.height, 4_000_000)
                decoded += 1
            } catch {
                XCTAssertFalse(error.description.isEmpty)
                refused += 1
            }
        }
        XCTAssertEqual(decoded + refused, 300)
        XCTAssertGreaterThan(decoded, 0)
        XCTAssertGreaterThan(refused, 0)
    }
}
