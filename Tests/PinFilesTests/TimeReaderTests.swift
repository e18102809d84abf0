import Foundation
@testable import PinFiles
import TestSupport
import XCTest

/// The UTC times read without the formatters are the formatters' instants; other forms still read.
final class TimeReaderTests: XCTestCase {
    func testUTCTimesAreTheFormattersInstantsToTheMillisecond() throws {
        let fractional = PinFileText.writer()
        let whole = ISO8601DateFormatter()
        var seed: UInt64 = 42
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        // A fifth of the times under a sanitizer (the same first ones), where each costs ten times as much.
        for _ in 0..<SanitizerScale.rounds(20_000) {
            // 1583 to 9999, every month, day, hour, minute and second, a leap day among them.
            let date = Date(timeIntervalSince1970: Double(next(253_402_300_000 + 12_212_553_600) - 12_212_553_600))
            let millis = next(1000)
            let withMillis = fractional.string(from: date.addingTimeInterval(Double(millis) / 1000))
            let plain = whole.string(from: date)
            XCTAssertEqual(try XCTUnwrap(PinFileText.TimeReader.utc(withMillis)).timeIntervalSince1970,
                           try XCTUnwrap(fractional.date(from: withMillis)).timeIntervalSince1970, accuracy: 0.0005, withMillis)
            XCTAssertEqual(PinFileText.TimeReader.utc(plain), whole.date(from: plain), plain)
        }
        XCTAssertEqual(PinFileText.TimeReader.utc("2024-02-29T23:59:59Z"), whole.date(from: "2024-02-29T23:59:59Z"))
        // Before the Gregorian calendar the formatters count Julian days: those times are left to them.
        let reader = PinFileText.TimeReader()
        for text in ["1337-06-01T00:00:00Z", "1582-10-04T12:00:00.500Z", "0001-01-01T00:00:00Z"] {
            XCTAssertNil(PinFileText.TimeReader.utc(text), text)
            XCTAssertEqual(reader.date(text), fractional.date(from: text) ?? whole.date(from: text), text)
        }
        // The fuzzer's find: a time written for a pin made in 1337 read back as written.
        let medieval = Date(timeIntervalSince1970: -19_948_321_046)
        XCTAssertEqual(reader.date(fractional.string(from: medieval)), medieval)
    }

    func testOtherFormsAreLeftToTheFormattersAndNonsenseIsNoTime() {
        let reader = PinFileText.TimeReader()
        for text in ["2024-05-01T10:00:00+02:00", "2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.123456Z"] {
            XCTAssertNil(PinFileText.TimeReader.utc(text), text)
        }
        XCTAssertEqual(reader.date("2024-05-01T10:00:00+02:00"), reader.date("2024-05-01T08:00:00Z"))
        // Out of range: left to the formatters, which read them as they always did (a 29 February
        // of 2023 as 1 March, 24:00 as the next day's midnight).
        let fractional = PinFileText.writer(), whole = ISO8601DateFormatter()
        for text in ["2023-02-29T10:00:00Z", "2024-13-01T10:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T10:60:00Z"] {
            XCTAssertNil(PinFileText.TimeReader.utc(text), text)
            XCTAssertEqual(reader.date(text), fractional.date(from: text) ?? whole.date(from: text), text)
        }
        for text in ["2024-05-01 10:00:00Z", "2024-05-0xT10:00:00Z", "", "yesterday"] {
            XCTAssertNil(PinFileText.TimeReader.utc(text), text)
            XCTAssertNil(reader.date(text), text)
        }
        XCTAssertEqual(reader.date(" 2024-05-01T10:00:00.250Z\n")?.timeIntervalSince1970, 1_714_557_600.25)
    }
}
