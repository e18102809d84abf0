import Terminal
import XCTest

final class InlinePictureTrackerTests: XCTestCase {
    private let photo = InlinePicture(key: "7@40x15", x: 3, y: 4, columns: 40, rows: 15, sequence: Array("PIC7".utf8))
    private let other = InlinePicture(key: "8@40x15", x: 3, y: 6, columns: 40, rows: 10, sequence: Array("PIC8".utf8))
    private let kittyClear = Array("\u{1B}_Ga=d,d=A\u{1B}\\".utf8)

    /// The bytes that draw `picture`: cursor saved, moved to its corner (1-based), restored after.
    private func drawn(_ picture: InlinePicture) -> [UInt8] {
        Array("\u{1B}7\u{1B}[\(picture.y + 1);\(picture.x + 1)H".utf8) + picture.sequence + Array("\u{1B}8".utf8)
    }

    func testThePlacementIsOneBasedAndRestoresTheCursor() {
        var tracker = InlinePictureTracker(protocol: .sixel)
        XCTAssertEqual(tracker.show(photo).draw, Array("\u{1B}7\u{1B}[5;4HPIC7\u{1B}8".utf8))
    }

    func testTheSamePictureIsWrittenOnce() {
        for proto in InlineProtocol.allCases {
            var tracker = InlinePictureTracker(protocol: proto)
            XCTAssertEqual(tracker.show(photo), .init(draw: drawn(photo)), "\(proto)")
            XCTAssertTrue(tracker.show(photo).isEmpty, "\(proto): shown already")
            XCTAssertTrue(tracker.show(photo).isEmpty, "\(proto)")
            XCTAssertEqual(tracker.shown, photo)
        }
    }

    func testAnotherPictureReplacesTheFirst() {
        var kitty = InlinePictureTracker(protocol: .kitty)
        _ = kitty.show(photo)
        XCTAssertEqual(kitty.show(other), .init(clear: kittyClear, draw: drawn(other)))

        for proto in [InlineProtocol.sixel, .iterm2] {
            var tracker = InlinePictureTracker(protocol: proto)
            _ = tracker.show(photo)
            // The old picture's pixels are in its cells: those rows are written again, then the new one drawn.
            XCTAssertEqual(tracker.show(other), .init(repaintRows: 4..<19, draw: drawn(other)), "\(proto)")
            XCTAssertEqual(tracker.shown, other)
        }
    }

    func testNilRemovesThePicture() {
        var kitty = InlinePictureTracker(protocol: .kitty)
        XCTAssertTrue(kitty.show(nil).isEmpty, "nothing shown, nothing to remove")
        _ = kitty.show(photo)
        XCTAssertEqual(kitty.show(nil), .init(clear: kittyClear))
        XCTAssertTrue(kitty.show(nil).isEmpty)

        var sixel = InlinePictureTracker(protocol: .sixel)
        _ = sixel.show(photo)
        XCTAssertEqual(sixel.show(nil), .init(repaintRows: 4..<19))
        XCTAssertNil(sixel.shown)
    }

    func testAFullRepaintDrawsThePictureAgain() {
        var sixel = InlinePictureTracker(protocol: .sixel)
        _ = sixel.show(photo)
        sixel.noteWritten([CellRun(x: 3, y: 4, style: Style(), symbols: ["a"])])
        sixel.forget()
        // The repaint covered the old pixels already: only draw.
        XCTAssertEqual(sixel.show(photo), .init(draw: drawn(photo)))

        var kitty = InlinePictureTracker(protocol: .kitty)
        _ = kitty.show(photo)
        kitty.forget()
        // kitty pictures float over the cells: clear the old one so it is not there twice.
        XCTAssertEqual(kitty.show(photo), .init(clear: kittyClear, draw: drawn(photo)))
        XCTAssertTrue(kitty.show(photo).isEmpty)
        kitty.forget()
        XCTAssertEqual(kitty.show(nil), .init(clear: kittyClear), "leaving after a repaint still clears")
    }

    func testCellsWrittenOverASixelPictureMakeItComeBack() {
        var sixel = InlinePictureTracker(protocol: .sixel)
        _ = sixel.show(photo)   // columns 3..<43, rows 4..<19
        let style = Style()
        sixel.noteWritten([CellRun(x: 0, y: 2, style: style, symbols: Array("outside".unicodeScalars)),
                           CellRun(x: 43, y: 10, style: style, symbols: ["x"]),
                           CellRun(x: 0, y: 10, style: style, symbols: ["a", "b", "c"])])
        XCTAssertTrue(sixel.show(photo).isEmpty, "nothing crossed it")
        sixel.noteWritten([CellRun(x: 0, y: 18, style: style, symbols: ["a", "b", "c", "d"])])
        // The run reached column 3 of row 18: the rest of the old pixels go, then the picture comes back.
        XCTAssertEqual(sixel.show(photo), .init(repaintRows: 4..<19, draw: drawn(photo)))
        XCTAssertTrue(sixel.show(photo).isEmpty)

        // Leaving the photo: the next screen's cells cross the picture, but unchanged cells
        // (blank on both screens) are not sent, so the picture's rows must still be sent again.
        sixel.noteWritten([CellRun(x: 3, y: 4, style: style, symbols: Array("Album".unicodeScalars))])
        XCTAssertEqual(sixel.show(nil), .init(repaintRows: 4..<19))
        XCTAssertTrue(sixel.show(nil).isEmpty)

        var kitty = InlinePictureTracker(protocol: .kitty)
        _ = kitty.show(photo)
        kitty.noteWritten([CellRun(x: 5, y: 5, style: style, symbols: ["a"])])
        XCTAssertTrue(kitty.show(photo).isEmpty, "kitty pictures are not overwritten by cells")
    }

    func testWithoutAProtocolNothingIsEverWritten() {
        var tracker = InlinePictureTracker(protocol: nil)
        XCTAssertTrue(tracker.show(photo).isEmpty)
        XCTAssertTrue(tracker.show(nil).isEmpty)
        XCTAssertNil(tracker.shown)
    }

    func testCapabilitiesHaveNoInlinePicturesUnlessSaid() {
        XCTAssertNil(TerminalCapabilities(unicode: true, colors: .trueColor).inlineImages)
        XCTAssertEqual(TerminalCapabilities(unicode: true, colors: .trueColor, inlineImages: .kitty).inlineImages, .kitty)
    }
}
