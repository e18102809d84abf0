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

    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] {
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

    func render(_ state: AppState, pictures: PictureShelf, theme: Theme, layout: ScreenLayout, into buffer: inout CellBuffer) {
        _ = buffer.put("Count: \(count)", x: layout.main.x, y: layout.main.y)
    }
}

/// A screen plugs into the router with one line, and runs like the others: keys, view, help.
final class PluggedScreenTests: XCTestCase {
    let reducer = AppReducer(places: .none)

    func press(_ s: inout AppState, _ keys: Key...) {
        for key in keys { _ = reducer.reduce(&s, .event(.key(key), time: 0)) }
    }

    func testATestScreenPlugsInAndIsDrivenByKeys() {
        var s = Sample.mapState()
        s.go(to: .plugged(PluggedScreen(CounterScreen())))  // the one line that plugs it in
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Count: 0"))
        press(&s, .char("+"), .char("+"), .char("-"), .char("+"))
        XCTAssertEqual(s.screen, .plugged(PluggedScreen(CounterScreen(count: 2))))
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("Count: 2"))
        press(&s, .char("x"))
        XCTAssertEqual(s.screen, .plugged(PluggedScreen(CounterScreen(count: 2))), "an unbound key does nothing")
        XCTAssertEqual(s.wantedPictures, [])
        XCTAssertFalse(s.isAnimating)

        press(&s, .char("?"))
        XCTAssertEqual(s.overlay, .help)
        let help = AppView.render(s, raster: nil).text
        for row in CounterScreen.table.helpRows() {
            XCTAssertTrue(help.contains(row.text), "help is written from the screen's table: \(row.text)")
        }
        press(&s, .escape)
        XCTAssertNil(s.overlay)
        XCTAssertEqual(s.screen, .plugged(PluggedScreen(CounterScreen(count: 2))), "closing help shows the screen again")
        press(&s, .escape)
        XCTAssertEqual(s.map, MapScreen())
    }

    func testPhotoAndSettingsAreServedByTheirFeatures() {
        XCTAssertTrue(Screen.settings(SettingsScreen()).feature is SettingsFeature)
        XCTAssertNil(Screen.map(MapScreen()).feature)
        XCTAssertTrue(Screen.plugged(PluggedScreen(CounterScreen())).feature is CounterScreen)
    }
}
