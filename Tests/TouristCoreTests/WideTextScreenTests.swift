import AlbumMachine
import Terminal
import TestSupport
@testable import TouristCore
import Geo
import Model
import XCTest

/// Japanese, Chinese, Korean and emoji names and titles on every screen that shows them: drawn
/// as themselves (two columns each), never as U+FFFD, and every row still as wide as the screen.
final class WideTextScreenTests: XCTestCase {
    let tower = "\u{6771}\u{4EAC}\u{30BF}\u{30EF}\u{30FC}"  // 東京タワー

    /// Every row is the screen's width as the terminal counts it, and nothing shows as U+FFFD.
    func assertDrawn(_ buffer: CellBuffer, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let rows = (0..<buffer.height).map(buffer.rowText)
        XCTAssertTrue(rows.contains { $0.contains(expected) }, "\(expected) not on screen:\n\(buffer.text)", file: file, line: line)
        XCTAssertFalse(buffer.text.contains("\u{FFFD}"), buffer.text, file: file, line: line)
        for row in rows { XCTAssertEqual(row.displayWidth, buffer.width, row, file: file, line: line) }
    }

    func testTheAlbumHeaderShowsAWidePinName() {
        var s = Sample.albumState()
        s.pins[0].name = tower
        assertDrawn(AppView.render(s, raster: nil), tower)
    }

    func testTheAlbumGridShowsWideTitlesCutWhole() throws {
        for width in [80, 81, 97] {
            var s = Sample.albumState()
            s.width = width
            s.updateAlbum { album in
                album.apply(AlbumSnapshot(pinID: 1, photos: (1...4).map { Sample.photo($0, title: "\(self.tower)\u{306E}\u{591C}\u{666F} \($0)") },
                                          status: .ready, source: "flickr"))
            }
            let buffer = AppView.render(s, raster: nil)
            assertDrawn(buffer, "\u{6771}\u{4EAC}")
        }
    }

    func testThePhotoViewShowsAWideTitleWithEmoji() {
        var s = Sample.photoState()
        let title = "\(tower) \u{1F44D}\u{1F3FD} \u{C11C}\u{C6B8} \u{5317}\u{4EAC}"  // 東京タワー 👍🏽 서울 北京
        s.updateAlbum { album in
            album.apply(AlbumSnapshot(pinID: 1, photos: (1...10).map { Sample.photo($0, title: $0 == 5 ? title : nil) },
                                      status: .ready, source: "flickr"))
        }
        for width in [80, 41] {
            s.width = width
            let buffer = AppView.render(s, raster: nil)
            assertDrawn(buffer, tower)
            if width == 80 { XCTAssertTrue(buffer.text.contains(title), buffer.text) }
        }
    }

    func testThePinsListShowsWideNames() {
        var s = Sample.mapState()
        s.pins[0].name = tower
        s.pins[1].name = "\u{C11C}\u{C6B8}\u{D2B9}\u{BCC4}\u{C2DC} \u{1F1F0}\u{1F1F7}"  // 서울특별시 🇰🇷
        _ = AppReducer(places: testPlaces).reduce(&s, .event(.key(.char("P")), time: 0))
        XCTAssertNotNil(s.pinsList)
        for width in [80, 61, 40] {
            s.width = width
            let buffer = AppView.render(s, raster: nil)
            assertDrawn(buffer, width >= 61 ? tower : "\u{6771}")
        }
    }

    func testGoToSuggestionsShowWideNames() {
        var s = Sample.mapState()
        let suggestion = PlaceSuggestion(name: tower, displayName: "\(tower) \u{2014} landmark, JP",
                                         coordinate: GeoPoint(latitude: 35.6586, longitude: 139.7454), population: 1)
        s.screen = .map(MapScreen(mode: .goTo(GoToPrompt(text: "\u{6771}\u{4EAC}", suggestions: [suggestion], selected: 0))))
        assertDrawn(AppView.render(s, raster: nil), "\(tower) \u{2014} landmark, JP")
    }
}
