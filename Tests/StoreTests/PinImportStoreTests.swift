import Foundation
import TestSupport
import XCTest
import Model
import Geo
import GRDB
@testable import Store

final class PinImportStoreTests: XCTestCase {
    private func open() throws -> AppDatabase {
        let db = try AppDatabase.open(path: try makeTempFolder(self) + "/vtourist.sqlite")
        addCleanup { try? db.close() }
        return db
    }

    func testImportedPinsAreDownloadingAndKeepTheirNamesAndTimes() throws {
        let db = try open()
        let created = Date(timeIntervalSince1970: 1_761_991_200.25)
        let before = Date()
        let outcome = try db.importPins([
            NewPin(coordinate: GeoPoint(latitude: 48.8566, longitude: 2.3522), name: "Paris", createdAt: created),
            NewPin(coordinate: GeoPoint(latitude: -33.9, longitude: 151.2), name: nil),
        ])
        XCTAssertEqual(outcome.duplicates, 0)
        let pins = try db.pins()
        XCTAssertEqual(pins.map(\.id), outcome.added)
        XCTAssertEqual(pins.map(\.albumState), [.downloading, .downloading])
        XCTAssertEqual(pins.map(\.name), ["Paris", nil])
        XCTAssertEqual(pins[0].createdAt.timeIntervalSince1970, created.timeIntervalSince1970, accuracy: 0.001)
        XCTAssertGreaterThanOrEqual(pins[1].createdAt.timeIntervalSince1970, before.timeIntervalSince1970 - 0.001)
    }

    func testDuplicatesOfStoredPinsAndOfEarlierPointsAreSkipped() throws {
        let db = try open()
        try db.insertPin(at: GeoPoint(latitude: 10, longitude: 20), name: "Here")
        let outcome = try db.importPins([
            NewPin(coordinate: GeoPoint(latitude: 10.00000001, longitude: 20), name: "Here"),  // same at 7 decimals
            NewPin(coordinate: GeoPoint(latitude: 10, longitude: 20), name: "Elsewhere"),      // another name
            NewPin(coordinate: GeoPoint(latitude: 10.000001, longitude: 20), name: "Here"),    // 11 cm away
            NewPin(coordinate: GeoPoint(latitude: 1, longitude: 2), name: nil),
            NewPin(coordinate: GeoPoint(latitude: 1, longitude: 2), name: nil),                // earlier in the file
        ])
        XCTAssertEqual(outcome.duplicates, 2)
        XCTAssertEqual(outcome.added.count, 3)
        XCTAssertEqual(try db.pins().count, 4)
    }

    func testAnInvalidPointStoresNothing() throws {
        let db = try open()
        XCTAssertThrowsError(try db.importPins([
            NewPin(coordinate: GeoPoint(latitude: 1, longitude: 2), name: nil),
            NewPin(coordinate: GeoPoint(latitude: 91, longitude: 2), name: nil),
        ]))
        XCTAssertEqual(try db.pins(), [])
    }

    /// The import's commits, seen by SQLite's own commit notifications; how long it takes is measured by
    /// `make bench` (bench/pin_file_bench.py times `vtourist import` of 100,000 points), never asserted here.
    func testAHundredThousandPinsInOneTransaction() throws {
        let db = try open()
        let n = SanitizerScale.scaled(100_000)
        let points = (0..<n).map {
            NewPin(coordinate: GeoPoint(latitude: Double($0 % 180) - 90, longitude: Double($0 % 360) - 180),
                   name: "p\($0)")
        }
        let commits = PinCommits()
        try db.write { $0.add(transactionObserver: commits, extent: .databaseLifetime) }
        let outcome = try db.importPins(points)
        XCTAssertEqual(outcome.added.count, n)
        XCTAssertEqual(commits.pinRowsPerCommit, [n], "every pin in one commit")
        XCTAssertEqual(try db.pins().count, n)
        // Again: every one is now a duplicate, and nothing is written.
        XCTAssertEqual(try db.importPins(points).duplicates, n)
        XCTAssertEqual(commits.pinRowsPerCommit, [n])
    }
}

/// Counts the pin rows each committed transaction wrote.
private final class PinCommits: TransactionObserver, @unchecked Sendable {
    // Only the database's writer touches it, and the test reads it after each write has returned.
    private(set) var pinRowsPerCommit: [Int] = []
    private var pending = 0

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "pin" }
    func databaseDidChange(with event: DatabaseEvent) { pending += 1 }
    func databaseDidCommit(_ db: Database) {
        if pending > 0 { pinRowsPerCommit.append(pending) }
        pending = 0
    }
    func databaseDidRollback(_ db: Database) { pending = 0 }
}
