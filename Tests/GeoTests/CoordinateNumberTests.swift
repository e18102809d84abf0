import Geo
import XCTest

/// How a coordinate is written as a number: at most 7 decimals, plain, the same text everywhere.
final class CoordinateNumberTests: XCTestCase {
    func testText() {
        let cases: [(Double, String)] = [
            (14.268110000000007, "14.26811"),
            (40.852199999999996, "40.8522"),
            (51.5, "51.5"),
            (-0.12, "-0.12"),
            (90, "90"),
            (-180, "-180"),
            (0, "0"),
            (-0.0, "0"),
            (-0.00000001, "0"),
            (1e-7, "0.0000001"),
            (-0.00001, "-0.00001"),
            (12.34567894, "12.3456789"),
            (12.34567896, "12.345679"),
            (-45.1234567, "-45.1234567"),
            (179.99999999, "180"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(CoordinateNumber.text(value), text, "\(value)")
        }
    }

    /// The number a JSON encoder writes stands for the same text.
    func testRoundedReadsAsTheText() {
        for value in [14.268110000000007, -33.9, 0.1 + 0.2, 151.20000000000002, -0.00001, 1e-7] {
            let rounded = CoordinateNumber.rounded(value)
            XCTAssertEqual(Double(CoordinateNumber.text(value)), rounded, "\(value)")
            XCTAssertEqual(CoordinateNumber.text(rounded), CoordinateNumber.text(value), "\(value)")
        }
    }

    func testUnitsOfWhatIsNotANumber() {
        XCTAssertEqual(CoordinateNumber.units(.nan), 0)
        XCTAssertEqual(CoordinateNumber.units(.infinity), 0)
        XCTAssertEqual(CoordinateNumber.units(-40.85), -408_500_000)
    }
}
