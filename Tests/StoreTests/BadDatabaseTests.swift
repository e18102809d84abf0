import Foundation
import XCTest
import Model
import Geo
@testable import Store

/// SPEC 8: each bad database gets one clear line naming it, and the file is left as it was.
final class BadDatabaseTests: XCTestCase {
    /// Deterministic noise, so a failure can be reproduced.
    private func noise(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }

    private func overwrite(_ path: String, at offset: Int, with data: Data) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: data)
        try handle.close()
    }

    func testAPathThatIsADirectory() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try assertOpenRefused(path: path, folder: folder, expected: .isDirectory(path: path), mustMention: "directory")
    }

    func testAPathUnderARegularFile() throws {
        let folder = try makeTempFolder(self)
        let notes = folder + "/notes.txt"
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: notes))
        try assertOpenRefused(path: notes + "/vtourist.sqlite", folder: folder,
                              expected: .parentNotDirectory(path: notes + "/vtourist.sqlite", parent: notes))
        try assertOpenRefused(path: notes + "/a/b/vtourist.sqlite", folder: folder,
                              expected: .parentNotDirectory(path: notes + "/a/b/vtourist.sqlite", parent: notes))
    }

    func testFilesThatAreNotSQLite() throws {
        let folder = try makeTempFolder(self)
        let cases: [(String, Data)] = [
            ("random.sqlite", noise(8192)),
            ("text.sqlite", Data("lat,lon\n48.85,2.35\n".utf8)),
            ("short.sqlite", Data("SQLite format 3\0".utf8)),
        ]
        for (name, bytes) in cases {
            let path = folder + "/" + name
            try bytes.write(to: URL(fileURLWithPath: path))
            try assertOpenRefused(path: path, folder: folder, expected: .notADatabase(path: path),
                                  mustMention: "not a vtourist database")
        }
    }

    func testGarbageAfterAValidHeader() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path, pins: 50)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try overwrite(path, at: 100, with: noise(size - 100))
        try assertOpenRefusedAsDamaged(path: path, folder: folder)
    }

    func testGarbageInThePinTable() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        var root = 0, pageSize = 0
        try makeDatabase(at: path, pins: 20) { db in
            root = try db.integersForTesting("SELECT rootpage FROM sqlite_master WHERE name = 'pin'").first ?? 0
            pageSize = try db.integersForTesting("PRAGMA page_size").first ?? 0
        }
        XCTAssertGreaterThan(root, 1)
        try overwrite(path, at: (root - 1) * pageSize, with: noise(pageSize))
        try assertOpenRefusedAsDamaged(path: path, folder: folder)
    }

    private func assertOpenRefusedAsDamaged(path: String, folder: String, line: UInt = #line) throws {
        let before = try snapshot(folder)
        XCTAssertThrowsError(try AppDatabase.open(path: path), line: line) { error in
            guard case .corrupt = error as? StoreError else { return XCTFail("\(error)", line: line) }
            assertOneLine("\(error)", naming: path, line: line)
            XCTAssertTrue("\(error)".contains("damaged"), line: line)
        }
        XCTAssertTrue(try snapshot(folder) == before, "the damaged file was touched", line: line)
    }

    /// Damage outside what open checks (photos) shows when it is read, as an error, not a crash.
    func testDamagedPhotosSurfaceWhenRead() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        var roots: [Int] = [], pageSize = 0
        try makeDatabase(at: path, pins: 5) { db in
            try db.executeForTesting("""
                INSERT INTO photo (pinId, position, source, sourceId, url, state)
                SELECT id, 0, 'commons', 'p' || id, 'http://127.0.0.1/p.jpg', 'pending' FROM pin
                """)
            roots = try db.integersForTesting("SELECT rootpage FROM sqlite_master WHERE tbl_name = 'photo' AND rootpage > 0")
            pageSize = try db.integersForTesting("PRAGMA page_size").first ?? 0
        }
        for root in roots { try overwrite(path, at: (root - 1) * pageSize, with: noise(pageSize, seed: UInt64(root))) }

        let db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        XCTAssertEqual(try db.mapView(), nil, "what is intact still works")
        XCTAssertThrowsError(try db.pins()) { error in
            guard case .corrupt = error as? StoreError else { return XCTFail("\(error)") }
            assertOneLine("\(error)", naming: path)
        }
        XCTAssertFalse(try db.integrityCheck())
    }

    func testADatabaseFromANewerVersion() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path) { db in
            try db.executeForTesting("INSERT INTO grdb_migrations (identifier) VALUES ('v2-albums-by-date')")
        }
        try assertOpenRefused(path: path, folder: folder,
                              expected: .newerVersion(path: path, migrations: ["v2-albums-by-date"]),
                              mustMention: "newer version of vtourist")
    }

    /// The newer vtourist is still running: its change is in the -wal, not yet in the main file.
    func testANewerVersionStillRunning() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path)
        let newer = try AppDatabase.open(path: path)
        defer { try? newer.close() }
        try newer.executeForTesting("INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
        let main = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try AppDatabase.open(path: path)) { error in
            XCTAssertEqual(error as? StoreError, .newerVersion(path: path, migrations: ["v99"]))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), main)
    }

    func testAnotherProgramsDatabase() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path) { db in try db.executeForTesting("PRAGMA application_id = 42") }
        try assertOpenRefused(path: path, folder: folder, expected: .foreignDatabase(path: path),
                              mustMention: "not a vtourist database")
    }

    /// Each refusal must also leave no -wal/-shm behind, even for a file whose header says WAL.
    func testRefusalLeavesNoCompanionFiles() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path) { db in try db.executeForTesting("INSERT INTO grdb_migrations VALUES ('v9')") }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["vtourist.sqlite"])
        XCTAssertThrowsError(try AppDatabase.open(path: path), "a database from a newer version was opened") { error in
            XCTAssertEqual(error as? StoreError, .newerVersion(path: path, migrations: ["v9"]))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["vtourist.sqlite"])
    }
}
