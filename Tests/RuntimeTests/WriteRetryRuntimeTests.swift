import Foundation
import GRDB
@testable import Store
@testable import TouristRuntime
import XCTest

/// A write that fails for a passing reason waits and is tried again: its pause between tries is on
/// the app's clock, which these tests move by hand. No real second passes.
extension RuntimeTests {
    /// The disk is full for the app's writes: its connection may not grow the file past its size
    /// now (SQLite's `max_page_count`), and every pin saved brings a megabyte with it.
    func fillTheDisk() throws {
        try otherProcess().write { db in
            try db.execute(sql: "CREATE TABLE ballast (bytes BLOB)")
            try db.execute(sql: "CREATE TRIGGER ballast AFTER INSERT ON pin BEGIN INSERT INTO ballast VALUES (zeroblob(1000000)); END")
        }
        try store.executeForTesting("PRAGMA max_page_count = 1")
    }

    /// Room again: a pin saved brings nothing more with it.
    func freeTheDisk() throws {
        try otherProcess().write { db in try db.execute(sql: "DROP TRIGGER ballast") }
    }

    /// Starts the app, fills the disk and drops a pin: the write fails and says `message`. Returns how
    /// many sleeps there were before it, and the deadline of the sleep it then waits in on the app's clock.
    func dropOnAFullDisk(saying message: String) throws -> (sleeps: Int, deadline: Double?) {
        terminal = TestTerminal(width: 220)  // room for the whole message
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        try fillTheDisk()
        let sleeps = clock.sleepCount
        let mark = terminal.frameCount
        terminal.press(.char("p"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: message))
        return (sleeps, clock.waitForSleep(after: sleeps))
    }

    /// The drop's own acknowledgment, once it is stored, is the status line's last word: a resize after
    /// it (the terminal's event comes after every message of the write) still shows it.
    func assertTheDropLandsAndIsSaidLast(after mark: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let landed = try XCTUnwrap(terminal.frame(after: mark, showing: "1 pin ", "Pin dropped at"), file: file, line: line)
        XCTAssertFalse(landed.text.contains("Not saved yet"), landed.text, file: file, line: line)
        let resized = terminal.frameCount
        terminal.resize(width: 200, height: 24)
        let after = try XCTUnwrap(terminal.frame(after: resized) { $0.width == 200 }, file: file, line: line)
        XCTAssertTrue(after.text.contains("Pin dropped at"), after.text, file: file, line: line)
    }

    func testAWriteOnAFullDiskIsTriedAgainOnceTheClockHasMovedOnByThePause() throws {
        let (sleeps, slept) = try dropOnAFullDisk(saying: "Not saved yet: the disk is full; trying again every second")
        let deadline = try XCTUnwrap(slept, "the write waits on the app's clock")
        XCTAssertEqual(deadline, clock.now + WriteRetry.pause)
        try freeTheDisk()

        // Half the pause: the write still sleeps, and nothing is saved.
        clock.advance(by: WriteRetry.pause / 2)
        XCTAssertEqual(clock.waitForSleep(after: sleeps), deadline)
        XCTAssertEqual(try store.pins().count, 0)

        // The pause is over: the next try lands.
        let mark = terminal.frameCount
        clock.advance(by: WriteRetry.pause / 2)
        try assertTheDropLandsAndIsSaidLast(after: mark)
        XCTAssertEqual(try store.pins().count, 1)
        XCTAssertEqual(clock.sleeping, [], "nothing waits any more")
        XCTAssertEqual(clock.sleepCount, sleeps + 1, "one pause, one try after it")
    }

    func testQuittingWhileAWriteWaitsOnAFullDiskGivesItUpAtOnce() throws {
        let (_, slept) = try dropOnAFullDisk(saying: "Not saved yet: the disk is full")
        XCTAssertNotNil(slept, "the write waits on the app's clock")

        // The clock stands still: only quitting can end the wait.
        terminal.press(.char("q"))
        waitForEnd()
        XCTAssertTrue(terminal.wasShutDown)
        XCTAssertEqual(clock.sleeping, [])
        XCTAssertEqual(try store.pins().count, 0)
        XCTAssertTrue(logText().contains("not saved: cannot write database \(path!): the disk is full"), logText())
    }

    func testALockedWriteIsTriedAgainAfterSQLitesBusyTimeoutWithoutSleepingOnTheClock() throws {
        // SQLite's own wait for the lock, made short: each try waits it, and no more.
        try store.close()
        store = try AppDatabase.open(path: path, busyTimeout: 0.05)
        terminal = TestTerminal(width: 220)  // room for the whole message
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        var holdsLock = Configuration()
        holdsLock.allowsUnsafeTransactions = true  // the lock is held across accesses on purpose
        let other = try DatabaseQueue(path: path, configuration: holdsLock)
        try other.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }

        var mark = terminal.frameCount
        terminal.press(.char("p"))
        XCTAssertNotNil(terminal.frame(after: mark, showing: "Not saved yet: another program is writing"))
        mark = terminal.frameCount
        try other.inDatabase { db in try db.execute(sql: "COMMIT") }
        try assertTheDropLandsAndIsSaidLast(after: mark)
        XCTAssertEqual(try store.pins().count, 1)
        XCTAssertEqual(clock.sleepCount, 0, "a locked database waited in each try: no pause between them")
    }
}
