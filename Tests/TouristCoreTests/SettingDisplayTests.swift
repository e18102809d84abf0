import Model
import Terminal
@testable import TouristCore
import XCTest

/// A setting has one name and one display of its value: its row, its messages and the masked key
/// all read them.
final class SettingDisplayTests: XCTestCase {
    let reducer = AppReducer(places: .none)

    func testEverySettingsRowAndMessageNameItAndShowItAlike() {
        var s = Sample.mapState()
        s.settings.flickrAPIKey = "0123456789abcdef0123456789abcdef"
        s.settings.contact = "me@example.org"
        s.settings.caBundle = "/etc/ssl/corp.pem"
        _ = reducer.reduce(&s, .event(.key(.char("s")), time: 0))
        let text = AppView.render(s, raster: nil).text
        for key in SettingCatalog.standard.screenOrder {
            XCTAssertEqual(SettingCatalog.standard[key].title.lowercased(), SettingCatalog.standard[key].label.lowercased(), "\(key): two names")
            let row = " " + SettingCatalog.standard[key].title.padding(toLength: SettingsView.labelWidth, withPad: " ", startingAt: 0)
                + s.shownSetting(key)
            XCTAssertTrue(text.contains(row), "no row \u{201C}\(row)\u{201D} in\n\(text)")
            XCTAssertEqual(s.savedMessage(key), "Saved: \(SettingCatalog.standard[key].label) \(s.shownSetting(key)).")
        }
        XCTAssertEqual(s.shownSetting(.flickrAPIKey), Settings.masked(apiKey: "0123456789abcdef0123456789abcdef"))
    }

    func testAKeyFromTheEnvironmentMakesAutomaticMeanFlickrInTheOneDisplay() {
        var s = Sample.mapState()
        s.settings.source = nil
        s.settings.flickrAPIKey = nil
        XCTAssertEqual(s.shownSetting(.source), "automatic: Wikimedia Commons")
        s.settingOverrides[.flickrAPIKey] = "FLICKR_API_KEY"
        XCTAssertEqual(s.shownSetting(.source), s.settings.shown(.source, keyFromEnvironment: true))
        XCTAssertEqual(s.shownSetting(.source), "automatic: Flickr")
        XCTAssertEqual(s.shownSetting(.flickrAPIKey), "set by FLICKR_API_KEY")
    }

    func testAnOnOffSettingIsShownAsItIsStoredAndListed() {
        for on in [true, false] {
            let settings = Settings(confirmDelete: on, allowDrag: !on)
            let stored = Dictionary(settings.storedTexts, uniquingKeysWith: { first, _ in first })
            for key in [SettingKey.confirmDelete, .allowDrag] {
                XCTAssertEqual(settings.shown(key), stored[key] ?? nil, "\(key)")
                XCTAssertEqual(Settings.normalized(key, stored[key].flatMap { $0 } ?? ""), settings.shown(key))
            }
        }
    }
}
