import Foundation
import TextSafety

/// Where photos come from (SPEC 6). The raw value is the name settings, the environment, the store
/// and the command line use.
public enum PhotoSourceChoice: String, CaseIterable, Codable, Sendable {
    case flickr, commons

    /// As the album header names it.
    public var displayName: String {
        switch self {
        case .flickr: "Flickr"
        case .commons: "Wikimedia Commons"
        }
    }
}

/// The settings of SPEC 2.3, each valid: their values, read and written through the rows of
/// `catalog` (SettingCatalog.swift), which say what each takes, shows and explains. The ranges, the
/// defaults and the checks the rows use live here.
public struct Settings: Hashable, Sendable {
    public static let areaHalfWidthRange: ClosedRange<Double> = 0.1...1.0
    public static let photosPerCollectionRange: ClosedRange<Int> = 1...60
    public static let defaultAreaHalfWidth = 0.5
    public static let defaultPhotosPerCollection = 21
    public static let largeCacheMBRange: ClosedRange<Int> = 0...4096
    public static let defaultLargeCacheMB = 256
    public static let slideshowSecondsRange: ClosedRange<Int> = 1...60
    public static let defaultSlideshowSeconds = 4
    /// Bytes in one megabyte of `large_cache_mb`.
    public static let bytesPerMB = 1_048_576

    /// nil when never chosen: then `effectiveSource` picks by whether a Flickr key is set.
    public var source: PhotoSourceChoice?
    public var flickrAPIKey: String?
    /// Degrees of latitude and longitude searched on each side of a pin.
    public var areaHalfWidth: Double
    public var photosPerCollection: Int
    public var confirmDelete: Bool
    public var allowDrag: Bool
    /// An e-mail or web address for the User-Agent (Wikimedia's policy); nil: none given.
    public var contact: String?
    /// Megabytes of large images the store keeps (within `largeCacheMBRange`); 0 stores none.
    public var largeCacheMB: Int
    /// Seconds a slideshow shows each photo (within `slideshowSecondsRange`).
    public var slideshowSeconds: Int
    /// The absolute path of a readable PEM file of extra certificate authorities; nil: the system's alone.
    public var caBundle: String?
    /// The canonical texts of the settings a row of the catalog keeps with no property of its own.
    public var others: [SettingKey: String] = [:]
    /// The settings there are: what each takes, how it reads, shows and explains itself.
    public var catalog: SettingCatalog = .standard

    public init(source: PhotoSourceChoice? = nil, flickrAPIKey: String? = nil,
                areaHalfWidth: Double = Settings.defaultAreaHalfWidth,
                photosPerCollection: Int = Settings.defaultPhotosPerCollection,
                confirmDelete: Bool = true, allowDrag: Bool = true,
                largeCacheMB: Int = Settings.defaultLargeCacheMB,
                slideshowSeconds: Int = Settings.defaultSlideshowSeconds) {
        self.source = source
        self.flickrAPIKey = flickrAPIKey
        self.areaHalfWidth = areaHalfWidth
        self.photosPerCollection = photosPerCollection
        self.confirmDelete = confirmDelete
        self.allowDrag = allowDrag
        self.largeCacheMB = largeCacheMB
        self.slideshowSeconds = slideshowSeconds
    }

    /// The large-image budget in bytes, as the store takes it (0: none stored).
    public var largeCacheBytes: Int { Settings.largeCacheBytes(megabytes: largeCacheMB) }

    /// `large_cache_mb` in bytes.
    public static func largeCacheBytes(megabytes: Int) -> Int { megabytes * bytesPerMB }

    /// Flickr when a key is set, else Commons, unless a source was chosen.
    public var effectiveSource: PhotoSourceChoice { source ?? (flickrAPIKey == nil ? .commons : .flickr) }

    /// The settings from stored texts; anything missing or invalid keeps its default.
    public init(stored: [SettingKey: String], catalog: SettingCatalog = .standard) {
        self = Self.read(stored: stored, catalog: catalog).settings
    }

    /// The settings from stored texts, and one message for each text that is not a valid value
    /// (it keeps its default). Blank texts count as unset.
    public static func read(stored: [SettingKey: String], catalog: SettingCatalog = .standard)
        -> (settings: Settings, problems: [String]) {
        var settings = Settings()
        settings.catalog = catalog
        var problems: [String] = []
        for row in catalog.descriptors {
            guard let text = stored[row.key], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                row.read(&settings, nil)
                continue
            }
            let value = row.normalize(text)
            row.read(&settings, value)
            if value == nil {
                // A key is a secret even when it is wrong: it is not repeated; a CA bundle's reason names its file.
                problems.append("The stored \(row.label)\(row.quoted(text)) was ignored: \(row.reason(text)).")
            }
        }
        return (settings, problems)
    }

    /// A setting's value in words, as the settings screen and its messages show it; the key masked
    /// (`masked(apiKey:)`, as everywhere). `keyFromEnvironment`: a Flickr key set outside the store,
    /// which makes "automatic" mean Flickr.
    public func shown(_ key: SettingKey, keyFromEnvironment: Bool = false) -> String {
        catalog[key].shown(self, keyFromEnvironment)
    }

    /// The canonical stored text of each setting that has a value, in the catalog's order.
    public var storedTexts: [(SettingKey, String?)] { catalog.descriptors.map { ($0.key, $0.write(self)) } }

    /// The canonical stored text of one setting, nil when it has none.
    public func storedText(_ key: SettingKey) -> String? { catalog[key].write(self) }

    /// The canonical stored text for a key's value, or nil when the text is not a valid value.
    public static func normalized(_ key: SettingKey, _ text: String, catalog: SettingCatalog = .standard) -> String? {
        catalog[key].normalize(text)
    }

    /// What a key accepts, for messages.
    public static func expected(_ key: SettingKey, catalog: SettingCatalog = .standard) -> String { catalog[key].expected }

    /// Why `text` is not a valid value for `key`, or nil when it is one. For a key, also what is wrong
    /// with this one, without repeating it.
    public static func problem(_ key: SettingKey, _ text: String, catalog: SettingCatalog = .standard) -> String? {
        catalog[key].problem(text)
    }

    /// What makes `text` no API key, in words that give away none of it; nil for a valid key.
    /// Spaces and newlines pasted around a key are not faults: they are trimmed.
    public static func apiKeyFault(_ text: String) -> String? {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if key.isEmpty { return "this one is empty" }
        if key.utf8.count > maxAPIKeyLength { return "this one is \(key.count) characters long" }
        for scalar in key.unicodeScalars {
            if scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_") { continue }
            if scalar.properties.generalCategory == .control { return "this one has a control character in it" }
            if CharacterSet.whitespacesAndNewlines.contains(scalar) { return "this one has a space in it" }
            // One punctuation mark tells what to fix and gives nothing of the key away.
            if scalar.isASCII { return "this one has \u{201C}\(Character(scalar))\u{201D} in it" }
            return "this one has a character that is not plain ASCII in it"
        }
        return nil
    }

    /// A key as it may be shown: never in full; the last 4 characters only of a key long enough
    /// that they give little away (Flickr's are 32).
    public static func masked(apiKey: String) -> String {
        let dots = String(repeating: "\u{2022}", count: 8)
        return apiKey.count >= 12 ? dots + String(apiKey.suffix(4)) : dots
    }

    /// The text of a value for a message: nothing a terminal would obey, at most 20 characters
    /// (with … when cut), and a secret (a key) masked.
    public static func shown(_ text: String, secret: Bool = false) -> String {
        let visible = Array(text.strippingTerminalControls.unicodeScalars)
        // The controls go before the key is masked too: its last 4 characters may be shown.
        if secret {
            return masked(apiKey: String(String.UnicodeScalarView(visible)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let clean = String(String.UnicodeScalarView(visible.prefix(20)))
        return visible.count > 20 ? clean + "\u{2026}" : clean
    }

    public static func source(_ text: String) -> PhotoSourceChoice? {
        PhotoSourceChoice(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    public static let maxAPIKeyLength = 128
    public static let maxContactLength = 200

    /// An e-mail or http(s) address with no spaces or control characters, for a User-Agent header.
    public static func contact(_ text: String) -> String? {
        let contact = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (3...maxContactLength).contains(contact.count),
              contact.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"()<>;\\\"".unicodeScalars.contains($0) })
        else { return nil }
        let lower = contact.lowercased()
        let isMail = contact.contains("@") && !contact.hasPrefix("@") && !contact.hasSuffix("@")
        guard isMail || lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        return contact
    }

    /// The User-Agent every request sends: the program, its version and, when given, the contact.
    public static func userAgent(version: String, contact: String?) -> String {
        "vtourist/\(version) (terminal Virtual Tourist" + (contact.map { "; \($0)" } ?? "") + ")"
    }

    /// Flickr keys are hexadecimal; anything that is not safe in a URL query as it stands (spaces, `&`,
    /// control characters) would only fail later, worse.
    public static func apiKey(_ text: String) -> String? {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maxAPIKeyLength).contains(key.utf8.count),
              key.unicodeScalars.allSatisfy({
                  $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
              }) else { return nil }
        return key
    }

    public static func areaHalfWidth(_ text: String) -> Double? {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), areaHalfWidthRange.contains(value) else {
            return nil
        }
        return value
    }

    /// Bytes a CA bundle may have: the system's whole bundle is about 200 kB.
    public static let maxCABundleBytes = 16 * 1_048_576

    /// The absolute path `text` names (`~` expanded, a relative path taken from the current folder,
    /// `.` and doubled slashes dropped), as the setting stores it; nil for a blank text or one with
    /// control characters. Links and `..` stay as given: the kernel follows them when the file is read.
    public static func caBundlePath(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        let expanded = (trimmed as NSString).expandingTildeInPath
        let absolute = expanded.hasPrefix("/") ? expanded
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded)
        return "/" + absolute.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// The stored path of a CA bundle: `text` made absolute, when it names a readable file with a
    /// PEM certificate in it (curl refuses every transfer over one it cannot load).
    public static func caBundle(_ text: String) -> String? {
        guard let path = caBundlePath(text), caBundleFault(path) == nil else { return nil }
        return path
    }

    /// What makes `text` no CA bundle, naming the file; nil for a good one.
    public static func caBundleFault(_ text: String) -> String? {
        guard let path = caBundlePath(text) else {
            return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "no path was given"
                : "the path has a control character in it"
        }
        let named = "\u{201C}\(shownPath(path))\u{201D}"
        // stat follows links (the system's certificates are links); a pipe or a device would never end a read.
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == EACCES ? "\(named) cannot be read (permission denied)" : "there is no file \(named)"
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "\(named) is a folder"
        default: return "\(named) is not a regular file"
        }
        if info.st_size > maxCABundleBytes { return "\(named) is over \(maxCABundleBytes / 1_048_576) MB" }
        guard FileManager.default.isReadableFile(atPath: path), let handle = FileHandle(forReadingAtPath: path) else {
            return "\(named) cannot be read (permission denied)"
        }
        defer { try? handle.close() }
        let start: Data
        // The first certificate is near the start, after comments at most; nil is an empty file.
        do { start = try handle.read(upToCount: caBundleLookahead) ?? Data() } catch { return "\(named) cannot be read" }
        guard start.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            return "\(named) has no PEM certificate in it"
        }
        return nil
    }

    /// Bytes read from the start of a CA bundle to find its first certificate.
    static let caBundleLookahead = 256 * 1024

    /// A path for a message: nothing a terminal would obey, its end kept when it is long (the file's name).
    static func shownPath(_ path: String) -> String {
        let visible = path.strippingTerminalControls
        return visible.count > 80 ? "\u{2026}" + String(visible.suffix(79)) : visible
    }

    public static func photosPerCollection(_ text: String) -> Int? { wholeNumber(text, in: photosPerCollectionRange) }

    public static func largeCacheMB(_ text: String) -> Int? { wholeNumber(text, in: largeCacheMBRange) }

    public static func slideshowSeconds(_ text: String) -> Int? { wholeNumber(text, in: slideshowSecondsRange) }

    /// A whole number within `range`, spaces around it allowed.
    public static func wholeNumber(_ text: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else { return nil }
        return value
    }

    /// An on/off setting as it is stored, shown and listed by `config`.
    public static func flagText(_ on: Bool) -> String { on ? "on" : "off" }

    public static func flag(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "on", "yes": return true
        case "0", "false", "off", "no": return false
        default: return nil
        }
    }
}
