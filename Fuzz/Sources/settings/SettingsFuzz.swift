import FuzzSupport
import Model

/// Text as a stored setting (a store written by a newer version, edited by hand, damaged) or as
/// typed on the settings screen: the first byte picks the setting, the second is the text's length
/// (modulo 301), the text follows; the next byte picks a setting to remove from the store. A valid
/// value reads back as itself; the key and the contact, sent in requests, hold no space or control;
/// every message is free of control characters; nothing traps. Then the same value goes into a
/// real store and is read back (`SettingsStore`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let key = SettingCatalog.standard.keys[input.int(in: 0...(SettingCatalog.standard.keys.count - 1))]
    let text = input.text(maxLength: 300)

    if let normal = Settings.normalized(key, text) {
        FuzzCheck.that(Settings.normalized(key, normal) == normal, "\(key) \(text.debugDescription) → \(normal.debugDescription) is not stable")
        FuzzCheck.that(Settings.problem(key, text) == nil, "\(key) \(text.debugDescription) is valid and has a problem")
        if key == .flickrAPIKey || key == .contact {
            FuzzCheck.that(!normal.unicodeScalars.contains { $0.value <= 0x20 || $0.value >= 0x7F },
                           "\(key) \(normal.debugDescription) would go into a request as it is")
        }
    } else {
        FuzzCheck.that(Settings.problem(key, text) != nil, "\(key) \(text.debugDescription) is refused without a reason")
    }
    noControls(Settings.problem(key, text) ?? "", "the problem")
    noControls(Settings.shown(text, secret: SettingCatalog.standard[key].isSecret), "the value shown")
    if key == .flickrAPIKey, !text.isEmpty {
        // A key is never shown in full.
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        FuzzCheck.that(trimmed.count < 5 || !Settings.shown(text, secret: SettingCatalog.standard[key].isSecret).contains(trimmed), "the key is shown")
    }

    Acceptance.note(Settings.normalized(key, text) != nil)
    SettingsStore.check(key, text, removing: SettingCatalog.standard.keys[input.int(in: 0...(SettingCatalog.standard.keys.count - 1))])

    let (settings, problems) = Settings.read(stored: [key: text])
    for problem in problems { noControls(problem, "a stored setting's message") }
    for (storedKey, value) in settings.storedTexts {
        if let value {
            FuzzCheck.that(Settings.normalized(storedKey, value) == value, "\(storedKey) stored as \(value.debugDescription) does not read back")
        }
    }
    return 0
}

/// C0 and C1 controls: what would move the cursor or start an escape sequence.
func noControls(_ text: String, _ what: String) {
    FuzzCheck.that(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
                   "\(what) holds a control: \(text.debugDescription)")
}
