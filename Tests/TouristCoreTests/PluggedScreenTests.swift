import Geo
import Model
import Terminal
@testable import TouristCore
import XCTest

/// What a key does on the counter screen.
enum CounterCommand: Equatable, Sendable {
    case add(Int)
    case back
    case help
}

/// A screen defined only here: a counter, plugged into the app through `ScreenFeature`.
struct CounterScreen: ScreenFeature {
    var count = 0

    static let table = KeyTable<CounterCommand>([
        KeyBinding([[KeyEntry(.char("+"), .add(1)), KeyEntry(.char("-"), .add(-1))]], help: "count up or down"),
        KeyBinding([[.escape]], .back, help: "back to the map", hint: "map", hintOrder: 1),
        KeyBinding([[.char("?")]], .help, help: "this help", hint: "help", hintOrder: 2),
    ])

    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { Self.table.helpRows(unicode: unicode) }

    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        switch Self.table.command(for: key) {
        case let .add(step):
            var next = self
            next.count += step
            state.go(to: .plugged(PluggedScreen(next)))
        case .back:
            state.go(to: .map)
        case .help:
            state.overlay = .help
        case nil:
            break
        }
        return []
    }

    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer) {
        _ = buffer.put("Count: \(count)", x: context.layout.main.x, y: context.layout.main.y)
    }
}

/// What a key does on the pin card.
enum PinCardCommand: Equatable, Sendable {
    case openAlbum
    case back
}

/// A second screen defined only here: one pin's card, which opens the pin's album and lets go of
/// the pin when it is deleted elsewhere.
struct PinCard: ScreenFeature, FollowsPins {
    var pinID: Pin.ID

    static let table = KeyTable<PinCardCommand>([
        KeyBinding([[.enter]], .openAlbum, help: "open the pin's album", hint: "album", hintOrder: 1),
        KeyBinding([[.escape]], .back, help: "back to the map", hint: "map", hintOrder: 2),
    ])

    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { Self.table.helpRows(unicode: unicode) }

    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        switch Self.table.command(for: key) {
        case .openAlbum:
            state.go(to: .album(of: pinID))
            return [.openAlbum(pinID)]
        case .back:
            state.go(to: .map)
        case nil:
            break
        }
        return []
    }

    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer) {
        let name = state.pin(pinID)?.displayName ?? "?"
        _ = buffer.put("Pin: \(name)", x: context.layout.main.x, y: context.layout.main.y)
    }

    func pinsChanged(_ state: inout AppState) {
        guard state.pin(pinID) == nil else { return }
        state.go(to: .map)
        state.message = StatusMessage("The card's pin was deleted elsewhere.", kind: .error)
    }
}

/// A screen plugs into the router with one line, and runs like the others: keys, view, help, the
/// pins changing under it, and going elsewhere through `Destination`.
final class PluggedScreenTests: XCTestCase {
    let reducer = AppReducer(places: .none)

    func press(_ s: inout AppState, _ keys: Key...) -> [AppEffect] {
        keys.flatMap { reducer.reduce(&s, .event(.key($0), time: 0)) }
    }

    func testATestScreenPlugsInAndIsDrivenByKeys() {
        var s = Sample.mapState()
        s.go(to: .plugged(PluggedScreen(CounterScreen())))  // the one line that plugs it in
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Count: 0"))
        _ = press(&s, .char("+"), .char("+"), .char("-"), .char("+"))
        XCTAssertEqual(s.screen, .plugged(PluggedScreen(CounterScreen(count: 2))))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Count: 2"))
        _ = press(&s, .char("x"))
        XCTAssertEqual(s.screen, .plugged(PluggedScreen(CounterScreen(count: 2))), "an unbound key does nothing")
        XCTAssertEqual(s.wantedPictures, [])
        XCTAssertFalse(s.isAnimating)
        XCTAssertNil(s.openAlbum)

        _ = press(&s, .char("?"))
        XCTAssertEqual(s.overlay, .help)
        let help = AppView.render(s, raster: nil).text
        for row in CounterScreen.table.helpRows() {
            XCTAssertTrue(help.contains(row.text), "help is written from the screen's table: \(row.text)")
        }
        _ = press(&s, .escape)
        XCTAssertNil(s.overlay)
        XCTAssertEqual(s.screen, .plugged(PluggedScreen(CounterScreen(count: 2))), "closing help shows the screen again")
        _ = press(&s, .escape)
        XCTAssertEqual(s.map, MapScreen())
    }

    func testAPluggedScreenLetsGoOfAPinDeletedElsewhere() {
        var s = Sample.mapState()
        s.go(to: .plugged(PluggedScreen(PinCard(pinID: 2))))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Pin: Rome"))
        _ = reducer.reduce(&s, .pinsLoaded(s.pins.filter { $0.id != 1 }))
        XCTAssertEqual(s.screen, .plugged(PluggedScreen(PinCard(pinID: 2))), "another pin's deletion leaves it be")
        XCTAssertNil(s.message)
        _ = reducer.reduce(&s, .pinsLoaded([]))
        XCTAssertEqual(s.map, MapScreen())
        XCTAssertEqual(s.message, StatusMessage("The card's pin was deleted elsewhere.", kind: .error))
    }

    func testAPluggedScreenGoesToTheAlbumAndTheMapThroughDestination() {
        var s = Sample.mapState()
        s.go(to: .plugged(PluggedScreen(PinCard(pinID: 2))))
        XCTAssertEqual(press(&s, .enter), [.openAlbum(2)])
        XCTAssertEqual(s.screen, .album(AlbumScreen(pinID: 2)))
        XCTAssertEqual(s.openAlbum?.pinID, 2)

        s.go(to: .plugged(PluggedScreen(PinCard(pinID: 2))))
        XCTAssertEqual(press(&s, .escape), [])
        XCTAssertEqual(s.screen, .map(MapScreen()))
    }

    func testEveryScreenIsServedByItsFeature() {
        let served: [(Screen, any ScreenFeature.Type)] = [
            (.map(MapScreen()), MapFeature.self),
            (.album(AlbumScreen(pinID: 1)), AlbumFeature.self),
            (Sample.photoState().screen, PhotoFeature.self),
            (.settings(SettingsScreen()), SettingsFeature.self),
            (.plugged(PluggedScreen(CounterScreen())), CounterScreen.self),
        ]
        for (screen, feature) in served {
            XCTAssertTrue(type(of: screen.feature) == feature, "\(screen) is served by \(feature)")
        }
    }

    /// What each screen adopts: only the optional behaviour it has, and every method of that
    /// behaviour it writes is one the router calls.
    func testEachScreenAdoptsWhatItDoes() {
        func adopts(_ feature: any ScreenFeature) -> [String] {
            var names: [String] = []
            if feature is any HasHelpLegend { names.append("legend") }
            if feature is any TakesMouse { names.append("mouse") }
            if feature is any TakesPaste { names.append("paste") }
            if feature is any ShowsPictures { names.append("pictures") }
            if feature is any ShowsInlinePicture { names.append("inline") }
            if feature is any Animates { names.append("animates") }
            if feature is any FollowsPins { names.append("pins") }
            if feature is any FollowsResize { names.append("resize") }
            if feature is any ShowsAlbum { names.append("album") }
            if feature is any OpensSavedDrops { names.append("drops") }
            if feature is any PlaysSlideshow { names.append("slideshow") }
            if feature is any ShowsLargeImages { names.append("large") }
            return names
        }
        XCTAssertEqual(adopts(MapFeature()), ["legend", "mouse", "paste", "pins", "drops"])
        XCTAssertEqual(adopts(AlbumFeature()), ["mouse", "pictures", "animates", "pins", "resize", "album"])
        XCTAssertEqual(adopts(PhotoFeature()), ["mouse", "pictures", "inline", "pins", "resize", "album", "slideshow", "large"])
        XCTAssertEqual(adopts(SettingsFeature()), ["paste"])
        XCTAssertEqual(adopts(FilterFeature(album: AlbumScreen(pinID: 1))), ["paste", "pins", "resize", "album"])
        XCTAssertEqual(adopts(PinsFeature(list: PinsList(pins: [], centre: GeoPoint(latitude: 0, longitude: 0)))), ["mouse", "paste", "pins", "resize"])
        XCTAssertEqual(adopts(CounterScreen()), [], "a small screen writes nothing it does not do")
        XCTAssertEqual(adopts(PinCard(pinID: 1)), ["pins"])
    }

    /// A screen's method of an optional behaviour is called only when the screen adopts it: so a
    /// feature that writes one adopts its protocol (read from the sources, as the compiler cannot say).
    func testAScreenThatWritesAnOptionalMethodAdoptsItsProtocol() throws {
        let owners: [String: [String]] = [
            "helpLegend": ["HasHelpLegend"], "mouse": ["TakesMouse"], "paste": ["TakesPaste"],
            "wantedPictures": ["ShowsPictures"], "inlinePicture": ["ShowsInlinePicture"], "isAnimating": ["Animates"],
            "pinsChanged": ["FollowsPins", "ShowsAlbum"], "resized": ["FollowsResize", "ShowsAlbum"],
            "albumLoaded": ["ShowsAlbum"], "openAlbum": ["ShowsAlbum"], "updateAlbum": ["ShowsAlbum"],
            "dropSaved": ["OpensSavedDrops"], "slideshowStep": ["PlaysSlideshow"], "largeImage": ["ShowsLargeImages"],
        ]
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folders = ["Sources/TouristCore", "Tests/TouristCoreTests"].map { root.appendingPathComponent($0) }
        var checked = 0
        for folder in folders {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: try Regex(#"(?m)^(?:public )?struct (\w+): ([^{]*\bScreenFeature\b[^{]*)\{"#)) {
                    let name = String(match.output[1].substring ?? "")
                    let adopted = Set((match.output[2].substring ?? "").split(separator: ",")
                        .map { $0.trimmingCharacters(in: .whitespaces) })
                    // The struct's own methods: its body up to the brace that closes it.
                    var depth = 1, body = ""
                    for ch in text[match.range.upperBound...] {
                        if ch == "{" { depth += 1 } else if ch == "}" { depth -= 1 }
                        if depth == 0 { break }
                        body.append(ch)
                    }
                    checked += 1
                    for method in body.matches(of: try Regex(#"\bfunc (\w+)\("#)).compactMap({ $0.output[1].substring }) {
                        guard let protocols = owners[String(method)] else { continue }
                        XCTAssertFalse(adopted.isDisjoint(with: protocols),
                                       "\(name) writes \(method) but adopts none of \(protocols): the router would never call it")
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 8, "every feature was read")
    }

    /// A message belongs to the screen it was shown on: which screens are the same screen.
    func testWhichScreensAreTheSameScreen() {
        let album = Sample.albumState().screen, photo = Sample.photoState().screen
        var otherAlbum = AlbumScreen(pinID: 2)
        otherAlbum.selected = 0
        let cases: [(Screen, Screen, Bool)] = [
            (.map(MapScreen()), .map(MapScreen(mode: .goTo(GoToPrompt()))), true),
            (.map(MapScreen()), .settings(SettingsScreen()), false),
            (album, .album(AlbumScreen(pinID: 1)), true),
            (album, .album(otherAlbum), false),
            (album, photo, false),
            (photo, photo, true),
            (.settings(SettingsScreen()), .settings(SettingsScreen(selected: 2)), true),
            (.plugged(PluggedScreen(CounterScreen())), .plugged(PluggedScreen(CounterScreen(count: 3))), true),
            (.plugged(PluggedScreen(CounterScreen())), .plugged(PluggedScreen(PinCard(pinID: 1))), false),
            (.plugged(PluggedScreen(PinCard(pinID: 1))), .map(MapScreen()), false),
        ]
        for (a, b, same) in cases {
            var s = Sample.mapState()
            s.screen = a
            XCTAssertEqual(s.isSameScreen(as: b), same, "\(a) vs \(b)")
            s.screen = b
            XCTAssertEqual(s.isSameScreen(as: a), same, "\(b) vs \(a)")
        }
    }

    /// After a resize the album keeps its selection in view, and so does the album under a photo;
    /// the other screens keep their state as it was.
    func testAResizeFixesTheScrollOfTheScreensThatScroll() {
        var photo = Sample.photoState()
        _ = press(&photo, .end)  // the last photo: the album's row 3, below the rows shown
        XCTAssertEqual(photo.photo?.album.selected, 9)
        XCTAssertEqual(photo.photo?.album.topRow, 0)
        _ = reducer.reduce(&photo, .event(.resize(width: 80, height: 40), time: 0))
        XCTAssertEqual(photo.photo?.album.topRow, 1, "3 rows shown: rows 1 to 3")
        XCTAssertEqual(photo.photo?.photoID, 10)

        var settings = Sample.mapState()
        settings.go(to: .settings)
        _ = press(&settings, .down)
        for var s in [settings, { var s = Sample.mapState(); s.go(to: .plugged(PluggedScreen(CounterScreen(count: 4)))); return s }()] {
            let before = s.screen
            _ = reducer.reduce(&s, .event(.resize(width: 100, height: 30), time: 0))
            XCTAssertEqual(s.screen, before)
            XCTAssertEqual(s.width, 100)
        }
    }

    /// The album each screen shows or keeps underneath, which album reloads reach.
    func testTheOpenAlbumOfEachScreen() {
        let album = Sample.albumState(), photo = Sample.photoState()
        let cases: [(AppState, AlbumScreen?)] = [
            (Sample.mapState(), nil),
            (album, album.album),
            (photo, photo.photo?.album),
            ({ var s = Sample.mapState(); s.go(to: .settings); return s }(), nil),
            ({ var s = Sample.mapState(); s.go(to: .plugged(PluggedScreen(PinCard(pinID: 1)))); return s }(), nil),
        ]
        for (state, open) in cases {
            XCTAssertEqual(state.openAlbum, open, "\(state.screen)")
            var changed = state
            changed.updateAlbum { $0.storeProblem = "disk full" }
            XCTAssertEqual(changed.openAlbum?.storeProblem, open == nil ? nil : "disk full", "\(state.screen)")
            if open == nil { XCTAssertEqual(changed, state, "no album to change on \(state.screen)") }
        }
    }
}
