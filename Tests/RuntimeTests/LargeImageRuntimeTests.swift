import Foundation
import GRDB
import Model
import Store
import TestSupport
import Terminal
import TouristCore
import TouristRuntime
import XCTest

/// The photo view's large images through the real runtime: the local photo server, libcurl, the
/// store in a real SQLite file and the album's renderer.
extension RuntimeTests {
    /// The photo screen's picture area in a frame (read from the frame: the terminal's own size is
    /// behind the lock the frame waits hold).
    func photoArea(_ buffer: CellBuffer) -> Rect {
        Rect(x: 1, y: 1, width: buffer.width - 2, height: buffer.height - 1 - 1 - 5 - 1)
    }

    func hasPicture(_ buffer: CellBuffer) -> Bool {
        let area = photoArea(buffer)
        return RuntimeTests.isPicture(buffer[area.x + area.width / 2, area.y + area.height / 2])
    }

    /// The picture area's cells, to compare two frames' pictures.
    func pictureCells(_ buffer: CellBuffer) -> [Cell] {
        let area = photoArea(buffer)
        return (area.y..<area.bottom).flatMap { y in (area.x..<area.right).map { buffer[$0, y] } }
    }

    /// Whether a frame's picture is a sketch (half blocks only), drawn before the picture in full.
    func isSketch(_ buffer: CellBuffer) -> Bool {
        let drawn = pictureCells(buffer).filter { $0 != .blank && $0.symbol != " " }
        return !drawn.isEmpty && drawn.allSatisfy { $0.symbol == "\u{2580}" }
    }

    /// The first photo opened: its large picture replaces the thumbnail's, drawn from memory, and
    /// none of it is stored (the next photo's download starts once the store write is over).
    func assertTheLargePictureShowsFromMemoryAndIsNotStored(file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try PhotoServer()
        server.set(.holdLarge, true)
        let photos = try album(server)
        let mark = terminal.frameCount
        terminal.press(.enter)
        let thumb = try XCTUnwrap(terminal.frame(after: mark) {
            $0.text.contains("1 of 21") && self.hasPicture($0) && !self.isSketch($0)
        })
        server.set(.holdLarge, false)
        XCTAssertNotNil(terminal.frame(after: mark) {
            $0.text.contains(Self.largeNote) && self.hasPicture($0) && self.pictureCells($0) != self.pictureCells(thumb)
                && !self.isSketch($0)
        })
        // The next photo's download starts once this one's store write is over.
        XCTAssertNotNil(waitFor { server.largeRequests().contains("/img/large/1.jpg") ? true : nil })
        XCTAssertNil(try store.largeImage(photoID: photos[0].id), file: file, line: line)
    }

    /// Every frame drawn from index `first` to `last`, both included.
    func frames(_ first: Int, _ last: Int) -> [CellBuffer] {
        (first...last).compactMap { i in terminal.frame(after: i) { _ in true } }
    }

    func album(_ server: PhotoServer, key: String? = "good-key") throws -> [PhotoRecord] {
        largeImageServer = server
        terminal = TestTerminal(width: 220)  // room for a whole note in the details
        if let key {
            try openFullAlbum(server: server, key: key)
        } else {
            try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint)
            var mark = terminal.frameCount
            terminal.press(.char("p"))
            XCTAssertNotNil(terminal.frame(after: mark, showing: "1 pin "))
            mark = terminal.frameCount
            terminal.press(.enter)
            XCTAssertNotNil(terminal.frame(after: mark, showing: " 21 photos"))
        }
        let pin = try XCTUnwrap(store.pins().first)
        return try store.photos(pinID: pin.id)
    }

    static let largeNote = "large 1024\u{00D7}768"

    func testTheSharpPictureReplacesTheThumbnailWithNoBlankFrameAndTheNeighboursComeNext() throws {
        let server = try PhotoServer()
        server.set(.holdLarge, true)
        let photos = try album(server)
        // The third photo: its large image and the fourth's are the same picture (photo n's is fixture n mod 3).
        terminal.press(.right, .right)
        let mark = terminal.frameCount
        terminal.press(.enter)
        // The thumbnail shows at once, while the large image is held.
        let thumbIndex = try XCTUnwrap(terminal.frameIndex(after: mark) {
            $0.text.contains("3 of 21") && self.hasPicture($0) && !self.isSketch($0)
        })
        let thumb = try XCTUnwrap(terminal.frame(after: thumbIndex) { _ in true })
        XCTAssertFalse(thumb.text.contains(Self.largeNote))
        XCTAssertNil(try store.largeImage(photoID: photos[0].id))
        server.set(.holdLarge, false)
        let sharpIndex = try XCTUnwrap(terminal.frameIndex(after: thumbIndex) {
            $0.text.contains(Self.largeNote) && self.pictureCells($0) != self.pictureCells(thumb) && !self.isSketch($0)
        }, "the large picture in full replaces the thumbnail")
        let sharp = try XCTUnwrap(terminal.frame(after: sharpIndex) { _ in true })
        for frame in frames(thumbIndex, sharpIndex) where frame.text.contains("3 of 21") {
            XCTAssertTrue(hasPicture(frame), "a blank picture between the thumbnail and the large one:\n\(frame.text)")
        }
        let stored = try XCTUnwrap(waitFor { try? store.largeImage(photoID: photos[2].id) }, "stored as well")
        XCTAssertEqual([stored.width, stored.height], [1024, 768])
        // Then the next photo's and the previous one's, after the one shown.
        XCTAssertNotNil(waitFor { try? store.largeImage(photoID: photos[1].id) })
        XCTAssertEqual(Array(server.largeRequests().prefix(3)), ["/img/large/2.jpg", "/img/large/3.jpg", "/img/large/1.jpg"])
        XCTAssertEqual(try store.largeImage(photoID: photos[1].id).map { [$0.width, $0.height] }, [768, 1024])

        // `→`: the next photo is sharp without waiting for the network.
        let requests = server.stats()["large_requests"] ?? 0
        let step = terminal.frameCount
        terminal.press(.right)
        let next = try XCTUnwrap(terminal.frame(after: step) { $0.text.contains("4 of 21") && self.pictureCells($0) == self.pictureCells(sharp) })
        XCTAssertTrue(next.text.contains(Self.largeNote))
        // Its neighbours: the third is there already, the fifth is fetched now.
        XCTAssertNotNil(waitFor { try? store.largeImage(photoID: photos[4].id) })
        XCTAssertEqual(server.stats()["large_requests"], requests + 1)
    }

    func testAFailedLargeImageKeepsTheThumbnailWithANoteStoresNothingAndTheNextOpeningTriesAgain() throws {
        let server = try PhotoServer()
        let faults = ["404", "500", "html", "bomb", "huge", "endless", "slow"]
        server.set(.largeFault, to: faults.joined(separator: ","))
        let photos = try album(server)
        let said = ["HTTP 404", "HTTP 500", "not a picture (a web page)", "too large", "too large", "larger than the limit", "took too long"]
        terminal.press(.enter)
        for (i, fault) in faults.enumerated() {
            if i > 0 { terminal.press(.right) }
            let frame = try XCTUnwrap(terminal.frame { $0.text.contains("\(i + 1) of 21") && $0.text.contains("large image failed") },
                                      fault)
            XCTAssertTrue(frame.text.contains(said[i]), "\(fault): \(frame.text)")
            XCTAssertNotNil(terminal.frame { $0.text.contains("\(i + 1) of 21") && $0.text.contains("large image failed") && self.hasPicture($0) },
                            "the thumbnail stays: \(fault)")
        }
        for photo in photos.prefix(faults.count) { XCTAssertNil(try store.largeImage(photoID: photo.id)) }
        // The server mends; back to the album and in again: the photo shown is asked again.
        server.set(.largeFault, false)
        let mark = terminal.frameCount
        terminal.press(.escape)
        XCTAssertNotNil(terminal.frame(after: mark, showing: " 21 photos"))
        terminal.press(.enter)
        XCTAssertNotNil(terminal.frame(after: mark) { $0.text.contains("\(faults.count) of 21") && $0.text.contains(Self.largeNote) })
        XCTAssertNotNil(waitFor { try? store.largeImage(photoID: photos[faults.count - 1].id) })
    }

    func testLeavingThePhotoViewCancelsItsDownloadsButSteppingKeepsAWantedNeighbours() throws {
        let server = try PhotoServer()
        server.set(.holdLarge, true)
        let photos = try album(server)
        var mark = terminal.frameCount
        terminal.press(.enter)
        XCTAssertNotNil(terminal.frame(after: mark, showing: "1 of 21"))
        XCTAssertNotNil(waitFor { (server.stats()["large_requests"] ?? 0) >= 1 ? true : nil })
        // Photo 0 is the previous of photo 1: its download in flight goes on.
        mark = terminal.frameCount
        terminal.press(.right)
        XCTAssertNotNil(terminal.frame(after: mark, showing: "2 of 21"))
        server.set(.holdLarge, false)
        XCTAssertNotNil(waitFor { try? store.largeImage(photoID: photos[2].id) })
        XCTAssertNotNil(try store.largeImage(photoID: photos[0].id))
        XCTAssertEqual(server.stats()["large_cancelled"], 0)
        XCTAssertEqual(server.largeRequests().filter { $0 == "/img/large/0.jpg" }.count, 1, "never asked twice")

        // Held again: photo 3's download is in flight when the view is left, and cancelled.
        server.set(.holdLarge, true)
        mark = terminal.frameCount
        terminal.press(.right)
        XCTAssertNotNil(terminal.frame(after: mark, showing: "3 of 21"))
        XCTAssertNotNil(waitFor { server.largeRequests().contains("/img/large/3.jpg") ? true : nil })
        mark = terminal.frameCount
        terminal.press(.escape)
        XCTAssertNotNil(terminal.frame(after: mark, showing: " 21 photos"))
        XCTAssertNotNil(waitFor { server.stats()["large_cancelled"] == 1 ? true : nil }, "the download is cancelled")
        server.set(.holdLarge, false)
        XCTAssertNil(try store.largeImage(photoID: photos[3].id))
    }

    func testWithABudgetOfZeroTheLargePictureShowsFromMemoryAndNothingIsStored() throws {
        startSettings.largeCacheMB = 0
        try assertTheLargePictureShowsFromMemoryAndIsNotStored()
    }

    func testCommonsIsAskedForAThumbnailAtTheTerminalsWidth() throws {
        let server = try PhotoServer()
        let photos = try album(server, key: nil)
        XCTAssertEqual(photos.first?.source, "commons")
        let mark = terminal.frameCount
        terminal.press(.enter)
        XCTAssertNotNil(terminal.frame(after: mark, showing: "1 of 21", Self.largeNote))
        let stored = try XCTUnwrap(waitFor { try? store.largeImage(photoID: photos[0].id) })
        XCTAssertEqual(stored.width, 1024, "the image tells its size")
        // 220 columns of 10 px are wider than any large image: 2048 is asked.
        let sourceID = photos[0].sourceID
        XCTAssertEqual(Array(server.largeRequests().prefix(2)),
                       ["commons pageids=\(sourceID) iiurlwidth=2048", "/img/large/2048px-\(Int(sourceID)! - 100).jpg"])
    }

    func testOpeningAStoredLargeImageShowsItFromTheStoreAndMarksItViewed() throws {
        let server = try PhotoServer()
        let photos = try album(server)
        var mark = terminal.frameCount
        terminal.press(.enter)
        XCTAssertNotNil(terminal.frame(after: mark, showing: "1 of 21", Self.largeNote))
        func viewedAt() throws -> Double? {
            try otherProcess().read { db in
                try Double.fetchOne(db, sql: "SELECT viewedAt FROM photoLarge WHERE photoId = ?", arguments: [photos[0].id])
            }
        }
        let first = try XCTUnwrap(waitFor { try? viewedAt() })
        mark = terminal.frameCount
        terminal.press(.escape)
        XCTAssertNotNil(terminal.frame(after: mark, showing: " 21 photos"))
        mark = terminal.frameCount
        terminal.press(.enter)
        XCTAssertNotNil(terminal.frame(after: mark, showing: "1 of 21", Self.largeNote))
        XCTAssertNotNil(waitFor { ((try? viewedAt()) ?? 0) > first ? true : nil }, "opened again: viewed now")
        XCTAssertEqual(server.largeRequests().filter { $0 == "/img/large/0.jpg" }.count, 1, "from the store, not the network")
    }
}

extension RuntimeTests {
    func testAResizeMidFetchKeepsTheDownloadAndDrawsTheSharpPictureAtTheNewSize() throws {
        let server = try PhotoServer()
        server.set(.holdLarge, true)
        let photos = try album(server)
        var mark = terminal.frameCount
        terminal.press(.enter)
        XCTAssertNotNil(terminal.frame(after: mark) { $0.text.contains("1 of 21") && self.hasPicture($0) })
        XCTAssertNotNil(waitFor { server.largeRequests().contains("/img/large/0.jpg") ? true : nil })
        mark = terminal.frameCount
        terminal.resize(width: 160, height: 40)
        XCTAssertNotNil(terminal.frame(after: mark) { $0.width == 160 && $0.text.contains("1 of 21") && self.hasPicture($0) })
        server.set(.holdLarge, false)
        let sharp = try XCTUnwrap(terminal.frame(after: mark) { $0.width == 160 && $0.text.contains(Self.largeNote) && self.hasPicture($0) })
        XCTAssertEqual(sharp.height, 40)
        XCTAssertNotNil(waitFor { try? store.largeImage(photoID: photos[0].id) })
        XCTAssertEqual(server.largeRequests().filter { $0 == "/img/large/0.jpg" }.count, 1, "the download in flight went on")
        XCTAssertEqual(server.stats()["large_cancelled"], 0)
    }

    func testWhenTheStoreRefusesTheLargeImageItShowsFromMemory() throws {
        // What a full disk does to the write: it fails, and nothing of it is stored.
        try otherProcess().write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON photoLarge BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        }
        try assertTheLargePictureShowsFromMemoryAndIsNotStored()
    }

    func testARealPictureIsMadeFromTheLargeImageOnceItIsReady() throws {
        let server = try PhotoServer()
        server.set(.holdLarge, true)
        largeImageServer = server
        terminal = TestTerminal(width: 120, height: 40,
                                capabilities: TerminalCapabilities(unicode: true, colors: .trueColor, inlineImages: .kitty))
        try openFullAlbum(server: server, painter: .live(capabilities: terminal.capabilities))
        let photos = try store.photos(pinID: try XCTUnwrap(store.pins().first).id)
        terminal.press(.enter)
        func shown() -> InlinePicture? { terminal.inlineShown.last.flatMap { $0 } }
        let thumbnail = try XCTUnwrap(waitFor { shown() }, "the thumbnail's real picture at once")
        XCTAssertTrue(thumbnail.key.hasPrefix("\(photos[0].id)@") && !thumbnail.key.contains("/large"), thumbnail.key)
        server.set(.holdLarge, false)
        let large = try XCTUnwrap(waitFor { shown().flatMap { $0.key.contains("/large") ? $0 : nil } })
        XCTAssertTrue(large.key.hasPrefix("\(photos[0].id)@"), large.key)
        XCTAssertNotEqual(large.sequence, thumbnail.sequence)
    }
}
