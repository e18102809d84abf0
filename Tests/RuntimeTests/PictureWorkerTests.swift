import Dispatch
import Locking
import Terminal
@testable import TouristCore
@testable import TouristRuntime
import XCTest

/// The picture threads: a sketch goes to the loop before its picture, and only the picture counts
/// as delivered (the key is not painted again while the loop has not taken it).
final class PictureWorkerTests: XCTestCase {
    func testASketchIsDeliveredBeforeItsPictureWhichAloneCountsAsDelivered() {
        let key = PictureKey(photoID: 1, size: PictureSize(columns: 198, rows: 52))
        let other = PictureKey(photoID: 2, size: PictureSize(columns: 198, rows: 52))
        let painted = Locked<[PictureKey]>([])
        let delivered = Locked<[(PictureKey, Picture)]>([])
        let arrivals = Locked<[XCTestExpectation]>([])
        func expect(_ count: Int) -> XCTestExpectation {
            let e = XCTestExpectation(description: "\(count) deliveries")
            e.expectedFulfillmentCount = count
            arrivals.withLock { $0 = [e] }
            return e
        }
        var arrived = expect(2)
        let worker = PictureWorker(threads: 1, render: { key, sketched in
            painted.withLock { $0.append(key) }
            sketched(.failed("sketch"))
            return .failed("picture")
        }, deliver: { key, picture in
            delivered.withLock { $0.append((key, picture)) }
            arrivals.withLock { $0.first?.fulfill() }
        })
        worker.want([key])
        wait(for: [arrived], timeout: 30)
        XCTAssertEqual(delivered.withLock { $0.map(\.1) }, [.failed("sketch"), .failed("picture")])
        // Delivered and not yet taken: asked again, only the other key is painted.
        arrived = expect(2)
        worker.want([key, other])
        wait(for: [arrived], timeout: 30)
        XCTAssertEqual(painted.withLock { $0 }, [key, other])
        // Taken, then wanted again (the shelf dropped it): painted again.
        arrived = expect(2)
        worker.taken(key)
        worker.want([key])
        wait(for: [arrived], timeout: 30)
        XCTAssertEqual(painted.withLock { $0 }, [key, other, key])
    }
}
