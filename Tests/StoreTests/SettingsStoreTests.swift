import Foundation
import TestSupport
import XCTest
import Model
@testable import Store

/// The SPEC 2.3 settings: typed, validated, defaults for anything unreadable.
final class SettingsStoreTests: XCTestCase {
    private func open() throws -> AppDatabase {
        let db = try AppDatabase.open(path: try makeTempFolder(self) + "/vtourist.sqlite")
        addCleanup { try? db.close() }
        return db
    }

    func testDefaults() throws {
        let db = try open()
        let settings = try db.settings()
        XCTAssertEqual(settings, Settings())
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
        let chosen = Settings(source: .commons, flickrAPIKey: "0123456789abcdef0123456789abcdef", areaHalfWidth: 0.25,
                              photosPerCollection: 60, confirmDelete: false, allowDrag: false, largeCacheMB: 0,
                              slideshowSeconds: 60)
        for (key, text) in chosen.storedTexts { try db.saveSetting(key, text) }
        XCTAssertEqual(try db.settings(), chosen)
        XCTAssertEqual(try db.setting("confirm_delete"), "off")
        XCTAssertEqual(try db.storedSettingTexts(), [
            .source: "commons", .flickrAPIKey: "0123456789abcdef0123456789abcdef", .areaHalfWidth: "0.25",
            .photosPerCollection: "60", .confirmDelete: "off", .allowDrag: "off", .largeCacheMB: "0",
            .slideshowSeconds: "60",
        ])
        // A key alone picks Flickr; a chosen source wins.
        XCTAssertEqual(Settings(flickrAPIKey: "abc").effectiveSource, .flickr)
        XCTAssertEqual(chosen.effectiveSource, .commons)
        // nil removes the stored values.
        for (key, text) in Settings().storedTexts { try db.saveSetting(key, text) }
        XCTAssertNil(try db.setting("source"))
        XCTAssertNil(try db.setting("flickr_api_key"))
        XCTAssertEqual(try db.settings(), Settings())
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
            (.largeCacheMB, "-1"), (.largeCacheMB, "4097"), (.largeCacheMB, "1.5"), (.largeCacheMB, "256MB"),
            (.largeCacheMB, "lots"), (.slideshowSeconds, "0"), (.slideshowSeconds, "61"), (.slideshowSeconds, "2.5"),
            (.slideshowSeconds, "-4"),
        ]
        for (key, text) in refused {
            XCTAssertThrowsError(try db.setSetting(key, to: text), "\(key) = \(text)") { error in
                guard case .invalidSetting(let name, _, _) = error as? StoreError else { return XCTFail("\(error)") }
                XCTAssertEqual(name, key.rawValue)
                XCTAssertFalse(error.localizedDescription.contains("\n"))
                XCTAssertFalse(error.localizedDescription.contains("\u{1B}"), "control characters never reach a message")
            }
        }
        XCTAssertEqual(try db.settings(), Settings())
        XCTAssertThrowsError(try db.setSetting(.flickrAPIKey, to: "secret key")) { error in
            XCTAssertFalse(error.localizedDescription.contains("secret"), "a key is not echoed")
        }
        XCTAssertThrowsError(try db.saveSetting(.areaHalfWidth, "3"))
        XCTAssertThrowsError(try db.saveSetting(.photosPerCollection, "100"))
        XCTAssertEqual(try db.settings(), Settings(), "a refused save writes nothing")
        XCTAssertEqual(try db.storedSettingTexts(), [:])
    }

    func testSavingOneSettingLeavesTheOthersAnotherProcessChanged() throws {
        let folder = try makeTempFolder(self)
        let app = try AppDatabase.open(path: folder + "/vtourist.sqlite")
        let shell = try AppDatabase.open(path: folder + "/vtourist.sqlite")
        addCleanup { try? app.close(); try? shell.close() }
        let seen = try app.settings()  // what a running app read at its start
        try shell.setSetting(.photosPerCollection, to: "12")  // `vtourist config set` meanwhile
        try shell.setSetting(.allowDrag, to: "off")
        try app.saveSetting(.confirmDelete, seen.confirmDelete ? "off" : "on")
        let now = try shell.settings()
        XCTAssertEqual(now.photosPerCollection, 12)
        XCTAssertFalse(now.allowDrag)
        XCTAssertFalse(now.confirmDelete)
        XCTAssertEqual(try shell.storedSettingTexts(), [.photosPerCollection: "12", .allowDrag: "off", .confirmDelete: "off"])
        // Removing one setting removes only its row.
        try app.saveSetting(.confirmDelete, nil)
        XCTAssertEqual(try shell.storedSettingTexts(), [.photosPerCollection: "12", .allowDrag: "off"])
    }

    func testInvalidStoredValuesReadAsDefaults() throws {
        let db = try open()
        // Another program (or an older vtourist) wrote these by name.
        for (key, value) in [("source", "picasa"), ("flickr_api_key", "bad key"), ("area_half_width", "7"),
                             ("photos_per_collection", "-3"), ("confirm_delete", "perhaps"), ("allow_drag", "")] {
            try db.setSetting(key, value)
        }
        XCTAssertEqual(try db.settings(), Settings())
        try db.setSetting("photos_per_collection", "30")
        XCTAssertEqual(try db.settings().photosPerCollection, 30)
        XCTAssertEqual(try db.settings().areaHalfWidth, 0.5)
    }

    func testFlagWordsReadFromTheStore() throws {
        let db = try open()
        let words: [(String, Bool?)] = [
            ("1", true), ("true", true), ("on", true), ("yes", true), ("ON", true), ("Yes", true), (" on ", true),
            ("0", false), ("false", false), ("off", false), ("no", false), ("OFF", false), ("No", false),
            ("maybe", nil), ("", nil), ("2", nil), ("onn", nil),
        ]
        for (word, expected) in words {
            // Another program wrote the word as it is; the store reads it as the one Settings type does.
            try db.setSetting(SettingKey.allowDrag.rawValue, word)
            try db.setSetting(SettingKey.confirmDelete.rawValue, word)
            let settings = try db.settings()
            XCTAssertEqual(Settings.flag(word), expected, word.debugDescription)
            // Both flags default to on.
            XCTAssertEqual(settings.allowDrag, expected ?? true, word.debugDescription)
            XCTAssertEqual(settings.confirmDelete, expected ?? true, word.debugDescription)
            XCTAssertEqual(try db.storedSettingTexts()[.allowDrag], word, "the stored text is kept as written")
            // Set from text, only the words are taken, stored in canonical form.
            if let expected {
                try db.setSetting(.allowDrag, to: word)
                XCTAssertEqual(try db.setting(SettingKey.allowDrag.rawValue), expected ? "on" : "off", word.debugDescription)
            } else {
                XCTAssertThrowsError(try db.setSetting(.allowDrag, to: word), word.debugDescription)
                XCTAssertEqual(try db.setting(SettingKey.allowDrag.rawValue), word, "a refused word writes nothing")
            }
        }
    }

    func testStoredTextsAreReadAsWritten() throws {
        let db = try open()
        XCTAssertEqual(try db.storedSettingTexts(), [:])
        try db.setSetting(.photosPerCollection, to: " 30 ")
        try db.setSetting(.source, to: "Commons")
        // Invalid and unknown ones, as another program (or an older vtourist) may have written them.
        try db.setSetting(SettingKey.areaHalfWidth.rawValue, "7")
        try db.setSetting(SettingKey.flickrAPIKey.rawValue, "bad key")
        try db.setSetting("not_a_setting", "x")
        XCTAssertEqual(try db.storedSettingTexts(), [
            .photosPerCollection: "30", .source: "commons", .areaHalfWidth: "7", .flickrAPIKey: "bad key",
        ])
        // The typed settings take the valid ones and default the rest.
        XCTAssertEqual(try db.settings(), Settings(source: .commons, photosPerCollection: 30))
        XCTAssertEqual(try db.settings(), Settings(stored: try db.storedSettingTexts()))
        try db.removeSetting(SettingKey.source.rawValue)
        XCTAssertNil(try db.storedSettingTexts()[.source])
        XCTAssertNil(try db.settings().source)
    }

    func testRefusalsSayWhatWouldDo() throws {
        let db = try open()
        let refused: [(SettingKey, String)] = [
            (.source, "picasa"), (.flickrAPIKey, "has space"), (.areaHalfWidth, "2"), (.photosPerCollection, "0"),
            (.confirmDelete, "maybe"), (.allowDrag, "perhaps"),
        ]
        for (key, text) in refused {
            XCTAssertThrowsError(try db.setSetting(key, to: text), "\(key) = \(text)") { error in
                guard case .invalidSetting(let name, let shown, let expected) = error as? StoreError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(name, key.rawValue)
                XCTAssertEqual(expected, Settings.expected(key))
                XCTAssertFalse(expected.isEmpty)
                XCTAssertEqual(shown, key == .flickrAPIKey ? "(hidden)" : text)
                XCTAssertTrue(error.localizedDescription.contains(Settings.expected(key)), error.localizedDescription)
                XCTAssertTrue(error.localizedDescription.contains(key.rawValue), error.localizedDescription)
            }
        }
        // saveSetting refuses by the same words.
        XCTAssertThrowsError(try db.saveSetting(.photosPerCollection, "61")) { error in
            XCTAssertEqual(error as? StoreError, .invalidSetting(key: SettingKey.photosPerCollection.rawValue, value: "61",
                                                                 expected: Settings.expected(.photosPerCollection)))
        }
        XCTAssertThrowsError(try db.saveSetting(.flickrAPIKey, "not a key")) { error in
            XCTAssertEqual(error as? StoreError, .invalidSetting(key: SettingKey.flickrAPIKey.rawValue, value: "(hidden)",
                                                                 expected: Settings.expected(.flickrAPIKey)))
        }
        XCTAssertEqual(try db.storedSettingTexts(), [:], "nothing refused was written")
    }
}
