import Foundation
import Model
import Terminal
import TestSupport
@testable import TouristCore
import XCTest

/// The settings screen: every field's validation, the key kept secret, the environment's overrides.
final class SettingsScreenTests: XCTestCase {
    let reducer = AppReducer(places: .none)

    func settingsState() -> AppState {
        var s = Sample.mapState()
        _ = reducer.reduce(&s, .event(.key(.char("s")), time: 0))
        return s
    }

    @discardableResult
    func press(_ s: inout AppState, _ keys: Key...) -> [AppEffect] {
        keys.flatMap { reducer.reduce(&s, .event(.key($0), time: 0)) }
    }

    func type(_ s: inout AppState, _ text: String) {
        for c in text { _ = reducer.reduce(&s, .event(.key(.char(c)), time: 0)) }
    }

    func select(_ s: inout AppState, _ key: SettingKey) {
        guard case var .settings(screen) = s.screen else { return XCTFail("no settings screen") }
        screen.selected = SettingCatalog.standard.screenOrder.firstIndex(of: key) ?? 0
        s.screen = .settings(screen)
    }

    func testANumberIsCheckedAtTheFieldAndSavedAtOnce() {
        var s = settingsState()
        select(&s, .photosPerCollection)
        press(&s, .enter)
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertEqual(screen.editing?.text, "21", "editing starts from the value")
        press(&s, .backspace, .backspace)
        for bad in ["0", "61", "abc", "2.5", " "] {
            type(&s, bad)
            XCTAssertEqual(press(&s, .enter), [], bad)
            XCTAssertEqual(s.message?.kind, .error, bad)
            XCTAssertTrue(s.message?.text.contains("from 1 to 60") == true, s.message?.text ?? "")
            XCTAssertEqual(s.settings.photosPerCollection, 21, "nothing changed")
            for _ in bad { press(&s, .backspace) }
        }
        type(&s, "12")
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.photosPerCollection, "12")], "that setting alone is saved")
        XCTAssertEqual(s.settings.photosPerCollection, 12)
        XCTAssertEqual(s.message, StatusMessage("Saving photos per collection\u{2026}"), "said saved only once the store has it")
        _ = reducer.reduce(&s, .settingSaved(.photosPerCollection))
        XCTAssertEqual(s.message, StatusMessage("Saved: photos per collection 12."))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Photos per collection   12"))
    }

    func testTheLargeImageBudgetAndTheSlideshowIntervalAreNumbersInTheirRanges() {
        var s = settingsState()
        select(&s, .largeCacheMB)
        press(&s, .enter)
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertEqual(screen.editing?.text, "256", "editing starts from the value")
        press(&s, .backspace, .backspace, .backspace)
        for bad in ["-1", "4097", "1.5", "lots"] {
            type(&s, bad)
            XCTAssertEqual(press(&s, .enter), [], bad)
            XCTAssertTrue(s.message?.text.contains("from 0 (none stored) to 4096") == true, s.message?.text ?? "")
            XCTAssertEqual(s.settings.largeCacheMB, 256, "nothing changed")
            for _ in bad { press(&s, .backspace) }
        }
        type(&s, "0")
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.largeCacheMB, "0")])
        XCTAssertEqual(s.settings.largeCacheBytes, 0)
        _ = reducer.reduce(&s, .settingSaved(.largeCacheMB))
        XCTAssertEqual(s.message, StatusMessage("Saved: large-image budget 0 MB (none stored)."))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Large-image budget      0 MB (none stored)"))

        select(&s, .slideshowSeconds)
        press(&s, .enter)
        press(&s, .backspace)
        for bad in ["0", "61", "2.5"] {
            type(&s, bad)
            XCTAssertEqual(press(&s, .enter), [], bad)
            XCTAssertTrue(s.message?.text.contains("from 1 to 60") == true, s.message?.text ?? "")
            XCTAssertEqual(s.settings.slideshowSeconds, 4, "nothing changed")
            for _ in bad { press(&s, .backspace) }
        }
        type(&s, "1")
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.slideshowSeconds, "1")])
        _ = reducer.reduce(&s, .settingSaved(.slideshowSeconds))
        XCTAssertEqual(s.message, StatusMessage("Saved: slideshow interval 1 second."))
        XCTAssertEqual(s.settings.slideshowSeconds, 1)
    }

    func testTheAreaTakesDegreesInItsRange() {
        var s = settingsState()
        select(&s, .areaHalfWidth)
        press(&s, .enter)
        press(&s, .backspace, .backspace, .backspace)
        type(&s, "1.5")
        XCTAssertEqual(press(&s, .enter), [])
        XCTAssertTrue(s.message?.text.contains("0.1 to 1.0") == true, s.message?.text ?? "")
        press(&s, .backspace, .backspace, .backspace)
        type(&s, "0.25")
        XCTAssertEqual(press(&s, .enter).count, 1)
        XCTAssertEqual(s.settings.areaHalfWidth, 0.25)
    }

    func testTheKeyIsTypedMaskedTrimmedAndNeverShown() {
        var s = settingsState()
        press(&s, .enter)
        type(&s, "  0123456789abcdef0123456789abcdef\n")  // pasted with spaces; the newline is a control character
        var text = AppView.render(s, raster: nil).text
        XCTAssertFalse(text.contains("0123456789abcdef"), "the key is masked while typed")
        XCTAssertTrue(text.contains("\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}cdef"), text)
        XCTAssertEqual(press(&s, .enter).count, 1)
        XCTAssertEqual(s.settings.flickrAPIKey, "0123456789abcdef0123456789abcdef")
        text = AppView.render(s, raster: nil).text
        XCTAssertFalse(text.contains("0123456789abcdef"), text)
        XCTAssertFalse(s.message?.text.contains("0123456789") ?? false, "the message masks it too")

        // A malformed key: refused, and not repeated in the message.
        press(&s, .enter)
        type(&s, "not a key!")
        XCTAssertEqual(press(&s, .enter), [])
        XCTAssertEqual(s.message?.kind, .error)
        XCTAssertFalse(s.message?.text.contains("not a key") ?? true)
        // Empty removes the key.
        press(&s, .escape, .enter, .enter)
        XCTAssertNil(s.settings.flickrAPIKey)
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("No Flickr key is set."))
    }

    func testARefusedKeyIsClearedFromTheFieldAndTheMessageSaysSo() {
        var s = settingsState()
        press(&s, .enter)
        // A key pasted with a stray character: refused, and masked it could not be seen to be fixed.
        _ = reducer.reduce(&s, .event(.paste("key:0123456789abcdef0123456789abcdef"), time: 0))
        XCTAssertEqual(press(&s, .enter), [])
        XCTAssertEqual(s.message?.kind, .error)
        XCTAssertEqual(s.message?.text, "Not saved: an API key is 1 to 128 letters, digits, - or _; this one has \u{201C}:\u{201D} in it."
                       + " The field is cleared: type the key again.")
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertEqual(screen.editing?.text, "", "still typing, into an empty field")
        XCTAssertFalse(AppView.render(s, raster: nil).text.contains("\u{2022}"), "no masked leftover")
        XCTAssertNil(s.settings.flickrAPIKey, "nothing stored")
        // The right key typed now is the key, not the refused text with it.
        type(&s, "0123456789abcdef0123456789abcdef")
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.flickrAPIKey, "0123456789abcdef0123456789abcdef")])
        XCTAssertEqual(s.settings.flickrAPIKey, "0123456789abcdef0123456789abcdef")
        // Another field keeps its refused text, shown plainly, to be corrected.
        select(&s, .photosPerCollection)
        press(&s, .enter, .backspace, .backspace)
        type(&s, "99")
        XCTAssertEqual(press(&s, .enter), [])
        guard case let .settings(other) = s.screen else { return XCTFail() }
        XCTAssertEqual(other.editing?.text, "99")
        XCTAssertFalse(s.message?.text.contains("cleared") ?? true)
    }

    func testAfterAFailedKeyTestEditingStartsFromAnEmptyField() {
        var s = settingsState()
        s.settings.flickrAPIKey = "0123456789abcdef0123456789abcdef"
        press(&s, .char("t"))
        _ = reducer.reduce(&s, .message(StatusMessage("The Flickr key does not work: Flickr refused the API key (100: Invalid API Key).",
                                                      kind: .error)))
        press(&s, .enter)
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertEqual(screen.editing?.text, "", "the stored key is never put in the field to be typed onto")
        type(&s, "fedcba9876543210fedcba9876543210")
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.flickrAPIKey, "fedcba9876543210fedcba9876543210")])
    }

    func testAPasteOfTenThousandCharactersStopsAtTheFieldsLimit() {
        var s = settingsState()
        press(&s, .enter)
        type(&s, String(repeating: "a", count: 10_000))
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertEqual(screen.editing?.characters.count, SettingsScreen.maxText)
        XCTAssertEqual(s.message?.text, "At most 256 characters.")
        XCTAssertEqual(press(&s, .enter), [], "256 characters is no key either")
    }

    func testAValueIsEditedAtTheCursorAndAPasteIsOneEdit() {
        var s = settingsState()
        select(&s, .areaHalfWidth)
        press(&s, .enter, .left)
        _ = reducer.reduce(&s, .event(.paste("2"), time: 0))
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertEqual(screen.editing?.text, "0.25")
        XCTAssertEqual(screen.editing?.cursor, 3)
        XCTAssertEqual(press(&s, .enter).count, 1)
        XCTAssertEqual(s.settings.areaHalfWidth, 0.25)
        // Home and Ctrl-K: the number typed anew.
        select(&s, .photosPerCollection)
        press(&s, .enter, .home, .control("k"))
        type(&s, "30")
        XCTAssertEqual(press(&s, .enter).count, 1)
        XCTAssertEqual(s.settings.photosPerCollection, 30)
    }

    func testAPastedKeyIsCleanedTrimmedAndMasked() {
        var s = settingsState()
        press(&s, .enter)
        _ = reducer.reduce(&s, .event(.paste("  0123456789abcdef\u{1B}[31m0123456789abcdef\r\n"), time: 0))
        let text = AppView.render(s, raster: nil).text
        XCTAssertFalse(text.contains("0123"), text)
        XCTAssertTrue(text.contains("\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}cdef"), text)
        XCTAssertEqual(press(&s, .enter).count, 1)
        XCTAssertEqual(s.settings.flickrAPIKey, "0123456789abcdef0123456789abcdef")
    }

    func testAPasteStopsAtTheLimitWithAMessageAndOutsideAFieldDoesNothing() {
        var s = settingsState()
        let idle = s
        XCTAssertEqual(reducer.reduce(&s, .event(.paste("0123456789abcdef"), time: 0)), [])
        XCTAssertEqual(s, idle, "no field is being typed into")
        press(&s, .enter)
        _ = reducer.reduce(&s, .event(.paste(String(repeating: "a", count: 10_000)), time: 0))
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertEqual(screen.editing?.characters.count, SettingsScreen.maxText)
        XCTAssertEqual(s.message, StatusMessage("At most 256 characters.", kind: .error))
    }

    func testTogglesAndTheSourceChangeWithEnter() {
        var s = settingsState()
        select(&s, .confirmDelete)
        XCTAssertEqual(press(&s, .enter).count, 1)
        XCTAssertFalse(s.settings.confirmDelete)
        select(&s, .allowDrag)
        press(&s, .enter)
        XCTAssertFalse(s.settings.allowDrag)
        select(&s, .source)
        press(&s, .enter)
        XCTAssertEqual(s.settings.source, .flickr)
        press(&s, .enter)
        XCTAssertEqual(s.settings.source, .commons)
        press(&s, .enter)
        XCTAssertNil(s.settings.source, "back to automatic")
    }

    func testASettingTheEnvironmentDecidesIsShownAsSuchAndNotEdited() {
        var s = settingsState()
        s.settingOverrides = [.flickrAPIKey: "FLICKR_API_KEY"]
        XCTAssertEqual(press(&s, .enter), [])
        XCTAssertTrue(s.message?.text.contains("FLICKR_API_KEY") == true)
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertNil(screen.editing)
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("set by FLICKR_API_KEY"))
    }

    func testEachChangeSavesThatSettingAloneAndTheStoresAnswerIsShown() {
        var s = settingsState()
        select(&s, .confirmDelete)
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.confirmDelete, "off")])
        select(&s, .allowDrag)
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.allowDrag, "off")])
        // Another process changed a setting: the screen shows what the store has.
        var elsewhere = s.settings
        elsewhere.photosPerCollection = 12
        _ = reducer.reduce(&s, .settingsLoaded(elsewhere))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Photos per collection   12"))
    }

    func testTheMessageSaysWhatTheRowShows() {
        var s = settingsState()
        s.settingOverrides = [.flickrAPIKey: "FLICKR_API_KEY"]
        select(&s, .source)
        // Chosen: Flickr, Wikimedia Commons, then automatic again, which the environment's key makes Flickr.
        for expected in ["Flickr", "Wikimedia Commons", "automatic: Flickr"] {
            XCTAssertEqual(press(&s, .enter).count, 1)
            _ = reducer.reduce(&s, .settingSaved(.source))
            XCTAssertEqual(s.message, StatusMessage("Saved: photo source \(expected)."))
            let row = AppView.render(s, raster: nil).text.split(separator: "\n").first { $0.contains("Photo source") }
            XCTAssertTrue(row?.hasSuffix(expected) == true || row?.contains(expected + " ") == true, String(row ?? ""))
            XCTAssertEqual(s.shownSetting(.source), expected)
        }
    }

    func testRemovingTheKeySaysItWasRemoved() {
        var s = settingsState()
        s.settings.flickrAPIKey = "0123456789abcdef0123456789abcdef"
        press(&s, .enter)
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.flickrAPIKey, nil)], "an empty field removes the key")
        XCTAssertNil(s.settings.flickrAPIKey)
        _ = reducer.reduce(&s, .settingSaved(.flickrAPIKey))
        XCTAssertEqual(s.message, StatusMessage("Removed the Flickr API key."))
    }

    func testTestKeyAsksTheRuntimeAndEscLeaves() {
        var s = settingsState()
        XCTAssertEqual(press(&s, .char("t")), [.testFlickrKey(s.settings)])
        XCTAssertEqual(s.message?.text, "Testing the Flickr key\u{2026}")
        press(&s, .escape)
        XCTAssertEqual(s.screen, .map(MapScreen()))
    }

    func testAResizeWhileOpenKeepsTheScreenAndWhatIsTyped() {
        var s = settingsState()
        select(&s, .photosPerCollection)
        press(&s, .enter)
        type(&s, "5")
        _ = reducer.reduce(&s, .event(.resize(width: 40, height: 12), time: 0))
        guard case let .settings(screen) = s.screen else { return XCTFail() }
        XCTAssertEqual(screen.editing?.text, "215")
        let small = AppView.render(s, raster: nil)
        XCTAssertTrue(small.text.contains("Settings"), small.text)
    }

    func testAnExplanationTallerThanItsRoomEndsInAnEllipsis() {
        var s = settingsState()
        select(&s, .flickrAPIKey)
        let whole = AppView.render(s, raster: nil).text
        XCTAssertTrue(whole.contains("one search."), "at 80x24 it is whole: \(whole)")
        XCTAssertFalse(whole.contains("\u{2026}"), whole)
        // Room for two of its lines below the ten settings.
        _ = reducer.reduce(&s, .event(.resize(width: 40, height: 17), time: 0))
        let small = AppView.render(s, raster: nil)
        let rows = (0..<small.height).map { small.rowText($0).trimmingCharacters(in: .whitespaces) }
        let first = rows.firstIndex { $0.hasPrefix("No Flickr key is set.") }
        let cut = rows.lastIndex { $0.hasSuffix("\u{2026}") }
        XCTAssertNotNil(first, small.text)
        XCTAssertNotNil(cut, "the last line shown of it is cut with an ellipsis: \(small.text)")
        XCTAssertGreaterThan(cut ?? 0, first ?? .max, small.text)
        XCTAssertFalse(small.text.contains("one search."), small.text)
    }

    // MARK: - CA bundle

    /// A folder of files for the CA bundle: a PEM one, a folder, one of other text.
    func caFiles() throws -> (pem: String, folder: String, notPEM: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addCleanup { try? FileManager.default.removeItem(at: folder) }
        let pem = folder.appendingPathComponent("corp.pem")
        try FileManager.default.copyItem(atPath: TestCertificates.authority, toPath: pem.path)
        let text = folder.appendingPathComponent("notes.txt")
        try Data("not a certificate\n".utf8).write(to: text)
        return (pem.path, folder.path, text.path)
    }

    func testACABundleIsAReadablePEMFileAndEveryOtherPathIsRefusedNamingIt() throws {
        let files = try caFiles()
        var s = settingsState()
        select(&s, .caBundle)
        let row = try XCTUnwrap((0..<24).map { AppView.render(s, raster: nil).rowText($0) }.first { $0.contains("CA bundle") })
        XCTAssertTrue(row.contains("none (the system's certificates only)"), row)
        press(&s, .enter)
        let refusals = [("/nonexistent/corp.pem", "there is no file \u{201C}/nonexistent/corp.pem\u{201D}"),
                        (files.folder, "\u{201C}\(files.folder)\u{201D} is a folder"),
                        (files.notPEM, "\u{201C}\(files.notPEM)\u{201D} has no PEM certificate in it")]
        for (bad, reason) in refusals {
            s.screen = .settings(SettingsScreen(selected: SettingCatalog.standard.screenOrder.firstIndex(of: .caBundle) ?? 0,
                                                editing: SettingsScreen.textField(bad)))
            XCTAssertEqual(press(&s, .enter), [], bad)
            XCTAssertEqual(s.message?.kind, .error, bad)
            XCTAssertEqual(s.message?.text, "Not saved: the CA bundle must be a readable PEM file of certificates "
                           + "(-----BEGIN CERTIFICATE-----); \(reason).")
            XCTAssertNil(s.settings.caBundle, "nothing changed")
            XCTAssertNotNil(s.settingsScreen?.editing, "the field stays to be mended")
        }
        s.screen = .settings(SettingsScreen(selected: SettingCatalog.standard.screenOrder.firstIndex(of: .caBundle) ?? 0,
                                            editing: SettingsScreen.textField(" \(files.pem) ")))
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.caBundle, files.pem)], "that setting alone is saved, trimmed")
        XCTAssertEqual(s.settings.caBundle, files.pem)
        _ = reducer.reduce(&s, .settingSaved(.caBundle))
        XCTAssertEqual(s.message, StatusMessage("Saved: CA bundle \(files.pem)."))
        // Editing starts from the path; an empty field removes it.
        press(&s, .enter)
        XCTAssertEqual(s.settingsScreen?.editing?.text, files.pem)
        for _ in files.pem { press(&s, .backspace) }
        XCTAssertEqual(press(&s, .enter), [.saveSetting(.caBundle, nil)])
        XCTAssertNil(s.settings.caBundle)
        _ = reducer.reduce(&s, .settingSaved(.caBundle))
        XCTAssertEqual(s.message?.text, "Removed the CA bundle: the system's certificates alone are trusted.")
    }

    func testALongCABundlePathIsCutInItsRowAndTheScreenStaysWhole() throws {
        var s = settingsState()
        s.settings.caBundle = "/" + String(repeating: "certificates/", count: 10) + "corp.pem"
        select(&s, .caBundle)
        let screen = AppView.render(s, raster: nil)
        let rows = (0..<screen.height).map(screen.rowText)
        let row = try XCTUnwrap(rows.first { $0.contains("CA bundle") })
        XCTAssertEqual(row.count, 80)
        XCTAssertTrue(row.trimmingCharacters(in: .whitespaces).hasSuffix("\u{2026}"), row)
        XCTAssertTrue(screen.text.contains("besides the system's"), "its explanation: \(screen.text)")
        // Every setting has its row at 80x24, the last (the CA bundle) included.
        for field in SettingCatalog.standard.screenOrder { XCTAssertTrue(rows.contains { $0.contains(SettingCatalog.standard[field].title) }, SettingCatalog.standard[field].title) }
    }

    func testOnTheShortestTerminalTheSelectedSettingIsAlwaysShown() {
        var s = settingsState()
        _ = reducer.reduce(&s, .event(.resize(width: AppState.minimumWidth, height: AppState.minimumHeight), time: 0))
        for (i, field) in SettingCatalog.standard.screenOrder.enumerated() {
            select(&s, field)
            let screen = AppView.render(s, raster: nil)
            let rows = (0..<screen.height).map(screen.rowText)
            XCTAssertTrue(rows.contains { $0.hasPrefix(" " + SettingCatalog.standard[field].title) }, "\(SettingCatalog.standard[field].title) selected:\n\(screen.text)")
            XCTAssertTrue(rows[0].hasPrefix(" Settings"), "the title stays")
            if i == 0 { XCTAssertTrue(rows[2].hasPrefix(" " + SettingCatalog.standard[field].title), "the first setting on the first row") }
        }
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(AppState.minimumHeight - 3).hasPrefix(" CA bundle"),
                      "the last setting on the last row")
    }

    func testACABundleFromTheEnvironmentIsShownAndNotChangedHere() {
        var s = settingsState()
        s.settingOverrides = [.caBundle: "VTOURIST_CA_BUNDLE"]
        select(&s, .caBundle)
        XCTAssertEqual(press(&s, .enter), [])
        XCTAssertNil(s.settingsScreen?.editing)
        XCTAssertEqual(s.message, StatusMessage("CA bundle comes from VTOURIST_CA_BUNDLE in the environment: change it there.",
                                                kind: .error))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("set by VTOURIST_CA_BUNDLE"))
    }
}
