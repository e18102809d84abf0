import Foundation
import GRDB
import TouristCore

/// Where photos come from (SPEC 6).
public enum PhotoSourceChoice: String, CaseIterable, Codable, Sendable {
    case flickr, commons
}

/// The settings of SPEC 2.3 as stored, each valid: an unreadable or out-of-range stored value
/// reads as its default. Environment overrides (SPEC 5) are applied by the caller.
public struct StoredSettings: Hashable, Sendable {
    public static let areaHalfWidthRange: ClosedRange<Double> = 0.1...1.0
    public static let photosPerCollectionRange: ClosedRange<Int> = 1...60

    /// nil when never chosen: then `effectiveSource` picks by whether a Flickr key is set.
    public var source: PhotoSourceChoice?
    public var flickrAPIKey: String?
    /// Degrees of latitude and longitude searched on each side of a pin.
    public var areaHalfWidth: Double
    public var photosPerCollection: Int
    public var confirmDelete: Bool
    public var allowDrag: Bool

    public init(source: PhotoSourceChoice? = nil, flickrAPIKey: String? = nil, areaHalfWidth: Double = 0.5,
                photosPerCollection: Int = 21, confirmDelete: Bool = true, allowDrag: Bool = true) {
        self.source = source
        self.flickrAPIKey = flickrAPIKey
        self.areaHalfWidth = areaHalfWidth
        self.photosPerCollection = photosPerCollection
        self.confirmDelete = confirmDelete
        self.allowDrag = allowDrag
    }

    /// Flickr when a key is set, else Commons, unless a source was chosen.
    public var effectiveSource: PhotoSourceChoice { source ?? (flickrAPIKey == nil ? .commons : .flickr) }

    /// The settings from stored texts; anything missing or invalid keeps its default.
    public init(stored: [SettingKey: String]) {
        self.init()
        if let text = stored[.source] { source = Self.source(text) }
        if let text = stored[.flickrAPIKey] { flickrAPIKey = Self.apiKey(text) }
        if let text = stored[.areaHalfWidth], let value = Self.areaHalfWidth(text) { areaHalfWidth = value }
        if let text = stored[.photosPerCollection], let value = Self.photosPerCollection(text) { photosPerCollection = value }
        if let text = stored[.confirmDelete], let value = Self.flag(text) { confirmDelete = value }
        if let text = stored[.allowDrag], let value = Self.flag(text) { allowDrag = value }
    }

    /// The canonical stored text for a key's value, or nil when the text is not a valid value.
    public static func normalized(_ key: SettingKey, _ text: String) -> String? {
        switch key {
        case .source: return source(text)?.rawValue
        case .flickrAPIKey: return apiKey(text)
        case .areaHalfWidth: return areaHalfWidth(text).map { String($0) }
        case .photosPerCollection: return photosPerCollection(text).map { String($0) }
        case .confirmDelete, .allowDrag: return flag(text).map { $0 ? "on" : "off" }
        }
    }

    /// What a key accepts, for messages.
    public static func expected(_ key: SettingKey) -> String {
        switch key {
        case .source: return "expected one of " + PhotoSourceChoice.allCases.map(\.rawValue).joined(separator: ", ")
        case .flickrAPIKey: return "expected letters and digits only"
        case .areaHalfWidth: return "expected a number of degrees within 0.1…1.0"
        case .photosPerCollection: return "expected a whole number within 1…60"
        case .confirmDelete, .allowDrag: return "expected on or off"
        }
    }

    static func source(_ text: String) -> PhotoSourceChoice? {
        PhotoSourceChoice(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Flickr keys are hexadecimal; anything else (spaces, control characters) would only fail later, worse.
    static func apiKey(_ text: String) -> String? {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...128).contains(key.utf8.count),
              key.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else { return nil }
        return key
    }

    static func areaHalfWidth(_ text: String) -> Double? {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), areaHalfWidthRange.contains(value) else {
            return nil
        }
        return value
    }

    static func photosPerCollection(_ text: String) -> Int? {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), photosPerCollectionRange.contains(value) else {
            return nil
        }
        return value
    }

    /// The same words `MapSettings` accepts.
    static func flag(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "on", "yes": return true
        case "0", "false", "off", "no": return false
        default: return nil
        }
    }
}

extension AppDatabase {
    /// Every SPEC 2.3 setting, read at once; invalid stored values read as defaults.
    public func settings() throws(StoreError) -> StoredSettings {
        let keys = SettingKey.allCases.map(\.rawValue)
        let rows = try read { db in
            try Row.fetchAll(db, sql: """
                SELECT key, value FROM setting WHERE key IN (\(keys.map { _ in "?" }.joined(separator: ", ")))
                """, arguments: StatementArguments(keys))
        }
        var stored: [SettingKey: String] = [:]
        for row in rows {
            let key: String? = row[0]
            let value: String? = row[1]
            if let key = key.flatMap(SettingKey.init(rawValue:)), let value { stored[key] = value }
        }
        return StoredSettings(stored: stored)
    }

    /// Stores one setting from text (a settings screen, a command line), refusing an invalid value.
    public func setSetting(_ key: SettingKey, to text: String) throws(StoreError) {
        guard let value = StoredSettings.normalized(key, text) else {
            // A mistyped key is still a secret: it is not echoed.
            let shown = key == .flickrAPIKey ? "(hidden)" : text
            throw .invalidSetting(key: key.rawValue, value: shown, expected: StoredSettings.expected(key))
        }
        try setSetting(key.rawValue, value)
    }

    /// Stores every setting of `settings` at once; nil source or key removes the stored one.
    public func saveSettings(_ settings: StoredSettings) throws(StoreError) {
        var values: [(SettingKey, String?)] = [
            (.source, settings.source?.rawValue),
            (.flickrAPIKey, settings.flickrAPIKey),
            (.areaHalfWidth, String(settings.areaHalfWidth)),
            (.photosPerCollection, String(settings.photosPerCollection)),
            (.confirmDelete, settings.confirmDelete ? "on" : "off"),
            (.allowDrag, settings.allowDrag ? "on" : "off"),
        ]
        for index in values.indices {
            guard let text = values[index].1 else { continue }
            let key = values[index].0
            guard let value = StoredSettings.normalized(key, text) else {
                let shown = key == .flickrAPIKey ? "(hidden)" : text
                throw .invalidSetting(key: key.rawValue, value: shown, expected: StoredSettings.expected(key))
            }
            values[index].1 = value
        }
        try write { db in
            for (key, value) in values {
                if let value {
                    try db.execute(sql: """
                        INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                        """, arguments: [key.rawValue, value])
                } else {
                    try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.rawValue])
                }
            }
        }
    }
}
