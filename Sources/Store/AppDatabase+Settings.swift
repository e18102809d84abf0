import Foundation
import GRDB
import Model

extension AppDatabase {
    /// Every SPEC 2.3 setting, read at once; invalid stored values read as defaults.
    public func settings(catalog: SettingCatalog = .standard) throws(StoreError) -> Settings {
        Settings(stored: try storedSettingTexts(catalog: catalog), catalog: catalog)
    }

    /// The stored text of every known setting that is set, valid or not (so callers can say what is wrong).
    public func storedSettingTexts(catalog: SettingCatalog = .standard) throws(StoreError) -> [SettingKey: String] {
        let keys = catalog.keys.map(\.rawValue)
        let rows = try read { db in try SettingRow.filter(keys.contains(Column("key"))).fetchAll(db) }
        var stored: [SettingKey: String] = [:]
        for row in rows { stored[SettingKey(row.key)] = row.value }
        return stored
    }

    /// Stores one setting from text (a settings screen, a command line), refusing an invalid value.
    public func setSetting(_ key: SettingKey, to text: String, catalog: SettingCatalog = .standard) throws(StoreError) {
        try setSetting(key.rawValue, try Self.validated(catalog[key], text))
    }

    /// Stores one setting as the user changed it, or removes it (nil: back to its default), leaving
    /// every other row as it is: another process (`config set`, a second window) may have changed them.
    public func saveSetting(_ key: SettingKey, _ text: String?, catalog: SettingCatalog = .standard) throws(StoreError) {
        guard let text else { return try removeSetting(key.rawValue) }
        try setSetting(key, to: text, catalog: catalog)
    }

    /// What follows a setting's change inside its transaction: the large images are trimmed to the budget
    /// now in effect (a stored text that is no valid value reads as the default, as everywhere).
    static func settingWritten(_ db: Database, key: String) throws {
        guard key == SettingKey.largeCacheMB.rawValue else { return }
        let text = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
        let settings = Settings(stored: text.map { [.largeCacheMB: $0] } ?? [:])
        try evictLargeImages(db, toFit: 0, within: settings.largeCacheBytes, except: nil)
    }

    private static func validated(_ row: SettingDescriptor, _ text: String) throws(StoreError) -> String {
        guard let value = row.normalize(text) else {
            // A mistyped key is still a secret: it is not echoed.
            let shown = row.isSecret ? "(hidden)" : text
            throw .invalidSetting(key: row.key.rawValue, value: shown, expected: row.expected)
        }
        return value
    }
}
