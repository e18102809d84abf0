import Terminal
import TestSupport
@testable import TouristCore
import Geo
import Model
import XCTest

/// Help stays inside its frame at every size, on every screen, and scrolls there where it is
/// taller than the screen; the status line underneath is never touched.
final class HelpScrollTests: XCTestCase {
    let reducer = AppReducer(places: testPlaces)

    /// The screens whose help the issue saw overflow, and the settings.
    func screens() -> [(String, AppState)] {
        var pins = Sample.mapState()
        _ = reducer.reduce(&pins, .event(.key(.char("P")), time: 0))
        var settings = Sample.mapState()
        settings.screen = .settings(SettingsScreen())
        return [("map", Sample.mapState()), ("album", Sample.albumState()), ("pins list", pins),
                ("photo", Sample.photoState()), ("settings", settings)]
    }

    static let sizes = [(40, 12), (41, 13), (52, 17), (80, 24), (120, 40)]

    func sized(_ state: AppState, _ width: Int, _ height: Int) -> AppState {
        var s = state
        s.width = width
        s.height = height
        return s
    }

    func testHelpNeverDrawsOutsideItsFrameNorOverTheStatusLine() throws {
        for (name, screen) in screens() {
            for (width, height) in Self.sizes {
                var s = sized(screen, width, height)
                let under = AppView.render(s, raster: nil)
                s.overlay = .help
                for top in [0, 1, 1000] {
                    s.helpTop = top
                    let shown = AppView.render(s, raster: nil)
                    let frame = HelpOverlay(for: s).layout(in: s.layout.main).frame
                    XCTAssertTrue(s.layout.main.contains(x: frame.x, y: frame.y) && frame.bottom <= s.layout.main.bottom,
                                  "\(name) \(width)×\(height)")
                    for y in 0..<height {
                        for x in 0..<width where !frame.contains(x: x, y: y) {
                            XCTAssertEqual(shown[x, y], under[x, y], "\(name) \(width)×\(height) top \(top): (\(x), \(y)) outside the frame\n\(shown.text)")
                            if shown[x, y] != under[x, y] { return }
                        }
                    }
                    XCTAssertEqual(shown.rowText(height - 1), under.rowText(height - 1), "\(name) \(width)×\(height): the status line")
                    // The frame is whole: its four corners.
                    XCTAssertEqual(shown[frame.x, frame.y].symbol, "\u{250C}", "\(name) \(width)×\(height)\n\(shown.text)")
                    XCTAssertEqual(shown[frame.right - 1, frame.bottom - 1].symbol, "\u{2518}", "\(name) \(width)×\(height)\n\(shown.text)")
                }
            }
        }
    }

    func testAtTheSmallestSizeHelpScrollsAndSaysThereIsMore() throws {
        for (name, screen) in screens() {
            var s = sized(screen, 40, 12)
            s.overlay = .help
            let layout = HelpOverlay(for: s).layout(in: s.layout.main)
            XCTAssertTrue(layout.scrolls, "\(name): more lines than fit at 40×12")
            let first = AppView.render(s, raster: nil)
            let bottomEdge = first.rowText(layout.frame.bottom - 1)
            XCTAssertTrue(bottomEdge.contains("\u{2193}") && bottomEdge.contains("1\u{2013}\(layout.visible) of \(layout.lines.count)"),
                          "\(name): the edge says there is more\n\(first.text)")
            XCTAssertFalse(bottomEdge.contains("\u{2191}"), "\(name): nothing above yet")

            // ↓ one line, PgDn a page (less one line), End the last page, PgUp and Home back; the help stays open.
            _ = reducer.reduce(&s, .event(.key(.down), time: 0))
            XCTAssertEqual(s.overlay, .help, name)
            XCTAssertEqual(s.helpTop, 1, name)
            let scrolled = AppView.render(s, raster: nil)
            func inside(_ b: CellBuffer, _ y: Int) -> [Cell] { (layout.inner.x..<layout.inner.right).map { b[$0, y] } }
            XCTAssertEqual(inside(scrolled, layout.inner.y), inside(first, layout.inner.y + 1), "\(name): the lines move up by one")
            _ = reducer.reduce(&s, .event(.key(.pageDown), time: 0))
            XCTAssertEqual(s.helpTop, min(layout.maxTop, 1 + layout.visible - 1), name)
            _ = reducer.reduce(&s, .event(.key(.end), time: 0))
            XCTAssertEqual(s.helpTop, layout.maxTop, name)
            let last = AppView.render(s, raster: nil).rowText(layout.frame.bottom - 1)
            XCTAssertTrue(last.contains("\u{2191}") && !last.contains("\u{2193}")
                          && last.contains("\(layout.maxTop + 1)\u{2013}\(layout.lines.count) of \(layout.lines.count)"),
                          "\(name): at the end\n\(last)")
            _ = reducer.reduce(&s, .event(.key(.down), time: 0))
            XCTAssertEqual(s.helpTop, layout.maxTop, "\(name): not past the end")
            _ = reducer.reduce(&s, .event(.key(.pageUp), time: 0))
            XCTAssertEqual(s.helpTop, max(0, layout.maxTop - layout.visible + 1), name)
            _ = reducer.reduce(&s, .event(.key(.home), time: 0))
            XCTAssertEqual(s.helpTop, 0, name)
            _ = reducer.reduce(&s, .event(.key(.up), time: 0))
            XCTAssertEqual(s.helpTop, 0, "\(name): not before the start")
            // Any other key closes it, and the next help starts at the top.
            _ = reducer.reduce(&s, .event(.key(.end), time: 0))
            _ = reducer.reduce(&s, .event(.key(.char("z")), time: 0))
            XCTAssertNil(s.overlay, name)
            XCTAssertEqual(s.helpTop, 0, name)
        }
    }

    func testEveryKeyRowIsReachableByScrolling() throws {
        // At 40×12 the words wrap rather than being cut: scrolling through shows each of them whole.
        var s = sized(Sample.mapState(), 40, 12)
        s.overlay = .help
        let layout = HelpOverlay(for: s).layout(in: s.layout.main)
        var seen = ""
        for top in 0...layout.maxTop {
            s.helpTop = top
            let buffer = AppView.render(s, raster: nil)
            for y in layout.inner.y..<layout.inner.bottom { seen += buffer.rowText(y) + "\n" }
        }
        let words = seen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\u{2502}" }).map(String.init)
        for row in MapKeys.browsing.helpRows(unicode: true) {
            for word in row.text.split(separator: " ") {
                XCTAssertTrue(words.contains(String(word)), "\(word) of \(row.text) never shown")
            }
        }
    }

    func testWhereHelpFitsAnyKeyClosesItAsBefore() {
        var s = sized(Sample.albumState(), 120, 40)
        s.overlay = .help
        XCTAssertFalse(HelpOverlay(for: s).layout(in: s.layout.main).scrolls)
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains(HelpOverlay.closing))
        _ = reducer.reduce(&s, .event(.key(.down), time: 0))
        XCTAssertNil(s.overlay)
    }
}
