import Foundation
import XCTest
@testable import Store

/// Read-only and unreadable databases.
///
/// Tests run as root in CI, where permissions do not bite. So the decision is tested as a pure
/// function of `access()` results, and the real cases run this test binary again as `nobody`
/// (via `setpriv`) on real files; when not root, they run in this process.
final class PermissionTests: XCTestCase {
    private let rw = PathFacts.File(readable: true, writable: true)
    private let ro = PathFacts.File(readable: true, writable: false)

    func testDecisionFromAccessFacts() {
        func problem(_ facts: PathFacts) -> StoreError? { accessProblem(path: "/d/v.sqlite", folder: "/d", facts: facts) }
        XCTAssertNil(problem(.init(database: nil, wal: nil, shm: nil, folderWritable: true)))
        XCTAssertNil(problem(.init(database: rw, wal: nil, shm: nil, folderWritable: true)))
        XCTAssertNil(problem(.init(database: rw, wal: rw, shm: rw, folderWritable: false)),
                     "a read-only folder is fine while -wal and -shm exist and are writable")
        XCTAssertEqual(problem(.init(database: nil, wal: nil, shm: nil, folderWritable: false)),
                       .readOnlyFolder(path: "/d/v.sqlite", folder: "/d"))
        XCTAssertEqual(problem(.init(database: rw, wal: nil, shm: nil, folderWritable: false)),
                       .readOnlyFolder(path: "/d/v.sqlite", folder: "/d"))
        XCTAssertEqual(problem(.init(database: rw, wal: rw, shm: nil, folderWritable: false)),
                       .readOnlyFolder(path: "/d/v.sqlite", folder: "/d"))
        XCTAssertEqual(problem(.init(database: ro, wal: nil, shm: nil, folderWritable: true)),
                       .readOnlyFile(path: "/d/v.sqlite"))
        XCTAssertEqual(problem(.init(database: rw, wal: ro, shm: rw, folderWritable: true)),
                       .readOnlyFile(path: "/d/v.sqlite"))
        XCTAssertEqual(problem(.init(database: .init(readable: false, writable: true), wal: nil, shm: nil,
                                     folderWritable: true)),
                       .unreadable(path: "/d/v.sqlite"))
    }

    func testReadOnlyFile() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path)
        chmod(path, 0o444)
        try assertRefusedForOtherUser(path: path, folder: folder, expected: .readOnlyFile(path: path))
    }

    func testReadOnlyFolder() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path)
        chmod(path, 0o666)
        chmod(folder, 0o555)
        try assertRefusedForOtherUser(path: path, folder: folder, expected: .readOnlyFolder(path: path, folder: folder))
    }

    func testNewDatabaseInAReadOnlyFolder() throws {
        let folder = try makeTempFolder(self)
        chmod(folder, 0o555)
        let path = folder + "/vtourist.sqlite"
        try assertRefusedForOtherUser(path: path, folder: folder, expected: .readOnlyFolder(path: path, folder: folder))
        let deeper = folder + "/sub/vtourist.sqlite"
        try assertRefusedForOtherUser(path: deeper, folder: folder, expected: .cannotCreateFolder(
            path: deeper, folder: folder + "/sub", reason: String(cString: strerror(EACCES))))
    }

    func testUnreadableFile() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path)
        chmod(path, 0o000)
        try assertRefusedForOtherUser(path: path, folder: folder, expected: .unreadable(path: path))
    }

    /// The same kind of file opens for that user once it may write: the refusals come from permissions only.
    func testOpensWhenPermissionsAllow() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path)
        XCTAssertEqual(try openAsOtherUser(path: path, folderMode: 0o777, fileMode: 0o666), "opened")
    }

    // MARK: Running as another user

    private func assertRefusedForOtherUser(path: String, folder: String, expected: StoreError,
                                           line: UInt = #line) throws {
        let before = try snapshot(folder)
        let message = try openAsOtherUser(path: path)
        XCTAssertEqual(message, expected.description, line: line)
        XCTAssertTrue(try snapshot(folder) == before, "files changed", line: line)
    }

    /// Opens `path` as an unprivileged user; returns the error's description, or "opened".
    private func openAsOtherUser(path: String, folderMode: mode_t? = nil, fileMode: mode_t? = nil) throws -> String {
        if let folderMode { chmod(OpenCheck.folder(of: path), folderMode) }
        if let fileMode { chmod(path, fileMode) }
        guard getuid() == 0 else { return Self.openDescribing(path) }

        let setpriv = try XCTUnwrap(findProgram("setpriv"), "setpriv (util-linux) is needed to drop root")
        let executable = try Self.testBinaryForOtherUsers()
        defer { Self.removeTestBinaryForOtherUsers(executable) }
        let result = try runProgram(setpriv, ["--reuid=nobody", "--regid=nogroup", "--clear-groups", executable,
                                       "StoreTests.PermissionChildProcess/testOpenAsChild"],
                             environment: ["VTOURIST_STORE_CHILD_DB": path, "PATH": "/usr/bin:/bin", "HOME": "/"])
        let marker = "CHILD-RESULT: "
        guard let line = result.output.split(separator: "\n").first(where: { $0.hasPrefix(marker) }) else {
            XCTFail("child printed no result (status \(result.status)): \(result.output)")
            return ""
        }
        return String(line.dropFirst(marker.count))
    }

    /// A copy of this test binary that `nobody` can run: the checkout itself may
    /// sit in a private folder (CI clones into a 0700 temporary directory). Each call makes a fresh
    /// copy in a folder of its own (never one left by an earlier run); `removeTestBinaryForOtherUsers` removes it.
    static func testBinaryForOtherUsers() throws -> String {
        let original = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-store-child-\(UUID().uuidString)")
        let copy = dir.appendingPathComponent((original as NSString).lastPathComponent).path
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        chmod(dir.path, 0o755)
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        chmod(copy, 0o755)
        return copy
    }

    /// Removes a copy made by `testBinaryForOtherUsers`, with its folder.
    static func removeTestBinaryForOtherUsers(_ copy: String) {
        try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent)
    }

    func testTheCopyForOtherUsersIsFreshAndRemoved() throws {
        let first = try Self.testBinaryForOtherUsers()
        let second = try Self.testBinaryForOtherUsers()
        XCTAssertNotEqual(first, second, "each copy has a name of its own")
        let original = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: first, andPath: original), "a copy of this very binary")
        Self.removeTestBinaryForOtherUsers(first)
        Self.removeTestBinaryForOtherUsers(second)
        for copy in [first, second] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: (copy as NSString).deletingLastPathComponent), copy)
        }
    }

    static func openDescribing(_ path: String) -> String {
        do {
            let db = try AppDatabase.open(path: path, busyTimeout: 0.2)
            try db.close()
            return "opened"
        } catch {
            return error.description
        }
    }
}

/// Inside the child started by `PermissionTests` (as `nobody`) it reports how
/// opening the given path went; run directly, it checks that a fresh path opens.
final class PermissionChildProcess: XCTestCase {
    func testOpenAsChild() throws {
        if let path = ProcessInfo.processInfo.environment["VTOURIST_STORE_CHILD_DB"] {
            print("CHILD-RESULT: " + PermissionTests.openDescribing(path))
            return
        }
        let folder = try makeTempFolder(self)
        XCTAssertEqual(PermissionTests.openDescribing(folder + "/fresh.sqlite"), "opened")
    }
}
