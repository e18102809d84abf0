import Foundation
import Model
import XCTest
@testable import vtourist

/// The line a `--wait` ends with when photos failed for good, word for word.
final class PhotoFailuresTests: XCTestCase {
    func photos(_ states: [PhotoState]) -> [PhotoRecord] {
        states.enumerated().map { n, state in
            PhotoRecord(id: Int64(n + 1), pinID: 1, position: n,
                        found: NewPhoto(source: "flickr", sourceID: "\(n)", url: "http://127.0.0.1/\(n).jpg"), state: state)
        }
    }

    func testNoFailureSaysNothing() throws {
        let none = PhotoFailures(photos(Array(repeating: .stored, count: 21)))
        XCTAssertNil(none.line)
        XCTAssertFalse(none.allFailed)
        XCTAssertNoThrow(try none.finish())
        // No photos at all (an empty album) is not "all failed".
        XCTAssertFalse(PhotoFailures(photos([])).allFailed)
        XCTAssertNil(PhotoFailures(photos([])).line)
    }

    func testEveryPhotoFailedIsAFailureOfOneLine() {
        let all = PhotoFailures(photos(Array(repeating: .failed(reason: "HTTP 404"), count: 21)))
        XCTAssertEqual(all.line, "21 of 21 photos could not be downloaded: HTTP 404")
        XCTAssertTrue(all.allFailed)
        XCTAssertThrowsError(try all.finish()) { error in
            let failure = error as? CommandFailure
            XCTAssertEqual(failure?.description, "21 of 21 photos could not be downloaded: HTTP 404")
            XCTAssertEqual(failure?.status, 1)
        }
        XCTAssertEqual(PhotoFailures(photos([.failed(reason: "HTTP 404")])).line, "1 of 1 photo could not be downloaded: HTTP 404")
    }

    func testSomeFailedAreCounted() {
        let some = PhotoFailures(photos(Array(repeating: .stored, count: 18) + Array(repeating: .failed(reason: "HTTP 404"), count: 3)))
        XCTAssertEqual(some.line, "3 of 21 photos could not be downloaded: HTTP 404")
        XCTAssertFalse(some.allFailed)
    }

    func testSeveralReasonsAreCountedTheMostCommonFirst() {
        let states: [PhotoState] = [.failed(reason: "not a JPEG image"), .failed(reason: "HTTP 404"), .failed(reason: "HTTP 404"),
                                    .failed(reason: "HTTP 403"), .failed(reason: "HTTP 410"), .failed(reason: "HTTP 404"),
                                    .failed(reason: "HTTP 403"), .failed(reason: "the image is too large"), .stored, .pending]
        XCTAssertEqual(PhotoFailures(photos(states)).line,
                       "8 of 10 photos could not be downloaded: HTTP 404 (3), HTTP 403 (2), HTTP 410 (1), and 2 other reasons")
        XCTAssertEqual(PhotoFailures(photos([.failed(reason: "b"), .failed(reason: "a")])).line,
                       "2 of 2 photos could not be downloaded: a (1), b (1)")
    }

    /// A reason comes from the network: no control character reaches the terminal.
    func testAReasonIsSanitized() throws {
        let line = try XCTUnwrap(PhotoFailures(photos([.failed(reason: "HTTP 404\u{1B}[2J"), .stored])).line)
        XCTAssertFalse(line.contains("\u{1B}"), line)
    }
}
