import Foundation
import TestSupport
import XCTest

/// `vtourist drop` through the real binary: every way of writing where
/// (negative numbers as written, "LAT, LON", hemisphere letters, place
/// names), options in any position, and the inputs it refuses.
///
/// Every run gets the whole of its environment from `EndToEndTestCase`: the
/// photo endpoints and every proxy are the local stand-in, so nothing leaves
/// the machine (and each test fails if a request tried to).
final class DropCommandTests: EndToEndTestCase {
    /// The database VTOURIST_DB names (in the test's HOME).
    var db: String {
        get throws { try XCTUnwrap(environment()["VTOURIST_DB"]) }
    }

    func drop(_ words: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try cli(["drop"] + words)
    }

    func stderrLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Drops each form into a fresh database and checks the pins that
    /// `pins --json` lists: one per form, in order, where it should be.
    func assertDrops(_ forms: [(words: [String], latitude: Double, longitude: Double)],
                     accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) throws {
        for (n, form) in forms.enumerated() {
            // Several forms name one place: each is a pin of its own.
            let r = try drop(["--again"] + form.words)
            XCTAssertEqual(r.status, 0, "\(form.words): \(r.stderr)", file: file, line: line)
            XCTAssertEqual(r.stdout, "\(n + 1)\n", "\(form.words)", file: file, line: line)
        }
        let listed = try pins(db: db)
        XCTAssertEqual(listed.count, forms.count, file: file, line: line)
        for (pin, form) in zip(listed, forms) {
            XCTAssertEqual(pin.latitude, form.latitude, accuracy: accuracy, "\(form.words)", file: file, line: line)
            XCTAssertEqual(pin.longitude, form.longitude, accuracy: accuracy, "\(form.words)", file: file, line: line)
            XCTAssertEqual(pin.state, "downloading", "\(form.words)", file: file, line: line)
        }
    }

    // MARK: Forms that drop a pin

    func testNegativeNumbersAsWritten() throws {
        try assertDrops([
            (["51.5", "-0.12"], 51.5, -0.12),
            (["-30", "-150"], -30, -150),
            (["-33.9", "151.2"], -33.9, 151.2),
            (["-0.5", "-.25"], -0.5, -0.25),
            (["90", "-180"], 90, -180),
            (["--", "-1", "-2"], -1, -2),
        ])
    }

    func testOtherCoordinateForms() throws {
        try assertDrops([
            (["51.5, -0.12"], 51.5, -0.12),
            (["-33.9,151.2"], -33.9, 151.2),
            (["51.5,", "-0.12"], 51.5, -0.12),
            (["51.5N", "0.12W"], 51.5, -0.12),
            (["33.9S", "151.2E"], -33.9, 151.2),
            (["N", "40.85", "W", "73.9"], 40.85, -73.9),
            (["40°51′N", "14°16′E"], 40 + 51.0 / 60, 14 + 16.0 / 60),
        ], accuracy: 5e-8)  // listed with 7 decimals
    }

    func testCoordinatesPrintNothingOnStderr() throws {
        let r = try drop(["-33.9", "151.2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
    }

    func testPlaceNamesDropAtTheBestMatchAndNameItOnStderr() throws {
        let forms: [(words: [String], said: String, latitude: Double, longitude: Double)] = [
            (["Naples"], "Naples, Campania, IT (40.8522, 14.2681)", 40.8522, 14.2681),
            (["New", "York"], "New York City, New York, US (40.7143, -74.0060)", 40.7143, -74.0060),
            (["Paris,", "Texas"], "Paris, Texas, US (33.6609, -95.5555)", 33.6609, -95.5555),
        ]
        for (n, form) in forms.enumerated() {
            let r = try drop(form.words)
            XCTAssertEqual(r.status, 0, "\(form.words): \(r.stderr)")
            XCTAssertEqual(r.stdout, "\(n + 1)\n", "\(form.words)")
            XCTAssertEqual(r.stderr, form.said + "\n", "\(form.words)")
        }
        let listed = try pins(db: db)
        XCTAssertEqual(listed.map(\.name), ["Naples, Campania, IT", "New York City, New York, US", "Paris, Texas, US"])
        for (pin, form) in zip(listed, forms) {
            XCTAssertEqual(pin.latitude, form.latitude, accuracy: 1e-4, "\(form.words)")
            XCTAssertEqual(pin.longitude, form.longitude, accuracy: 1e-4, "\(form.words)")
        }
    }

    /// A data folder with the shipped places and the sample destinations beside them.
    func dataWithDestinations() throws -> String {
        let dir = try temporaryDirectory()
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("places.vtgaz"),
                                                   withDestinationURL: SampleDestinations.placesURL)
        try FileManager.default.copyItem(at: SampleDestinations.url, to: dir.appendingPathComponent("destinations.tsv"))
        return dir.path
    }

    /// A destination is found as the go-to prompt finds it (article, spaces, a typo), the pin
    /// goes to its point and is named after it.
    func testADestinationDropsAtItsPointAndNamesThePin() throws {
        let data = try dataWithDestinations()
        let forms: [(words: [String], said: String, name: String, latitude: Double, longitude: Double)] = [
            (["the", "Eiffel", "Tower"], "Eiffel Tower \u{2014} landmark, FR (48.8583, 2.2945)", "Eiffel Tower", 48.85826, 2.2945),
            (["santorini"], "Santorini \u{2014} island, GR (36.4000, 25.4300)", "Santorini", 36.4, 25.43),
            (["Machupicchu"], "Machu Picchu \u{2014} landmark, PE (-13.1631, -72.5456)", "Machu Picchu", -13.16306, -72.54556),
            (["Bali"], "Bali \u{2014} island, ID (-8.4000, 115.1000)", "Bali", -8.4, 115.1),
            (["Naples"], "Naples, Campania, IT (40.8522, 14.2681)", "Naples, Campania, IT", 40.8522, 14.2681),
        ]
        for (n, form) in forms.enumerated() {
            let r = try cli(["drop"] + form.words, environment: ["VTOURIST_DATA_DIR": data])
            XCTAssertEqual(r.status, 0, "\(form.words): \(r.stderr)")
            XCTAssertEqual(r.stdout, "\(n + 1)\n", "\(form.words)")
            XCTAssertEqual(r.stderr, form.said + "\n", "\(form.words)")
        }
        let listed = try pins(db: db)
        XCTAssertEqual(listed.map(\.name), forms.map(\.name))
        for (pin, form) in zip(listed, forms) {
            XCTAssertEqual(pin.latitude, form.latitude, accuracy: 1e-4, "\(form.words)")
            XCTAssertEqual(pin.longitude, form.longitude, accuracy: 1e-4, "\(form.words)")
        }
    }

    /// A damaged destinations file is named on stderr and leaves the places working.
    func testADamagedDestinationsFileStillDropsAtPlaces() throws {
        let data = try dataWithDestinations()
        try Data("Bali\tisland\n".utf8).write(to: URL(fileURLWithPath: data).appendingPathComponent("destinations.tsv"))
        let r = try cli(["drop", "Bali"], environment: ["VTOURIST_DATA_DIR": data])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = stderrLines(r.stderr)
        XCTAssertEqual(lines.first, "vtourist: destinations left aside: Destinations file \(data)/destinations.tsv "
                       + "is damaged at line 1: 2 tab-separated columns, expected 8")
        XCTAssertEqual(lines.dropFirst().first?.hasPrefix("B\u{101}li, West Bengal, IN ("), true, r.stderr)
    }

    // MARK: Options in any position

    func testDatabaseOptionBeforeBetweenAndAfterNegativeCoordinates() throws {
        let other = try temporaryDirectory().appendingPathComponent("other.sqlite").path
        for words in [["--db", other, "-33.9", "-151.2"], ["-33.9", "--db", other, "-151.2", "--again"],
                      ["-33.9", "-151.2", "--again", "--db", other], ["--again", "--db=\(other)", "-33.9", "-151.2"]] {
            let r = try drop(words)
            XCTAssertEqual(r.status, 0, "\(words): \(r.stderr)")
        }
        let listed = try pins(db: other)
        XCTAssertEqual(listed.count, 4)
        XCTAssertTrue(listed.allSatisfy { $0.latitude == -33.9 && $0.longitude == -151.2 }, "\(listed)")
        XCTAssertEqual(try pins(db: db), [], "VTOURIST_DB got a pin meant for --db")
    }

    func testWaitBeforeBetweenAndAfterTheWords() throws {
        let forms: [(words: [String], latitude: Double, longitude: Double)] = [
            (["--wait", "-33.9", "-151.2"], -33.9, -151.2),
            (["-33.9", "--wait", "-151.2", "--again"], -33.9, -151.2),
            (["51.5N", "0.12W", "--wait"], 51.5, -0.12),
            (["New", "York", "--wait"], 40.7143, -74.0060),
        ]
        for (n, form) in forms.enumerated() {
            let r = try drop(form.words)
            XCTAssertEqual(r.status, 0, "\(form.words): \(r.stderr)")
            XCTAssertEqual(r.stdout, "\(n + 1)\n", "\(form.words)")
            XCTAssertTrue(r.stderr.contains("Downloading 21/21"), "\(form.words): \(r.stderr)")
        }
        let listed = try pins(db: db)
        XCTAssertEqual(listed.count, forms.count)
        for (pin, form) in zip(listed, forms) {
            XCTAssertEqual(pin.latitude, form.latitude, accuracy: 1e-4, "\(form.words)")
            XCTAssertEqual(pin.longitude, form.longitude, accuracy: 1e-4, "\(form.words)")
            // --wait was heard: the album is whole, not left downloading.
            XCTAssertEqual(pin.state, "ready", "\(form.words)")
            XCTAssertEqual(pin.downloaded, 21, "\(form.words)")
        }
    }

    func testHelpStillWorks() throws {
        for words in [["--help"], ["-h"], ["-33.9", "151.2", "--help"]] {
            let r = try drop(words)
            XCTAssertEqual(r.status, 0, "\(words): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("USAGE: vtourist drop LAT LON"), "\(words): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains("--wait"), "\(words): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains("negative numbers as"), "\(words): \(r.stdout)")
        }
        XCTAssertEqual(try pins(db: db), [])
    }

    // MARK: Refused

    /// Coordinates out of range, words that name no place and no words at all are bad input:
    /// status 64, one line, no pin.
    func testBadPlacesFailWithOneLineAndNoPin() throws {
        let cases: [(words: [String], says: String)] = [
            (["91", "0"], "vtourist: bad coordinates \u{201C}91 0\u{201D}: latitude must be between -90 and 90"),
            (["-91", "0"], "vtourist: bad coordinates \u{201C}-91 0\u{201D}: latitude must be between -90 and 90"),
            (["0", "181"], "vtourist: bad coordinates \u{201C}0 181\u{201D}: longitude must be between -180 and 180"),
            (["0", "-180.5", "--wait"], "vtourist: bad coordinates \u{201C}0 -180.5\u{201D}: longitude must be between -180 and 180"),
            (["95N", "10E"], "vtourist: bad coordinates \u{201C}95N 10E\u{201D}: latitude must be between -90 and 90"),
            (["abc123xyz"], "vtourist: no place called \u{201C}abc123xyz\u{201D}"),
            (["abc", "10"], "vtourist: no place called \u{201C}abc 10\u{201D}"),
            (["40.85"], "vtourist: no place called \u{201C}40.85\u{201D}"),
            (["-33", "S", "151", "E"], "vtourist: no place called \u{201C}-33 S 151 E\u{201D}"),
            ([], "vtourist: drop needs a place"),
            ([""], "vtourist: drop needs a place"),
            (["", " "], "vtourist: drop needs a place"),
            (["--wait"], "vtourist: drop needs a place"),
        ]
        for c in cases {
            let r = try drop(c.words)
            XCTAssertEqual(r.status, 64, "\(c.words)")
            XCTAssertEqual(r.stdout, "", "\(c.words)")
            let lines = stderrLines(r.stderr)
            XCTAssertEqual(lines.count, 1, "\(c.words): \(r.stderr)")
            XCTAssertTrue(lines.first?.hasPrefix(c.says) == true, "\(c.words): \(r.stderr)")
        }
        XCTAssertEqual(try pins(db: db), [])
    }

    func testUnknownOptionsAreStillRefused() throws {
        for (words, option) in [(["--bogus", "1", "2"], "--bogus"), (["1", "2", "--bogus"], "--bogus"),
                                (["-33.9", "--bogus", "151.2"], "--bogus"), (["-x", "1", "2"], "-x"),
                                (["Naples", "--wiat"], "--wiat")] {
            let r = try drop(words)
            XCTAssertNotEqual(r.status, 0, "\(words)")
            XCTAssertEqual(r.stdout, "", "\(words)")
            XCTAssertEqual(stderrLines(r.stderr).first, "Error: Unknown option '\(option)'", "\(words): \(r.stderr)")
        }
        XCTAssertEqual(try pins(db: db), [])
    }

    // MARK: A second pin at one place

    func testASecondPinAtTheSamePlaceNeedsAgain() throws {
        XCTAssertEqual(try drop(["40.85", "14.27"]).stdout, "1\n")
        for words in [["40.85", "14.27"], ["40.85005", "14.27009"], ["40.85, 14.27", "--wait"], ["40.8499N", "14.2701E"]] {
            let r = try drop(words)
            XCTAssertEqual(r.status, 64, "\(words): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(words)")
            XCTAssertEqual(stderrLines(r.stderr).count, 1, "\(words): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("vtourist: there is already a pin within 0.0001° of "), "\(words): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasSuffix(": pin 1 (Naples, Campania, IT); add --again to drop another pin there\n"),
                          "\(words): \(r.stderr)")
        }
        XCTAssertEqual(try pins(db: db).count, 1, "a refused drop saved a pin")
        // Further than 0.0001° in either direction is another place.
        XCTAssertEqual(try drop(["40.8502", "14.27"]).status, 0)
        XCTAssertEqual(try drop(["40.85", "14.2698"]).status, 0)
        let again = try drop(["40.85", "14.27", "--again"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "4\n")
        let refused = try drop(["40.85", "14.27"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertEqual(refused.stderr, "vtourist: there are already 2 pins within 0.0001° of 40.85, 14.27: pins 1, 4; "
                       + "add --again to drop another pin there\n")
        XCTAssertEqual(try pins(db: db).count, 4)
    }

    func testWaitAtAPlaceWithNoPhotosSaysSo() throws {
        // The stand-in finds nothing for this key.
        let r = try cli(["drop", "-30", "-150", "--wait"], environment: ["FLICKR_API_KEY": "empty"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "1\n")
        XCTAssertEqual(stderrLines(r.stderr).last, "no photos here: the search found none around pin 1", r.stderr)
        XCTAssertEqual(stderrLines(r.stderr).filter { $0.contains("no photos") }.count, 1, r.stderr)
        XCTAssertEqual(try pins(db: db).map(\.state), ["empty"])
        // Photos found: nothing of the kind is said.
        let found = try cli(["drop", "40.85", "14.27", "--wait"], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(found.status, 0, found.stderr)
        XCTAssertFalse(found.stderr.contains("no photos"), found.stderr)
        XCTAssertFalse(found.stderr.contains("could not be downloaded"), found.stderr)
    }

    // MARK: How --wait ends when photos failed for good

    func testWaitWhenEveryPhotoFailsSaysSoAndFails() throws {
        server.set(.imageFault, to: "404")
        let r = try drop(["40.85", "14.27", "--wait"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(stderrLines(r.stderr).last, "vtourist: 21 of 21 photos could not be downloaded: HTTP 404 (pin 1 is kept)", r.stderr)
        XCTAssertEqual(stderrLines(r.stderr).filter { $0.contains("could not be downloaded") }.count, 1, r.stderr)
        // The album is as the line says: kept, every photo failed, for `r` to retry.
        let listed = try pins(db: db)
        XCTAssertEqual(listed.map(\.state), ["ready"])
        XCTAssertEqual(listed.map(\.photos), [21])
        XCTAssertEqual(listed.map(\.downloaded), [0])
    }

    func testWaitWhenSomePhotosFailSaysHowManyAndSucceeds() throws {
        // Photos 0, 7 and 14 of the 21 fail; the rest come in.
        server.set(.imageFault, to: "404,ok,ok,ok,ok,ok,ok")
        let r = try drop(["40.85", "14.27", "--wait"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "1\n")
        XCTAssertEqual(stderrLines(r.stderr).last, "3 of 21 photos could not be downloaded: HTTP 404", r.stderr)
        XCTAssertEqual(try pins(db: db).map(\.downloaded), [18])
    }

    /// `import --wait` ends as `drop --wait` does, the photos counted over every new album.
    func testImportWaitCountsFailedPhotosAsDropWaitDoes() throws {
        let file = try temporaryDirectory().appendingPathComponent("two.geojson")
        try Data(#"""
            {"type":"FeatureCollection","features":[
              {"type":"Feature","geometry":{"type":"Point","coordinates":[14.27,40.85]},"properties":{"name":"One"}},
              {"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"name":"Two"}}]}
            """#.utf8).write(to: file)
        server.set(.imageFault, to: "404,ok,ok,ok,ok,ok,ok")
        let some = try cli(["import", file.path, "--wait"])
        XCTAssertEqual(some.status, 0, some.stderr)
        XCTAssertEqual(stderrLines(some.stderr).last, "6 of 42 photos could not be downloaded: HTTP 404", some.stderr)

        server.set(.imageFault, to: "404")
        let all = try cli(["import", file.path, "--wait", "--db", try db + ".all"])
        XCTAssertEqual(all.status, 1, all.stderr)
        XCTAssertEqual(stderrLines(all.stderr).last, "vtourist: 42 of 42 photos could not be downloaded: HTTP 404 (the 2 imported pins are kept)", all.stderr)
    }
}
