import XCTest
@testable import vtourist

/// `VTOURIST_BUSY_TIMEOUT`: how long a write waits for another program's write lock.
final class BusyTimeoutTests: XCTestCase {
    func busyTimeout(_ value: String?) throws -> Double {
        try DatabaseOptions.parse([]).busyTimeout(environment: value.map { ["VTOURIST_BUSY_TIMEOUT": $0] } ?? [:])
    }

    func testUnsetOrEmptyIsFiveSeconds() throws {
        XCTAssertEqual(try busyTimeout(nil), 5)
        XCTAssertEqual(try busyTimeout(""), 5)
    }

    func testSecondsWithinTheRangeAreTaken() throws {
        XCTAssertEqual(try busyTimeout("0.2"), 0.2)
        XCTAssertEqual(try busyTimeout(" 30 "), 30)
        XCTAssertEqual(try busyTimeout("0.1"), 0.1)
        XCTAssertEqual(try busyTimeout("3600"), 3600)
    }

    func testAnythingElseIsRefusedNamingTheVariable() throws {
        let refused = ["soon", "0", "0.09", "-1", "3600.5", "1e9", "nan", "inf", "5s"].map { ($0, $0) }
            + [("\u{1B}[31m9", "9")]  // shown without the escape sequence it held
        for (bad, shown) in refused {
            XCTAssertThrowsError(try busyTimeout(bad), bad) { error in
                let failure = error as? CommandFailure
                XCTAssertEqual(failure?.status, 1, bad)
                XCTAssertEqual(failure?.description,
                               "VTOURIST_BUSY_TIMEOUT must be a number of seconds from 0.1 to 3600, not \u{201C}\(shown)\u{201D}")
            }
        }
    }
}
