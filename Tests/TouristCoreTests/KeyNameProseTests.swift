import Model
import Terminal
@testable import TouristCore
import XCTest

/// Key names written into messages come from the screens' key tables: each one named is the key
/// that does it.
final class KeyNameProseTests: XCTestCase {
    let reducer = AppReducer(places: .none)

    func testAFailedPhotoCellNamesTheAlbumsRetryKey() {
        let cell = PhotoCell(photo: PhotoRecord(id: 1, pinID: 1, position: 0,
                                                found: NewPhoto(source: "commons", sourceID: "a", url: "http://127.0.0.1/a.jpg"),
                                                state: .failed(reason: "HTTP 404")),
                             picture: nil, selected: false, marked: false, frame: 0, theme: Theme.forDepth(.none))
        var buffer = CellBuffer(width: 20, height: 8)
        buffer.render(cell, in: buffer.area)
        let retry = AlbumKeys.table.keyName(for: .retry)
        XCTAssertEqual(AlbumKeys.table.command(for: .char(Character(retry))), .retry)
        XCTAssertTrue(buffer.text.contains("\(retry) retries"), buffer.text)
    }

    func testTheTooSmallNoticeNamesTheKeyThatQuits() {
        var s = Sample.mapState()
        s.width = 60
        s.height = AppState.minimumHeight - 1
        XCTAssertTrue(s.isTooSmall)
        let quit = TooSmallKeys.table.keyName(for: .quit)
        XCTAssertTrue(AppView.render(s, raster: nil).text.contains("press \(quit) to quit"))
        XCTAssertEqual(reducer.reduce(&s, .event(.key(.char(Character(quit))), time: 0)), [.quit])
        XCTAssertEqual(reducer.reduce(&s, .event(.key(.char("x")), time: 0)), [])
    }

    func testTheKeyFieldsExplanationNamesTheKeyThatTestsIt() {
        let s = Sample.mapState()
        let test = SettingsKeys.table.keyName(for: .testKey)
        XCTAssertEqual(SettingsKeys.table.command(for: .char(Character(test))), .testKey)
        XCTAssertTrue(SettingsView.explanation(.flickrAPIKey, state: s).joined().contains("\(test) tests it"))
    }

    func testTheSettingsExplanationsAndNotesNameTheirKeysFromTheTables() {
        let s = Sample.mapState()
        let change = SettingsKeys.table.keyName(for: .change)
        XCTAssertEqual(SettingsKeys.table.command(for: .enter), .change)
        XCTAssertTrue(SettingsView.explanation(.source, state: s).joined().hasPrefix("\(change) steps through"))
        let pickUp = MapKeys.browsing.keyName(for: .pickUp)
        XCTAssertEqual(MapKeys.browsing.command(for: .char(Character(pickUp))), .pickUp)
        XCTAssertTrue(SettingsView.explanation(.allowDrag, state: s).joined().contains("with \(pickUp) and moving"))
        let typing = SettingsKeys.table.helpRows().first { $0.keys == "typing" }
        XCTAssertEqual(typing?.text, "\(SettingsKeys.editing.keyName(for: .save)) saves, "
                       + "\(SettingsKeys.editing.keyName(for: .cancel)) cancels")
    }

    func testQuittingWithAPinPickedUpNamesTheDraggingKeys() {
        var s = Sample.mapState()
        s.settings.allowDrag = true
        let pickUp = MapKeys.browsing.keyName(for: .pickUp)
        _ = reducer.reduce(&s, .event(.key(.char(Character(pickUp))), time: 0))
        _ = reducer.reduce(&s, .event(.key(.char("q")), time: 0))
        let drop = MapKeys.dragging.keyName(for: .dropMovedPin), back = MapKeys.dragging.keyName(for: .putBack)
        XCTAssertEqual(s.message?.text, "Drop the pin (\(drop)) or put it back (\(back)) first.")
        XCTAssertEqual(MapKeys.dragging.command(for: .enter), .dropMovedPin)
        XCTAssertEqual(MapKeys.dragging.command(for: .escape), .putBack)
    }
}
