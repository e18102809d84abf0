import Foundation
import TestSupport
import XCTest

/// Place names on the command line (`drop PLACE`, `move PIN PLACE`: whole names only, famous cities
/// first), `delete` and `move`, and what `pins --json` says of a pin's place and destination.
final class PinCommandsTests: EndToEndTestCase {
    var db: String {
        get throws { try XCTUnwrap(environment()["VTOURIST_DB"]) }
    }

    func stderrLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The pins as `pins --json` prints them, with every field.
    func listed() throws -> [[String: Any]] {
        let r = try cli(["pins", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    // MARK: drop PLACE

    /// Bug 9: a name that is no place's is refused with suggestions, exit 64, and nothing is stored
    /// (not even a database made).
    func testDropRefusesANameThatIsNoPlace() throws {
        let cases: [(words: [String], says: String)] = [
            (["asdf"], "vtourist: no place called \u{201C}asdf\u{201D}"),
            (["a"], "vtourist: no place called \u{201C}a\u{201D}"),
            (["abc", "1"], "vtourist: no place called \u{201C}abc 1\u{201D}"),
            (["Lodnon"], "vtourist: no place called \u{201C}Lodnon\u{201D}; did you mean London, England, GB"),
            (["Lond"], "vtourist: no place called \u{201C}Lond\u{201D}; did you mean London, England, GB"),
        ]
        for c in cases {
            let r = try cli(["drop"] + c.words)
            XCTAssertEqual(r.status, 64, "\(c.words): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(c.words)")
            let lines = stderrLines(r.stderr)
            XCTAssertEqual(lines.count, 1, "\(c.words): \(r.stderr)")
            XCTAssertTrue(lines.first?.hasPrefix(c.says) == true, "\(c.words): \(r.stderr)")
            XCTAssertTrue(lines.first?.hasSuffix("?") == true || lines.first?.contains("not LAT LON") == true, r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: try db), "no database made")
    }

    /// Bug 10: an English or former name of a big city is the city, not a village whose own name it is.
    func testDropAtAFamousCityNotAVillageOfItsName() throws {
        let forms: [(words: [String], said: String, latitude: Double, longitude: Double)] = [
            (["Cologne"], "K\u{F6}ln, North Rhine-Westphalia, DE", 50.93, 6.95),
            (["Seville"], "Sevilla, Andalusia, ES", 37.38, -5.97),
            (["Calcutta"], "Kolkata, West Bengal, IN", 22.56, 88.36),
            (["St", "Petersburg"], "Saint Petersburg, St.-Petersburg, RU", 59.94, 30.31),
            (["Oslo", "Norway"], "Oslo, Oslo, NO", 59.91, 10.75),
            (["東京"], "Tokyo, Tokyo, JP", 35.69, 139.69),
        ]
        for (n, form) in forms.enumerated() {
            let r = try cli(["drop"] + form.words)
            XCTAssertEqual(r.status, 0, "\(form.words): \(r.stderr)")
            XCTAssertEqual(r.stdout, "\(n + 1)\n", "\(form.words)")
            XCTAssertTrue(r.stderr.hasPrefix(form.said + " ("), "\(form.words): \(r.stderr)")
        }
        let pins = try pins(db: db)
        XCTAssertEqual(pins.count, forms.count)
        for (pin, form) in zip(pins, forms) {
            XCTAssertEqual(pin.latitude, form.latitude, accuracy: 0.05, "\(form.words)")
            XCTAssertEqual(pin.longitude, form.longitude, accuracy: 0.05, "\(form.words)")
        }
    }

    // MARK: pins --json

    /// `place` is the nearest town; `destination` the landmark a pin was dropped on, else null.
    func testPinsJSONNamesTheTownAndTheDestination() throws {
        XCTAssertEqual(try cli(["drop", "the", "Eiffel", "Tower"]).status, 0)
        XCTAssertEqual(try cli(["drop", "Naples"]).status, 0)
        let pins = try listed()
        XCTAssertEqual(pins.count, 2)
        XCTAssertEqual(pins[0]["name"] as? String, "Eiffel Tower")
        XCTAssertEqual(pins[0]["destination"] as? String, "Eiffel Tower")
        // The nearest town GeoNames lists (Paris's arrondissements are left out of the data).
        XCTAssertEqual(pins[0]["place"] as? String, "Neuilly-sur-Seine, Ile-de-France, FR")
        XCTAssertEqual(pins[1]["place"] as? String, "Naples, Campania, IT")
        XCTAssertTrue(pins[1]["destination"] is NSNull, "\(pins[1])")
    }

    // MARK: delete

    func testDeleteByNameWithAccentsFoldedPrintsWhatWent() throws {
        XCTAssertEqual(try cli(["drop", "47.3769", "8.5417"]).status, 0)
        XCTAssertEqual(try cli(["drop", "40.85", "14.27"]).status, 0)
        XCTAssertEqual(try cli(["rename", "1", "Zürich"]).status, 0)
        let r = try cli(["delete", "zurich", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["id"] as? Int, 1)
        XCTAssertEqual(object["name"] as? String, "Zürich")
        XCTAssertEqual(Set(object.keys), Set(try listed().first?.keys ?? [:].keys), "the keys of pins --json")
        XCTAssertEqual(try pins(db: db).map(\.id), [2])
        let plain = try cli(["delete", "2"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stdout, "deleted pin 2 (Naples, Campania, IT) and its album of 0 photos\n")
        XCTAssertEqual(try pins(db: db), [])
    }

    func testDeleteRefusesUnknownAndAmbiguousPins() throws {
        XCTAssertEqual(try cli(["drop", "40.85", "14.27"]).status, 0)
        XCTAssertEqual(try cli(["drop", "--again", "40.85", "14.27"]).status, 0)
        let unknown = try cli(["delete", "7"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(stderrLines(unknown.stderr), ["vtourist: no pin 7 (see `vtourist pins`)"])
        let ambiguous = try cli(["delete", "naples, campania, it"])
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertEqual(stderrLines(ambiguous.stderr).count, 1, ambiguous.stderr)
        XCTAssertTrue(ambiguous.stderr.contains("(ids 1, 2)"), ambiguous.stderr)
        XCTAssertEqual(try pins(db: db).count, 2, "nothing deleted")
    }

    // MARK: move

    /// The album starts over at the new place, as after the map's move: its photos deleted, a search waiting.
    func testMoveToCoordinatesOrAPlaceFetchesTheAlbumAgain() throws {
        let dropped = try cli(["drop", "40.85", "14.27", "--wait"], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let before = try XCTUnwrap(try pins(db: db).first)
        XCTAssertGreaterThan(before.photos, 0)
        let r = try cli(["move", "1", "-33.87", "151.21"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("moved pin 1 to Sydney, New South Wales, AU at "), r.stdout)
        var after = try XCTUnwrap(try pins(db: db).first)
        XCTAssertEqual(after.latitude, -33.87)
        XCTAssertEqual(after.longitude, 151.21)
        XCTAssertEqual(after.photos, 0)
        XCTAssertEqual(after.state, "downloading")
        XCTAssertEqual(after.name, "Sydney, New South Wales, AU")
        // By a place name, folded, and by the pin's name folded.
        let named = try cli(["move", "sydney, new south wales, au", "Sevilla", "--json"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(stderrLines(named.stderr).first?.hasPrefix("Sevilla, Andalusia, ES ("), true, named.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(named.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["place"] as? String, "Sevilla, Andalusia, ES")
        after = try XCTUnwrap(try pins(db: db).first)
        XCTAssertEqual(after.latitude, 37.38, accuracy: 0.05)
        // The album is fetched at the new place: another drop --wait there finds it done by the app's rules.
        let resumed = try cli(["drop", "--wait", "--again", "37.38", "-5.97"], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
    }

    func testMoveRefusesBadPlacesAndUnknownPins() throws {
        XCTAssertEqual(try cli(["drop", "40.85", "14.27"]).status, 0)
        let cases: [(words: [String], status: Int32, says: String)] = [
            (["1", "91", "0"], 64, "vtourist: bad coordinates \u{201C}91 0\u{201D}: latitude must be between -90 and 90"),
            (["1", "0", "181"], 64, "vtourist: bad coordinates \u{201C}0 181\u{201D}"),
            (["1", "Lodnon"], 64, "vtourist: no place called \u{201C}Lodnon\u{201D}; did you mean London, England, GB"),
            (["1"], 64, "vtourist: move needs a place"),
            (["9", "0", "0"], 1, "vtourist: no pin 9"),
            (["nowhere", "0", "0"], 1, "vtourist: no pin called \u{201C}nowhere\u{201D}"),
        ]
        for c in cases {
            let r = try cli(["move"] + c.words)
            XCTAssertEqual(r.status, c.status, "\(c.words): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(c.words)")
            XCTAssertEqual(stderrLines(r.stderr).count, 1, "\(c.words): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(c.says), "\(c.words): \(r.stderr)")
        }
        let pin = try XCTUnwrap(try pins(db: db).first)
        XCTAssertEqual(pin.latitude, 40.85)
        XCTAssertEqual(pin.longitude, 14.27)
    }
}
