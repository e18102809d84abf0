import Foundation

/// A setting's name, as the store keeps it and `config` and the manual say it (SPEC 2.3). Which
/// names exist is the catalog's to say (`SettingCatalog.key(named:)`), not this type's.
public struct SettingKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let source = SettingKey("source")
    public static let flickrAPIKey = SettingKey("flickr_api_key")
    public static let areaHalfWidth = SettingKey("area_half_width")
    public static let photosPerCollection = SettingKey("photos_per_collection")
    public static let confirmDelete = SettingKey("confirm_delete")
    public static let allowDrag = SettingKey("allow_drag")
    /// How Wikimedia can reach whoever runs this copy: sent in the User-Agent, as its policy asks.
    public static let contact = SettingKey("contact")
    /// Megabytes the photo view's large images may take in the store; 0 stores none.
    public static let largeCacheMB = SettingKey("large_cache_mb")
    /// Seconds each photo of a slideshow stays.
    public static let slideshowSeconds = SettingKey("slideshow_seconds")
    /// A PEM file of certificate authorities trusted besides the system's (a company proxy, a local mirror).
    public static let caBundle = SettingKey("ca_bundle")
}

/// Everything there is to know of one setting, in one row: its name and label, what it takes (its
/// kind, range and default), how it reads and writes its value, how it is shown and explained, whether
/// blank removes it, the variable that overrides it. `Settings`, the store, the settings screen,
/// `config` and the manual's table all read it (docs/architecture.md, "Settings").
public struct SettingDescriptor: Sendable {
    /// What the setting takes, and so how the settings screen changes it.
    public enum Kind: Sendable, Equatable {
        /// A whole number within the range; typed.
        case integer(ClosedRange<Int>)
        /// A decimal number within the range; typed.
        case decimal(ClosedRange<Double>)
        /// On or off; Enter turns it over.
        case flag
        /// One of the names, or none (automatic); Enter steps through none and each name.
        case choice([String])
        /// A line of text; typed. A secret is never shown, and is typed anew.
        case text(secret: Bool)
        /// The path of a file; typed, stored absolute.
        case path
    }

    public let key: SettingKey
    /// The setting's one name, as messages say it mid-sentence ("Saved: photo source Flickr.").
    public let label: String
    public let kind: Kind
    /// The canonical text of the default; nil when there is none (no key, no contact).
    public let defaultText: String?
    /// Whether a blank text removes the setting (back to its default) rather than being refused.
    public let blankRemoves: Bool
    /// The environment variable that overrides the stored value, if one does.
    public let variable: String?
    /// What the value is for, under the settings screen's rows; `overridden`: a variable decides it.
    public let explanation: @Sendable (_ settings: Settings, _ overridden: Bool, _ keys: SettingsKeyNames) -> [String]
    /// What the manual's table says the setting takes, and its default.
    public let manualValue: String
    public let manualDefault: String
    /// What a valid value is, for messages ("photos per collection must be a whole number from 1 to 60").
    public let expected: String
    /// The canonical text of a value, or nil when `text` is none.
    public let normalize: @Sendable (String) -> String?
    /// What is wrong with `text` beyond `expected` (a key's length, a file's absence), without
    /// repeating a secret; nil when nothing more can be said.
    public let fault: @Sendable (String) -> String?
    /// Takes a canonical text (or nil: the default) into the settings.
    public let read: @Sendable (inout Settings, String?) -> Void
    /// The canonical text of the value in the settings; nil when it has none.
    public let write: @Sendable (Settings) -> String?
    /// The value in words, as the settings screen's row and its messages show it. `keyFromEnvironment`:
    /// a Flickr key is set outside the store.
    public let shown: @Sendable (_ settings: Settings, _ keyFromEnvironment: Bool) -> String
    /// What the message line says once the setting is removed (a blank text); nil: the value is said.
    public let removedMessage: String?

    /// The same name at the start of a line, as the settings screen's row shows it.
    public var title: String { label.prefix(1).uppercased() + label.dropFirst() }

    /// A secret (the Flickr key) is never repeated; a path's reason names its file; every other
    /// value is repeated, shortened and cleaned, in what refuses it.
    public var repeatsRefusedValue: Bool {
        switch kind {
        case .text(secret: true), .path: false
        default: true
        }
    }

    public var isSecret: Bool { kind == .text(secret: true) }

    /// Why `text` is not a valid value, or nil when it is one.
    public func problem(_ text: String) -> String? {
        normalize(text) == nil ? reason(text) : nil
    }

    /// Why a text already found invalid is refused: what a value is, and what is wrong with this one
    /// when more can be said.
    public func reason(_ text: String) -> String {
        fault(text).map { expected + "; " + $0 } ?? expected
    }

    /// A refused text as the refusal quotes it (` “…”`, shortened and cleaned), or nothing for a
    /// secret or a path (`repeatsRefusedValue`).
    public func quoted(_ text: String) -> String {
        repeatsRefusedValue ? " \u{201C}\(Settings.shown(text))\u{201D}" : ""
    }

    public init(key: SettingKey, label: String, kind: Kind, defaultText: String?, blankRemoves: Bool = false,
                variable: String? = nil, manualValue: String, manualDefault: String, expected: String,
                explanation: @escaping @Sendable (Settings, Bool, SettingsKeyNames) -> [String],
                normalize: @escaping @Sendable (String) -> String?,
                fault: @escaping @Sendable (String) -> String? = { _ in nil },
                read: @escaping @Sendable (inout Settings, String?) -> Void,
                write: @escaping @Sendable (Settings) -> String?,
                shown: @escaping @Sendable (Settings, Bool) -> String,
                removedMessage: String? = nil) {
        self.key = key
        self.label = label
        self.kind = kind
        self.defaultText = defaultText
        self.blankRemoves = blankRemoves
        self.variable = variable
        self.manualValue = manualValue
        self.manualDefault = manualDefault
        self.expected = expected
        self.explanation = explanation
        self.normalize = normalize
        self.fault = fault
        self.read = read
        self.write = write
        self.shown = shown
        self.removedMessage = removedMessage
    }

    /// A whole number within `range`, kept in the settings at `value` (or, with no property, among
    /// the settings' other values): the usual row, a setting added with one line.
    public static func integer(_ key: SettingKey, label: String, range: ClosedRange<Int>, default fallback: Int,
                               unit: String? = nil, variable: String? = nil, value: (WritableKeyPath<Settings, Int> & Sendable)? = nil,
                               expected: String? = nil, manualValue: String? = nil,
                               shown: (@Sendable (Int) -> String)? = nil,
                               explanation: String) -> SettingDescriptor {
        let shown = shown ?? { "\($0)" }
        let units = unit.map { " of \($0)" } ?? ""
        return SettingDescriptor(
            key: key, label: label, kind: .integer(range), defaultText: String(fallback), variable: variable,
            manualValue: manualValue ?? "a whole number, \(range.lowerBound)\u{2013}\(range.upperBound)",
            manualDefault: String(fallback),
            expected: expected ?? "\(label) must be a whole number\(units) from \(range.lowerBound) to \(range.upperBound)",
            explanation: { _, _, _ in [explanation] },
            normalize: { Settings.wholeNumber($0, in: range).map { String($0) } },
            read: { settings, text in
                let number = text.flatMap { Int($0) } ?? fallback
                if let value { settings[keyPath: value] = number } else { settings.others[key] = text }
            },
            write: { settings in
                if let value { return String(settings[keyPath: value]) }
                return settings.others[key] ?? String(fallback)
            },
            shown: { settings, _ in
                if let value { return shown(settings[keyPath: value]) }
                return shown(settings.others[key].flatMap { Int($0) } ?? fallback)
            })
    }

    /// On or off, kept in the settings at `value`.
    static func flag(_ key: SettingKey, label: String, default fallback: Bool, value: WritableKeyPath<Settings, Bool> & Sendable,
                     manualValue: String, explanation: @escaping @Sendable (Settings, Bool, SettingsKeyNames) -> [String]) -> SettingDescriptor {
        SettingDescriptor(
            key: key, label: label, kind: .flag, defaultText: Settings.flagText(fallback),
            manualValue: manualValue, manualDefault: "`\(Settings.flagText(fallback))`", expected: "expected on or off",
            explanation: explanation,
            normalize: { Settings.flag($0).map(Settings.flagText) },
            read: { settings, text in settings[keyPath: value] = text.flatMap(Settings.flag) ?? fallback },
            write: { Settings.flagText($0[keyPath: value]) },
            shown: { settings, _ in Settings.flagText(settings[keyPath: value]) })
    }
}

/// The settings there are, one descriptor each, in the order `config` lists them; the settings screen
/// shows them in `screenOrder`. `standard` is the product's; a test may add a row.
public struct SettingCatalog: Sendable, Hashable {
    public let descriptors: [SettingDescriptor]
    /// Each row's key, in the catalog's order.
    public let keys: [SettingKey]
    /// The settings screen's rows, top to bottom.
    public let screenOrder: [SettingKey]

    public init(_ descriptors: [SettingDescriptor], screenOrder: [SettingKey]? = nil) {
        self.descriptors = descriptors
        let keys = descriptors.map(\.key)
        self.keys = keys
        // A row the order leaves out goes at the end.
        let order = (screenOrder ?? keys).filter(keys.contains)
        self.screenOrder = order + keys.filter { !order.contains($0) }
    }

    /// The catalog with one more setting, at the end of `config`'s list and of the screen.
    public func adding(_ descriptor: SettingDescriptor) -> SettingCatalog {
        SettingCatalog(descriptors + [descriptor], screenOrder: screenOrder)
    }

    /// The row of a key. Keys come from this catalog (`key(named:)`, its `keys`, the named
    /// constants of its rows): one it has no row for is a programming error.
    public subscript(_ key: SettingKey) -> SettingDescriptor {
        guard let row = descriptors.first(where: { $0.key == key }) else { preconditionFailure("no setting \(key) in the catalog") }
        return row
    }

    public func contains(_ key: SettingKey) -> Bool { descriptors.contains { $0.key == key } }

    /// The setting a name is, as `config get` and `config set` take it: the store's name
    /// (`photos_per_collection`), `-` for `_` and any case accepted; nil for a name that is none.
    public func key(named name: String) -> SettingKey? {
        let key = SettingKey(name.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "-", with: "_"))
        return contains(key) ? key : nil
    }

    /// The settings that a variable overrides, with their variables.
    public var variables: [(key: SettingKey, variable: String)] {
        descriptors.compactMap { row in row.variable.map { (row.key, $0) } }
    }

    /// The manual's settings table (docs/manual.md, "Settings: vtourist config"), made from the rows.
    public var manualTable: String {
        (["| name | value | default |", "|---|---|---|"]
            + descriptors.map { "| `\($0.key.rawValue)` | \($0.manualValue) | \($0.manualDefault) |" })
            .joined(separator: "\n") + "\n"
    }

    public static func == (a: SettingCatalog, b: SettingCatalog) -> Bool { a.keys == b.keys && a.screenOrder == b.screenOrder }
    public func hash(into hasher: inout Hasher) { hasher.combine(keys) }
}

extension SettingCatalog {
    /// The product's settings (SPEC 2.3).
    public static let standard = SettingCatalog([
        SettingDescriptor(
            key: .source, label: "photo source", kind: .choice(PhotoSourceChoice.allCases.map(\.rawValue)), defaultText: nil,
            blankRemoves: true, variable: EnvironmentVariable.source,
            manualValue: PhotoSourceChoice.allCases.map { "`\($0.rawValue)`" }.joined(separator: " or "),
            manualDefault: "`flickr` when a key is set, else `commons`",
            expected: "the photo source must be " + PhotoSourceChoice.allCases.map(\.rawValue).joined(separator: " or "),
            explanation: { _, _, keys in
                ["\(keys.change) steps through automatic (Flickr with a key, else Wikimedia Commons), Flickr and Wikimedia Commons. The next search uses it."]
            },
            normalize: { Settings.source($0)?.rawValue },
            read: { settings, text in settings.source = text.flatMap(Settings.source) },
            write: { $0.source?.rawValue },
            shown: { settings, keyFromEnvironment in
                let automatic: PhotoSourceChoice = keyFromEnvironment && settings.source == nil ? .flickr : settings.effectiveSource
                return settings.source?.displayName ?? "automatic: \(automatic.displayName)"
            }),
        SettingDescriptor(
            key: .flickrAPIKey, label: "Flickr API key", kind: .text(secret: true), defaultText: nil, blankRemoves: true,
            variable: EnvironmentVariable.flickrAPIKey,
            manualValue: "1\u{2013}\(Settings.maxAPIKeyLength) letters, digits, `-` or `_`", manualDefault: "none",
            expected: "an API key is 1 to \(Settings.maxAPIKeyLength) letters, digits, - or _",
            explanation: { settings, overridden, keys in
                var lines = ["Photos come from Flickr with a key; without one, from Wikimedia Commons, which needs none.",
                             "Get a key (free, for non-commercial use) at https://www.flickr.com/services/apps/create/ and paste it here; \(keys.testKey) tests it with one search."]
                if settings.flickrAPIKey == nil, !overridden { lines.insert("No Flickr key is set.", at: 0) }
                return lines
            },
            normalize: { Settings.apiKey($0) }, fault: { Settings.apiKeyFault($0) },
            read: { settings, text in settings.flickrAPIKey = text.flatMap(Settings.apiKey) },
            write: { $0.flickrAPIKey },
            shown: { settings, _ in settings.flickrAPIKey.map { Settings.masked(apiKey: $0) } ?? "none" },
            removedMessage: "Removed the Flickr API key."),
        SettingDescriptor(
            key: .areaHalfWidth, label: "search area", kind: .decimal(Settings.areaHalfWidthRange),
            defaultText: String(Settings.defaultAreaHalfWidth),
            manualValue: "degrees searched on each side of a pin, \(Settings.areaHalfWidthRange.lowerBound)\u{2013}\(Settings.areaHalfWidthRange.upperBound)",
            manualDefault: String(Settings.defaultAreaHalfWidth),
            expected: "the search area must be a half-width of \(Settings.areaHalfWidthRange.lowerBound) to \(Settings.areaHalfWidthRange.upperBound) degree",
            explanation: { _, _, _ in
                ["How far from the pin photos are searched for, in degrees either way (\(Settings.areaHalfWidthRange.lowerBound) to \(Settings.areaHalfWidthRange.upperBound))."]
            },
            normalize: { Settings.areaHalfWidth($0).map { String($0) } },
            read: { settings, text in settings.areaHalfWidth = text.flatMap(Settings.areaHalfWidth) ?? Settings.defaultAreaHalfWidth },
            write: { String($0.areaHalfWidth) },
            shown: { settings, _ in "\(settings.areaHalfWidth)\u{00B0} either way" }),
        .integer(.photosPerCollection, label: "photos per collection", range: Settings.photosPerCollectionRange,
                 default: Settings.defaultPhotosPerCollection, value: \Settings.photosPerCollection,
                 explanation: "How many photos an album fetches at a time (\(Settings.photosPerCollectionRange.lowerBound) to \(Settings.photosPerCollectionRange.upperBound))."),
        .flag(.confirmDelete, label: "confirm delete", default: true, value: \Settings.confirmDelete,
              manualValue: "`on`/`off` (also `yes`/`no`, `true`/`false`, `1`/`0`)",
              explanation: { _, _, _ in
                  ["Ask before deleting a pin, before moving a pin with photos (the move fetches a new album), before New Collection and before deleting marked photos."]
              }),
        .flag(.allowDrag, label: "allow dragging", default: true, value: \Settings.allowDrag, manualValue: "`on`/`off` (as above)",
              explanation: { _, _, keys in
                  ["Allow picking up a pin with \(keys.pickUp) and moving it, or dragging it with the mouse."]
              }),
        SettingDescriptor(
            key: .contact, label: "contact address", kind: .text(secret: false), defaultText: nil, blankRemoves: true,
            manualValue: "an e-mail address or an `http(s)://` address, up to \(Settings.maxContactLength) characters, no spaces",
            manualDefault: "none",
            expected: "a contact is an e-mail address (name@example.org) or a web address (https://\u{2026}), up to \(Settings.maxContactLength) characters",
            explanation: { _, _, _ in
                ["An e-mail or web address sent with every request, as Wikimedia asks of programs that use its API, so it can reach you about a problem. Used from the next start; empty removes it."]
            },
            normalize: { Settings.contact($0) },
            read: { settings, text in settings.contact = text.flatMap(Settings.contact) },
            write: { $0.contact },
            shown: { settings, _ in settings.contact ?? "none" },
            removedMessage: "Removed the contact address."),
        .integer(.largeCacheMB, label: "large-image budget", range: Settings.largeCacheMBRange, default: Settings.defaultLargeCacheMB,
                 value: \Settings.largeCacheMB,
                 expected: "the large-image budget must be a whole number of megabytes from \(Settings.largeCacheMBRange.lowerBound) (none stored) to \(Settings.largeCacheMBRange.upperBound)",
                 manualValue: "megabytes of large images kept for the photo view, a whole number \(Settings.largeCacheMBRange.lowerBound)\u{2013}\(Settings.largeCacheMBRange.upperBound); 0 stores none",
                 shown: { $0 == 0 ? "0 MB (none stored)" : "\($0) MB" },
                 explanation: "Megabytes of large photos kept for the photo view (\(Settings.largeCacheMBRange.lowerBound) to \(Settings.largeCacheMBRange.upperBound)); the least recently viewed go first. 0 keeps none: each is fetched again when shown."),
        .integer(.slideshowSeconds, label: "slideshow interval", range: Settings.slideshowSecondsRange,
                 default: Settings.defaultSlideshowSeconds, value: \Settings.slideshowSeconds,
                 expected: "the slideshow interval must be a whole number of seconds from \(Settings.slideshowSecondsRange.lowerBound) to \(Settings.slideshowSecondsRange.upperBound)",
                 manualValue: "seconds a slideshow shows each photo, a whole number \(Settings.slideshowSecondsRange.lowerBound)\u{2013}\(Settings.slideshowSecondsRange.upperBound)",
                 shown: { $0 == 1 ? "1 second" : "\($0) seconds" },
                 explanation: "How long a slideshow shows each photo, in seconds (\(Settings.slideshowSecondsRange.lowerBound) to \(Settings.slideshowSecondsRange.upperBound))."),
        SettingDescriptor(
            key: .caBundle, label: "CA bundle", kind: .path, defaultText: nil, blankRemoves: true,
            variable: EnvironmentVariable.caBundle,
            manualValue: "the path of a readable PEM file of certificate authorities (`~` and relative paths are stored absolute)",
            manualDefault: "none",
            expected: "the CA bundle must be a readable PEM file of certificates (-----BEGIN CERTIFICATE-----)",
            explanation: { _, _, _ in
                ["A PEM file of certificate authorities to trust besides the system's, for a proxy or mirror that signs with its own. Used from the next start; empty removes it."]
            },
            normalize: { Settings.caBundle($0) }, fault: { Settings.caBundleFault($0) },
            read: { settings, text in settings.caBundle = text.flatMap(Settings.caBundle) },
            write: { $0.caBundle },
            shown: { settings, _ in settings.caBundle ?? "none (the system's certificates only)" },
            removedMessage: "Removed the CA bundle: the system's certificates alone are trusted."),
    ], screenOrder: [.flickrAPIKey, .source, .areaHalfWidth, .photosPerCollection, .confirmDelete, .allowDrag,
                     .largeCacheMB, .slideshowSeconds, .contact, .caBundle])
}

/// The keys the settings' explanations name, as the key tables of the screens say them.
public struct SettingsKeyNames: Sendable {
    /// The settings screen's key that changes the selected setting.
    public var change: String
    /// The settings screen's key that tests the Flickr key.
    public var testKey: String
    /// The map's key that picks a pin up.
    public var pickUp: String
    public init(change: String, testKey: String, pickUp: String) {
        self.change = change
        self.testKey = testKey
        self.pickUp = pickUp
    }
}

/// The environment variables that override settings (SPEC 5).
public enum EnvironmentVariable {
    public static let flickrAPIKey = "FLICKR_API_KEY"
    public static let source = "VTOURIST_SOURCE"
    public static let caBundle = "VTOURIST_CA_BUNDLE"
}
