import Terminal
import XCTest

final class InlinePictureTrackerTests: XCTestCase {
    private var photo: InlinePicture { InlinePicture(key: "7@40x15", x: 3, y: 4, columns: 40, rows: 15, sequence: Array("PIC7".utf8)) }
    private var other: InlinePicture { InlinePicture(key: "8@40x15", x: 3, y: 6, columns: 40, rows: 10, sequence: Array("PIC8".utf8)) }
    /// kitty pictures: data sent under an id, then placed by it.
    private var kittyPhoto: InlinePicture { InlinePicture(key: "7@40x15", x: 3, y: 4, columns: 40, rows: 15, sequence: Array("PLACE7".utf8),
                                           transmit: Array("DATA7".utf8), imageID: 7) }
    private var kittyOther: InlinePicture { InlinePicture(key: "8@40x15", x: 3, y: 6, columns: 40, rows: 10, sequence: Array("PLACE8".utf8),
                                           transmit: Array("DATA8".utf8), imageID: 8) }
    private func kittyDelete(_ id: UInt32, passthrough: Bool = false) -> [UInt8] {
        KittyGraphics.delete(id: id, passthrough: passthrough)
    }

    /// The bytes that draw `picture` (or `bytes`): cursor saved, moved to its corner (1-based), restored after.
    private func drawn(_ picture: InlinePicture, _ bytes: [UInt8]? = nil) -> [UInt8] {
        Array("\u{1B}7\u{1B}[\(picture.y + 1);\(picture.x + 1)H".utf8) + (bytes ?? picture.sequence) + Array("\u{1B}8".utf8)
    }

    func testThePlacementIsOneBasedAndRestoresTheCursor() {
        var tracker = InlinePictureTracker(protocol: .sixel)
        XCTAssertEqual(tracker.show(photo).draw, Array("\u{1B}7\u{1B}[5;4HPIC7\u{1B}8".utf8))
    }

    func testTheSamePictureIsWrittenOnce() {
        for proto in InlineProtocol.allCases {
            var tracker = InlinePictureTracker(protocol: proto)
            // Placeholder cells place the picture themselves: no cursor moves around it.
            XCTAssertEqual(tracker.show(photo), .init(draw: proto == .kittyUnicode ? photo.sequence : drawn(photo)), "\(proto)")
            XCTAssertTrue(tracker.show(photo).isEmpty, "\(proto): shown already")
            XCTAssertTrue(tracker.show(photo).isEmpty, "\(proto)")
            XCTAssertEqual(tracker.shown, photo)
        }
    }

    func testAnotherPictureReplacesTheFirst() {
        var kitty = InlinePictureTracker(protocol: .kitty)
        XCTAssertEqual(kitty.show(kittyPhoto), .init(draw: drawn(kittyPhoto, Array("DATA7PLACE7".utf8))))
        // The old image is deleted by its id (data too), the new one sent and placed.
        XCTAssertEqual(kitty.show(kittyOther), .init(clear: kittyDelete(7), draw: drawn(kittyOther, Array("DATA8PLACE8".utf8))))
        XCTAssertEqual(kitty.heldImageID, 8)

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
        _ = kitty.show(kittyPhoto)
        XCTAssertEqual(kitty.removal, kittyDelete(7), "what goes before the terminal is given back")
        XCTAssertEqual(kitty.show(nil), .init(clear: kittyDelete(7)))
        XCTAssertTrue(kitty.show(nil).isEmpty)
        XCTAssertEqual(kitty.removal, [])
        // Shown again: its data was deleted, so it is sent again.
        XCTAssertEqual(kitty.show(kittyPhoto), .init(draw: drawn(kittyPhoto, Array("DATA7PLACE7".utf8))))

        var sixel = InlinePictureTracker(protocol: .sixel)
        _ = sixel.show(photo)
        XCTAssertEqual(sixel.show(nil), .init(repaintRows: 4..<19))
        XCTAssertNil(sixel.shown)
        XCTAssertEqual(sixel.removal, [])
    }

    func testAFullRepaintDrawsThePictureAgain() {
        var sixel = InlinePictureTracker(protocol: .sixel)
        _ = sixel.show(photo)
        sixel.noteWritten([CellRun(x: 3, y: 4, style: Style(), symbols: ["a"])])
        sixel.forget()
        // The repaint covered the old pixels already: only draw.
        XCTAssertEqual(sixel.show(photo), .init(draw: drawn(photo)))
    }

    func testARedrawPlacesTheKittyImageByIdWithoutItsDataAgain() {
        var kitty = InlinePictureTracker(protocol: .kitty)
        _ = kitty.show(kittyPhoto)
        kitty.forget()
        // Placed again by id (the same placement id moves it, never twice): no image data.
        XCTAssertEqual(kitty.show(kittyPhoto), .init(draw: drawn(kittyPhoto, Array("PLACE7".utf8))))
        XCTAssertTrue(kitty.show(kittyPhoto).isEmpty)
        kitty.forget()
        XCTAssertEqual(kitty.show(nil), .init(clear: kittyDelete(7)), "leaving after a repaint still deletes it")
    }

    func testInsideTmuxTheImageIsSentOnceAndDeletedThroughThePassthrough() {
        let cells = ImagePlaceholder.cells(columns: 2, rows: 1, color: PlaceholderID.color(slot: 20))
        var first = kittyPhoto, second = kittyOther
        first.cells = cells
        second.cells = cells
        var tracker = InlinePictureTracker(protocol: .kittyUnicode)
        // No cursor moves: the placeholder cells in the frame place it.
        XCTAssertEqual(tracker.show(first), .init(draw: Array("DATA7PLACE7".utf8)))
        XCTAssertTrue(tracker.show(first).isEmpty)
        tracker.noteWritten([CellRun(x: 3, y: 4, style: Style(), symbols: ["a"])])
        XCTAssertTrue(tracker.show(first).isEmpty, "cells written do not touch it")
        tracker.forget()
        XCTAssertEqual(tracker.show(first), .init(draw: Array("PLACE7".utf8)), "a repaint sends no data again")
        XCTAssertEqual(tracker.show(second), .init(clear: kittyDelete(7, passthrough: true), draw: Array("DATA8PLACE8".utf8)))
        XCTAssertEqual(tracker.removal, kittyDelete(8, passthrough: true))
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
        _ = kitty.show(kittyPhoto)
        kitty.noteWritten([CellRun(x: 5, y: 5, style: style, symbols: ["a"])])
        XCTAssertTrue(kitty.show(kittyPhoto).isEmpty, "kitty pictures are not overwritten by cells")
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
