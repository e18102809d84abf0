import Locking
import Foundation
import XCTest
import Geo
import Model
import WorldMap
@testable import Store

/// The store as referee between two windows: each album has a generation, advanced by New Collection
/// and by moving the pin, and work for an older one is refused in the transaction that would write it.
/// Two connections to one real file, as two processes have.
final class AlbumGenerationTests: XCTestCase {
    private func newPhotos(_ ids: [String]) -> [NewPhoto] {
        ids.map { NewPhoto(source: "flickr", sourceID: $0, title: "Title \($0)", author: "Author", dateTaken: nil,
                           url: "https://example.org/\($0)_q.jpg", largeURL: nil, pageURL: nil, license: nil,
                           width: 640, height: 480) }
    }

    /// A real JPEG, as a download brings it.
    private func jpeg() throws -> Data {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photo1.jpg")
        return try Data(contentsOf: fixtures)
    }

    private func assertStale(_ pin: Pin.ID, _ generation: Int, file: StaticString = #filePath, line: UInt = #line,
                             _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) {
            XCTAssertEqual($0 as? StoreError, .staleAlbum(pinID: pin, generation: generation), file: file, line: line)
        }
    }

    private func sourceIDs(_ db: AppDatabase, _ pin: Pin.ID) throws -> [String] {
        try db.photos(pinID: pin).map(\.sourceID)
    }

    func testANewPinIsAtItsFirstGenerationAndNewCollectionAdvancesIt() throws {
        let (window, other) = try openTwoConnections(self)
        let pin = try window.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        XCTAssertEqual(try other.albumGeneration(pinID: pin.id), 1)
        XCTAssertEqual(try other.album(pinID: pin.id)?.generation, 1)
        try window.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        XCTAssertEqual(try other.clearAlbum(pinID: pin.id, generation: 2, filter: .none), 2)
        XCTAssertEqual(try window.albumGeneration(pinID: pin.id), 2)
        // The same step again, from the other window that had not seen it: refused, nothing deleted.
        try other.replaceAlbum(pinID: pin.id, generation: 2, photos: newPhotos(["c"]))
        assertStale(pin.id, 2) { try window.clearAlbum(pinID: pin.id, generation: 2, filter: .none) }
        XCTAssertEqual(try sourceIDs(other, pin.id), ["c"])
        XCTAssertNil(try window.albumGeneration(pinID: 999))
    }

    /// Generations that never were (ahead of the album, behind its first, for a gone pin) write nothing.
    func testGenerationsThatNeverWereAreRefused() throws {
        let (window, _) = try openTwoConnections(self)
        let pin = try window.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        let photos = try window.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a"]))
        for wrong in [0, -1, 2, 5, Int.max] {
            assertStale(pin.id, wrong) { try window.replaceAlbum(pinID: pin.id, generation: wrong, photos: self.newPhotos(["b"])) }
            assertStale(pin.id, wrong) { try window.storeImage(photoID: photos[0].id, generation: wrong, bytes: try self.jpeg()) }
            assertStale(pin.id, wrong) {
                try window.saveAlbumStatus(pinID: pin.id, generation: wrong, status: .empty, page: 1, pageCount: 1, source: "flickr")
            }
        }
        // A collection may only follow the current one: no jumping ahead, no going back.
        for wrong in [Int.min, 0, 1, 3, 9] {
            assertStale(pin.id, wrong) { try window.clearAlbum(pinID: pin.id, generation: wrong, filter: .none) }
        }
        XCTAssertEqual(try window.albumGeneration(pinID: pin.id), 1)
        XCTAssertEqual(try sourceIDs(window, pin.id), ["a"])
        XCTAssertEqual(try window.photos(pinID: pin.id).map(\.state), [.pending])
        XCTAssertEqual(try window.pin(id: pin.id)?.albumStatus, .downloading)
        // A gone pin: nothing to referee, nothing written.
        XCTAssertTrue(try window.deletePin(id: pin.id))
        XCTAssertEqual(try window.clearAlbum(pinID: pin.id, generation: 2, filter: .none), 0)
        XCTAssertEqual(try window.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["c"])), [])
        XCTAssertNil(try window.albumGeneration(pinID: pin.id))
    }

    func testAStaleSearchAnswerIsRefused() throws {
        let (window, other) = try openTwoConnections(self)
        let pin = try window.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        try window.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        // The other window begins a new collection and its answer is saved.
        try other.clearAlbum(pinID: pin.id, generation: 2, filter: .none)
        try other.replaceAlbum(pinID: pin.id, generation: 2, photos: newPhotos(["x", "y", "z"]))
        // This window's search of the first collection answers late: refused, nothing written.
        assertStale(pin.id, 1) { try window.replaceAlbum(pinID: pin.id, generation: 1, photos: self.newPhotos(["a", "q"])) }
        assertStale(pin.id, 1) {
            try window.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 3, source: "flickr")
        }
        XCTAssertEqual(try sourceIDs(window, pin.id), ["x", "y", "z"])
        XCTAssertEqual(try window.photos(pinID: pin.id).map(\.position), [0, 1, 2])
        XCTAssertEqual(try window.pin(id: pin.id)?.albumStatus, .downloading, "the other window's status stands")
    }

    func testAStaleDownloadIsRefused() throws {
        let (window, other) = try openTwoConnections(self)
        let pin = try window.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        let bytes = try jpeg()
        let first = try window.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b", "c"]))
        // The other window's new collection finds `a` again: its row stays, so only the generation tells
        // this window's late download of it from the new collection's own.
        try other.clearAlbum(pinID: pin.id, generation: 2, filter: .none)
        let second = try other.replaceAlbum(pinID: pin.id, generation: 2, photos: newPhotos(["a", "d"]))
        assertStale(pin.id, 1) { try window.storeImage(photoID: second[0].id, generation: 1, bytes: bytes) }
        assertStale(pin.id, 1) { try window.markPhotoFailed(photoID: second[1].id, generation: 1, reason: "HTTP 404") }
        XCTAssertEqual(try other.photos(pinID: pin.id).map(\.state), [.pending, .pending], "nothing of the old generation landed")
        XCTAssertNil(try other.imageBytes(photoID: second[0].id))
        // A photo of the old collection that is gone stays gone.
        XCTAssertFalse(try window.storeImage(photoID: first[1].id, generation: 2, bytes: bytes))
        // The new collection's own downloads land.
        XCTAssertTrue(try other.storeImage(photoID: second[0].id, generation: 2, bytes: bytes))
        XCTAssertTrue(try other.markPhotoFailed(photoID: second[1].id, generation: 2, reason: "HTTP 404"))
        XCTAssertEqual(try window.imageBytes(photoID: second[0].id), bytes)
    }

    func testAddMoresDownloadsInFlightStillLand() throws {
        let (window, other) = try openTwoConnections(self)
        let pin = try window.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        let bytes = try jpeg()
        let first = try window.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        XCTAssertTrue(try window.storeImage(photoID: first[0].id, generation: 1, bytes: bytes))
        // Add more in the other window keeps the generation: its page is appended.
        let added = try other.appendPhotos(pinID: pin.id, generation: 1, photos: newPhotos(["c", "d"]))
        XCTAssertEqual(added.map(\.position), [2, 3])
        XCTAssertEqual(try window.albumGeneration(pinID: pin.id), 1)
        // This window's download begun before the Add more lands, and so do the Add more's own.
        XCTAssertTrue(try window.storeImage(photoID: first[1].id, generation: 1, bytes: bytes))
        XCTAssertTrue(try other.storeImage(photoID: added[0].id, generation: 1, bytes: bytes))
        XCTAssertTrue(try other.markPhotoFailed(photoID: added[1].id, generation: 1, reason: "HTTP 404"))
        XCTAssertEqual(try window.photos(pinID: pin.id).map(\.state),
                       [.stored, .stored, .stored, .failed(reason: "HTTP 404")])
        XCTAssertTrue(try other.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 2, pageCount: 5,
                                                source: "flickr"))
    }

    func testAddMoresAnswerAfterANewCollectionElsewhereIsRefused() throws {
        let (window, other) = try openTwoConnections(self)
        let pin = try window.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        try window.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        // This window asks for more; before the answer, the other window begins a new collection.
        try other.clearAlbum(pinID: pin.id, generation: 2, filter: .none)
        let fresh = try other.replaceAlbum(pinID: pin.id, generation: 2, photos: newPhotos(["x", "y"]))
        assertStale(pin.id, 1) { try window.appendPhotos(pinID: pin.id, generation: 1, photos: self.newPhotos(["c", "d"])) }
        XCTAssertEqual(try window.photos(pinID: pin.id), fresh, "exactly the new collection, nothing mixed in")
    }

    func testAMovedPinRefusesTheOldPlacesWork() throws {
        let (window, other) = try openTwoConnections(self)
        let pin = try window.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        let photos = try window.replaceAlbum(pinID: pin.id, generation: 1, photos: newPhotos(["a", "b"]))
        try other.movePin(id: pin.id, to: GeoPoint(latitude: 48.85, longitude: 2.35), name: "Paris")
        XCTAssertEqual(try window.albumGeneration(pinID: pin.id), 2)
        assertStale(pin.id, 1) { try window.replaceAlbum(pinID: pin.id, generation: 1, photos: self.newPhotos(["a"])) }
        assertStale(pin.id, 1) {
            try window.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr")
        }
        XCTAssertFalse(try window.storeImage(photoID: photos[0].id, generation: 2, bytes: try jpeg()))
        XCTAssertEqual(try other.photos(pinID: pin.id), [])
        XCTAssertEqual(try other.pin(id: pin.id)?.albumStatus, .downloading)
    }

    /// Many rounds of two windows beginning a collection from the same generation at once: exactly one
    /// wins each round, and the album holds only the winner's photos.
    func testTwoWindowsBeginningACollectionAtOnceOneWins() throws {
        let (window, other) = try openTwoConnections(self)
        let pin = try window.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        for round in 2...40 {
            let won = Locked<[Int: Bool]>([:])
            let answers = [newPhotos(["w0-\(round)"]), newPhotos(["w1-\(round)"])]
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                let db = i == 0 ? window : other
                let ok = (try? db.clearAlbum(pinID: pin.id, generation: round, filter: .none)) != nil
                    && (try? db.replaceAlbum(pinID: pin.id, generation: round, photos: answers[i])) != nil
                won.withLock { $0[i] = ok }
            }
            let results = won.withLock { [$0[0] ?? false, $0[1] ?? false] }
            XCTAssertEqual(results.filter { $0 }.count, 1, "round \(round): \(results)")
            let winner = results.firstIndex(of: true) ?? -1
            XCTAssertEqual(try sourceIDs(window, pin.id), ["w\(winner)-\(round)"], "round \(round)")
        }
    }
}
