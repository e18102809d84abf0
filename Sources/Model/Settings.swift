import Foundation
import TextSafety

/// Names of the settings kept in the store (SPEC 2.3).
public enum SettingKey: String, CaseIterable, Sendable {
    case source = "source"
    case flickrAPIKey = "flickr_api_key"
    case areaHalfWidth = "area_half_width"
    case photosPerCollection = "photos_per_collection"
    case confirmDelete = "confirm_delete"
    case allowDrag = "allow_drag"
    /// How Wikimedia can reach whoever runs this copy: sent in the User-Agent, as its policy asks.
    case contact = "contact"
    /// Megabytes the photo view's large images may take in the store; 0 stores none.
    case largeCacheMB = "large_cache_mb"
    /// Seconds each photo of a slideshow stays.
    case slideshowSeconds = "slideshow_seconds"
    /// A PEM file of certificate authorities trusted besides the system's (a company proxy, a local mirror).
    case caBundle = "ca_bundle"

    /// The setting's one name, as messages say it mid-sentence ("Saved: photo source Flickr.").
    public var label: String {
        switch self {
        case .source: "photo source"
        case .flickrAPIKey: "Flickr API key"
        case .areaHalfWidth: "search area"
        case .photosPerCollection: "photos per collection"
        case .confirmDelete: "confirm delete"
        case .allowDrag: "allow dragging"
        case .contact: "contact address"
        case .largeCacheMB: "large-image budget"
        case .slideshowSeconds: "slideshow interval"
        case .caBundle: "CA bundle"
        }
    }

    /// The same name at the start of a line, as the settings screen's row shows it.
    public var title: String { label.prefix(1).uppercased() + label.dropFirst() }
}

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

/// The settings of SPEC 2.3, each valid. This type holds every range, default and check;
/// the store, the photo sources, the screens and the command line read them from here.
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
    public init(stored: [SettingKey: String]) {
        self = Self.read(stored: stored).settings
    }

    /// The settings from stored texts, and one message for each text that is not a valid value
    /// (it keeps its default). Blank texts count as unset.
    public static func read(stored: [SettingKey: String]) -> (settings: Settings, problems: [String]) {
        var settings = Settings()
        var problems: [String] = []
        for key in SettingKey.allCases {
            guard let text = stored[key], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            let valid: Bool
            switch key {
            case .source: settings.source = source(text); valid = settings.source != nil
            case .flickrAPIKey: settings.flickrAPIKey = apiKey(text); valid = settings.flickrAPIKey != nil
            case .areaHalfWidth:
                if let value = areaHalfWidth(text) { settings.areaHalfWidth = value }
                valid = areaHalfWidth(text) != nil
            case .photosPerCollection:
                if let value = photosPerCollection(text) { settings.photosPerCollection = value }
                valid = photosPerCollection(text) != nil
            case .confirmDelete:
                if let value = flag(text) { settings.confirmDelete = value }
                valid = flag(text) != nil
            case .allowDrag:
                if let value = flag(text) { settings.allowDrag = value }
                valid = flag(text) != nil
            case .contact: settings.contact = contact(text); valid = settings.contact != nil
            case .largeCacheMB:
                if let value = largeCacheMB(text) { settings.largeCacheMB = value }
                valid = largeCacheMB(text) != nil
            case .slideshowSeconds:
                if let value = slideshowSeconds(text) { settings.slideshowSeconds = value }
                valid = slideshowSeconds(text) != nil
            case .caBundle: settings.caBundle = caBundle(text); valid = settings.caBundle != nil
            }
            if !valid {
                // A key is a secret even when it is wrong: it is not repeated; a CA bundle's reason names its file.
                let shown = key == .flickrAPIKey || key == .caBundle ? "" : " \u{201C}\(Settings.shown(key, text))\u{201D}"
                // What is wrong with a CA bundle's file (gone since it was set, say): the path alone would not tell.
                let why = key == .caBundle ? problem(key, text) ?? expected(key) : expected(key)
                problems.append("The stored \(key.label)\(shown) was ignored: \(why).")
            }
        }
        return (settings, problems)
    }

    /// A setting's value in words, as the settings screen and its messages show it; the key masked
    /// (`masked(apiKey:)`, as everywhere). `keyFromEnvironment`: a Flickr key set outside the store,
    /// which makes "automatic" mean Flickr.
    public func shown(_ key: SettingKey, keyFromEnvironment: Bool = false) -> String {
        switch key {
        case .flickrAPIKey: return flickrAPIKey.map { Settings.masked(apiKey: $0) } ?? "none"
        case .source:
            let automatic: PhotoSourceChoice = keyFromEnvironment && source == nil ? .flickr : effectiveSource
            return source?.displayName ?? "automatic: \(automatic.displayName)"
        case .areaHalfWidth: return "\(areaHalfWidth)\u{00B0} either way"
        case .photosPerCollection: return "\(photosPerCollection)"
        case .confirmDelete: return Settings.flagText(confirmDelete)
        case .allowDrag: return Settings.flagText(allowDrag)
        case .contact: return contact ?? "none"
        case .largeCacheMB: return largeCacheMB == 0 ? "0 MB (none stored)" : "\(largeCacheMB) MB"
        case .slideshowSeconds: return slideshowSeconds == 1 ? "1 second" : "\(slideshowSeconds) seconds"
        case .caBundle: return caBundle ?? "none (the system's certificates only)"
        }
    }

    /// The canonical stored text of each setting that has a value.
    public var storedTexts: [(SettingKey, String?)] {
        [(.source, source?.rawValue),
         (.flickrAPIKey, flickrAPIKey),
         (.areaHalfWidth, String(areaHalfWidth)),
         (.photosPerCollection, String(photosPerCollection)),
         (.confirmDelete, Settings.flagText(confirmDelete)),
         (.allowDrag, Settings.flagText(allowDrag)),
         (.contact, contact),
         (.largeCacheMB, String(largeCacheMB)),
         (.slideshowSeconds, String(slideshowSeconds)),
         (.caBundle, caBundle)]
    }

    /// The canonical stored text for a key's value, or nil when the text is not a valid value.
    public static func normalized(_ key: SettingKey, _ text: String) -> String? {
        switch key {
        case .source: return source(text)?.rawValue
        case .flickrAPIKey: return apiKey(text)
        case .areaHalfWidth: return areaHalfWidth(text).map { String($0) }
        case .photosPerCollection: return photosPerCollection(text).map { String($0) }
        case .confirmDelete, .allowDrag: return flag(text).map(flagText)
        case .contact: return contact(text)
        case .largeCacheMB: return largeCacheMB(text).map { String($0) }
        case .slideshowSeconds: return slideshowSeconds(text).map { String($0) }
        case .caBundle: return caBundle(text)
        }
    }

    /// What a key accepts, for messages.
    public static func expected(_ key: SettingKey) -> String {
        switch key {
        case .source:
            return "the photo source must be " + PhotoSourceChoice.allCases.map(\.rawValue).joined(separator: " or ")
        case .flickrAPIKey:
            return "an API key is 1 to \(maxAPIKeyLength) letters, digits, - or _"
        case .areaHalfWidth:
            return "the search area must be a half-width of \(areaHalfWidthRange.lowerBound) to \(areaHalfWidthRange.upperBound) degree"
        case .photosPerCollection:
            return "photos per collection must be a whole number from \(photosPerCollectionRange.lowerBound) to \(photosPerCollectionRange.upperBound)"
        case .confirmDelete, .allowDrag:
            return "expected on or off"
        case .contact:
            return "a contact is an e-mail address (name@example.org) or a web address (https://…), up to \(maxContactLength) characters"
        case .largeCacheMB:
            return "the large-image budget must be a whole number of megabytes from \(largeCacheMBRange.lowerBound) (none stored) to \(largeCacheMBRange.upperBound)"
        case .slideshowSeconds:
            return "the slideshow interval must be a whole number of seconds from \(slideshowSecondsRange.lowerBound) to \(slideshowSecondsRange.upperBound)"
        case .caBundle:
            return "the CA bundle must be a readable PEM file of certificates (-----BEGIN CERTIFICATE-----)"
        }
    }

    /// Why `text` is not a valid value for `key`, or nil when it is one. For a key, also what is wrong
    /// with this one, without repeating it.
    public static func problem(_ key: SettingKey, _ text: String) -> String? {
        guard normalized(key, text) == nil else { return nil }
        if key == .flickrAPIKey, let reason = apiKeyFault(text) { return expected(key) + "; " + reason }
        if key == .caBundle, let reason = caBundleFault(text) { return expected(key) + "; " + reason }
        return expected(key)
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
    /// (with … when cut), and a key masked.
    public static func shown(_ key: SettingKey, _ text: String) -> String {
        let visible = Array(text.strippingTerminalControls.unicodeScalars)
        // The controls go before the key is masked too: its last 4 characters may be shown.
        if key == .flickrAPIKey {
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
    static func wholeNumber(_ text: String, in range: ClosedRange<Int>) -> Int? {
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
