import Foundation
@testable import Imaging
import Terminal
import XCTest

/// The sketch a large picture gets first: half blocks, each cell's two halves the means of their pixels.
final class PictureSketchTests: XCTestCase {
    private let trueColor = PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .trueColor))

    private func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images/\(name)"))
    }

    func testEachCellIsAnUpperHalfBlockInItsUpperAndLowerHalvesMeanColours() {
        // 4×4 pixels fitted with cells twice as tall as wide: 4 columns, 2 rows, two pixels a cell.
        let image = RGBImage.painted(width: 4, height: 4) { x, y in (UInt8(x * 60), UInt8(y * 60), 7) }
        let cells = trueColor.halfBlocks(image, columns: 4, rows: 2)
        for row in 0..<2 {
            for column in 0..<4 {
                let cell = cells[column, row]
                let red = UInt8(column * 60), upper = UInt8(row * 120), lower = UInt8(row * 120 + 60)
                XCTAssertEqual(cell.symbol, "\u{2580}")
                XCTAssertEqual(cell.style.fg, Color.rgb(red, upper, 7), "\(column),\(row)")
                XCTAssertEqual(cell.style.bg, Color.rgb(red, lower, 7), "\(column),\(row)")
            }
        }
    }

    func testASketchIsFittedAndCentredAsTheDrawingItStandsForIs() throws {
        let data = try fixture("large_1024x768_exif.jpg")
        let sketch = try XCTUnwrap(try trueColor.sketch(jpeg: data, columns: 198, rows: 52))
        let full = try trueColor.render(jpeg: data, columns: 198, rows: 52)
        for y in 0..<52 {
            for x in 0..<198 {
                XCTAssertEqual(sketch[x, y] == .blank, full[x, y] == .blank, "cell \(x),\(y): one drawn, the other blank")
            }
        }
        // Its colours are the picture's: the mean of each cell's two halves close to the full drawing's cell colours.
        XCTAssertTrue((0..<52).contains { y in sketch[99, y].symbol == "\u{2580}" })
    }

    func testSmallPicturesAsciiAndColourlessTerminalsGetNoSketch() throws {
        let data = try fixture("large_1024x768_exif.jpg")
        XCTAssertNil(try trueColor.sketch(jpeg: data, columns: 60, rows: 20), "an album cell or a small photo view is drawn at once")
        let ascii = PictureRenderer(capabilities: TerminalCapabilities(unicode: false, colors: .trueColor))
        XCTAssertNil(try ascii.sketch(jpeg: data, columns: 198, rows: 52))
        let colourless = PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .none))
        XCTAssertNil(try colourless.sketch(jpeg: data, columns: 198, rows: 52))
        XCTAssertNotNil(try trueColor.sketch(jpeg: data, crop: PictureCrop(x: 2500, y: 2500, width: 5000, height: 5000),
                                             columns: 198, rows: 52))
    }

    func testWhatCannotBeDecodedThrowsAsTheDrawingWould() throws {
        let page = try fixture("page.html")
        XCTAssertThrowsError(try trueColor.sketch(jpeg: page, columns: 198, rows: 52))
    }
}
