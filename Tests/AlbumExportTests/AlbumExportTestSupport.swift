import Foundation
import Geo
import Model
import Store
import TestSupport
import XCTest

/// Real JPEG bytes of the fixtures.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static func photo(_ n: Int) -> Data {
        (try? Data(contentsOf: folder.appendingPathComponent("photo\(n).jpg"))) ?? Data()
    }
}

/// A temporary folder holding a real SQLite file, removed after the test.
class AlbumStoreTestCase: XCTestCase {
    var folder: URL!
    var store: AppDatabase!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try AppDatabase.open(path: folder.appendingPathComponent("vtourist.sqlite").path)
    }

    override func tearDownWithError() throws {
        try? store.close()
        // Folders a test made unwritable are opened again so they can go.
        _ = try? FileManager.default.subpathsOfDirectory(atPath: folder.path).forEach {
            chmod(folder.appendingPathComponent($0).path, 0o755)
        }
        try? FileManager.default.removeItem(at: folder)
        // Let go of them: XCTest never frees a test case, so what it still holds at exit would stay
        // allocated (and be reported as leaked).
        (store, folder) = (nil, nil)
    }

    /// A pin named `name` whose album holds these photos, stored (`true`) or still pending (`false`);
    /// photo n's image is Fixtures/photo(n % 3 + 1).jpg.
    func album(_ photos: [(title: String?, stored: Bool)], name: String? = "Naples",
               filter: AlbumFilter = .none) throws -> (Pin, [PhotoRecord]) {
        let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: name, filter: filter)
        let generation = try XCTUnwrap(store.albumGeneration(pinID: pin.id))
        let records = try store.replaceAlbum(pinID: pin.id, generation: generation, photos: photos.enumerated().map { n, photo in
            NewPhoto(source: n % 2 == 0 ? "flickr" : "commons", sourceID: "p\(n)", title: photo.title, author: "Author \(n)",
                     dateTaken: "2019-05-0\(n % 9 + 1)", url: "http://127.0.0.1:9/\(n).jpg",
                     pageURL: "https://www.flickr.com/photos/x/\(n)", license: "CC BY 2.0")
        })
        for (record, photo) in zip(records, photos) where photo.stored {
            XCTAssertTrue(try store.storeImage(photoID: record.id, generation: generation, bytes: Fixture.photo(record.position % 3 + 1)))
        }
        try store.saveAlbumStatus(pinID: pin.id, generation: generation, status: .ready, page: 1, pageCount: 1, source: "flickr")
        return (try XCTUnwrap(store.pin(id: pin.id)), try store.photos(pinID: pin.id))
    }

    func listing(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }
}
