import Locking
import Foundation
import XCTest
import Model
import Geo
@testable import Store

/// The app and `vtourist pins`/`drop` from another shell share one file.
final class SharingTests: XCTestCase {
    func testTwoInstancesWritingLoseNothing() throws {
        let path = try makeTempFolder(self) + "/vtourist.sqlite"
        let first = try AppDatabase.open(path: path)
        let second = try AppDatabase.open(path: path)
        defer { try? first.close(); try? second.close() }

        let perWriter = 150
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let db = writer == 0 ? first : second
            for i in 0..<perWriter {
                do {
                    let pin = try db.insertPin(at: .init(latitude: Double(writer), longitude: Double(i)), name: "w\(writer)")
                    if i % 10 == 0 { try db.setSetting("last\(writer)", "\(pin.id)") }
                    if i % 15 == 0 { _ = try db.movePin(id: pin.id, to: .init(latitude: -Double(writer), longitude: Double(i)), name: nil) }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        XCTAssertEqual(failures.values, [])
        for db in [first, second] {
            let pins = try db.pins()
            XCTAssertEqual(pins.count, 2 * perWriter)
            XCTAssertEqual(Set(pins.map(\.id)).count, 2 * perWriter)
            XCTAssertEqual(pins.filter { $0.name == "w0" }.count, perWriter - 10)
        }
        XCTAssertNotNil(try first.setting("last1"))
        XCTAssertNotNil(try second.setting("last0"))
    }

    func testDataVersionChangesWhenAnotherInstanceWrites() throws {
        let path = try makeTempFolder(self) + "/vtourist.sqlite"
        let app = try AppDatabase.open(path: path)
        let other = try AppDatabase.open(path: path)
        defer { try? app.close(); try? other.close() }

        let v0 = try app.dataVersion()
        XCTAssertEqual(try app.dataVersion(), v0, "no writes, no change")
        _ = try app.pins()
        XCTAssertEqual(try app.dataVersion(), v0, "reads are not changes")

        try other.insertPin(at: .init(latitude: 1, longitude: 1), name: "from another shell")
        let v1 = try app.dataVersion()
        XCTAssertNotEqual(v1, v0)
        XCTAssertEqual(try app.pins().map(\.name), ["from another shell"])

        try other.setSetting("k", "v")
        XCTAssertNotEqual(try app.dataVersion(), v1)
    }

    /// Two app instances started at once on a path that does not exist yet.
    func testInstancesCreatingTheSameFileAtOnce() throws {
        for round in 0..<20 {
            let path = try makeTempFolder(self) + "/new/vtourist.sqlite"
            let failures = LockedCounter()
            DispatchQueue.concurrentPerform(iterations: 4) { i in
                do {
                    let db = try AppDatabase.open(path: path)
                    try db.insertPin(at: .init(latitude: Double(i), longitude: 0), name: nil)
                    try db.close()
                } catch {
                    failures.add("round \(round), instance \(i): \(error)")
                }
            }
            XCTAssertEqual(failures.values, [])
            let db = try AppDatabase.open(path: path)
            XCTAssertEqual(try db.pins().count, 4)
            try db.close()
        }
    }

    /// The map polls dataVersion(): polling is a read, changes nothing and sees no change of its own.
    /// (How cheap a poll is belongs to `make bench`, not to a unit test.)
    func testPollingDataVersionChangesNothing() throws {
        let path = try makeTempFolder(self) + "/vtourist.sqlite"
        let db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        try db.insertPin(at: .init(latitude: 1, longitude: 1), name: nil)
        let v0 = try db.dataVersion()
        let other = try AppDatabase.open(path: path)
        defer { try? other.close() }
        let otherV0 = try other.dataVersion()
        for _ in 0..<1000 { XCTAssertEqual(try db.dataVersion(), v0) }
        XCTAssertEqual(try other.dataVersion(), otherV0, "a poll looked like a write to another instance")
    }

    /// Another process holds the write lock past the busy timeout: writes fail with a clear
    /// error, reads go on (WAL), and writes work again once it lets go.
    func testALockedDatabase() throws {
        let python = "/usr/bin/python3"
        let path = try makeTempFolder(self) + "/vtourist.sqlite"
        let db = try AppDatabase.open(path: path, busyTimeout: 0.3)
        defer { try? db.close() }
        let pin = try db.insertPin(at: .init(latitude: 1, longitude: 1), name: "before")
        let version = try db.dataVersion()

        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: python)
        holder.arguments = ["-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)
            c.execute("BEGIN EXCLUSIVE")
            c.execute("INSERT INTO setting (key, value) VALUES ('holder', 'yes')")
            print("locked", flush=True)
            sys.stdin.readline()  # holds the lock until the test says so
            c.execute("COMMIT")
            """, path]
        holder.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let pipe = Pipe()
        holder.standardOutput = pipe
        let release = Pipe()
        holder.standardInput = release
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        let line = String(decoding: pipe.fileHandleForReading.availableDataOrLine(), as: UTF8.self)
        XCTAssertEqual(line.trimmingCharacters(in: .whitespacesAndNewlines), "locked")

        let start = Date()
        XCTAssertThrowsError(try db.insertPin(at: .init(latitude: 2, longitude: 2), name: "during")) { error in
            XCTAssertEqual(error as? StoreError, .locked(path: path))
            assertOneLine("\(error)", naming: path)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.25, "waited the busy timeout first")
        XCTAssertEqual(try db.pins().map(\.id), [pin.id], "reading works during another's write")
        // A second app instance still opens: an up-to-date file needs no write lock.
        let another = try AppDatabase.open(path: path, busyTimeout: 0.3)
        XCTAssertEqual(try another.pins().count, 1)
        try another.close()

        release.fileHandleForWriting.write(Data("commit\n".utf8))
        holder.waitUntilExit()
        XCTAssertEqual(holder.terminationStatus, 0)
        XCTAssertNotEqual(try db.dataVersion(), version, "another process's commit is seen")
        try db.insertPin(at: .init(latitude: 3, longitude: 3), name: "after")
        XCTAssertEqual(try db.pins().map(\.name), ["before", "after"])
        XCTAssertEqual(try db.setting("holder"), "yes")
    }
}

final class LockedCounter: Sendable {
    private let stored = Locked<[String]>([])
    func add(_ value: String) { stored.withLock { $0.append(value) } }
    var values: [String] { stored.withLock { $0 } }
}

extension FileHandle {
    /// Reads until a newline or end of file.
    func availableDataOrLine() -> Data {
        var data = Data()
        while true {
            let byte = readData(ofLength: 1)
            if byte.isEmpty { return data }
            data.append(byte)
            if byte == Data([0x0A]) { return data }
        }
    }
}
