import Foundation
import GRDB
import Model
import TestSupport
import XCTest
@testable import Store

/// The per-host request budget (migration "v7"): a token bucket in the store, shared by every
/// window and command.
final class RequestBudgetTests: XCTestCase {
    private let host = "api.flickr.com"

    func testAFullBucketBurstsThenRefillsAtItsRate() throws {
        let db = try AppDatabase.openInMemory()
        let budget = RequestBudget(capacity: 3, perHour: 3600)
        let t = 1_000_000.0
        for _ in 0..<3 { XCTAssertEqual(try db.spendRequest(host: host, now: t, budget: budget), 0) }
        // Empty: a token a second, and asking spends nothing.
        XCTAssertEqual(try db.spendRequest(host: host, now: t, budget: budget), 1, accuracy: 1e-9)
        XCTAssertEqual(try db.spendRequest(host: host, now: t + 0.25, budget: budget), 0.75, accuracy: 1e-9)
        XCTAssertEqual(try db.spendRequest(host: host, now: t + 1, budget: budget), 0)
        XCTAssertEqual(try db.spendRequest(host: host, now: t + 1, budget: budget), 1, accuracy: 1e-9)
        // A long pause refills no more than the capacity.
        for _ in 0..<3 { XCTAssertEqual(try db.spendRequest(host: host, now: t + 1_000, budget: budget), 0) }
        XCTAssertGreaterThan(try db.spendRequest(host: host, now: t + 1_000, budget: budget), 0)
        // Each host has its own bucket.
        XCTAssertEqual(try db.spendRequest(host: "commons.wikimedia.org", now: t + 1_000, budget: budget), 0)
    }

    func testAClockSetBackRefillsNothingAndDoesNotStall() throws {
        let db = try AppDatabase.openInMemory()
        let budget = RequestBudget(capacity: 1, perHour: 3600)
        XCTAssertEqual(try db.spendRequest(host: host, now: 5_000, budget: budget), 0)
        // An hour back: no token from the jump, and the refill counts from the new time on.
        XCTAssertEqual(try db.spendRequest(host: host, now: 1_400, budget: budget), 1, accuracy: 1e-9)
        XCTAssertEqual(try db.spendRequest(host: host, now: 1_401, budget: budget), 0)
        XCTAssertEqual(try db.spendRequest(host: host, now: .nan, budget: budget), 1, accuracy: 1e-9)
    }

    /// Flickr's budget: asking as fast as it allows for three hours, no hour (any 3,600 s
    /// window) sends more than 3,600 requests, and the first hour gets them all.
    func testFlickrBudgetNeverExceeds3600AnHour() throws {
        let db = try AppDatabase.openInMemory()
        let budget = RequestBudget.flickr
        XCTAssertEqual(budget.capacity, 120)
        XCTAssertEqual(budget.perHour, 3480)
        var now = 0.0
        var sent: [Double] = []
        // Three hours, or an hour and a half under a sanitizer (each request is a transaction of
        // the store, ten times slower there): either holds many full windows of an hour.
        let hours = SanitizerScale.isSanitized ? 1.5 : 3.0
        while now < hours * 3600 {
            let wait = try db.spendRequest(host: host, now: now, budget: budget)
            if wait == 0 { sent.append(now) } else { now += wait }
        }
        var start = 0
        var busiest = 0
        for end in sent.indices {
            while sent[end] - sent[start] >= 3600 { start += 1 }
            busiest = max(busiest, end - start + 1)
        }
        XCTAssertLessThanOrEqual(busiest, 3600)
        XCTAssertGreaterThanOrEqual(busiest, 3599)
        XCTAssertEqual(sent.prefix { $0 == 0 }.count, 120, "the burst")
    }

    /// Two connections to one file (two windows) race for the same bucket: each token is spent once.
    func testTwoConnectionsNeverSpendTheSameLastToken() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/shared.sqlite"
        let first = try AppDatabase.open(path: path)
        let second = try AppDatabase.open(path: path)
        defer { try? first.close(); try? second.close() }
        // No refill to speak of at one `now`: exactly `capacity` grants, however the two interleave.
        let budget = RequestBudget(capacity: 40, perHour: 0.001)
        let granted = Counter()
        let failures = Counter()
        let host = host
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let db = side == 0 ? first : second
            for _ in 0..<60 {
                do {
                    if try db.spendRequest(host: host, now: 42, budget: budget) == 0 { granted.add() }
                } catch {
                    failures.add()
                }
            }
        }
        XCTAssertEqual(failures.value, 0)
        XCTAssertEqual(granted.value, 40)
        XCTAssertGreaterThan(try first.spendRequest(host: host, now: 42, budget: budget), 0)
    }

    /// A file of the schema before budgets (v6) keeps its pins and takes budgets after migrating.
    func testMigratingAVersion6FileAddsTheBudgets() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/old.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v6")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO pin (latitude, longitude, name, createdAt, albumState)
                    VALUES (40.85, 14.27, 'Naples', '2024-01-01 10:00:00.000', 'ready')
                    """)
                XCTAssertFalse(try db.tableExists("requestBudget"))
            }
            try queue.close()
        }
        let db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        XCTAssertEqual(try db.pins().map(\.name), ["Naples"])
        XCTAssertEqual(try db.spendRequest(host: host, now: 10, budget: .flickr), 0)
        XCTAssertEqual(try db.integersForTesting("SELECT CAST(tokens AS INTEGER) FROM requestBudget"), [119])
    }
}

/// A count shared by threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
