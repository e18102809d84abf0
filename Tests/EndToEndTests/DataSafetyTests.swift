import Foundation
import XCTest

/// A full disk and a database another program keeps locked: the app says so where the user looks,
/// keeps what it stored, holds on to what the user did and saves it once it can.
///
/// The full disk is a file-size limit of 0 set on the running app (`prlimit`): every write the
/// database makes is refused with EFBIG, as a full file system refuses one with ENOSPC, and it
/// needs no privileges, so it runs wherever the suite does.
final class DataSafetyTests: EndToEndTestCase {
    private func database() throws -> String {
        let db = try temporaryDirectory().appendingPathComponent("safety.sqlite").path
        try makeEmptyDatabase(db)
        return db
    }

    /// Sets the app's file-size limit: 0 for a full disk, nil for none.
    private func limitFileSize(of session: TmuxSession, to bytes: Int?) throws {
        let pid = try XCTUnwrap(session.appPID, "the app's process")
        let value = bytes.map(String.init) ?? "unlimited"
        let r = try runProcess("/usr/bin/prlimit", ["--pid", String(pid), "--fsize=\(value):unlimited"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    private func setting(_ name: String, db: String) throws -> String {
        let r = try cli(["config", "get", name, "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func integrity(_ db: String) throws -> String {
        try runProcess("/usr/bin/sqlite3", [db, "PRAGMA integrity_check"], environment: environment()).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAFullDiskDuringASettingsChangeADropAndADownload() throws {
        let db = try database()
        server.holdImages(from: 0)
        let t = try app(db, width: 200, height: 50)
        t.wait(forText: "? help")

        // A settings change: said, the old value stays stored, the new one is saved once there is room.
        try limitFileSize(of: t, to: 0)
        try t.keys("s")
        t.wait(forText: "Search area")
        try t.keys("Down", "Down", "Enter", "BSpace", "BSpace", "BSpace")
        try t.type("0.2")
        try t.keys("Enter")
        t.wait(forText: "Not saved yet: the disk is full")
        XCTAssertEqual(try setting("area_half_width", db: db), "0.5")
        try limitFileSize(of: t, to: nil)
        // The setting's own acknowledgment, once stored, is the last word (not the waiting's end).
        let saved = t.wait(forText: "Saved: search area")
        XCTAssertFalse(saved.contains("Not saved yet"), saved)
        XCTAssertEqual(try setting("area_half_width", db: db), "0.2")
        try t.keys("Escape")
        t.wait(forText: "? help")

        // A drop: said, nothing half-written, the pin saved (and its album searched) once there is room.
        try limitFileSize(of: t, to: 0)
        try t.keys("p")
        t.wait(forText: "Not saved yet: the disk is full")
        XCTAssertEqual(try pins(db: db).count, 0)
        try limitFileSize(of: t, to: nil)
        t.wait(forText: "1 pin ")
        let searched = try waitFor("the album's photos found") { try pins(db: db).first.flatMap { $0.photos == 21 ? $0 : nil } }
        XCTAssertEqual(searched.downloaded, 0)

        // Downloads: each photo that cannot be stored says why; the album's photos stay listed.
        try t.keys("Enter")
        t.wait(forText: " downloading")
        try limitFileSize(of: t, to: 0)
        server.set(.holdImages, false)
        t.wait(forText: "the disk is full")
        XCTAssertEqual(try pins(db: db).first?.photos, 21)
        XCTAssertEqual(try pins(db: db).first?.downloaded, 0)
        XCTAssertEqual(try integrity(db), "ok")

        // Room again: the app keeps working. `r` fetches the selected photo again and it is stored.
        try limitFileSize(of: t, to: nil)
        try t.keys("r")
        try waitFor("the retried photo stored") { try pins(db: db).first.flatMap { $0.downloaded >= 1 ? true : nil } }
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)

        // The photos whose failure could not be recorded are still waiting: the next start fetches them.
        let again = try app(db, width: 200, height: 50)
        again.wait(forText: "? help")
        try waitFor("every photo stored after the restart", timeout: 60) {
            try pins(db: db).first.flatMap { $0.downloaded == 21 && $0.state == "ready" ? true : nil }
        }
        try again.keys("q")
        XCTAssertEqual(again.waitForExit(), 0)
        XCTAssertEqual(try integrity(db), "ok")
    }

    /// The command line under a full disk: one line, a failure status, the database as it was.
    func testDropOnAFullDiskSaysSoAndChangesNothing() throws {
        let db = try database()
        XCTAssertEqual(try cli(["drop", "41.9", "12.5", "--db", db]).status, 0)
        let before = try pins(db: db)
        let command = ([try vtouristBinary(), "drop", "48.85", "2.35", "--db", db]).map(TmuxSession.quote).joined(separator: " ")
        // The limit is the command's alone: its error output goes through a pipe to one without it.
        let r = try runProcess("/bin/bash", ["-o", "pipefail", "-c", "(ulimit -f 0; exec \(command)) 2>&1 >/dev/null | cat >&2"],
                               environment: environment())
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("vtourist: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("disk is full"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertEqual(try pins(db: db).map(\.id), before.map(\.id))
        XCTAssertEqual(try integrity(db), "ok")
    }

    /// The app's busy timeout made short, so a test waits for it a fifth of a second rather than 5 s.
    private let shortBusyTimeout: [String: String?] = ["VTOURIST_BUSY_TIMEOUT": "0.2"]

    func testABusyTimeoutThatIsNoNumberOfSecondsIsRefusedBeforeTheDatabaseIsOpened() throws {
        let db = try temporaryDirectory().appendingPathComponent("never.sqlite").path
        for bad in ["soon", "0", "-1", "nan", "3601"] {
            let r = try cli(["pins", "--db", db], environment: ["VTOURIST_BUSY_TIMEOUT": bad])
            XCTAssertEqual(r.status, 1, bad)
            XCTAssertEqual(r.stderr, "vtourist: VTOURIST_BUSY_TIMEOUT must be a number of seconds from 0.1 to 3600, not \u{201C}\(bad)\u{201D}\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: db), "nothing created")
        }
    }

    /// Another program holds the write lock for longer than the busy timeout: the drop waits, is
    /// said to wait, and lands once the lock is let go.
    func testADatabaseLockedLongerThanTheBusyTimeoutIsReportedAndRetried() throws {
        let db = try database()
        let t = try app(db, environment: shortBusyTimeout)
        t.wait(forText: "? help")
        let holder = try LockHolder(database: db, environment: environment())
        // The cursor's move (the map's view to save) waits first, the drop behind it.
        try t.keys("l", "p")
        t.wait(forText: "Not saved yet: another program is writing", timeout: 30)
        XCTAssertEqual(try pins(db: db).count, 0, "reading still works while the lock is held")
        // Keys still answer meanwhile.
        try t.keys("?")
        t.wait(forText: "Keys and map")
        try t.keys("Escape")
        holder.release()
        // The map view lands first, then the drop, said once stored (its acknowledgment the last word).
        t.wait(for: "the pin saved, said dropped, and the waiting message gone", timeout: 30) {
            $0.contains("1 pin ") && $0.contains("Pin dropped at") && !$0.contains("Not saved yet")
        }
        XCTAssertEqual(try pins(db: db).count, 1)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    /// Quitting while a write still waits for the lock: the app leaves, and says on the terminal
    /// what it could not save.
    func testQuittingWhileAWriteWaitsSaysWhatWasNotSaved() throws {
        let db = try database()
        let t = try app(db, environment: shortBusyTimeout)
        t.wait(forText: "? help")
        let holder = try LockHolder(database: db, environment: environment())
        defer { holder.release() }
        try t.keys("p")
        t.wait(forText: "Not saved yet: another program is writing", timeout: 30)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(timeout: 30), 0)
        t.wait(forText: "vtourist: not saved: database")
        XCTAssertEqual(try pins(db: db).count, 0)
    }
}

/// Another program holding the database's write lock (an exclusive transaction) until released.
final class LockHolder {
    private let process = Process()
    private let input = Pipe()

    init(database: String, environment: [String: String]) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
            db.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            sys.stdin.readline()
            db.execute("ROLLBACK")
            """, database]
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The lock is held once the line comes.
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("locked") else { throw TmuxError(message: "could not lock \(database): \(line)") }
    }

    func release() {
        guard process.isRunning else { return }
        input.fileHandleForWriting.write(Data("\n".utf8))
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}
