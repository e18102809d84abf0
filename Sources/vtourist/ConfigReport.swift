import Foundation
import Model
import PhotoSources

/// Where a setting's value in effect comes from (`vtourist config`, SPEC 4).
public enum SettingOrigin: String, Sendable, Codable {
    case `default`, database, environment
}

/// One setting as `vtourist config` shows it: the value in effect, never a key in full.
public struct ConfigEntry: Equatable, Sendable {
    public var key: SettingKey
    /// The canonical text (`on`, `0.5`, `commons`), a key masked; nil when unset (no key).
    public var value: String?
    public var origin: SettingOrigin
    /// The variable the value comes from, when the origin is the environment.
    public var variable: String?

    public var name: String { key.rawValue }

    public init(key: SettingKey, value: String?, origin: SettingOrigin, variable: String? = nil) {
        self.key = key
        self.value = value
        self.origin = origin
        self.variable = variable
    }

    /// The value as text output shows it.
    public var shownValue: String { value ?? "(not set)" }
}

/// Every SPEC 2.3 setting with its value in effect and where it comes from: the stored texts, read by
/// `Settings` as the app reads them, under the environment's overrides as the photo sources apply them.
public struct ConfigReport: Equatable, Sendable {
    public var entries: [ConfigEntry]
    /// Stored values that were ignored, variables that were ignored, a source that cannot be used.
    public var problems: [String]

    /// The settings there are (the product's, or a test's with a row more).
    public var catalog: SettingCatalog

    public init(stored: [SettingKey: String], environment: [String: String], catalog: SettingCatalog = .standard) {
        self.catalog = catalog
        let (settings, storedProblems) = Settings.read(stored: stored, catalog: catalog)
        let overrides = EnvironmentOverrides(environment: environment, catalog: catalog)
        let resolved = PhotoSourceSettings.resolve(environment: environment, settings: settings, problems: storedProblems)
        problems = resolved.problems

        var effective = settings
        overrides.apply(to: &effective)
        entries = catalog.descriptors.map { row in
            let key = row.key
            var value = row.write(effective)
            if key == .source { value = effective.source?.rawValue ?? effective.effectiveSource.rawValue }
            if row.isSecret { value = value.map(Settings.masked(apiKey:)) }
            if let variable = overrides.variable(for: key) {
                return ConfigEntry(key: key, value: value, origin: .environment, variable: variable)
            }
            // Stored but invalid reads as the default (and is among the problems).
            let isStored = stored[key].map { row.normalize($0) != nil } ?? false
            return ConfigEntry(key: key, value: value, origin: isStored ? .database : .default)
        }
    }

    public func entry(_ key: SettingKey) -> ConfigEntry {
        entries.first { $0.key == key } ?? ConfigEntry(key: key, value: nil, origin: .default)
    }

    // MARK: Names

    /// The names `config get` and `config set` take: the store's keys (`photos_per_collection`);
    /// `-` for `_` and any case are accepted too.
    public static func key(named name: String, catalog: SettingCatalog = .standard) -> SettingKey? {
        catalog.key(named: name)
    }

    public static func knownNames(_ catalog: SettingCatalog = .standard) -> String {
        catalog.keys.map(\.rawValue).joined(separator: ", ")
    }

    /// The settings a variable overrides, as the command's help says it.
    public static func overridingVariables(_ catalog: SettingCatalog = .standard) -> String {
        catalog.variables.map { "\($0.variable) overrides \($0.key.rawValue)" }.joined(separator: ", ")
    }

    /// One line for a name that is no setting. A long run of hex digits is likely a key pasted in
    /// the wrong place, and is not repeated.
    public static func unknownName(_ name: String, catalog: SettingCatalog = .standard) -> String {
        let looksLikeAKey = name.count >= 12 && name.allSatisfy(\.isHexDigit)
        let shown = looksLikeAKey || name.isEmpty ? "" : " \u{201C}\(Settings.shown(name))\u{201D}"
        return "unknown setting\(shown); the settings are: \(knownNames(catalog))"
    }

    // MARK: Setting

    /// The canonical text to store for `text`, or the one-line refusal (the value shown only
    /// shortened and cleaned, a key never).
    public static func valueToStore(_ key: SettingKey, _ text: String, catalog: SettingCatalog = .standard)
        -> Result<String, ConfigRefusal> {
        let row = catalog[key]
        if let value = row.normalize(text) { return .success(value) }
        // A key is never repeated; a CA bundle's reason names its file in full.
        let quoted = row.quoted(text)
        return .failure(ConfigRefusal("cannot set \(key.rawValue)\(quoted.isEmpty ? "" : " to" + quoted): \(row.reason(text))"))
    }

    /// What `config set` says once `value` (canonical) is stored: the value, the key masked, and
    /// whether a variable overrides it.
    public static func stored(_ key: SettingKey, value: String, environment: [String: String],
                              catalog: SettingCatalog = .standard) -> [String] {
        let shown = catalog[key].isSecret ? Settings.masked(apiKey: value) : value
        var lines = ["\(key.rawValue) = \(shown) (stored in the database)"]
        if let variable = EnvironmentOverrides(environment: environment, catalog: catalog).variable(for: key) {
            lines.append("\(variable) is set and overrides it; unset \(variable) for the stored value to count.")
        }
        return lines
    }

    // MARK: Output

    /// Aligned columns: NAME, VALUE, ORIGIN (the variable named after `environment`).
    public var table: String {
        let rows = [["NAME", "VALUE", "ORIGIN"]] + entries.map { entry in
            [entry.name, entry.shownValue,
             entry.variable.map { "\(entry.origin.rawValue) (\($0))" } ?? entry.origin.rawValue]
        }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
                + row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0) + "  " + row[2]
        }.joined(separator: "\n") + "\n"
    }

    /// `config --json`: an array of `{name, value, origin}` (`variable` too when from the environment).
    public var json: String { Self.encode(entries.map(JSONEntry.init)) }

    /// `config get NAME --json`: one such object.
    public func json(_ key: SettingKey) -> String { Self.encode(JSONEntry(entry(key))) }

    struct JSONEntry: Encodable {
        var entry: ConfigEntry
        init(_ entry: ConfigEntry) { self.entry = entry }

        enum CodingKeys: String, CodingKey { case name, value, origin, variable }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(entry.name, forKey: .name)
            try c.encode(entry.value, forKey: .value)  // null rather than absent
            try c.encode(entry.origin, forKey: .origin)
            try c.encodeIfPresent(entry.variable, forKey: .variable)
        }
    }

    private static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A value `config set` will not store, as one line.
public struct ConfigRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
