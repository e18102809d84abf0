import Dispatch
import Foundation
import Imaging
import InlineReaders
import Synchronization
import Terminal
import XCTest

/// The inline image sequences read back by the readers in Tests/InlineReaders:
/// well formed, the declared size the fitted pixel size, the payload that picture.
final class InlineImageEncoderTests: XCTestCase {
    /// 160 × 120 (4:3) in quadrants: red | green over blue | white.
    private var quadrants: RGBImage { RGBImage.painted(width: 160, height: 120) { x, y in
        switch (x < 80, y < 60) {
        case (true, true): return (255, 0, 0)
        case (false, true): return (0, 255, 0)
        case (true, false): return (0, 0, 255)
        case (false, false): return (255, 255, 255)
        }
    } }

    /// Quadrant centres (fractions of the picture) and their colours.
    private var landmarks: [(fx: Double, fy: Double, colour: (Int, Int, Int), name: String)] { [
        (0.25, 0.25, (255, 0, 0), "red"), (0.75, 0.25, (0, 255, 0), "green"),
        (0.25, 0.75, (0, 0, 255), "blue"), (0.75, 0.75, (255, 255, 255), "white"),
    ] }

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
        // Placeholder cells number at most one diacritic each way.
        let unicode = InlineImageEncoder(protocol: .kittyUnicode)
        XCTAssertEqual(unicode.box(imageWidth: 4000, imageHeight: 1000, columns: 500, rows: 200).columns, ImagePlaceholder.maxSide)
    }

    func testThePixelsSentAreTheImagesOwnNeverMoreThanItHasOrTheBoxShows() {
        for proto in [InlineProtocol.kitty, .kittyUnicode, .iterm2] {
            let encoder = InlineImageEncoder(protocol: proto)
            // A 160 × 120 thumbnail in a box of 400 × 300 pixels: sent as it is, not blown up.
            XCTAssertTrue(encoder.sentSize(imageWidth: 160, imageHeight: 120, box: (40, 15)) == (160, 120), "\(proto)")
            // 1024 × 768 in the same box: as many pixels as it shows.
            XCTAssertTrue(encoder.sentSize(imageWidth: 1024, imageHeight: 768, box: (40, 15)) == (400, 300), "\(proto)")
            XCTAssertTrue(encoder.sentSize(imageWidth: 0, imageHeight: 768, box: (40, 15)) == (0, 0), "\(proto)")
        }
        // Sixel pictures are pixels in the cells: exactly the box.
        XCTAssertTrue(InlineImageEncoder(protocol: .sixel).sentSize(imageWidth: 160, imageHeight: 120, box: (40, 15)) == (400, 300))
    }

    func testNothingToDrawGivesNoPicture() {
        for proto in InlineProtocol.allCases {
            let encoder = InlineImageEncoder(protocol: proto)
            XCTAssertNil(encoder.picture(quadrants, box: (0, 10), key: "1", in: Rect(x: 0, y: 0, width: 40, height: 20)), "\(proto)")
            XCTAssertNil(encoder.picture(RGBImage(width: 0, height: 0, pixels: []), key: "1",
                                         in: Rect(x: 0, y: 0, width: 40, height: 20)), "\(proto)")
            XCTAssertNil(encoder.picture(quadrants, key: "1@0x0", in: Rect(x: 0, y: 0, width: 0, height: 5)), "\(proto)")
        }
        XCTAssertNil(InlineImageEncoder(protocol: .kitty).picture(jpeg: [1, 2], box: (4, 3), key: "k", in: Rect(x: 0, y: 0, width: 4, height: 3)),
                     "a file is sent as it is to iTerm2 only")
    }

    func testPictureIsCentredInItsAreaAsTheCellsAre() throws {
        let encoder = InlineImageEncoder(protocol: .kitty)
        let picture = try XCTUnwrap(encoder.picture(quadrants, key: "7@40x20", in: Rect(x: 3, y: 2, width: 40, height: 20)))
        XCTAssertEqual(picture.key, "7@40x20")
        XCTAssertEqual(picture.columns, 40)
        XCTAssertEqual(picture.rows, 15)
        XCTAssertEqual(picture.x, 3)
        XCTAssertEqual(picture.y, 2 + (20 - 15) / 2)
    }

    // MARK: kitty

    func testKittySendsAPNGOfThePicturesOwnPixelsByIdAndPlacesItOverTheCells() throws {
        let encoder = InlineImageEncoder(protocol: .kitty)
        let picture = try XCTUnwrap(encoder.picture(quadrants, key: "k", in: Rect(x: 0, y: 0, width: 40, height: 20), imageID: 4242))
        XCTAssertEqual(picture.imageID, 4242)
        XCTAssertNil(picture.cells)
        let image = try decodeKitty(picture.transmit + picture.sequence)
        XCTAssertEqual(image.control["a"], "t", "sent, not shown: placed by id")
        XCTAssertEqual(image.control["f"], "100")
        XCTAssertEqual(image.control["i"], "4242")
        XCTAssertEqual(image.control["q"], "2", "no replies to turn into keys")
        XCTAssertEqual(image.placement?["a"], "p")
        XCTAssertEqual(image.placement?["i"], "4242")
        XCTAssertEqual(image.placement?["c"], "40", "the terminal scales it to the cells")
        XCTAssertEqual(image.placement?["r"], "15")
        XCTAssertEqual(image.placement?["q"], "2")
        // The picture's own 160 × 120 pixels, not the 400 × 300 the box shows.
        XCTAssertEqual(image.picture.width, 160)
        XCTAssertEqual(image.picture.height, 120)
        XCTAssertEqual(image.picture.rgb, quadrants.pixels, "PNG is lossless")
    }

    func testKittyChunksALargePictureAndTheReaderRefusesBrokenSequences() throws {
        // Noise does not compress: many chunks.
        var seed: UInt32 = 7
        let noise = RGBImage.painted(width: 120, height: 90) { _, _ in
            seed = seed &* 1_103_515_245 &+ 12345
            return (UInt8(truncatingIfNeeded: seed >> 16), UInt8(truncatingIfNeeded: seed >> 8), UInt8(truncatingIfNeeded: seed >> 24))
        }
        let picture = try XCTUnwrap(InlineImageEncoder(protocol: .kitty).picture(noise, key: "n", in: Rect(x: 0, y: 0, width: 40, height: 20)))
        let image = try decodeKitty(picture.transmit)
        XCTAssertGreaterThan(image.chunks, 2)
        XCTAssertEqual(image.picture.rgb, noise.pixels)
        let bytes = picture.transmit
        XCTAssertThrowsError(try decodeKitty(Array(bytes.dropLast(2))), "no final terminator")
        XCTAssertThrowsError(try decodeKitty(Array(bytes.dropLast(9))), "last chunk lost")
        XCTAssertThrowsError(try decodeKitty([UInt8(ascii: "x")] + bytes), "junk before")
    }

    func testZlibCompressedPixelsAreReadBackToTheSamePixels() throws {
        let packed = try XCTUnwrap(PNGEncoder.deflate(quadrants.pixels))
        XCTAssertLessThan(packed.count, quadrants.pixels.count / 10, "flat quadrants pack well")
        let bytes = KittyGraphics.transmit(packed, format: .zlibRGB(width: 160, height: 120), id: 3, passthrough: false)
        let image = try decodeKitty(bytes)
        XCTAssertEqual(image.control["f"], "24")
        XCTAssertEqual(image.control["o"], "z")
        XCTAssertEqual(image.picture.width, 160)
        XCTAssertEqual(image.picture.rgb, quadrants.pixels)
        // One byte short of the declared size is refused.
        let short = KittyGraphics.transmit(try XCTUnwrap(PNGEncoder.deflate(Array(quadrants.pixels.dropLast()))),
                                           format: .zlibRGB(width: 160, height: 120), id: 3, passthrough: false)
        XCTAssertThrowsError(try decodeKitty(short))
    }

    func testPNGEncoderRoundTripsEveryRowFilter() throws {
        // Smooth gradients, hard edges and noise: each filter wins somewhere.
        var seed: UInt32 = 1
        let mixed = RGBImage.painted(width: 97, height: 61) { x, y in
            seed = seed &* 1_103_515_245 &+ 12345
            if y < 20 { return (UInt8(x * 2), UInt8(y * 4), 128) }
            if y < 40 { return x < 48 ? (255, 0, 0) : (0, 0, 255) }
            return (UInt8(truncatingIfNeeded: seed >> 16), UInt8(x), UInt8(truncatingIfNeeded: seed >> 24))
        }
        let png = try XCTUnwrap(PNGEncoder.encode(mixed))
        let decoded = try decodePNG(png)
        XCTAssertEqual(decoded.width, 97)
        XCTAssertEqual(decoded.height, 61)
        XCTAssertEqual(decoded.rgb, mixed.pixels)
        XCTAssertNil(PNGEncoder.encode(RGBImage(width: 0, height: 0, pixels: [])))
    }

    func testInsideTmuxTheImageGoesThroughThePassthroughWithAVirtualPlacementAndPlaceholderCells() throws {
        let color = PlaceholderID.color(slot: 40)
        let id = try XCTUnwrap(PlaceholderID.imageID(color, depth: .indexed256))
        XCTAssertEqual(id, 40, "the 256-colour index is the id")
        let encoder = InlineImageEncoder(protocol: .kittyUnicode)
        let picture = try XCTUnwrap(encoder.picture(quadrants, box: (8, 3), key: "u", in: Rect(x: 2, y: 1, width: 8, height: 5),
                                                    imageID: id, placeholderColor: color))
        let image = try decodeKitty(try unwrapTmux(picture.transmit) + unwrapTmux(picture.sequence))
        XCTAssertEqual(image.control["i"], "40")
        XCTAssertEqual(image.placement?["U"], "1", "a virtual placement")
        XCTAssertEqual(image.placement?["c"], "8")
        XCTAssertEqual(image.placement?["r"], "3")
        XCTAssertEqual(image.picture.rgb, quadrants.pixels)
        // Every transmitted chunk is a passthrough string of its own.
        let opener = Array("\u{1B}Ptmux;".utf8)
        let wrapped = (0..<(picture.transmit.count - opener.count)).filter { picture.transmit[$0...].starts(with: opener) }.count
        XCTAssertEqual(wrapped, image.chunks)
        // The cells: U+10EEEE in the colour carrying the id, each with its row and column.
        let cells = try XCTUnwrap(picture.cells)
        XCTAssertEqual(cells.width, 8)
        XCTAssertEqual(cells.height, 3)
        XCTAssertEqual(picture.x, 2)
        XCTAssertEqual(picture.y, 2)
        for y in 0..<3 {
            for x in 0..<8 {
                XCTAssertEqual(cells[x, y].symbol, "\u{10EEEE}")
                XCTAssertEqual(cells[x, y].style.fg, color)
                XCTAssertEqual(cells[x, y].placeholder, ImagePlaceholder(row: y, column: x))
            }
        }
    }

    // MARK: iTerm2

    func testITermIsSentAStoredJPEGAsItIs() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images/quadrants_1024x768.jpg")
        let jpeg = [UInt8](try Data(contentsOf: url))
        let encoder = InlineImageEncoder(protocol: .iterm2)
        let picture = try XCTUnwrap(encoder.picture(jpeg: jpeg, box: (40, 15), key: "j", in: Rect(x: 0, y: 0, width: 40, height: 20)))
        let image = try decodeITerm(picture.sequence)
        XCTAssertEqual(image.file, jpeg, "the payload is the stored file")
        XCTAssertEqual(image.arguments["inline"], "1")
        XCTAssertEqual(image.arguments["width"], "40", "columns")
        XCTAssertEqual(image.arguments["height"], "15", "rows")
        XCTAssertEqual(image.arguments["preserveAspectRatio"], "1")
        XCTAssertLessThanOrEqual(Double(picture.sequence.count), 1.5 * Double(jpeg.count))
        XCTAssertTrue(InlineImageEncoder.isUpright(Data(jpeg)))
        let turned = try Data(contentsOf: url.deletingLastPathComponent().appendingPathComponent("orientation6_48x32.jpg"))
        XCTAssertFalse(InlineImageEncoder.isUpright(turned), "a turned photo is decoded and sent upright")
    }

    func testITermIsSentADecodedPictureAsAJPEGOfItsOwnSize() throws {
        let picture = try XCTUnwrap(InlineImageEncoder(protocol: .iterm2).picture(quadrants, key: "q", in: Rect(x: 0, y: 0, width: 40, height: 20)))
        let image = try decodeITerm(picture.sequence)
        XCTAssertEqual(Array(image.file.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG")
        XCTAssertEqual(image.arguments["width"], "40")
        XCTAssertEqual(image.arguments["height"], "15")
        XCTAssertEqual(image.picture.width, 160)
        XCTAssertEqual(image.picture.height, 120)
        assertLandmarks(image.picture, tolerance: 12)
    }

    // MARK: sixel

    func testSixelSequenceDecodesToTheFittedPictureBandByBand() throws {
        let picture = try XCTUnwrap(InlineImageEncoder(protocol: .sixel).picture(quadrants, key: "s", in: Rect(x: 0, y: 0, width: 40, height: 20)))
        let image = try decodeSixel(picture.sequence)
        XCTAssertEqual(image.declaredWidth, 400)
        XCTAssertEqual(image.declaredHeight, 300)
        XCTAssertEqual(image.columns, 400)
        XCTAssertEqual(image.bands, 50)
        assertLandmarks(image.picture, tolerance: 16)
    }

    func testSixelHeightIsCutToWholeBands() throws {
        // A square picture takes 40 × 20 cells: 400 × 400 pixels, 396 in whole bands.
        let square = RGBImage.painted(width: 90, height: 90) { x, _ in x < 45 ? (200, 30, 30) : (30, 30, 200) }
        let picture = try XCTUnwrap(InlineImageEncoder(protocol: .sixel).picture(square, key: "s", in: Rect(x: 0, y: 0, width: 40, height: 20)))
        let image = try decodeSixel(picture.sequence)
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
            let box = encoder.box(imageWidth: 1024, imageHeight: 768, columns: 30, rows: 30)
            let size = encoder.sentSize(imageWidth: 1024, imageHeight: 768, box: box)
            // 30 × 11 cells of 8 × 16 show 240 × 176 pixels; 4:3 within them (sixel: the box in whole bands).
            XCTAssertTrue(size == (proto == .sixel ? (240, 174) : (235, 176)), "\(proto): \(size)")
            // Decoded only as large as the pixels shown.
            let photo = try JPEGDecoder.decode(try Data(contentsOf: url), fitting: size.width, size.height)
                .shrunk(toWidth: size.width, height: size.height)
            let picture = try XCTUnwrap(encoder.picture(photo, box: box, key: "f", in: Rect(x: 0, y: 0, width: 30, height: 30)))
            let decoded: DecodedPicture
            switch proto {
            case .kitty: decoded = try decodeKitty(picture.transmit + picture.sequence).picture
            case .kittyUnicode: decoded = try decodeKitty(try unwrapTmux(picture.transmit + picture.sequence)).picture
            case .iterm2: decoded = try decodeITerm(picture.sequence).picture
            case .sixel: decoded = try decodeSixel(picture.sequence).picture
            }
            XCTAssertEqual(decoded.width, size.width, "\(proto)")
            XCTAssertEqual(decoded.height, size.height, "\(proto)")
            assertLandmarks(decoded, tolerance: 24)
        }
    }

    func testShrinkingAveragesAndNeverGrows() {
        let image = RGBImage.painted(width: 4, height: 2) { x, _ in x < 2 ? (0, 0, 0) : (200, 100, 50) }
        let half = image.shrunk(toWidth: 2, height: 1)
        XCTAssertEqual(half.pixels, [0, 0, 0, 200, 100, 50])
        XCTAssertEqual(image.shrunk(toWidth: 8, height: 8), image, "never larger than it is")
    }

    func testEncodersMayRunOnManyThreadsAtOnce() {
        let encoders = InlineProtocol.allCases.map { InlineImageEncoder(protocol: $0) }
        let quadrants = self.quadrants
        let area = Rect(x: 0, y: 0, width: 20, height: 10)
        let alone = encoders.map { $0.picture(quadrants, key: "t", in: area) }
        let results = Mutex<[InlinePicture?]>(Array(repeating: nil, count: 24))
        DispatchQueue.concurrentPerform(iterations: 24) { i in
            let picture = encoders[i % encoders.count].picture(quadrants, key: "t", in: area)
            results.withLock { $0[i] = picture }
        }
        let together = results.withLock { $0 }
        for i in 0..<24 {
            XCTAssertNotNil(together[i])
            XCTAssertEqual(together[i], alone[i % encoders.count], "run \(i) (\(encoders[i % encoders.count].imageProtocol))")
        }
    }
}
