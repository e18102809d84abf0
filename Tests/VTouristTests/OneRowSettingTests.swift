import Foundation
import Geo
import Model
import Store
import Terminal
@testable import TouristCore
@testable import vtourist
import XCTest

/// A setting is one row of the catalog. A setting that only this test has, added with one line, is
/// on the settings screen and saved from it, listed and checked by `config`, overridden by its
/// variable, checked and kept by the store, and in the manual's table: nothing else was written for it.
final class OneRowSettingTests: XCTestCase {
    static let level = SettingKey("test_level")
    /// The one line.
    static let catalog = SettingCatalog.standard.adding(
        .integer(level, label: "test level", range: 1...9, default: 5, variable: "VTOURIST_TEST_LEVEL",
                 explanation: "How hard the test tries (1 to 9)."))

    func state() -> AppState {
        var state = AppState(camera: MapCamera(centerX: 0.5, centerY: 0.5, zoom: 3, cursorX: 0.5, cursorY: 0.5),
                             width: 80, height: 30)
        state.settings = Settings(stored: [:], catalog: Self.catalog)
        return state
    }

    func testItIsARowOfTheSettingsScreenAndIsSavedFromIt() throws {
        let reducer = AppReducer(places: .none)
        var s = state()
        _ = reducer.reduce(&s, .event(.key(.char("s")), time: 0))
        var text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.contains(" " + "Test level".padding(toLength: SettingsView.labelWidth, withPad: " ", startingAt: 0) + "5"), text)
        // The last row: move down to it, and its explanation is shown.
        for _ in Self.catalog.screenOrder.dropLast() { _ = reducer.reduce(&s, .event(.key(.down), time: 0)) }
        text = AppView.render(s, raster: nil).text
        XCTAssertTrue(text.contains("How hard the test tries (1 to 9)."), text)
        // Enter types into it from its value; a number out of range is refused with the range.
        _ = reducer.reduce(&s, .event(.key(.enter), time: 0))
        for key in [Key.backspace, .char("1"), .char("2"), .enter] { _ = reducer.reduce(&s, .event(.key(key), time: 0)) }
        XCTAssertEqual(s.message?.text, "Not saved: test level must be a whole number from 1 to 9.")
        XCTAssertEqual(s.settings.storedText(Self.level), "5")
        for key in [Key.backspace, .backspace, .char("7")] { _ = reducer.reduce(&s, .event(.key(key), time: 0)) }
        let effects = reducer.reduce(&s, .event(.key(.enter), time: 0))
        XCTAssertEqual(effects, [.saveSetting(Self.level, "7")])
        XCTAssertEqual(s.settings.storedText(Self.level), "7")
        XCTAssertEqual(s.savedMessage(Self.level), "Saved: test level 7.")
    }

    func testConfigListsItChecksItAndItsVariableOverridesIt() throws {
        let stored = ConfigReport(stored: [Self.level: "7"], environment: [:], catalog: Self.catalog)
        XCTAssertEqual(stored.entries.last, ConfigEntry(key: Self.level, value: "7", origin: .database))
        XCTAssertTrue(stored.table.contains("test_level"), stored.table)
        XCTAssertEqual(ConfigReport(stored: [:], environment: [:], catalog: Self.catalog).entry(Self.level),
                       ConfigEntry(key: Self.level, value: "5", origin: .default))
        let overridden = ConfigReport(stored: [Self.level: "7"], environment: ["VTOURIST_TEST_LEVEL": "3"], catalog: Self.catalog)
        XCTAssertEqual(overridden.entry(Self.level),
                       ConfigEntry(key: Self.level, value: "3", origin: .environment, variable: "VTOURIST_TEST_LEVEL"))
        let ignored = ConfigReport(stored: [Self.level: "70"], environment: ["VTOURIST_TEST_LEVEL": "0"], catalog: Self.catalog)
        XCTAssertEqual(ignored.problems, [
            "The stored test level \u{201C}70\u{201D} was ignored: test level must be a whole number from 1 to 9.",
            "VTOURIST_TEST_LEVEL \u{201C}0\u{201D} was ignored: test level must be a whole number from 1 to 9.",
        ])
        XCTAssertEqual(ignored.entry(Self.level).value, "5")

        XCTAssertEqual(Self.catalog.key(named: "Test-Level"), Self.level)
        XCTAssertNil(SettingCatalog.standard.key(named: "test_level"), "the product has no such setting")
        XCTAssertEqual(ConfigReport.valueToStore(Self.level, " 8 ", catalog: Self.catalog), .success("8"))
        XCTAssertEqual(ConfigReport.valueToStore(Self.level, "10", catalog: Self.catalog),
                       .failure(ConfigRefusal("cannot set test_level to \u{201C}10\u{201D}: test level must be a whole number from 1 to 9")))
        XCTAssertTrue(ConfigReport.unknownName("colour", catalog: Self.catalog).hasSuffix(", ca_bundle, test_level"))
    }

    func testTheStoreChecksAndKeepsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-row-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try AppDatabase.open(path: folder.appendingPathComponent("vtourist.sqlite").path)
        defer { try? store.close() }
        XCTAssertThrowsError(try store.saveSetting(Self.level, "0", catalog: Self.catalog))
        try store.saveSetting(Self.level, "9", catalog: Self.catalog)
        XCTAssertEqual(try store.storedSettingTexts(catalog: Self.catalog)[Self.level], "9")
        XCTAssertEqual(try store.settings(catalog: Self.catalog).storedText(Self.level), "9")
        XCTAssertNil(try store.storedSettingTexts()[Self.level], "read only where the catalog has it")
    }

    func testTheManualsTableListsIt() {
        XCTAssertTrue(Self.catalog.manualTable.hasSuffix("| `test_level` | a whole number, 1\u{2013}9 | 5 |\n"),
                      Self.catalog.manualTable)
    }

    /// The manual's table of the product's settings is the catalog's.
    func testTheManualsSettingsTableIsMadeFromTheCatalog() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let manual = try String(contentsOf: root.appendingPathComponent("docs/manual.md"), encoding: .utf8)
        let table = SettingCatalog.standard.manualTable
        XCTAssertTrue(manual.contains("\n\n" + table + "\n"),
                      "docs/manual.md's settings table is not the catalog's (Sources/Model/SettingCatalog.swift); it should read:\n\(table)")
    }
}
