import Foundation
@testable import Imaging
import Terminal
import TestSupport
import XCTest

/// Decoding a part of a picture: the lossless cut on block boundaries, the scale, the exact part,
/// the orientation; always against decoding the whole picture and cutting it, with real JPEG bytes.
final class JPEGCropTests: XCTestCase {
    private func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)"))
    }

    /// The whole picture decoded at full size, then the crop's pixels cut from it.
    private func wholeThenCut(_ data: Data, _ crop: PictureCrop) throws -> RGBImage {
        let size = try JPEGDecoder.dimensions(data)
        let whole = try JPEGDecoder.decode(data, fitting: size.width, size.height)
        let part = crop.pixels(width: whole.width, height: whole.height)
        return whole.cut(x: part.x, y: part.y, width: part.width, height: part.height)
    }

    /// The mean absolute difference of two same-sized pictures, per channel.
    private func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var total = 0
        for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.pixels.count)
    }

    func testACropAtFullSizeHasThePixelsOfTheWholeCut() throws {
        let data = LargeJPEG.bytes
        // Odd places, off the 16-pixel blocks, and one at the bottom right corner.
        let crops = [PictureCrop(x: 1234, y: 2345, width: 2500, height: 2500),
                     PictureCrop(x: 7500, y: 7500, width: 2500, height: 2500),
                     PictureCrop(x: 0, y: 0, width: 333, height: 5000),
                     PictureCrop(x: 4999, y: 10, width: 1, height: 1)]
        for crop in crops {
            let part = try JPEGDecoder.decode(data, crop: crop, fitting: 4096, 4096)
            let expected = try wholeThenCut(data, crop)
            XCTAssertEqual(part.width, expected.width, "\(crop)")
            XCTAssertEqual(part.height, expected.height, "\(crop)")
            // A lossless cut decodes the same coefficients: only the smoothing across block rows differs.
            XCTAssertLessThan(meanDifference(part, expected), 2.0, "\(crop)")
        }
    }

    func testACropDecodesAtTheScaleThatCoversTheBoxAndFewerPixelsThanTheWhole() throws {
        let data = LargeJPEG.bytes
        // The view zoomed in 4×: a quarter of each side, shown in a 128×96 box.
        let crop = PictureCrop(x: 3750, y: 3750, width: 2500, height: 2500)
        let (part, decoded) = try JPEGDecoder.decodeCounting(data, crop: crop, fitting: 128, 96)
        // 256×192 of the picture cover 128×96 at 1/2.
        XCTAssertEqual(part.width, 128)
        XCTAssertEqual(part.height, 96)
        // The whole picture at that scale would be 512×384.
        let (whole, wholeDecoded) = try JPEGDecoder.decodeCounting(data, crop: .whole, fitting: 512, 384)
        XCTAssertEqual(whole.width * whole.height, 512 * 384)
        XCTAssertLessThan(decoded, wholeDecoded / 8, "only the part's blocks are decoded: \(decoded) of \(wholeDecoded)")
        // And its pixels are the whole's, within JPEG's tolerance of the scaled decoding.
        let at = crop.pixels(width: whole.width, height: whole.height)
        XCTAssertEqual(at.width, 128)
        let scaled = whole.cut(x: at.x, y: at.y, width: at.width, height: at.height)
        XCTAssertLessThan(meanDifference(part, scaled), 3.0)
    }

    func testEveryEXIFOrientationCutsTheUprightPart() throws {
        // The right half of the upright picture, then its bottom third.
        for crop in [PictureCrop(x: 5000, y: 0, width: 5000, height: 10_000),
                     PictureCrop(x: 0, y: 6667, width: 10_000, height: 3333)] {
            for orientation in 1...8 {
                let data = try fixture("images/orientation\(orientation)_48x32.jpg")
                let part = try JPEGDecoder.decode(data, crop: crop, fitting: 100, 100)
                let expected = try wholeThenCut(data, crop)
                XCTAssertEqual(part.width, expected.width, "orientation \(orientation) \(crop)")
                XCTAssertEqual(part.height, expected.height, "orientation \(orientation) \(crop)")
                XCTAssertLessThan(meanDifference(part, expected), 4.0, "orientation \(orientation) \(crop)")
            }
        }
    }

    func testProgressiveCMYKGreyAndSmallPhotosCropToo() throws {
        for name in ["images/progressive_64x48.jpg", "images/cmyk_64x48.jpg", "images/grey_64x48.jpg", "photo1.jpg",
                     "photo2.jpg", "images/quadrants_1024x768.jpg"] {
            let data = try fixture(name)
            let crop = PictureCrop(x: 2000, y: 3000, width: 5000, height: 4000)
            let part = try JPEGDecoder.decode(data, crop: crop, fitting: 2000, 2000)
            let expected = try wholeThenCut(data, crop)
            XCTAssertEqual(part.width, expected.width, name)
            XCTAssertEqual(part.height, expected.height, name)
            XCTAssertLessThan(meanDifference(part, expected), 3.0, name)
        }
        // The quadrants' top-left is red: a crop of it is red throughout.
        let topLeft = try JPEGDecoder.decode(try fixture("images/quadrants_1024x768.jpg"),
                                             crop: PictureCrop(x: 1000, y: 1000, width: 2000, height: 2000), fitting: 64, 48)
        let (r, g, b) = topLeft.pixel(x: topLeft.width / 2, y: topLeft.height / 2)
        XCTAssertEqual(try JPEGDecoder.decode(try fixture("images/quadrants_1024x768.jpg"), fitting: 8, 8).pixel(x: 1, y: 1).0, r,
                       accuracy: 16)
        XCTAssertLessThan(abs(Int(g) - Int(b)), 24)
    }

    func testBadInputIsRefusedAsForTheWholeAndAnEmptyCropIsAPixel() throws {
        XCTAssertThrowsError(try JPEGDecoder.decode(try fixture("images/page.html"), crop: PictureCrop(x: 0, y: 0, width: 10, height: 10),
                                                    fitting: 8, 8))
        XCTAssertThrowsError(try JPEGDecoder.decode(try fixture("images/huge_header_60000x60000.jpg"),
                                                    crop: PictureCrop(x: 0, y: 0, width: 1, height: 1), fitting: 8, 8))
        let dot = try JPEGDecoder.decode(LargeJPEG.bytes, crop: PictureCrop(x: 12_000, y: -5, width: 0, height: 0), fitting: 8, 8)
        XCTAssertEqual(dot.width, 1)
        XCTAssertEqual(dot.height, 1)
        // A truncated file gives the part that decoded, as for the whole.
        let part = try JPEGDecoder.decode(try fixture("images/truncated_128x128.jpg"),
                                          crop: PictureCrop(x: 0, y: 0, width: 5000, height: 5000), fitting: 64, 64)
        XCTAssertEqual(part.width, 64)
        XCTAssertEqual(part.height, 64)
    }

    func testTheRendererFitsACropAsItWouldTheWhole() throws {
        let renderer = PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .trueColor))
        let data = try fixture("images/quadrants_1024x768.jpg")
        // The top-left quadrant, 512×384 (4:3), in 40×30 cells: 40 columns, 15 rows, centred.
        let cells = try renderer.render(jpeg: data, crop: PictureCrop(x: 0, y: 0, width: 5000, height: 5000), columns: 40, rows: 30)
        let whole = try renderer.render(jpeg: data, columns: 40, rows: 30)
        let drawn = (0..<30).filter { y in (0..<40).contains { cells[$0, y].style.bg != .default } }
        XCTAssertEqual(drawn.count, 15)
        XCTAssertEqual(drawn.first, 7)
        // One colour throughout the quadrant, where the whole picture has four.
        let colours = Set(drawn.flatMap { y in (0..<40).map { cells[$0, y].style.bg } })
        let wholeColours = Set((0..<30).flatMap { y in (0..<40).map { whole[$0, y].style.bg } })
        XCTAssertLessThan(colours.count, wholeColours.count)
    }
}

/// A picture of many cells (the photo view on a large terminal) is drawn in bands on several cores:
/// the same picture as on one canvas, without seams.
final class BandedRenderTests: XCTestCase {
    func testABandedPictureMatchesOneCanvas() throws {
        let renderer = PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .trueColor))
        // 1024x768 in 120x45 cells: 5400 cells of 8x8 pixels, fewer pixels than the picture has.
        let image = try JPEGDecoder.decode(LargeJPEG.bytes, fitting: 1024, 768)
        XCTAssertEqual(PictureRenderer.bandCount(cells: 120 * 45, rows: 45), min(ProcessInfo.processInfo.activeProcessorCount, 11))
        XCTAssertEqual(PictureRenderer.bandCount(cells: 80 * 40, rows: 40), 1, "render --size 80x40 stays one canvas")
        let whole = renderer.render(image, columns: 120, rows: 45, bands: 1)
        for bands in [2, 3, 7] {
            let banded = renderer.render(image, columns: 120, rows: 45, bands: bands)
            var close = 0, drawn = 0
            for y in 0..<45 {
                for x in 0..<120 {
                    guard case let .rgb(r1, g1, b1) = whole[x, y].style.bg else { continue }
                    drawn += 1
                    guard case let .rgb(r2, g2, b2) = banded[x, y].style.bg else { continue }
                    let d = max(abs(Int(r1) - Int(r2)), abs(Int(g1) - Int(g2)), abs(Int(b1) - Int(b2)))
                    if d <= 24 { close += 1 }
                }
            }
            XCTAssertEqual(drawn, 120 * 45, "the picture fills the box")
            XCTAssertGreaterThan(Double(close) / Double(drawn), 0.95, "\(bands) bands: \(close) of \(drawn) cells alike")
        }
    }
}
