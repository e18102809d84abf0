import Dispatch
import Foundation
import Imaging
import Synchronization
import Terminal
import XCTest

/// The inline image sequences read back by the decoders in InlineSequenceDecoders.swift:
/// well formed, the declared size the fitted pixel size, the payload that picture.
final class InlineImageEncoderTests: XCTestCase {
    /// 160 × 120 (4:3) in quadrants: red | green over blue | white.
    private let quadrants = RGBImage.painted(width: 160, height: 120) { x, y in
        switch (x < 80, y < 60) {
        case (true, true): return (255, 0, 0)
        case (false, true): return (0, 255, 0)
        case (true, false): return (0, 0, 255)
        case (false, false): return (255, 255, 255)
        }
    }

    /// Quadrant centres (fractions of the picture) and their colours.
    private let landmarks: [(fx: Double, fy: Double, colour: (Int, Int, Int), name: String)] = [
        (0.25, 0.25, (255, 0, 0), "red"), (0.75, 0.25, (0, 255, 0), "green"),
        (0.25, 0.75, (0, 0, 255), "blue"), (0.75, 0.75, (255, 255, 255), "white"),
    ]

    private func assertLandmarks(_ picture: DecodedPicture, tolerance: Int, file: StaticString = #filePath, line: UInt = #line) {
        for mark in landmarks {
            let x = Int(Double(picture.width) * mark.fx), y = Int(Double(picture.height) * mark.fy)
            let (r, g, b) = picture.pixel(x, y)
            let (er, eg, eb) = mark.colour
            XCTAssertTrue(abs(r - er) <= tolerance && abs(g - eg) <= tolerance && abs(b - eb) <= tolerance,
                          "\(mark.name) quadrant at \(x),\(y) is \(r),\(g),\(b)", file: file, line: line)
        }
    }

    // MARK: Fitting

    func testPixelSizeIsTheFittedBoxOfCells() {
        let kitty = InlineImageEncoder(protocol: .kitty)
        // 4:3 in 40 × 20 cells takes 40 × 15 (as the cells would), 10 × 20 pixels a cell.
        let box = kitty.box(imageWidth: 160, imageHeight: 120, columns: 40, rows: 20)
        XCTAssertEqual(box.columns, 40)
        XCTAssertEqual(box.rows, 15)
        XCTAssertEqual(kitty.pixelSize(box: box).width, 400)
        XCTAssertEqual(kitty.pixelSize(box: box).height, 300)
        // Sixel heights are whole bands: 20 rows × 20 pixels = 400 → 396.
        let sixel = InlineImageEncoder(protocol: .sixel)
        XCTAssertEqual(sixel.pixelSize(box: (40, 20)).height, 396)
        XCTAssertEqual(sixel.pixelSize(box: (40, 15)).height, 300)
        XCTAssertEqual(InlineImageEncoder(protocol: .iterm2, cellWidth: 8, cellHeight: 16).pixelSize(box: (3, 2)).width, 24)
    }

    func testNothingToDrawGivesNoBytes() {
        for proto in InlineProtocol.allCases {
            let encoder = InlineImageEncoder(protocol: proto)
            XCTAssertEqual(encoder.encode(quadrants, columns: 0, rows: 10), [], "\(proto)")
            XCTAssertEqual(encoder.encode(RGBImage(width: 0, height: 0, pixels: []), columns: 40, rows: 20), [], "\(proto)")
            XCTAssertNil(encoder.picture(quadrants, key: "1@0x0", in: Rect(x: 0, y: 0, width: 0, height: 5)))
        }
    }

    func testPictureIsCentredInItsAreaAsTheCellsAre() throws {
        let encoder = InlineImageEncoder(protocol: .kitty)
        let picture = try XCTUnwrap(encoder.picture(quadrants, key: "7@40x20", in: Rect(x: 3, y: 2, width: 40, height: 20)))
        XCTAssertEqual(picture.key, "7@40x20")
        XCTAssertEqual(picture.columns, 40)
        XCTAssertEqual(picture.rows, 15)
        XCTAssertEqual(picture.x, 3)
        XCTAssertEqual(picture.y, 2 + (20 - 15) / 2)
        XCTAssertEqual(picture.sequence, encoder.encode(quadrants, columns: 40, rows: 20))
    }

    // MARK: kitty

    func testKittySequenceIsWellFormedChunksOfTheFittedPicture() throws {
        let encoder = InlineImageEncoder(protocol: .kitty)
        let bytes = encoder.encode(quadrants, columns: 40, rows: 20)
        let image = try decodeKitty(bytes)
        XCTAssertEqual(image.control["a"], "T")
        XCTAssertEqual(image.control["s"], "400")
        XCTAssertEqual(image.control["v"], "300")
        XCTAssertEqual(image.control["c"], "40", "the terminal scales it to the cells")
        XCTAssertEqual(image.control["r"], "15")
        XCTAssertGreaterThan(image.chunks, 2, "400 × 300 pixels need many chunks")
        XCTAssertEqual(image.picture.width, 400)
        XCTAssertEqual(image.picture.height, 300)
        assertLandmarks(image.picture, tolerance: 8)
    }

    func testKittyReaderRefusesBrokenSequences() throws {
        let bytes = InlineImageEncoder(protocol: .kitty).encode(quadrants, columns: 8, rows: 4)
        XCTAssertNoThrow(try decodeKitty(bytes))
        XCTAssertThrowsError(try decodeKitty(Array(bytes.dropLast(2))), "no final terminator")
        XCTAssertThrowsError(try decodeKitty(Array(bytes.dropLast(9))), "last chunk lost")
        XCTAssertThrowsError(try decodeKitty([UInt8(ascii: "x")] + bytes), "junk before")
    }

    // MARK: iTerm2

    func testITermSequenceCarriesAFileOfTheFittedSize() throws {
        let bytes = InlineImageEncoder(protocol: .iterm2).encode(quadrants, columns: 40, rows: 20)
        let image = try decodeITerm(bytes)
        XCTAssertEqual(image.arguments["inline"], "1")
        XCTAssertEqual(image.arguments["width"], "40", "columns")
        XCTAssertEqual(image.arguments["height"], "15", "rows")
        XCTAssertEqual(image.picture.width, 400)
        XCTAssertEqual(image.picture.height, 300)
        assertLandmarks(image.picture, tolerance: 8)
    }

    // MARK: sixel

    func testSixelSequenceDecodesToTheFittedPictureBandByBand() throws {
        let bytes = InlineImageEncoder(protocol: .sixel).encode(quadrants, columns: 40, rows: 20)
        let image = try decodeSixel(bytes)
        XCTAssertEqual(image.declaredWidth, 400)
        XCTAssertEqual(image.declaredHeight, 300)
        XCTAssertEqual(image.columns, 400)
        XCTAssertEqual(image.bands, 50)
        assertLandmarks(image.picture, tolerance: 16)
    }

    func testSixelHeightIsCutToWholeBands() throws {
        // A square picture takes 40 × 20 cells: 400 × 400 pixels, 396 in whole bands.
        let square = RGBImage.painted(width: 90, height: 90) { x, _ in x < 45 ? (200, 30, 30) : (30, 30, 200) }
        let image = try decodeSixel(InlineImageEncoder(protocol: .sixel).encode(square, columns: 40, rows: 20))
        XCTAssertEqual(image.declaredWidth, 400)
        XCTAssertEqual(image.declaredHeight, 396)
        XCTAssertEqual(image.bands, 66)
        let (r, _, b) = image.picture.pixel(50, 390)
        XCTAssertTrue(r > 150 && b < 80, "left is red: \(r),\(b)")
        let (r2, _, b2) = image.picture.pixel(350, 3)
        XCTAssertTrue(b2 > 150 && r2 < 80, "right is blue: \(r2),\(b2)")
    }

    // MARK: A real photo file

    func testAJPEGFixtureInEveryProtocol() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images/quadrants_1024x768.jpg")
        for proto in InlineProtocol.allCases {
            let encoder = InlineImageEncoder(protocol: proto, cellWidth: 8, cellHeight: 16)
            let size = encoder.pixelSize(box: encoder.box(imageWidth: 1024, imageHeight: 768, columns: 30, rows: 30))
            XCTAssertEqual(size.width, 240, "\(proto)")
            // Decoded only as large as the pixels shown.
            let photo = try JPEGDecoder.decode(try Data(contentsOf: url), fitting: size.width, size.height)
            let bytes = encoder.encode(photo, columns: 30, rows: 30)
            let picture: DecodedPicture
            switch proto {
            case .kitty: picture = try decodeKitty(bytes).picture
            case .iterm2: picture = try decodeITerm(bytes).picture
            case .sixel: picture = try decodeSixel(bytes).picture
            }
            XCTAssertEqual(picture.width, size.width, "\(proto)")
            XCTAssertEqual(picture.height, size.height, "\(proto)")
            assertLandmarks(picture, tolerance: 24)
        }
    }

    func testEncodersMayRunOnManyThreadsAtOnce() {
        let encoders = InlineProtocol.allCases.map { InlineImageEncoder(protocol: $0) }
        let quadrants = self.quadrants
        let alone = encoders.map { $0.encode(quadrants, columns: 20, rows: 10) }
        let results = Mutex<[[UInt8]?]>(Array(repeating: nil, count: 24))
        DispatchQueue.concurrentPerform(iterations: 24) { i in
            let bytes = encoders[i % encoders.count].encode(quadrants, columns: 20, rows: 10)
            results.withLock { $0[i] = bytes }
        }
        let together = results.withLock { $0 }
        for i in 0..<24 {
            XCTAssertEqual(together[i], alone[i % encoders.count], "run \(i) (\(encoders[i % encoders.count].imageProtocol))")
        }
    }

    func testClearSequenceOnlyForKitty() {
        XCTAssertEqual(InlineImageEncoder.clearSequence(for: .kitty), Array("\u{1B}_Ga=d,d=A\u{1B}\\".utf8))
        XCTAssertEqual(InlineImageEncoder.clearSequence(for: .sixel), [])
        XCTAssertEqual(InlineImageEncoder.clearSequence(for: .iterm2), [])
    }
}
