import Foundation
import Imaging
import InlineReaders
import Terminal
import TouristCore
@testable import TouristRuntime
import XCTest

/// The photo view's real picture as the picture pipeline makes it from stored JPEG bytes, read
/// back byte by byte: the pixels sent are the image's own (never the box blown up), iTerm2 gets
/// the stored file itself, kitty a PNG by id, a crop only its part.
final class InlinePainterTests: XCTestCase {
    private func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)"))
    }

    /// The photo view of a 160 × 50 terminal: 158 × 42 cells of 10 × 20 pixels.
    private func request(_ proto: InlineProtocol, crop: PictureCrop = .whole, id: UInt32 = 77) -> InlineRequest {
        var request = InlineRequest(photoID: 5, area: Rect(x: 1, y: 1, width: 158, height: 42), imageProtocol: proto,
                                    cellWidth: 10, cellHeight: 20, crop: crop)
        request.imageID = id
        request.placeholderColor = PlaceholderID.color(slot: 60)
        return request
    }

    func testKittyIsSentTheThumbnailsOwnPixelsNotTheViewsBlownUp() throws {
        let jpeg = try fixture("photo1.jpg")  // 320 × 240
        let picture = try XCTUnwrap(PicturePainter.inline(jpeg, request(.kitty)))
        let image = try decodeKitty(picture.transmit + picture.sequence)
        XCTAssertEqual(image.control["f"], "100")
        XCTAssertEqual(image.control["i"], "77")
        XCTAssertEqual(image.picture.width, 320, "the image's own width; the view shows 1120 pixels")
        XCTAssertEqual(image.picture.height, 240)
        XCTAssertEqual(image.picture.rgb.count, 320 * 240 * 3)
        // Placed over the fitted box: 4:3 in 158 × 42 cells takes 112 × 42.
        XCTAssertEqual(image.placement?["c"], "112")
        XCTAssertEqual(image.placement?["r"], "42")
        XCTAssertEqual(picture.columns, 112)
        XCTAssertEqual(picture.x, 1 + (158 - 112) / 2)
    }

    func testKittyIsSentNoMorePixelsThanTheViewShows() throws {
        // 1024 × 768 in 20 × 10 cells: fitted 20 × 8 cells, 200 × 160 pixels, of which 4:3 takes 200 × 150.
        var small = request(.kitty)
        small.area = Rect(x: 0, y: 0, width: 20, height: 10)
        let picture = try XCTUnwrap(PicturePainter.inline(try fixture("images/quadrants_1024x768.jpg"), small))
        let image = try decodeKitty(picture.transmit + picture.sequence)
        XCTAssertEqual(image.picture.width, 200)
        XCTAssertEqual(image.picture.height, 150)
        XCTAssertEqual(image.placement?["c"], "20")
        XCTAssertEqual(image.placement?["r"], "8")
    }

    func testITermIsSentTheStoredFileAsItIsWhenTheWholePhotoIsShown() throws {
        let jpeg = try fixture("photo3.jpg")
        let picture = try XCTUnwrap(PicturePainter.inline(jpeg, request(.iterm2)))
        let image = try decodeITerm(picture.sequence)
        XCTAssertEqual(image.file, [UInt8](jpeg), "the payload is the stored JPEG")
        XCTAssertLessThanOrEqual(Double(picture.sequence.count), 1.5 * Double(jpeg.count))
        XCTAssertEqual(image.arguments["width"], String(picture.columns))
        XCTAssertEqual(image.arguments["height"], String(picture.rows))
    }

    func testACropIsDecodedAndSentAtItsOwnResolution() throws {
        let jpeg = try fixture("images/quadrants_1024x768.jpg")
        // The top left quarter (red): 512 × 384 pixels of the image.
        let quarter = PictureCrop(x: 0, y: 0, width: 5000, height: 5000)
        let kitty = try decodeKitty(try XCTUnwrap(PicturePainter.inline(jpeg, request(.kitty, crop: quarter))).transmit)
        XCTAssertEqual(kitty.picture.width, 512)
        XCTAssertEqual(kitty.picture.height, 384)
        let (r, g, b) = kitty.picture.pixel(256, 192)
        XCTAssertTrue(r > 200 && g < 60 && b < 60, "the red quadrant: \(r),\(g),\(b)")
        // iTerm2: re-encoded as a JPEG of the part, not the stored file.
        let iterm = try decodeITerm(try XCTUnwrap(PicturePainter.inline(jpeg, request(.iterm2, crop: quarter))).sequence)
        XCTAssertNotEqual(iterm.file, [UInt8](jpeg))
        XCTAssertEqual(iterm.picture.width, 512)
        XCTAssertEqual(iterm.picture.height, 384)
    }

    func testInsideTmuxThePlaceholderCellsCarryTheRequestsId() throws {
        var inside = request(.kittyUnicode, id: 60)
        inside.area = Rect(x: 2, y: 1, width: 40, height: 20)
        let picture = try XCTUnwrap(PicturePainter.inline(try fixture("photo1.jpg"), inside))
        let image = try decodeKitty(try unwrapTmux(picture.transmit + picture.sequence))
        XCTAssertEqual(image.control["i"], "60")
        XCTAssertEqual(image.placement?["U"], "1")
        let cells = try XCTUnwrap(picture.cells)
        XCTAssertEqual(cells.width, picture.columns)
        XCTAssertEqual(PlaceholderID.imageID(cells[0, 0].style.fg, depth: .indexed256), 60)
    }

    func testWhatIsNoJPEGGivesNoPicture() {
        for proto in InlineProtocol.allCases {
            XCTAssertNil(PicturePainter.inline(Data("<html>".utf8), request(proto)), "\(proto)")
            XCTAssertNil(PicturePainter.inline(Data(), request(proto)), "\(proto)")
        }
    }

    func testEachPictureAskedForGetsAnIdOfItsOwn() {
        XCTAssertEqual(LoopState.imageID(slot: 3, protocol: .kitty, colors: .trueColor), 0x5654_0003)
        // Inside tmux the id is what the placeholder colour carries, at the cells' depth.
        XCTAssertEqual(LoopState.imageID(slot: 40, protocol: .kittyUnicode, colors: .indexed256), 40)
        XCTAssertEqual(LoopState.imageID(slot: 40 + 215, protocol: .kittyUnicode, colors: .indexed256), 40, "slots go round")
        let rgb = LoopState.imageID(slot: 40, protocol: .kittyUnicode, colors: .trueColor)
        XCTAssertEqual(rgb, 0x00_D7_00, "index 40 is 0,215,0")
        XCTAssertNil(LoopState.imageID(slot: 40, protocol: .kittyUnicode, colors: .eight))
    }
}
