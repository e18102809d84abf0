import AlbumMachine
import XCTest
@testable import AlbumService

/// When the network returns, waiting albums start again: every search first (an album's photos need
/// its search), then the photos, each in the order the pins were dropped.
final class ResumeOrderTests: XCTestCase {
    func testSearchesFirstThenPhotosEachInPinOrder() {
        let order = AlbumService.resumeOrder([7, 2, 5])
        XCTAssertEqual(order.map(\.0), [2, 5, 7, 2, 5, 7])
        XCTAssertEqual(order.map(\.1), [.searches, .searches, .searches, .photos, .photos, .photos])
    }

    func testNothingWaitingResumesNothing() {
        XCTAssertTrue(AlbumService.resumeOrder([]).isEmpty)
    }
}
