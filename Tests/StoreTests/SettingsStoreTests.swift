import Foundation
import XCTest
import TouristCore
@testable import Store

/// The SPEC 2.3 settings: typed, validated, defaults for anything unreadable.
final class SettingsStoreTests: XCTestCase {
    private func open() throws -> AppDatabase {
        let db = try AppDatabase.open(path: try makeTempFolder(self) + "/vtourist.sqlite")
        addTeardownBlock { try? db.close() }
        return db
    }

    func testDefaults() throws {
        let db = try open()
        let settings = try db.settings()
        XCTAssertEqual(settings, StoredSettings())
        XCTAssertNil(settings.source)
        XCTAssertNil(settings.flickrAPIKey)
        XCTAssertEqual(settings.areaHalfWidth, 0.5)
        XCTAssertEqual(settings.photosPerCollection, 21)
        XCTAssertTrue(settings.confirmDelete)
        XCTAssertTrue(settings.allowDrag)
        XCTAssertEqual(settings.effectiveSource, .commons)
    }

    func testTypedRoundTrip() throws {
        let db = try open()
        let chosen = StoredSettings(source: .commons, flickrAPIKey: "0123456789abcdef0123456789abcdef", areaHalfWidth: 0.25,
                                    photosPerCollection: 60, confirmDelete: false, allowDrag: false)
        try db.saveSettings(chosen)
        XCTAssertEqual(try db.settings(), chosen)
        XCTAssertEqual(try db.setting("confirm_delete"), "off")
        // A key alone picks Flickr; a chosen source wins.
        XCTAssertEqual(StoredSettings(flickrAPIKey: "abc").effectiveSource, .flickr)
        XCTAssertEqual(chosen.effectiveSource, .commons)
        // nil removes the stored values.
        try db.saveSettings(StoredSettings())
        XCTAssertNil(try db.setting("source"))
        XCTAssertNil(try db.setting("flickr_api_key"))
        XCTAssertEqual(try db.settings(), StoredSettings())
    }

    func testSettingFromText() throws {
        let db = try open()
        try db.setSetting(.source, to: " Flickr ")
        try db.setSetting(.areaHalfWidth, to: "1.0")
        try db.setSetting(.photosPerCollection, to: "1")
        try db.setSetting(.allowDrag, to: "no")
        try db.setSetting(.flickrAPIKey, to: " abcDEF123\n")
        let settings = try db.settings()
        XCTAssertEqual(settings.source, .flickr)
        XCTAssertEqual(settings.areaHalfWidth, 1.0)
        XCTAssertEqual(settings.photosPerCollection, 1)
        XCTAssertFalse(settings.allowDrag)
        XCTAssertEqual(settings.flickrAPIKey, "abcDEF123")
        XCTAssertEqual(try db.setting("source"), "flickr")
    }

    func testInvalidValuesAreRefusedAndNothingChanges() throws {
        let db = try open()
        let refused: [(SettingKey, String)] = [
            (.source, "picasa"), (.areaHalfWidth, "0.05"), (.areaHalfWidth, "1.5"), (.areaHalfWidth, "nan"),
            (.areaHalfWidth, "wide"), (.photosPerCollection, "0"), (.photosPerCollection, "61"),
            (.photosPerCollection, "2.5"), (.confirmDelete, "maybe"), (.flickrAPIKey, "has space"),
            (.flickrAPIKey, "\u{1B}[2J"), (.flickrAPIKey, ""),
        ]
        for (key, text) in refused {
            XCTAssertThrowsError(try db.setSetting(key, to: text), "\(key) = \(text)") { error in
                guard case .invalidSetting(let name, _, _) = error as? StoreError else { return XCTFail("\(error)") }
                XCTAssertEqual(name, key.rawValue)
                XCTAssertFalse(error.localizedDescription.contains("\n"))
                XCTAssertFalse(error.localizedDescription.contains("\u{1B}"), "control characters never reach a message")
            }
        }
        XCTAssertEqual(try db.settings(), StoredSettings())
        XCTAssertThrowsError(try db.setSetting(.flickrAPIKey, to: "secret key")) { error in
            XCTAssertFalse(error.localizedDescription.contains("secret"), "a key is not echoed")
        }
        XCTAssertThrowsError(try db.saveSettings(StoredSettings(areaHalfWidth: 3)))
        XCTAssertThrowsError(try db.saveSettings(StoredSettings(photosPerCollection: 100)))
        XCTAssertEqual(try db.settings(), StoredSettings(), "a refused save writes nothing")
    }

    func testInvalidStoredValuesReadAsDefaults() throws {
        let db = try open()
        // Another program (or an older vtourist) wrote these by name.
        for (key, value) in [("source", "picasa"), ("flickr_api_key", "bad key"), ("area_half_width", "7"),
                             ("photos_per_collection", "-3"), ("confirm_delete", "perhaps"), ("allow_drag", "")] {
            try db.setSetting(key, value)
        }
        XCTAssertEqual(try db.settings(), StoredSettings())
        try db.setSetting("photos_per_collection", "30")
        XCTAssertEqual(try db.settings().photosPerCollection, 30)
        XCTAssertEqual(try db.settings().areaHalfWidth, 0.5)
    }

    func testSameFlagWordsAsTheMapSettings() throws {
        for word in ["1", "true", "on", "yes", "0", "false", "off", "no", "ON", "Yes", "maybe"] {
            let fromStore = StoredSettings(stored: [.confirmDelete: word]).confirmDelete
            let fromMap = MapSettings(stored: { $0 == .confirmDelete ? word : nil }).confirmDelete
            XCTAssertEqual(fromStore, fromMap, word)
        }
    }
}
