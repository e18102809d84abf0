import AlbumMachine
import Terminal
@testable import TouristCore
import Geo
import Model
import XCTest

/// Every key a terminal can send us, for trying each one on each screen.
let everyKey: [Key] = {
    var keys: [Key] = (0x20...0x7E).compactMap { Unicode.Scalar($0).map { .char(Character($0)) } }
    keys += [.char("é"), .up, .down, .left, .right, .shiftUp, .shiftDown, .shiftLeft, .shiftRight,
             .enter, .escape, .backspace, .delete, .tab, .backTab, .home, .end, .pageUp, .pageDown]
    keys += (1...12).map { .function($0) }
    keys += "abcdefghijklmnopqrstuvwxyz".map { .control($0) }
    return keys
}()

/// Help must list exactly the keys a screen handles: each screen's help is
/// read back from the rendered overlay and every key is pressed.
final class KeyTableTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)
    let naples = Sample.naples
    func mapState() -> AppState { Sample.mapState() }
    func albumState() -> AppState { Sample.albumState() }
    func photoState() -> AppState { Sample.photoState() }

    func press(_ key: Key, in state: AppState) -> (AppState, [AppEffect]) {
        var s = state
        let effects = reducer.reduce(&s, .event(.key(key), time: 0))
        return (s, effects)
    }

    /// Whether a key did anything at all, or anything beyond writing on the message line.
    func acts(_ key: Key, in state: AppState, beyondTheMessage: Bool) -> Bool {
        let (after, effects) = press(key, in: state)
        var compared = after
        if beyondTheMessage { compared.message = state.message }
        return compared != state || !effects.isEmpty
    }

    /// The keys the help overlay lists, read back from the rendered screen.
    func keysInHelp(over state: AppState, file: StaticString = #filePath, line: UInt = #line) -> Set<Key> {
        var s = state
        s.overlay = .help
        // Tall enough for every line at once: the help scrolls where the screen is shorter.
        s.height = max(s.height, 120)
        let buffer = AppView.render(s, raster: nil)
        let rows = (0..<buffer.height).map { Array(buffer.rowText($0)) }
        guard let top = rows.firstIndex(where: { String($0).contains("\u{250C} Keys") }),
              let left = rows[top].firstIndex(of: "\u{250C}") else {
            XCTFail("no help panel", file: file, line: line)
            return []
        }
        let names = Dictionary(everyKey.map { ($0.name(), $0) }, uniquingKeysWith: { a, _ in a })
        var keys: Set<Key> = []
        for row in rows[(top + 1)...] {
            var text = String(row[(left + 2)..<min(row.count, left + 2 + 22)])
            let whole = String(row[(left + 2)..<max(left + 2, row.count - 1)])
            // The keys end at a blank line (a legend or the closing line follows) or the frame.
            if whole.allSatisfy({ $0 == " " || $0 == "\u{2502}" }) || text.hasPrefix("Any key closes") || text.hasPrefix("\u{2500}") { break }
            // A row's words wrapped onto the next line: no keys there.
            if text.allSatisfy({ $0 == " " }) { continue }
            // `  /  ` only ever separates groups (`+ =  /  -`); a `/` key stands alone (`g  /`).
            while text.hasSuffix(" ") { text.removeLast() }
            text = text.replacingOccurrences(of: "  /  ", with: "  ")
            for token in text.split(separator: " ").map(String.init) {
                switch token {
                case "arrows": keys.formUnion([.left, .right, .up, .down])
                case "shift+arrows": keys.formUnion([.shiftLeft, .shiftRight, .shiftUp, .shiftDown])
                case "\u{2191}\u{2193}": keys.formUnion([.up, .down])
                case "mouse", "typing": break  // a note, not a key
                default:
                    guard let key = names[token] else {
                        XCTFail("help names an unknown key \u{201C}\(token)\u{201D}", file: file, line: line)
                        continue
                    }
                    keys.insert(key)
                }
            }
        }
        return keys
    }

    /// Help lists a key exactly when pressing it does something beyond a message,
    /// and keys it does not list change nothing at all.
    /// `others`: more states of the same screen, for keys that act only in some (drop off a pin, open on one).
    func assertHelpMatchesKeys(_ state: AppState, others: [AppState] = [], table: Set<Key>,
                               file: StaticString = #filePath, line: UInt = #line) {
        let listed = keysInHelp(over: state, file: file, line: line)
        XCTAssertEqual(listed, table, "help and key table differ", file: file, line: line)
        let states = [state] + others
        for key in everyKey {
            if listed.contains(key) {
                XCTAssertTrue(states.contains { acts(key, in: $0, beyondTheMessage: true) }, "help lists \(key) but it does nothing",
                              file: file, line: line)
            } else {
                XCTAssertFalse(states.contains { acts(key, in: $0, beyondTheMessage: false) }, "\(key) is not in help but acts",
                               file: file, line: line)
            }
        }
    }

    func testMapHelpListsExactlyTheKeysTheMapHandles() {
        var offPins = mapState()
        offPins.camera.moveCursor(dx: 5, dy: 3, width: offPins.width, height: offPins.mapHeight)
        XCTAssertNil(offPins.pinUnderCursor)
        assertHelpMatchesKeys(mapState(), others: [offPins], table: Set(MapKeys.browsing.keys))
    }

    func testAlbumHelpListsExactlyTheKeysTheAlbumHandles() {
        var filtered = albumState()
        filtered.updateAlbum { $0.snapshot?.filter = AlbumFilter(text: "food") }  // F has a filter to clear
        assertHelpMatchesKeys(albumState(), others: [filtered], table: Set(AlbumKeys.table.keys))
    }

    /// The photo zoomed in once: its own table (the arrows pan).
    func zoomedPhotoState() -> AppState {
        let (zoomed, _) = press(.char("+"), in: photoState())
        XCTAssertEqual(zoomed.photo?.zoom.level, 1)
        return zoomed
    }

    func testPhotoHelpListsExactlyTheKeysThePhotoScreenHandles() {
        assertHelpMatchesKeys(photoState(), table: Set(PhotoKeys.table.keys))
    }

    func testZoomedPhotoHelpListsExactlyTheKeysItHandles() {
        assertHelpMatchesKeys(zoomedPhotoState(), table: Set(PhotoKeys.zoomed.keys))
        let help = AppView.render({ var s = zoomedPhotoState(); s.overlay = .help; return s }(), raster: nil).text
        XCTAssertTrue(help.contains("pan the zoomed photo"), help)
        XCTAssertTrue(help.contains("the wheel zooms at the pointer"), help)
    }

    /// Bug 3: help offered `s settings` before the screen existed; now `s` opens it and help says so.
    func testSOpensTheSettingsAndHelpSaysSo() {
        let state = mapState()
        XCTAssertTrue(keysInHelp(over: state).contains(.char("s")))
        let (after, effects) = press(.char("s"), in: state)
        XCTAssertEqual(after.screen, .settings(SettingsScreen()))
        XCTAssertEqual(effects, [])
    }

    func testSettingsHelpListsExactlyTheKeysTheSettingsScreenHandles() {
        var state = mapState()
        state.screen = .settings(SettingsScreen(selected: 1))  // room to move both ways
        assertHelpMatchesKeys(state, table: Set(SettingsKeys.table.keys))
    }

    func testMovingAPinHandlesItsTableAndNothingElse() {
        var state = mapState()
        state.screen = .map(MapScreen(mode: .dragging(pin: 1, from: naples)))
        state.camera.moveCursor(dx: 2, dy: 0, width: state.width, height: state.mapHeight)
        let table = Set(MapKeys.dragging.keys)
        for key in everyKey {
            XCTAssertEqual(acts(key, in: state, beyondTheMessage: false), table.contains(key), "\(key)")
        }
    }

    func testDeleteDialogHandlesItsTableAndNothingElse() {
        var state = mapState()
        state.screen = .map(MapScreen(mode: .confirmDelete(pin: 1)))
        let table = Set(ConfirmKeys.table.keys)
        for key in everyKey {
            XCTAssertEqual(acts(key, in: state, beyondTheMessage: true), table.contains(key), "\(key)")
        }
    }

    func testGoToPromptHandlesItsTableAndTypesEveryCharacter() {
        var state = mapState()
        let suggestions = [testPlaces.named("Naples"), testPlaces.named("Rome")].compactMap { $0 }
        // The cursor inside the text, so every editing key has something to do.
        var prompt = GoToPrompt(text: "xy", suggestions: suggestions, selected: 0)
        XCTAssertEqual(prompt.field.apply(.left), .moved)
        state.screen = .map(MapScreen(mode: .goTo(prompt)))
        let table = Set(GoToKeys.table.keys)
        for key in everyKey {
            if case .char = key {
                XCTAssertFalse(table.contains(key))
                let (after, _) = press(key, in: state)
                guard case let .goTo(prompt)? = after.map?.mode else { return XCTFail("prompt closed by \(key)") }
                XCTAssertEqual(prompt.text.count, 3, "\(key)")
            } else {
                XCTAssertEqual(acts(key, in: state, beyondTheMessage: true), table.contains(key), "\(key)")
            }
        }
    }

    func testASettingBeingTypedHandlesItsTableAndTypesEveryCharacter() {
        var state = mapState()
        var field = SettingsScreen.textField("me@example.org")
        XCTAssertEqual(field.apply(.left), .moved)  // the cursor inside, so every editing key has work
        state.screen = .settings(SettingsScreen(selected: SettingCatalog.standard.screenOrder.firstIndex(of: .contact) ?? 0, editing: field))
        let table = Set(SettingsKeys.editing.keys)
        for key in everyKey {
            let (after, _) = press(key, in: state)
            if case .char = key {
                XCTAssertFalse(table.contains(key))
                guard case let .settings(screen) = after.screen else { return XCTFail("settings closed by \(key)") }
                XCTAssertEqual(screen.editing?.text.count, 15, "\(key)")
            } else {
                XCTAssertEqual(acts(key, in: state, beyondTheMessage: true), table.contains(key), "\(key)")
            }
        }
    }

    /// The filter editor open over the sample album.
    func filterEditorState(editing: Bool = false) -> AppState {
        var state = albumState()
        guard let album = state.album else { return state }
        var feature = FilterFeature(album: album)
        if editing {
            var field = TextField("street food", maxLength: FilterEditor.maxFieldLength)
            _ = field.apply(.left)  // the cursor inside, so every editing key has work
            feature.editor.editing = field
        }
        state.screen = .plugged(PluggedScreen(feature))
        return state
    }

    func testFilterEditorHelpListsExactlyTheKeysItHandles() {
        var lower = filterEditorState()  // ↑ has a row to go to
        _ = reducer.reduce(&lower, .event(.key(.down), time: 0))
        assertHelpMatchesKeys(filterEditorState(), others: [lower], table: Set(FilterKeys.table.keys))
    }

    func testAFilterFieldBeingTypedHandlesItsTableAndTypesEveryCharacter() {
        let state = filterEditorState(editing: true)
        let table = Set(FilterKeys.editing.keys)
        for key in everyKey {
            let (after, _) = press(key, in: state)
            if case .char = key {
                XCTAssertFalse(table.contains(key))
                guard case let .plugged(plugged) = after.screen, let editor = plugged.feature as? FilterFeature else {
                    return XCTFail("editor closed by \(key)")
                }
                XCTAssertEqual(editor.editor.editing?.text.count, 12, "\(key)")
            } else {
                XCTAssertEqual(acts(key, in: state, beyondTheMessage: true), table.contains(key), "\(key)")
            }
        }
    }

    func testEveryKeyClosesHelpAndOnlyHelp() {
        var settings = mapState()
        settings.screen = .settings(SettingsScreen())
        for base in [mapState(), albumState(), photoState(), settings, filterEditorState(), pinsListState()] {
            var state = base
            state.overlay = .help
            for key in everyKey {
                let (after, effects) = press(key, in: state)
                XCTAssertEqual(after, base, "\(key)")
                XCTAssertEqual(effects, [])
            }
        }
    }

    func testNoKeyIsBoundTwiceOnAScreen() {
        for keys in [MapKeys.browsing.keys, MapKeys.dragging.keys, ConfirmKeys.table.keys, GoToKeys.table.keys,
                     AlbumKeys.table.keys, PhotoKeys.table.keys, PhotoKeys.zoomed.keys, SettingsKeys.table.keys, SettingsKeys.editing.keys,
                     FilterKeys.table.keys, FilterKeys.editing.keys, PinsKeys.table.keys, PinsKeys.filtering.keys] {
            XCTAssertEqual(keys.count, Set(keys).count, "\(keys)")
        }
    }

    func testHintRowsComeFromTheTables() {
        XCTAssertEqual(MapKeys.browsing.hints().map { "\($0.key) \($0.label)" }, ["? help"])
        XCTAssertEqual(AlbumKeys.table.hints().map { "\($0.key) \($0.label)" },
                       ["n New Collection", "a Add more", "r retry", "x delete", "space mark", "X delete marked",
                        "Esc back", "f filter", "W save", "? help"])
        XCTAssertEqual(PhotoKeys.table.hints().map { "\($0.key) \($0.label)" },
                       ["\u{2190} previous", "\u{2192} next", "+ zoom", "o open page", "w save", "x delete", "Esc album", "? help"])
        XCTAssertEqual(PhotoKeys.zoomed.hints().map { "\($0.key) \($0.label)" },
                       ["arrows pan", "+ zoom", "0 fit", "o open page", "w save", "x delete", "Esc album", "? help"])
        XCTAssertEqual(ConfirmKeys.table.hints().map(\.key), ["y", "n"])
        XCTAssertEqual(GoToKeys.table.hints(unicode: false).map(\.key), ["Up/Down", "Tab", "Esc"])
        // Each hint's key does what the hint says.
        let names = Dictionary(everyKey.map { ($0.name(), $0) }, uniquingKeysWith: { a, _ in a })
        for hint in AlbumKeys.table.hints() {
            XCTAssertEqual(names[hint.key].flatMap(AlbumKeys.table.command), hint.command, hint.key)
        }
        for table in [PhotoKeys.table, PhotoKeys.zoomed] {
            for hint in table.hints() where hint.key != "arrows" {
                XCTAssertEqual(names[hint.key].flatMap(table.command), hint.command, hint.key)
            }
        }
        XCTAssertEqual(PhotoKeys.zoomed.command(for: .left), .pan(dx: -1, dy: 0))
        // At 80 columns every hint of either table fits.
        XCTAssertEqual(AppView.render(photoState(), raster: nil).rowText(23).trimmingCharacters(in: .whitespaces),
                       "\u{2190} previous  \u{2192} next  + zoom  o open page  w save  x delete  Esc album  ? help")
        XCTAssertEqual(AppView.render(zoomedPhotoState(), raster: nil).rowText(23).trimmingCharacters(in: .whitespaces),
                       "arrows pan  + zoom  0 fit  o open page  w save  x delete  Esc album  ? help")
        let status = AppView.render(mapState(), raster: nil).rowText(23)
        XCTAssertTrue(status.hasSuffix("2 pins \u{2502} ? help "), status)
        // At 80 columns the row drops the hints that do not fit whole; help stays last.
        let album = AppView.render(albumState(), raster: nil).rowText(2)
        XCTAssertEqual(album.trimmingCharacters(in: .whitespaces),
                       "n New Collection  a Add more  r retry  x delete  space mark  Esc back  ? help", album)
    }

    func testPickingUpAPinNamesTheKeysOfTheMovingTable() {
        XCTAssertEqual(MapKeys.dragging.hints().map { "\($0.key) \($0.label)" },
                       ["arrows move it", "Enter or m drops it", "Esc puts it back"])
        // Every key the message names does what it says while the pin is picked up.
        let names = Dictionary(everyKey.map { ($0.name(), $0) }, uniquingKeysWith: { a, _ in a })
        for (key, command) in [("Enter", MapCommand.dropMovedPin), ("m", .dropMovedPin), ("Esc", .putBack)] {
            XCTAssertEqual(names[key].flatMap(MapKeys.dragging.command), command, key)
        }
        XCTAssertEqual(MapKeys.dragging.command(for: .left), .moveCursor(dx: -1, dy: 0))
        var state = mapState()
        XCTAssertEqual(AppReducer(places: testPlaces).reduce(&state, .event(.key(.char("m")), time: 0)), [])
        XCTAssertEqual(state.message?.text, "Moving Naples: arrows move it, Enter or m drops it, Esc puts it back.")
    }

    /// The pins list over the sample pins, the selection on the second of three (room to move both ways).
    func pinsListState() -> AppState {
        var state = mapState()
        state.pins.append(Pin(id: 3, coordinate: GeoPoint(latitude: 48.86, longitude: 2.35), name: "Paris"))
        state.openPinsList()
        let (moved, _) = press(.down, in: state)
        XCTAssertEqual(moved.pinsList?.selected, 1)
        return moved
    }

    func testPinsListHelpListsExactlyTheKeysTheListHandles() {
        assertHelpMatchesKeys(pinsListState(), table: Set(PinsKeys.table.keys))
        let help = AppView.render({ var s = pinsListState(); s.overlay = .help; return s }(), raster: nil).text
        XCTAssertTrue(help.contains("Enter opens the first match"), help)
        XCTAssertTrue(help.contains("double-click opens"), help)
    }

    /// In the filter field every character is typed; the field's table acts; no other key does anything.
    func testThePinsListsFilterHandlesItsTableAndTypesEveryCharacter() {
        var state = pinsListState()
        let (typing, _) = press(.char("/"), in: state)
        state = typing
        for c in "ri" { state = press(.char(c), in: state).0 }  // only Paris
        XCTAssertEqual(state.pinsList?.count, 1)
        guard var list = state.pinsList else { return XCTFail("no list") }
        XCTAssertEqual(list.filter.apply(.left), .moved)  // the cursor inside, so every editing key has work
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        let table = Set(PinsKeys.filtering.keys)
        for key in everyKey {
            if case .char = key {
                XCTAssertFalse(table.contains(key))
                let (after, _) = press(key, in: state)
                XCTAssertEqual(after.pinsList?.filter.text.count, 3, "\(key)")
                XCTAssertEqual(after.pinsList?.typing, true, "\(key)")
            } else if key == .up || key == .down || key == .pageUp || key == .pageDown {
                // One row matches: the moves have nowhere to go, as in any one-row list.
                XCTAssertFalse(acts(key, in: state, beyondTheMessage: false), "\(key)")
            } else {
                XCTAssertEqual(acts(key, in: state, beyondTheMessage: true), table.contains(key), "\(key)")
            }
        }
        // With every pin matching, the moves move.
        list.filter.replace(with: "")
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        for key in [Key.up, .down, .pageUp, .pageDown] {
            XCTAssertTrue(acts(key, in: state, beyondTheMessage: true), "\(key)")
        }
    }

    /// The list's delete question: its table's keys answer it, no other key does anything.
    func testThePinsListsDeleteQuestionHandlesItsTableAndNothingElse() {
        var state = pinsListState()
        state.settings.confirmDelete = true
        let selected = state.pinsList?.selectedID ?? 0
        state = press(.char("x"), in: state).0
        XCTAssertEqual(state.pinsList?.mode, .confirmDelete(selected))
        let table = Set(ConfirmKeys.table.keys)
        for key in everyKey {
            XCTAssertEqual(acts(key, in: state, beyondTheMessage: true), table.contains(key), "\(key)")
        }
    }

    /// The list's rename prompt: its table acts, every character is typed, nothing else does anything.
    func testThePinsListsRenamePromptHandlesItsTableAndTypesEveryCharacter() {
        var state = pinsListState()
        state = press(.char("e"), in: state).0
        guard case var .rename(prompt)? = state.pinsList?.mode, var list = state.pinsList else { return XCTFail("no prompt") }
        let length = prompt.field.text.count
        XCTAssertEqual(prompt.field.apply(.left), .moved)  // the cursor inside, so every editing key has work
        list.mode = .rename(prompt)
        state.screen = .plugged(PluggedScreen(PinsFeature(list: list)))
        let table = Set(RenameKeys.table.keys)
        for key in everyKey {
            if case .char = key {
                XCTAssertFalse(table.contains(key))
                guard case let .rename(after)? = press(key, in: state).0.pinsList?.mode else { return XCTFail("prompt closed by \(key)") }
                XCTAssertEqual(after.field.text.count, length + 1, "\(key)")
            } else {
                XCTAssertEqual(acts(key, in: state, beyondTheMessage: true), table.contains(key), "\(key)")
            }
        }
    }

    func testPinsListHintsComeFromItsTable() {
        XCTAssertEqual(PinsKeys.table.hints().map { "\($0.key) \($0.label)" },
                       ["/ filter", "Enter album", "g map", "x delete", "e rename", "Tab sort", "Esc close", "? help"])
        XCTAssertEqual(AppView.render(pinsListState(), raster: nil).rowText(23).trimmingCharacters(in: .whitespaces),
                       "/ filter  Enter album  g map  x delete  e rename  Tab sort  Esc close  ? help")
        XCTAssertEqual(PinsKeys.table.helpRows().map(\.keys),
                       ["\u{2191}\u{2193}", "PgUp  PgDn", "Home", "End", "/", "Enter", "g", "x  Delete", "e", "Tab", "Esc  q", "?",
                        "typing", "", "", "mouse"])
    }

    func testHelpLabelsNameTheirKeys() {
        XCTAssertEqual(MapKeys.browsing.helpRows().map(\.keys),
                       ["arrows  h j k l", "H J K L  shift+arrows", "+ =  /  -", "p  space", "Enter", "m", "x  Delete",
                        "Tab  shift+Tab", "g  /", "R  /  P", "s", "?", "q", "mouse"])
        XCTAssertEqual(AlbumKeys.table.helpRows().map(\.keys),
                       ["arrows  h j k l", "PgUp  PgDn", "g  Home", "G  End", "Enter", "x  Delete", "space", "X", "n", "a", "f", "F", "W", "r",
                        "Esc  Backspace  q", "?"])
        XCTAssertEqual(PhotoKeys.table.helpRows().map(\.keys),
                       ["\u{2190}  h  PgUp", "\u{2192}  l  PgDn", "+ =", "Home  End", "space", "r", "x  Delete", "o", "w",
                        "Esc  Backspace  q", "?", "mouse"])
        XCTAssertEqual(PhotoKeys.zoomed.helpRows().map(\.keys),
                       ["arrows  h j k l", "PgUp  PgDn", "+ =  /  -", "0", "Home  End", "space", "r", "x  Delete", "o", "w",
                        "Esc  Backspace  q", "?", "mouse"])
    }
}
