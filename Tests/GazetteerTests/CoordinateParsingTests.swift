import Geo
import XCTest

import Gazetteer

final class CoordinateParsingTests: XCTestCase {
    func assertPoint(_ text: String, _ lat: Double, _ lon: Double, line: UInt = #line) {
        guard case .coordinate(let p) = parseCoordinates(text) else {
            return XCTFail("\(text) → \(parseCoordinates(text))", line: line)
        }
        XCTAssertEqual(p.latitude, lat, accuracy: 1e-9, text, line: line)
        XCTAssertEqual(p.longitude, lon, accuracy: 1e-9, text, line: line)
    }

    func testDecimalDegrees() {
        assertPoint("40.85, 14.27", 40.85, 14.27)
        assertPoint("40.85 14.27", 40.85, 14.27)
        assertPoint("-33.9,151.2", -33.9, 151.2)
        assertPoint("  -33.9 ; +151.2 ", -33.9, 151.2)
        assertPoint("0 0", 0, 0)
        assertPoint("90, -180", 90, -180)
    }

    func testHemisphereLetters() {
        assertPoint("40.85N 14.27E", 40.85, 14.27)
        assertPoint("33.9 s, 151.2 e", -33.9, 151.2)
        assertPoint("N 40.85 W 73.9", 40.85, -73.9)
        // Letters decide the order.
        assertPoint("14.27E 40.85N", 40.85, 14.27)
        assertPoint("151.2W, 33.9", 33.9, -151.2)
    }

    func testDegreesMinutesSeconds() {
        assertPoint("40°51′N 14°16′E", 40 + 51.0 / 60, 14 + 16.0 / 60)
        assertPoint("40°51'30\"N, 14°16'E", 40 + 51.0 / 60 + 30.0 / 3600, 14 + 16.0 / 60)
        assertPoint("33° 52′ S 151° 12′ E", -(33 + 52.0 / 60), 151.2)
        assertPoint("40° 14°", 40, 14)
    }

    func testOutOfRange() {
        XCTAssertEqual(parseCoordinates("91, 10"), .outOfRange("Latitude must be between -90 and 90"))
        XCTAssertEqual(parseCoordinates("-90.5 0"), .outOfRange("Latitude must be between -90 and 90"))
        XCTAssertEqual(parseCoordinates("10, 181"), .outOfRange("Longitude must be between -180 and 180"))
        XCTAssertEqual(parseCoordinates("95N 10E"), .outOfRange("Latitude must be between -90 and 90"))
        XCTAssertEqual(parseCoordinates("40°75′N 14°E"), .outOfRange("Minutes and seconds must be less than 60"))
    }

    func testNotCoordinates() {
        for text in ["", "Naples", "paris, texas", "40.85", "40.85,", "1 2 3", "N", "40N 14N", "12E 13W",
                     "-33 S 151 E", "4..5 6", "New York", "Essen", "10 20 abc", "E 1"] {
            XCTAssertEqual(parseCoordinates(text), .notCoordinates, text)
        }
    }

    // MARK: Command-line words (`vtourist drop …`)

    func assertWords(_ words: [String], _ lat: Double, _ lon: Double, line: UInt = #line) {
        guard case .coordinate(let p) = parseCoordinates(words: words) else {
            return XCTFail("\(words) → \(parseCoordinates(words: words))", line: line)
        }
        XCTAssertEqual(p.latitude, lat, accuracy: 1e-9, "\(words)", line: line)
        XCTAssertEqual(p.longitude, lon, accuracy: 1e-9, "\(words)", line: line)
    }

    func testCommandLineWords() {
        assertWords(["51.5", "-0.12"], 51.5, -0.12)
        assertWords(["-30", "-150"], -30, -150)
        assertWords(["-33.9", "151.2"], -33.9, 151.2)
        assertWords(["51.5, -0.12"], 51.5, -0.12)
        assertWords(["51.5,", "-0.12"], 51.5, -0.12)
        assertWords(["51.5", ",", "-0.12"], 51.5, -0.12)
        assertWords(["51.5N", "0.12W"], 51.5, -0.12)
        assertWords(["0.12W", "51.5N"], 51.5, -0.12)
        assertWords(["33.9S", "151.2E"], -33.9, 151.2)
        assertWords(["N", "40.85", "W", "73.9"], 40.85, -73.9)
        assertWords(["40°51′N", "14°16′E"], 40 + 51.0 / 60, 14 + 16.0 / 60)
        assertWords(["-.5", "+.25"], -0.5, 0.25)
    }

    func testCommandLineWordsOutOfRange() {
        XCTAssertEqual(parseCoordinates(words: ["91", "0"]), .outOfRange("Latitude must be between -90 and 90"))
        XCTAssertEqual(parseCoordinates(words: ["0", "181"]), .outOfRange("Longitude must be between -180 and 180"))
        XCTAssertEqual(parseCoordinates(words: ["-90.01", "0"]), .outOfRange("Latitude must be between -90 and 90"))
        XCTAssertEqual(parseCoordinates(words: ["91S", "0E"]), .outOfRange("Latitude must be between -90 and 90"))
    }

    func testCommandLineWordsThatAreNotCoordinates() {
        for words in [[], [""], ["", ""], ["Naples"], ["New", "York"], ["Paris,", "Texas"], ["abc123xyz"],
                      ["51.5"], ["1", "2", "3"], ["-33", "S", "151", "E"], ["abc", "10"], ["51.5N", "0.12N"]] {
            XCTAssertEqual(parseCoordinates(words: words), .notCoordinates, "\(words)")
        }
    }
}
