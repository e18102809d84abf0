import Foundation
import XCTest

/// A temporary folder for one test's database.
func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// Runs the command line (not the full-screen app).
@discardableResult
func cli(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
    var env = ProcessInfo.processInfo.environment
    env["VTOURIST_DB"] = nil
    env.merge(extra) { $1 }
    return try runProcess(try vtouristBinary(), arguments, environment: env)
}

struct PinRow: Decodable, Equatable {
    var id: Int64
    var latitude: Double
    var longitude: Double
    var name: String?
    var state: String
    var photos: Int
    var downloaded: Int
}

func pins(db: String) throws -> [PinRow] {
    let r = try cli(["pins", "--json", "--db", db])
    XCTAssertEqual(r.status, 0, r.stderr)
    return try JSONDecoder().decode([PinRow].self, from: Data(r.stdout.utf8))
}

/// The status line: the last non-empty row of the screen.
func statusLine(_ screen: String) -> String {
    screen.split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init) ?? ""
}

func sha256(_ path: String) throws -> String {
    try runProcess("/usr/bin/sha256sum", [path]).stdout.split(separator: " ").first.map(String.init) ?? ""
}

func directoryListing(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
}
