import Foundation
import TestSupport
import XCTest
import Model
import Geo
@testable import Store

/// A fresh directory under the system temp folder, removed at the end of the test.
func makeTempFolder(_ test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addCleanup {
        // Undo permission games so the folder can be removed.
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }
    return url.path
}

/// Every file in a folder (recursively) with its bytes: "nothing changed" means this is equal.
func snapshot(_ folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return result }
    for case let name as String in walker {
        let full = folder + "/" + name
        var isDir: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDir)
        result[name] = isDir.boolValue ? Data("<dir>".utf8) : try Data(contentsOf: URL(fileURLWithPath: full))
    }
    return result
}

/// Asserts `open` fails with the expected error, as one line naming the path, leaving the folder untouched.
func assertOpenRefused(path: String, folder: String, expected: StoreError, mustMention: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws {
    let before = try snapshot(folder)
    do {
        let db = try AppDatabase.open(path: path, busyTimeout: 0.2)
        try? db.close()
        XCTFail("opened \(path), expected \(expected)", file: file, line: line)
    } catch {
        XCTAssertEqual(error, expected, file: file, line: line)
        assertOneLine(error.description, naming: path, file: file, line: line)
        if let mustMention {
            XCTAssertTrue(error.description.contains(mustMention), "\(error.description) lacks \(mustMention)",
                          file: file, line: line)
        }
    }
    let after = try snapshot(folder)
    XCTAssertEqual(Set(after.keys), Set(before.keys), "files appeared or vanished", file: file, line: line)
    XCTAssertTrue(after == before, "a file's bytes changed", file: file, line: line)
}

func assertOneLine(_ message: String, naming path: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(message.contains("\n"), "not one line: \(message)", file: file, line: line)
    XCTAssertTrue(message.contains(path), "does not name \(path): \(message)", file: file, line: line)
}

/// Creates a vtourist database with a few pins, closed cleanly (no -wal/-shm left).
@discardableResult
func makeDatabase(at path: String, pins: Int = 3, before close: (AppDatabase) throws -> Void = { _ in }) throws -> [Pin] {
    let db = try AppDatabase.open(path: path)
    var made: [Pin] = []
    for i in 0..<pins {
        made.append(try db.insertPin(at: .init(latitude: Double(i), longitude: Double(i) * 2), name: "Pin \(i)"))
    }
    try close(db)
    try db.close()
    return made
}

/// Runs a program with exactly `environment` (nothing of the caller's), returning its standard output once it exits.
func runProgram(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Finds a program on PATH or in the usual places.
func findProgram(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let dirs = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/local/bin"]
    return dirs.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Two connections to one new database file, as two processes (two windows, `drop`) have; closed at teardown.
func openTwoConnections(_ test: XCTestCase) throws -> (AppDatabase, AppDatabase) {
    let path = try makeTempFolder(test) + "/vtourist.sqlite"
    let first = try AppDatabase.open(path: path)
    let second = try AppDatabase.open(path: path)
    test.addCleanup { try? first.close(); try? second.close() }
    return (first, second)
}
