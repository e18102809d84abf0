import Foundation
import TestSupport
import XCTest
import Model
import Geo
@testable import Store

/// The store at the sizes the map must handle: 10,000 pins, with and without
/// albums. Only what comes back is checked here; how long it takes is
/// measured by `make bench` (bench/store_bench.py), never asserted in a unit test. Under a sanitizer
/// (`make test` runs the unit suite only there) the file holds a tenth of the pins (`SanitizerScale`):
/// the same statements, each count derived from `count`.
final class StorePerformanceTests: XCTestCase {
    private let count = SanitizerScale.scaled(10_000)

    private func tenThousandPins() -> [(GeoPoint, String?)] {
        (0..<count).map { (i: Int) -> (GeoPoint, String?) in
            let point = GeoPoint(latitude: Double(i % 180) - 89.5, longitude: Double(i % 360) - 179.5)
            let name: String? = i % 3 == 0 ? nil : "Place \(i)"
            return (point, name)
        }
    }

    func testTenThousandPins() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        var db = try AppDatabase.open(path: path)
        try db.insertPins(tenThousandPins())
        try db.close()

        db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        let pins = try db.pins()
        XCTAssertEqual(pins.count, count)
        XCTAssertEqual(Set(pins.map(\.id)).count, count)
        XCTAssertEqual(pins.filter { $0.name == nil }.count, (count + 2) / 3, "every third is unnamed")
        XCTAssertEqual(pins.first?.coordinate.latitude, -89.5)
        XCTAssertEqual(pins.map(\.name).prefix(3), [nil, "Place 1", "Place 2"])
        XCTAssertTrue(pins.allSatisfy { $0.photoCount == 0 && $0.downloadedCount == 0 })
        XCTAssertTrue(try db.integrityCheck())
    }

    /// 10k pins with 21 photos each (no image bytes needed for counting).
    func testTenThousandPinsWithAlbums() throws {
        let db = try AppDatabase.openTemporary()
        addCleanup {
            try? db.close()
            try? FileManager.default.removeItem(atPath: OpenCheck.folder(of: db.path))
        }
        try db.insertPins(tenThousandPins())
        try db.executeForTesting("""
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
            INSERT INTO photo (pinId, position, source, sourceId, title, url, pageURL, state)
            SELECT pin.id, n.i, 'flickr', pin.id || '-' || n.i, 'A photo title of typical length',
                   'https://live.staticflickr.com/65535/' || pin.id || '_' || n.i || '_b.jpg',
                   'https://www.flickr.com/photos/someone/' || pin.id || n.i,
                   'pending'
            FROM pin, n
            """)
        // Stored photos need their image (a trigger checks); small ones keep the file small.
        try db.executeForTesting("INSERT INTO photoImage (photoId, bytes) SELECT id, x'FFD8FFE0' FROM photo WHERE position % 3 != 0")
        try db.executeForTesting("UPDATE photo SET state = 'stored' WHERE position % 3 != 0")
        let pins = try db.pins()
        XCTAssertEqual(pins.count, count)
        XCTAssertTrue(pins.allSatisfy { $0.photoCount == 21 && $0.downloadedCount == 14 })

        // The album's own operations on the same file.
        let pin = try XCTUnwrap(pins.last)
        try db.executeForTesting("UPDATE pin SET albumState = 'downloading' WHERE id % 100 = 0")
        let work = try db.interruptedAlbums()
        XCTAssertEqual(work.count, count / 100)
        XCTAssertTrue(work.allSatisfy { $0 % 100 == 0 })
        let photos = try db.photos(pinID: pin.id)
        XCTAssertEqual(photos.count, 21)
        XCTAssertEqual(photos.map(\.position), Array(0..<21))
        let image = Data(repeating: 0xAB, count: 60_000)
        let pending = try db.pendingPhotos(pinID: pin.id)
        XCTAssertEqual(pending.count, 7)
        for photo in pending { _ = try db.storeImage(photoID: photo.id, generation: 1, bytes: image) }
        XCTAssertEqual(try db.pins().last?.downloadedCount, 21)
        XCTAssertEqual(try db.imageBytes(photoID: pending[0].id), image)
    }
}
