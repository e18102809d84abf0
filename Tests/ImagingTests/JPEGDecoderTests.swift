import Foundation
@testable import Imaging
import XCTest

/// The picture files made by scripts/make_image_fixtures.py (committed; no network needed).
private func fixture(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/images/\(name)")
    return try Data(contentsOf: url)
}

private let red = (255, 0, 0), green = (0, 255, 0), blue = (0, 0, 255), white = (255, 255, 255)

/// Asserts the pixel at (x, y) is `expected` within JPEG's tolerance.
private func assertColour(_ image: RGBImage, _ x: Int, _ y: Int, _ expected: (Int, Int, Int), tolerance: Int = 12,
                          _ what: String = "", file: StaticString = #filePath, line: UInt = #line) {
    let (r, g, b) = image.pixel(x: x, y: y)
    let ok = abs(Int(r) - expected.0) <= tolerance && abs(Int(g) - expected.1) <= tolerance
        && abs(Int(b) - expected.2) <= tolerance
    XCTAssertTrue(ok, "\(what) pixel (\(x), \(y)) is (\(r), \(g), \(b)), expected \(expected) ± \(tolerance)",
                  file: file, line: line)
}

/// Asserts decoding throws exactly `expected`.
private func assertDecodeFails(_ data: Data, _ expected: ImageError, file: StaticString = #filePath, line: UInt = #line) {
    do {
        let image = try JPEGDecoder.decode(data, fitting: 80, 48)
        XCTFail("decoded a \(image.width)×\(image.height) picture; expected \(expected)", file: file, line: line)
    } catch {
        XCTAssertEqual(error, expected, file: file, line: line)
    }
}

final class JPEGDecoderTests: XCTestCase {
    // MARK: Colours and sizes

    func testColourBarsDecodeToTheirKnownColours() throws {
        let image = try JPEGDecoder.decode(try fixture("bars_4x3.jpg"), fitting: 4, 3)
        XCTAssertEqual(image.width, 4)
        XCTAssertEqual(image.height, 3)
        XCTAssertEqual(image.pixels.count, 4 * 3 * 3)
        for y in 0..<3 {
            assertColour(image, 0, y, red, tolerance: 40, "red bar")
            assertColour(image, 1, y, green, tolerance: 40, "green bar")
            assertColour(image, 2, y, blue, tolerance: 40, "blue bar")
            assertColour(image, 3, y, white, tolerance: 40, "white bar")
        }
        // Each bar's own channel dominates clearly.
        let (r, g, b) = image.pixel(x: 0, y: 1)
        XCTAssertGreaterThan(Int(r), Int(g) + 150)
        XCTAssertGreaterThan(Int(r), Int(b) + 150)
        XCTAssertGreaterThan(image.pixel(x: 1, y: 1).1, 200)
        XCTAssertGreaterThan(image.pixel(x: 2, y: 1).2, 200)
    }

    func testALargePhotoDecodesAtTheSmallestScaleThatCoversTheBox() throws {
        let data = try fixture("quadrants_1024x768.jpg")
        let image = try JPEGDecoder.decode(data, fitting: 80, 48)
        // 1/8 scale: 128×96 covers 80×48 and is within twice the box per side.
        XCTAssertEqual(image.width, 128)
        XCTAssertEqual(image.height, 96)
        XCTAssertGreaterThanOrEqual(image.width, 80)
        XCTAssertGreaterThanOrEqual(image.height, 48)
        XCTAssertLessThanOrEqual(image.width, 160)
        XCTAssertLessThanOrEqual(image.height, 96)
        // Quadrants: red | green over blue | white.
        assertColour(image, 10, 10, red, "top left")
        assertColour(image, 117, 10, green, "top right")
        assertColour(image, 10, 85, blue, "bottom left")
        assertColour(image, 117, 85, white, "bottom right")
    }

    func testTheScaleFollowsTheBox() throws {
        let data = try fixture("quadrants_1024x768.jpg")
        let cases: [(box: (Int, Int), expected: (Int, Int))] = [
            ((200, 60), (256, 192)),     // 1/4: 1/8 gives only 128 wide
            ((300, 200), (384, 288)),    // 3/8
            ((512, 384), (512, 384)),    // exactly 1/2
            ((513, 100), (640, 480)),    // 5/8
            ((1024, 768), (1024, 768)),  // full size
            ((4000, 3000), (1024, 768)), // never larger than the photo
            ((1, 1), (128, 96)),         // 1/8 is the smallest
        ]
        for (box, expected) in cases {
            let image = try JPEGDecoder.decode(data, fitting: box.0, box.1)
            XCTAssertEqual(image.width, expected.0, "box \(box)")
            XCTAssertEqual(image.height, expected.1, "box \(box)")
            XCTAssertGreaterThanOrEqual(image.width, min(box.0, 1024), "box \(box)")
            XCTAssertGreaterThanOrEqual(image.height, min(box.1, 768), "box \(box)")
        }
    }

    func testTheExistingTestPhotosDecode() throws {
        for (name, size) in [("photo1.jpg", (320, 240)), ("photo2.jpg", (240, 320)), ("photo3.jpg", (400, 300))] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/\(name)")
            let data = try Data(contentsOf: url)
            let dimensions = try JPEGDecoder.dimensions(data)
            XCTAssertEqual(dimensions.width, size.0, name)
            XCTAssertEqual(dimensions.height, size.1, name)
            let image = try JPEGDecoder.decode(data, fitting: size.0, size.1)
            XCTAssertEqual(image.width, size.0, name)
            XCTAssertEqual(image.height, size.1, name)
        }
    }

    func testGreyscaleDecodesToGreyRGB() throws {
        let image = try JPEGDecoder.decode(try fixture("grey_64x48.jpg"), fitting: 64, 48)
        XCTAssertEqual(image.width, 64)
        XCTAssertEqual(image.height, 48)
        assertColour(image, 8, 24, (40, 40, 40), tolerance: 6, "dark half")
        assertColour(image, 56, 24, (200, 200, 200), tolerance: 6, "light half")
        let (r, g, b) = image.pixel(x: 56, y: 24)
        XCTAssertTrue(r == g && g == b, "grey stays grey")
    }

    func testCMYKDecodesToRGB() throws {
        let data = try fixture("cmyk_64x48.jpg")
        let image = try JPEGDecoder.decode(data, fitting: 64, 48)
        XCTAssertEqual(image.width, 64)
        XCTAssertEqual(image.height, 48)
        assertColour(image, 8, 24, red, "red half")
        assertColour(image, 56, 24, blue, "blue half")
        // Scaled too.
        let small = try JPEGDecoder.decode(data, fitting: 8, 6)
        XCTAssertEqual(small.width, 8)
        XCTAssertEqual(small.height, 6)
        assertColour(small, 1, 3, red, "scaled red half")
        assertColour(small, 6, 3, blue, "scaled blue half")
    }

    func testProgressiveDecodes() throws {
        let data = try fixture("progressive_64x48.jpg")
        let image = try JPEGDecoder.decode(data, fitting: 64, 48)
        XCTAssertEqual(image.width, 64)
        XCTAssertEqual(image.height, 48)
        assertColour(image, 32, 5, (255, 255, 0), "yellow top")
        assertColour(image, 32, 42, blue, "blue bottom")
        let half = try JPEGDecoder.decode(data, fitting: 32, 24)
        XCTAssertEqual(half.width, 32)
        XCTAssertEqual(half.height, 24)
        assertColour(half, 16, 2, (255, 255, 0), "scaled yellow top")
        assertColour(half, 16, 21, blue, "scaled blue bottom")
    }

    func testAOnePixelPicture() throws {
        let data = try fixture("pixel_1x1.jpg")
        let image = try JPEGDecoder.decode(data, fitting: 80, 48)
        XCTAssertEqual(image.width, 1)
        XCTAssertEqual(image.height, 1)
        assertColour(image, 0, 0, (200, 40, 120), "the pixel")
        let dimensions = try JPEGDecoder.dimensions(data)
        XCTAssertEqual(dimensions.width, 1)
        XCTAssertEqual(dimensions.height, 1)
    }

    func testAPanoramaDecodesSmallButCoversTheBox() throws {
        let data = try fixture("panorama_10000x200.jpg")
        let dimensions = try JPEGDecoder.dimensions(data)
        XCTAssertEqual(dimensions.width, 10000)
        XCTAssertEqual(dimensions.height, 200)
        let image = try JPEGDecoder.decode(data, fitting: 80, 48)
        // 1/4: 200/8 = 25 rows would not cover 48.
        XCTAssertEqual(image.width, 2500)
        XCTAssertEqual(image.height, 50)
        assertColour(image, 10, 25, red, "left end")
        assertColour(image, 1250, 25, (128, 128, 128), "middle")
        assertColour(image, 2490, 25, blue, "right end")
    }

    // MARK: EXIF orientation

    /// The stored 48×32 picture has a red marker at its top-left and a green one at
    /// its top-right; each orientation must put them in these upright corners.
    func testEveryEXIFOrientationIsTurnedUpright() throws {
        enum Corner { case topLeft, topRight, bottomLeft, bottomRight }
        let expected: [Int: (red: Corner, green: Corner)] = [
            1: (.topLeft, .topRight),
            2: (.topRight, .topLeft),
            3: (.bottomRight, .bottomLeft),
            4: (.bottomLeft, .bottomRight),
            5: (.topLeft, .bottomLeft),
            6: (.topRight, .bottomRight),
            7: (.bottomRight, .topRight),
            8: (.bottomLeft, .topLeft),
        ]
        for orientation in 1...8 {
            let data = try fixture("orientation\(orientation)_48x32.jpg")
            let image = try JPEGDecoder.decode(data, fitting: 48, 48)
            let sideways = orientation >= 5
            XCTAssertEqual(image.width, sideways ? 32 : 48, "orientation \(orientation)")
            XCTAssertEqual(image.height, sideways ? 48 : 32, "orientation \(orientation)")
            let dimensions = try JPEGDecoder.dimensions(data)
            XCTAssertEqual(dimensions.width, image.width, "orientation \(orientation)")
            XCTAssertEqual(dimensions.height, image.height, "orientation \(orientation)")
            func point(_ corner: Corner) -> (Int, Int) {
                switch corner {
                case .topLeft: (4, 4)
                case .topRight: (image.width - 5, 4)
                case .bottomLeft: (4, image.height - 5)
                case .bottomRight: (image.width - 5, image.height - 5)
                }
            }
            let corners = expected[orientation]!
            let r = point(corners.red), g = point(corners.green)
            assertColour(image, r.0, r.1, red, "orientation \(orientation): red")
            assertColour(image, g.0, g.1, green, "orientation \(orientation): green")
            // The two other corners stay blue.
            for corner in [Corner.topLeft, .topRight, .bottomLeft, .bottomRight]
            where corner != corners.red && corner != corners.green {
                let p = point(corner)
                assertColour(image, p.0, p.1, blue, "orientation \(orientation): \(corner)")
            }
        }
    }

    func testARotatedPhotoChoosesItsScaleForTheUprightBox() throws {
        // Stored 48×32, shown 32×48 (orientation 6). A 16×24 upright box needs the
        // stored picture at 24×16 or more: 1/2 gives 24×16, upright 16×24.
        let image = try JPEGDecoder.decode(try fixture("orientation6_48x32.jpg"), fitting: 16, 24)
        XCTAssertEqual(image.width, 16)
        XCTAssertEqual(image.height, 24)
        assertColour(image, 14, 1, red, tolerance: 20, "red at the top right")
        // The same box for the upright original (orientation 1) needs 3/4: 36×24.
        let upright = try JPEGDecoder.decode(try fixture("orientation1_48x32.jpg"), fitting: 16, 24)
        XCTAssertEqual(upright.width, 36)
        XCTAssertEqual(upright.height, 24)
    }

    // MARK: Bad input

    func testATruncatedFileShowsThePartThatDecoded() throws {
        let image = try JPEGDecoder.decode(try fixture("truncated_128x128.jpg"), fitting: 128, 128)
        XCTAssertEqual(image.width, 128)
        XCTAssertEqual(image.height, 128)
        assertColour(image, 10, 10, red, "the top decoded")
        assertColour(image, 120, 124, (128, 128, 128), tolerance: 2, "the missing end is grey")
    }

    func testAHeaderClaiming60000By60000IsRefusedBeforeDecoding() throws {
        let data = try fixture("huge_header_60000x60000.jpg")
        assertDecodeFails(data, .tooLarge(width: 60000, height: 60000))
        XCTAssertEqual(ImageError.tooLarge(width: 60000, height: 60000).description, "too large (60000×60000)")
        // The header alone is fine to read.
        let dimensions = try JPEGDecoder.dimensions(data)
        XCTAssertEqual(dimensions.width, 60000)
        XCTAssertEqual(dimensions.height, 60000)
    }

    /// Issue 10: a 600-byte progressive JPEG declaring 8000×8000 is under the pixel budget, but
    /// libjpeg keeps every coefficient of a progressive picture (192 MB here) whatever the scale.
    func testAProgressiveBombIsRefusedBeforeDecoding() throws {
        let bomb = declaring(try fixture("progressive_64x48.jpg"), width: 8000, height: 8000)
        XCTAssertLessThan(bomb.count, 1000)
        assertDecodeFails(bomb, .tooLarge(width: 8000, height: 8000))
        XCTAssertThrowsError(try JPEGDecoder.check(bomb)) { XCTAssertEqual($0 as? ImageError, .tooLarge(width: 8000, height: 8000)) }
        // The same file declaring 1000×1000 (3 MB of coefficients) decodes: the rest is missing data.
        let small = declaring(try fixture("progressive_64x48.jpg"), width: 1000, height: 1000)
        XCTAssertNoThrow(try JPEGDecoder.check(small))
        XCTAssertEqual(try JPEGDecoder.decode(small, fitting: 80, 48).width, 125)
        // A baseline picture of the same size streams row by row: it is not refused.
        let baseline = declaring(try fixture("grey_64x48.jpg"), width: 8000, height: 8000)
        XCTAssertNoThrow(try JPEGDecoder.check(baseline))
        XCTAssertEqual(try JPEGDecoder.decode(baseline, fitting: 80, 48).width, 1000)
    }

    func testWholePictureMemoryCountsEveryComponentsBlocks() {
        var markers = JPEGMarkers()
        markers.sampling = [.init(h: 2, v: 2), .init(h: 1, v: 1), .init(h: 1, v: 1)]
        XCTAssertEqual(markers.wholePictureBytes(width: 8000, height: 8000), 0, "baseline in one scan streams")
        markers.firstScanComponents = 1
        XCTAssertEqual(markers.wholePictureBytes(width: 8000, height: 8000), (1_000_000 + 2 * 250_000) * 128,
                       "a first scan without every component needs the whole picture")
        markers.firstScanComponents = 3
        markers.isProgressive = true
        XCTAssertEqual(markers.wholePictureBytes(width: 17, height: 9), (3 * 2 + 2 * (2 * 1)) * 128, "partial blocks count whole")
        XCTAssertGreaterThan(markers.wholePictureBytes(width: Int.max, height: Int.max), JPEGDecoder.wholePictureMemoryBudget)
    }

    /// The JPEG with its frame header declaring another size (the scans are left as they are).
    private func declaring(_ jpeg: Data, width: Int, height: Int) -> Data {
        var bytes = [UInt8](jpeg)
        var i = 2
        while i + 9 <= bytes.count {
            let marker = bytes[i + 1], length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if [0xC0, 0xC1, 0xC2].contains(marker) {
                bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
                bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
                break
            }
            i += 2 + length
        }
        return Data(bytes)
    }

    func testThePixelBudgetIsTheCallers() throws {
        let data = try fixture("quadrants_1024x768.jpg")
        XCTAssertThrowsError(try JPEGDecoder.decode(data, fitting: 80, 48, pixelBudget: 1024 * 768 - 1)) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(width: 1024, height: 768))
        }
        XCTAssertNoThrow(try JPEGDecoder.decode(data, fitting: 80, 48, pixelBudget: 1024 * 768))
    }

    func testZeroBytesAreEmpty() throws {
        assertDecodeFails(try fixture("empty.jpg"), .empty)
        assertDecodeFails(Data(), .empty)
        XCTAssertThrowsError(try JPEGDecoder.dimensions(Data())) { XCTAssertEqual($0 as? ImageError, .empty) }
        XCTAssertEqual(ImageError.empty.description, "empty file")
    }

    func testRandomBytesAreNotAPicture() throws {
        assertDecodeFails(try fixture("random.bin"), .notJPEG(.unknown))
        XCTAssertEqual(ImageError.notJPEG(.unknown).description, "not a picture")
    }

    func testAWebPageIsNamed() throws {
        assertDecodeFails(try fixture("page.html"), .notJPEG(.webPage))
        XCTAssertEqual(ImageError.notJPEG(.webPage).description, "not a JPEG (a web page)")
        assertDecodeFails(Data("  \n<html><body>hi</body></html>".utf8), .notJPEG(.webPage))
    }

    func testAPNGIsNamed() throws {
        assertDecodeFails(try fixture("picture.png"), .notJPEG(.png))
        XCTAssertEqual(ImageError.notJPEG(.png).description, "not a JPEG (a PNG picture)")
        XCTAssertThrowsError(try JPEGDecoder.dimensions(try fixture("picture.png"))) {
            XCTAssertEqual($0 as? ImageError, .notJPEG(.png))
        }
    }

    func testOtherFormatsAreNamed() {
        assertDecodeFails(Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), .notJPEG(.gif))
        assertDecodeFails(Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .notJPEG(.webp))
        assertDecodeFails(Data("%PDF-1.7\n".utf8), .notJPEG(.pdf))
        assertDecodeFails(Data("{\"error\": \"rate limited\"}".utf8), .notJPEG(.text))
        assertDecodeFails(Data([0, 0, 0, 0x1C] + Array("ftypheic".utf8) + [0, 0, 0, 0]), .notJPEG(.heif))
        var bmp: [UInt8] = Array("BM".utf8) + [UInt8](repeating: 0, count: 40)
        bmp[14] = 40
        assertDecodeFails(Data(bmp), .notJPEG(.bmp))
        assertDecodeFails(Data("BMW sells cars".utf8), .notJPEG(.text))
        // Text in UTF-8 whose last character is cut off where sniffing stops.
        assertDecodeFails(Data(String(repeating: "é", count: 600).utf8.dropFirst()), .notJPEG(.unknown))
        assertDecodeFails(Data(String(repeating: "é", count: 600).utf8), .notJPEG(.text))
        assertDecodeFails(Data(("x" + String(repeating: "é", count: 600)).utf8), .notJPEG(.text))
    }

    func testAJPEGStartFollowedByGarbageIsDamaged() throws {
        // Starts like a JPEG, then nothing that makes sense.
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF]
        bytes += (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        XCTAssertThrowsError(try JPEGDecoder.decode(Data(bytes), fitting: 80, 48)) { error in
            guard case .corrupt(let message)? = error as? ImageError else {
                return XCTFail("expected .corrupt, got \(error)")
            }
            XCTAssertFalse(message.isEmpty)
            XCTAssertTrue((error as! ImageError).description.hasPrefix("damaged JPEG"))
        }
        // Only the start of a JPEG: no frame header.
        XCTAssertThrowsError(try JPEGDecoder.decode(Data([0xFF, 0xD8, 0xFF, 0xD9]), fitting: 80, 48)) { error in
            guard case .corrupt? = error as? ImageError else { return XCTFail("expected .corrupt, got \(error)") }
        }
    }

    func testAProgressiveFileWithThousandsOfScansIsRefused() throws {
        // The progressive fixture with its last scan repeated 600 times (FF DA only
        // occurs as a marker: entropy data stuffs FF as FF 00).
        let bytes = Array(try fixture("progressive_64x48.jpg"))
        let lastScan = try XCTUnwrap((0..<bytes.count - 1).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let scan = bytes[lastScan..<(bytes.count - 2)]
        var many = Array(bytes[..<(bytes.count - 2)])
        for _ in 0..<600 { many += scan }
        many += [0xFF, 0xD9]
        XCTAssertThrowsError(try JPEGDecoder.decode(Data(many), fitting: 64, 48)) { error in
            guard case .corrupt(let message)? = error as? ImageError else {
                return XCTFail("expected .corrupt, got \(error)")
            }
            XCTAssertTrue(message.contains("scans"), message)
        }
    }

    // MARK: Threads

    func testDecodingFromManyThreadsAtOnceGivesTheSameResult() throws {
        let data = try fixture("quadrants_1024x768.jpg")
        let reference = try JPEGDecoder.decode(data, fitting: 80, 48)
        let results = Results(count: 16)
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            results.set(i, try? JPEGDecoder.decode(data, fitting: 80, 48))
        }
        for i in 0..<16 {
            XCTAssertEqual(results.get(i), reference, "thread \(i)")
        }
    }
}

/// Results collected from concurrent work, behind a lock.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [RGBImage?]
    init(count: Int) { images = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ image: RGBImage?) { lock.withLock { images[i] = image } }
    func get(_ i: Int) -> RGBImage? { lock.withLock { images[i] } }
}
