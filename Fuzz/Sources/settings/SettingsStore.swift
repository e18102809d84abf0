import Foundation
import FuzzSupport
import Model
import Store

/// The store → read round trip of a setting, through `AppDatabase` on a real SQLite file (in
/// /dev/shm where there is one: a commit's fsync would cost more than everything else here).
enum SettingsStore {
    static let database: AppDatabase = {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = (base as NSString).appendingPathComponent("vtourist-fuzz-settings-\(getpid())")
        do {
            let database = try AppDatabase.open(path: (folder as NSString).appendingPathComponent("vtourist.sqlite"))
            // The folder goes when the run ends; the connection's files are unlinked with it.
            atexit { _ = try? FileManager.default.removeItem(atPath: SettingsStore.folder) }
            return database
        } catch {
            fatalError("no database for the settings round trip: \(error)")
        }
    }()

    static var folder: String { (database.path as NSString).deletingLastPathComponent }

    /// A value saved as the settings screen or `config set` saves it reads back normalized, and
    /// nothing else changes; a refused one changes nothing and keeps a key out of its message;
    /// text written into the store by hand reads back byte for byte, and the settings read from the
    /// store are those its texts make; a removed setting is gone.
    static func check(_ key: SettingKey, _ text: String, removing other: SettingKey) {
        let before = stored()
        var expected = before
        do throws(StoreError) {
            try database.saveSetting(key, text)
            let normal = Settings.normalized(key, text)
            FuzzCheck.that(normal != nil, "\(key) \(text.debugDescription) saved, though not valid")
            expected[key] = normal
        } catch {
            FuzzCheck.that(Settings.normalized(key, text) == nil, "\(key) \(text.debugDescription) refused: \(error)")
            guard case .invalidSetting = error else { return FuzzCheck.that(false, "\(key): \(error)") }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if key == .flickrAPIKey, trimmed.count >= 5 {
                FuzzCheck.that(!error.description.contains(trimmed), "the key shown in \(error.description.debugDescription)")
            }
        }
        readBack(expected)

        // As edited by hand, or written by a newer version.
        try? database.setSetting(key.rawValue, text)
        // SQLite's text reaches Swift as a C string: a NUL ends it. No value the app saves holds
        // one (a valid value has no control character); one written by hand reads cut there.
        expected[key] = String(text.prefix { $0 != "\0" })
        readBack(expected)

        try? database.saveSetting(other, nil)
        expected[other] = nil
        readBack(expected)
    }

    static func stored() -> [SettingKey: String] {
        do { return try database.storedSettingTexts() } catch {
            fatalError("the settings unreadable: \(error)")
        }
    }

    static func readBack(_ expected: [SettingKey: String]) {
        let texts = stored()
        for key in SettingCatalog.standard.keys {
            FuzzCheck.that(texts[key].map { Array($0.unicodeScalars) } == expected[key].map { Array($0.unicodeScalars) },
                           "\(key) stored as \(expected[key].debugDescription), read back as \(texts[key].debugDescription)")
        }
        let settings = try? database.settings()
        FuzzCheck.that(settings == Settings(stored: expected), "the settings read differ from those of \(expected)")
    }
}
