@testable import AlbumService
import XCTest

/// The albums' transfers waiting for a turn: at most `limit` at once, the focused album's first,
/// then everyone's in the order asked; withdrawn ones never start.
final class TransferQueueTests: XCTestCase {
    typealias Queue = TransferQueue<String>

    /// Takes every job `next` hands out now.
    func started(_ queue: inout Queue, focus: Int64? = nil) -> [String] {
        var jobs: [String] = []
        while let (_, job) = queue.next(focus: focus) { jobs.append(job) }
        return jobs
    }

    func testAtMostTheLimitRunAndEachEndGivesItsTurnToTheNext() {
        var queue = Queue(limit: 2)
        for n in 1...4 { queue.add("photo \(n)", for: .photo(Int64(n)), of: 1) }
        let first = queue.next(focus: nil), second = queue.next(focus: nil)
        XCTAssertEqual([first?.job, second?.job], ["photo 1", "photo 2"])
        XCTAssertNil(queue.next(focus: nil), "two at once")
        queue.finished(first!.ticket)
        XCTAssertEqual(started(&queue), ["photo 3"])
        queue.finished(first!.ticket)  // told twice: still one turn
        XCTAssertEqual(started(&queue), [])
        queue.finished(second!.ticket)
        XCTAssertEqual(started(&queue), ["photo 4"])
        XCTAssertEqual(queue.waiting, 0)
    }

    func testTheFocusedAlbumGoesAheadOfEveryOtherAndTheRestKeepTheirOrder() {
        var queue = Queue(limit: 1)
        for pin in 1...5 { queue.add("search \(pin)", for: .search(Int64(pin)), of: Int64(pin)) }
        /// The next job with `focus` on screen, its turn then given back.
        func next(_ focus: Int64?) -> String? {
            guard let (ticket, job) = queue.next(focus: focus) else { return nil }
            queue.finished(ticket)
            return job
        }
        XCTAssertEqual(next(nil), "search 1")
        XCTAssertEqual(next(4), "search 4", "the album opened goes ahead of 2 and 3")
        queue.add("photo 40", for: .photo(40), of: 4)
        queue.add("photo 10", for: .photo(10), of: 1)
        XCTAssertEqual(next(4), "photo 40", "and so do its photos")
        XCTAssertEqual(next(4), "search 2", "nothing more of it waits: the oldest of all")
        XCTAssertEqual(next(nil), "search 3")
        XCTAssertEqual(next(9), "search 5", "an album on screen with nothing waiting changes nothing")
        XCTAssertEqual(next(nil), "photo 10")
        XCTAssertNil(next(nil))
    }

    /// Found by the crash soak: with every turn taken by images a server held, the album on screen's
    /// Add more waited until one of them timed out, 20 s later. Its search takes a reserved turn.
    func testTheFocusedAlbumsSearchStartsOnTheReserveWhenEveryTurnIsTaken() {
        var queue = Queue(limit: 2, reserve: 2)
        for n in 1...3 { queue.add("photo \(n)", for: .photo(Int64(n)), of: 1) }
        XCTAssertEqual(started(&queue), ["photo 1", "photo 2"], "every turn taken by album 1")
        XCTAssertEqual(started(&queue, focus: 1), [], "the focused album's photos wait for an ordinary turn")
        queue.add("photo 20", for: .photo(20), of: 2)
        queue.add("search 2", for: .search(2), of: 2)
        queue.add("search 3", for: .search(3), of: 3)
        queue.add("search 4", for: .search(4), of: 4)
        XCTAssertEqual(started(&queue), [], "an album not on screen waits for a turn")
        XCTAssertEqual(started(&queue, focus: 2), ["search 2"], "the search, not the older photo")
        XCTAssertEqual(started(&queue, focus: 2), [], "one search an album")
        XCTAssertEqual(started(&queue, focus: 3), ["search 3"], "the next album opened: the second reserved turn")
        XCTAssertEqual(started(&queue, focus: 4), [], "the reserve is used up")
        XCTAssertEqual(queue.running.count, 4, "at most limit + reserve at once")
    }

    func testAReservedTurnEndsAsAnyOtherAndTheLimitHoldsForTheRest() {
        var queue = Queue(limit: 1, reserve: 1)
        queue.add("photo 1", for: .photo(1), of: 1)
        queue.add("search 2", for: .search(2), of: 2)
        queue.add("photo 3", for: .photo(3), of: 3)
        queue.add("search 4", for: .search(4), of: 4)
        let first = queue.next(focus: nil)
        XCTAssertEqual(first?.job, "photo 1")
        let reserved = queue.next(focus: 2)
        XCTAssertEqual(reserved?.job, "search 2")
        queue.finished(first!.ticket)
        XCTAssertEqual(started(&queue), ["photo 3"], "the freed turn is an ordinary one")
        XCTAssertEqual(started(&queue, focus: 4), [], "the reserve is still taken")
        queue.finished(reserved!.ticket)
        XCTAssertEqual(started(&queue, focus: 4), ["search 4"], "and free again once its transfer ends")
    }

    func testWithdrawnJobsNeverStart() {
        var queue = Queue(limit: 10)
        queue.add("search 1", for: .search(1), of: 1)
        for n in 10...12 { queue.add("photo \(n)", for: .photo(Int64(n)), of: 1) }
        queue.add("search 2", for: .search(2), of: 2)
        queue.add("photo 20", for: .photo(20), of: 2)
        XCTAssertTrue(queue.withdraw(.photo(11)))
        XCTAssertFalse(queue.withdraw(.photo(11)), "once")
        queue.withdraw(album: 2)
        XCTAssertEqual(queue.waiting, 3)
        XCTAssertEqual(started(&queue, focus: 2), ["search 1", "photo 10", "photo 12"])
    }

    func testAskingAgainForTheSameTargetReplacesTheJobWaiting() {
        var queue = Queue(limit: 10)
        queue.add("search 1, page 1", for: .search(1), of: 1)
        queue.add("photo 5", for: .photo(5), of: 1)
        queue.add("search 1, page 2", for: .search(1), of: 1)
        XCTAssertEqual(started(&queue), ["photo 5", "search 1, page 2"])
    }

    /// Ten thousand albums of 22 transfers each, the focus moving among them: every job starts once,
    /// never more than the limit at once, and nothing is left waiting.
    func testTenThousandAlbumsEachStartOnce() {
        var queue = Queue(limit: 24)
        for pin in 1...10_000 {
            queue.add("s\(pin)", for: .search(Int64(pin)), of: Int64(pin))
            for n in 0..<21 { queue.add("p\(pin)-\(n)", for: .photo(Int64(pin * 100 + n)), of: Int64(pin)) }
        }
        var seen = Set<String>()
        var running: [Int] = []
        var count = 0
        while true {
            let focus: Int64? = count % 1000 < 22 ? Int64(9_000 + count / 1000) : nil
            while let (ticket, job) = queue.next(focus: focus) {
                XCTAssertTrue(seen.insert(job).inserted, job)
                running.append(ticket)
                count += 1
            }
            XCTAssertLessThanOrEqual(running.count, 24)
            guard !running.isEmpty else { break }
            queue.finished(running.removeFirst())
        }
        XCTAssertEqual(count, 220_000)
        XCTAssertEqual(queue.waiting, 0)
    }
}
