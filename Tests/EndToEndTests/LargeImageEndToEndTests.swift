import Foundation
import TestSupport
import XCTest

/// The photo view's large image in the release binary in tmux: the screen read back into cells.
extension AlbumPictureEndToEndTests {
    func testThePhotoViewsSharpPictureReplacesTheThumbnailWhenItArrives() throws {
        let (db, _) = try storedAlbum()
        server.set(.holdLarge, true)
        let t = try openAlbum(db, terminal: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        t.waitForCells("the album") { $0.plain.contains(" 21 photos") }
        try t.keys("Enter")
        // The thumbnail at once (320×240), while the large image is held back.
        let thumb = t.waitForCells("the thumbnail") {
            $0.plain.contains("1 of 21") && PhotoArea.cells(in: $0).filter(Self.isPainted).count > 2000
        }
        XCTAssertFalse(thumb.plain.contains("\u{00B7} large"), thumb.plain)
        server.set(.holdLarge, false)
        let sharp = t.waitForCells("the sharp picture") {
            $0.plain.contains("\u{00B7} large 1024\u{00D7}768") && PhotoArea.cells(in: $0).filter(Self.isPainted).count > 2000
                && PhotoArea.cells(in: $0) != PhotoArea.cells(in: thumb)
        }
        let changed = zip(PhotoArea.cells(in: thumb), PhotoArea.cells(in: sharp)).filter { $0 != $1 }.count
        XCTAssertGreaterThan(changed, 1000, "another picture, not a cell or two")
        XCTAssertTrue(server.largeRequests().contains("/img/large/0.jpg"), "\(server.largeRequests())")
        try t.keys("q", "q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
