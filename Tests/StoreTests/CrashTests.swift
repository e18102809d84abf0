import Foundation
import TestSupport
import XCTest
import Model
@testable import Store

/// `kill -9` in the middle of image writes: the file stays sound, every stored photo keeps its image, and
/// the large images are whole, each of a photo that exists, their total within the budget.
final class CrashTests: XCTestCase {
    static let childEnvironment = "VTOURIST_STORE_CRASH_DB"

    func testKilledWriterLeavesASoundDatabase() throws {
        let path = try makeTempFolder(self) + "/vtourist.sqlite"
        let db = try AppDatabase.open(path: path)
        var pins: [Pin] = []
        for i in 0..<3 { pins.append(try db.insertPin(at: .init(latitude: Double(i), longitude: 0), name: nil)) }
        try db.close()

        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let environment = [Self.childEnvironment: path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                           "HOME": (path as NSString).deletingLastPathComponent]
        // Where each kill lands is random but reproducible: the seed is fixed and printed.
        var random = SeededRandom(testNamed: "CrashTests", fallback: 0x5EED_C0DE)
        let seed = random.state
        for round in 0..<5 {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = ["StoreTests.CrashChildProcess/testWriteImagesUntilKilled"]
            child.environment = environment
            let output = Pipe()
            child.standardOutput = output
            child.standardError = FileHandle.nullDevice
            try child.run()

            // The child prints a 0x1F byte per committed write; kill it after a random number, mid-way through the next.
            let target = Int.random(in: 10...80, using: &random)
            var writes = 0
            while writes < target {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                writes += chunk.filter { $0 == 0x1F }.count
            }
            usleep(UInt32.random(in: 0...3_000, using: &random))
            XCTAssertTrue(child.isRunning, "round \(round) (seed \(seed)): the writer stopped on its own")
            XCTAssertEqual(kill(child.processIdentifier, SIGKILL), 0)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal)
            XCTAssertGreaterThanOrEqual(writes, target, "round \(round): the writer wrote too little before the kill")

            // Reopen as the next start would.
            let after = try AppDatabase.open(path: path)
            XCTAssertTrue(try after.integrityCheck(), "round \(round)")
            try Self.assertConsistent(after, pins: pins)
            XCTAssertGreaterThan(try after.integersForTesting("SELECT COUNT(*) FROM photoImage").first ?? 0, 0)
            XCTAssertGreaterThan(try after.integersForTesting("SELECT COUNT(*) FROM photoLarge").first ?? 0, 0)
            try after.close()
        }
    }

    /// Every stored photo has exactly the bytes written for it; every image belongs to a stored photo;
    /// the counts the map shows match; the album's state agrees with its photos.
    static func assertConsistent(_ db: AppDatabase, pins: [Pin], file: StaticString = #filePath, line: UInt = #line) throws {
        var storedTotal = 0
        for pin in pins {
            let album = try XCTUnwrap(db.album(pinID: pin.id), file: file, line: line)
            for photo in album.photos where photo.state == .stored {
                XCTAssertEqual(try db.imageBytes(photoID: photo.id), CrashChildProcess.image(for: photo.id), file: file, line: line)
                XCTAssertEqual(photo.byteCount, CrashChildProcess.image(for: photo.id).count, file: file, line: line)
            }
            let stored = album.photos.filter { $0.state == .stored }.count
            storedTotal += stored
            XCTAssertEqual(album.pin.downloadedCount, stored, file: file, line: line)
            XCTAssertEqual(album.pin.photoCount, album.photos.count, file: file, line: line)
            // The writer saves `downloading` before it changes any photo and `ready` or `empty` after
            // the last one, so a kill anywhere leaves a state that agrees with the photos.
            let pending = album.photos.contains { $0.state == .pending }
            switch album.pin.albumState {
            case .downloading:
                break  // killed between the two saves: any photos, pending or not (a search or a download to resume)
            case .ready:
                XCTAssertFalse(pending, "a ready album has a pending photo", file: file, line: line)
                XCTAssertFalse(album.photos.isEmpty, "a ready album has no photos", file: file, line: line)
            case .empty:
                XCTAssertEqual(album.photos.count, 0, "an empty album has photos", file: file, line: line)
            case .failed:
                XCTFail("the writer never saves a failed album", file: file, line: line)
            }
        }
        XCTAssertEqual(try db.integersForTesting("SELECT COUNT(*) FROM photoImage"), [storedTotal], file: file, line: line)
        // Large images: each whole and of a photo still there (the foreign key), the total within the budget.
        for id in try db.integersForTesting("SELECT photoId FROM photoLarge") {
            XCTAssertNotNil(try db.photo(id: Int64(id)), "a large image outlived its photo", file: file, line: line)
            XCTAssertEqual(try db.largeImage(photoID: Int64(id))?.bytes, CrashChildProcess.largeImage(for: Int64(id)),
                           file: file, line: line)
        }
        XCTAssertLessThanOrEqual(try db.largeImagesTotalBytes(), CrashChildProcess.largeBudget, file: file, line: line)
    }
}

/// Inside the child started by `CrashTests`: stores images for every pin, collection after
/// collection, until killed. Run directly, it writes a few collections and checks them.
final class CrashChildProcess: XCTestCase {
    /// Bytes that name their photo, 20–120 KB so writes span many pages.
    static func image(for photoID: Int64) -> Data {
        let size = 20_000 + Int(photoID % 11) * 9_000
        var bytes = Data(count: size)
        withUnsafeBytes(of: photoID.littleEndian) { id in bytes.replaceSubrange(0..<8, with: id) }
        for i in 8..<size { bytes[i] = UInt8(truncatingIfNeeded: i &+ Int(photoID)) }
        return bytes
    }

    /// A large image's bytes that name their photo, 60–150 KB.
    static func largeImage(for photoID: Int64) -> Data {
        var bytes = image(for: photoID)
        bytes.append(Data(repeating: UInt8(truncatingIfNeeded: photoID), count: 40_000 + Int(photoID % 7) * 5_000))
        return bytes
    }

    /// Room for a few large images only, so nearly every large write evicts others.
    static let largeBudget = 500_000

    /// One byte on stdout, unbuffered, so the parent knows a write has committed.
    private static func reportWrite() {
        var byte: UInt8 = 0x1F
        _ = write(STDOUT_FILENO, &byte, 1)
    }

    func testWriteImagesUntilKilled() throws {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[CrashTests.childEnvironment] {
            let db = try AppDatabase.open(path: path)
            var collection = 0
            while true { try writeCollection(db, collection: collection, report: true); collection += 1 }
        }
        let path = try makeTempFolder(self) + "/vtourist.sqlite"
        let db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        let pins = [try db.insertPin(at: .init(latitude: 1, longitude: 1), name: nil)]
        for collection in 0..<3 { try writeCollection(db, collection: collection) }
        XCTAssertTrue(try db.integrityCheck())
        try CrashTests.assertConsistent(db, pins: pins)
        XCTAssertGreaterThan(try db.integersForTesting("SELECT COUNT(*) FROM photoLarge").first ?? 0, 1)
    }

    /// For each pin: resume what is pending, else a new collection or more photos, then store each
    /// image (every fifth fails), deleting one photo now and then.
    private func writeCollection(_ db: AppDatabase, collection: Int, report: Bool = false) throws {
        for pin in try db.pins() {
            var pending = try db.pendingPhotos(pinID: pin.id)
            if pending.isEmpty {
                let found = (0..<12).map {
                    NewPhoto(source: "flickr", sourceID: "\(collection)-\($0)", title: "Photo \($0)", url: "https://127.0.0.1/\($0).jpg")
                }
                // As the album state machine does: the status is saved before the photos and after the last one.
                try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: .downloading, page: collection + 1, pageCount: 99,
                                       source: "flickr")
                pending = collection % 2 == 0
                    ? try db.replaceAlbum(pinID: pin.id, generation: 1, photos: found)
                    : try db.appendPhotos(pinID: pin.id, generation: 1, photos: found)
            }
            for photo in pending {
                if photo.id % 5 == 0 {
                    try db.markPhotoFailed(photoID: photo.id, generation: 1, reason: "HTTP 404")
                } else {
                    try db.storeImage(photoID: photo.id, generation: 1, bytes: Self.image(for: photo.id))
                    // As the photo view does: its large image, stored within the budget.
                    if photo.id % 2 == 0 {
                        try db.storeLargeImage(photoID: photo.id, LargeImage(bytes: Self.largeImage(for: photo.id), width: 1024,
                                                                            height: 768),
                                               budgetBytes: Self.largeBudget, now: Double(photo.id))
                    }
                }
                if report { Self.reportWrite() }
                if photo.id % 7 == 0 { try db.deletePhotos(ids: [photo.id]) }
            }
            let left = try db.photos(pinID: pin.id)
            try db.saveAlbumStatus(pinID: pin.id, generation: 1, status: left.isEmpty ? .empty : .ready, page: collection + 1,
                                   pageCount: 99, source: "flickr")
        }
    }
}

