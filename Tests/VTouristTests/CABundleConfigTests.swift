import ArgumentParser
import Foundation
import Model
import PhotoSources
import Store
import XCTest
@testable import vtourist

/// `ca_bundle` and `VTOURIST_CA_BUNDLE`: a readable PEM file, checked by `config set` and wherever it
/// is read, shown with its origin by `config`; bad paths refused with one line naming the file.
final class CABundleConfigTests: XCTestCase {
    var folder: URL!
    /// A copy of the test certificate authority.
    var pem: String!
    var database: String { folder.appendingPathComponent("vtourist.sqlite").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let authority = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tls/ca.pem")
        pem = folder.appendingPathComponent("corp.pem").path
        try FileManager.default.copyItem(atPath: authority.path, toPath: pem)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
        // XCTest never frees a test case: what it still holds at exit would be reported as leaked.
        (folder, pem) = (nil, nil)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func refusal(_ text: String) -> String {
        if case .failure(let r) = ConfigReport.valueToStore(.caBundle, text) { return r.description }
        return "stored"
    }

    // MARK: - The report

    func testAGoodPathIsStoredAbsoluteAndListedFromTheDatabase() throws {
        XCTAssertEqual(ConfigReport.valueToStore(.caBundle, "  \(pem!)\n"), .success(pem))
        // A relative path and ~ are made absolute: the app may start from another folder.
        let relative = try XCTUnwrap(pem.split(separator: "/").last.map(String.init))
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        XCTAssertEqual(ConfigReport.valueToStore(.caBundle, ".//\(relative)"), .success(pem))
        XCTAssertEqual(ConfigReport.valueToStore(.caBundle, "../\(folder.lastPathComponent)/./\(relative)"),
                       .success(folder.path + "/../\(folder.lastPathComponent)/\(relative)"),
                       "`..` stays as given: through a link it is not the folder above")
        let report = ConfigReport(stored: [.caBundle: pem], environment: [:])
        XCTAssertEqual(report.entry(.caBundle), ConfigEntry(key: .caBundle, value: pem, origin: .database))
        XCTAssertEqual(report.problems, [])
        XCTAssertTrue(report.table.contains("ca_bundle              \(pem!)"), report.table)
    }

    func testBadPathsAreRefusedNamingTheFileAndWhatIsWrong() throws {
        let rule = "cannot set ca_bundle: the CA bundle must be a readable PEM file of certificates (-----BEGIN CERTIFICATE-----); "
        let missing = folder.appendingPathComponent("missing.pem").path
        XCTAssertEqual(refusal(missing), rule + "there is no file “\(missing)”")
        XCTAssertEqual(refusal(folder.path), rule + "“\(folder.path)” is a folder")
        let text = try file("notes.txt", "hello\n")
        XCTAssertEqual(refusal(text), rule + "“\(text)” has no PEM certificate in it")
        let empty = try file("empty.pem", "")
        XCTAssertEqual(refusal(empty), rule + "“\(empty)” has no PEM certificate in it")
        let locked = try file("locked.pem", try String(contentsOfFile: pem, encoding: .utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked)
        if !FileManager.default.isReadableFile(atPath: locked) {  // root reads it anyway
            XCTAssertEqual(refusal(locked), rule + "“\(locked)” cannot be read (permission denied)")
        }
        // A pipe or a device is refused before anything is read from it: a read would never end.
        let fifo = folder.appendingPathComponent("pipe.pem").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(refusal(fifo), rule + "“\(fifo)” is not a regular file")
        XCTAssertEqual(refusal("/dev/zero"), rule + "“/dev/zero” is not a regular file")
        // Over 16 MB (a sparse file: nothing is written), refused from its size.
        let huge = try file("huge.pem", "-----BEGIN CERTIFICATE-----\n")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: UInt64(Settings.maxCABundleBytes + 1))
        try handle.close()
        XCTAssertEqual(refusal(huge), rule + "“\(huge)” is over 16 MB")
        // A link to a PEM file (the system's certificates are links) is one.
        let link = folder.appendingPathComponent("link.pem").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pem)
        XCTAssertEqual(ConfigReport.valueToStore(.caBundle, link), .success(link))
        XCTAssertEqual(refusal(""), rule + "no path was given")
        XCTAssertEqual(refusal("/tmp/a\u{1B}[2Jb.pem"), rule + "the path has a control character in it")
        // A long path keeps its end, the file's name.
        let deep = "/" + String(repeating: "x", count: 200) + "/corp.pem"
        let said = refusal(deep)
        XCTAssertTrue(said.hasSuffix("xxx/corp.pem”"), said)
        XCTAssertLessThan(said.count, rule.count + 120, said)
    }

    func testAStoredFileThatIsGoneReadsAsNoneWithALineNamingIt() {
        let gone = folder.appendingPathComponent("gone.pem").path
        let report = ConfigReport(stored: [.caBundle: gone], environment: [:])
        XCTAssertEqual(report.entry(.caBundle), ConfigEntry(key: .caBundle, value: nil, origin: .default))
        XCTAssertEqual(report.problems, ["The stored CA bundle was ignored: the CA bundle must be a readable PEM file of certificates "
                                         + "(-----BEGIN CERTIFICATE-----); there is no file “\(gone)”."])
    }

    func testTheVariableOverridesTheSettingAndAnInvalidOneIsIgnoredWithALine() throws {
        let other = try file("other.pem", try String(contentsOfFile: pem, encoding: .utf8))
        let report = ConfigReport(stored: [.caBundle: pem], environment: ["VTOURIST_CA_BUNDLE": other])
        XCTAssertEqual(report.entry(.caBundle),
                       ConfigEntry(key: .caBundle, value: other, origin: .environment, variable: "VTOURIST_CA_BUNDLE"))
        XCTAssertTrue(report.table.contains("\(other)  environment (VTOURIST_CA_BUNDLE)\n"), report.table)
        XCTAssertEqual(EnvironmentOverrides.caBundle(environment: ["VTOURIST_CA_BUNDLE": other], settings: Settings(stored: [.caBundle: pem])),
                       other, "what the HTTP client is given")
        XCTAssertEqual(EnvironmentOverrides.caBundle(environment: [:], settings: Settings(stored: [.caBundle: pem])), pem)
        XCTAssertNil(EnvironmentOverrides.caBundle(environment: ["VTOURIST_CA_BUNDLE": "  "], settings: Settings()))
        XCTAssertEqual(EnvironmentOverrides(environment: ["VTOURIST_CA_BUNDLE": other]).overridden, [.caBundle: "VTOURIST_CA_BUNDLE"],
                       "the settings screen shows it as set by the variable")

        let bad = ConfigReport(stored: [.caBundle: pem], environment: ["VTOURIST_CA_BUNDLE": "/nowhere/ca.pem"])
        XCTAssertEqual(bad.entry(.caBundle), ConfigEntry(key: .caBundle, value: pem, origin: .database), "it overrides nothing")
        XCTAssertEqual(bad.problems, ["VTOURIST_CA_BUNDLE was ignored: the CA bundle must be a readable PEM file of certificates "
                                      + "(-----BEGIN CERTIFICATE-----); there is no file “/nowhere/ca.pem”."])
        XCTAssertEqual(ConfigReport.stored(.caBundle, value: pem, environment: ["VTOURIST_CA_BUNDLE": other]),
                       ["ca_bundle = \(pem!) (stored in the database)",
                        "VTOURIST_CA_BUNDLE is set and overrides it; unset VTOURIST_CA_BUNDLE for the stored value to count."])
    }

    // MARK: - The commands

    func run(_ arguments: [String]) throws {
        var command = try VTourist.parseAsRoot(arguments)
        try command.run()
    }

    func testSetGetAndUnsetGoThroughTheDatabase() throws {
        try run(["config", "set", "ca_bundle", pem, "--db", database])
        let store = try AppDatabase.open(path: database)
        defer { try? store.close() }
        XCTAssertEqual(try store.storedSettingTexts()[.caBundle], pem)
        XCTAssertEqual(try store.settings().caBundle, pem)
        try run(["config", "get", "ca-bundle", "--db", database])
        try run(["config", "unset", "ca_bundle", "--db", database])
        XCTAssertNil(try store.storedSettingTexts()[.caBundle])
    }

    func testABadPathIsBadInputAndCreatesNoDatabase() throws {
        XCTAssertThrowsError(try run(["config", "set", "ca_bundle", folder.appendingPathComponent("nope.pem").path,
                                      "--db", database])) { error in
            XCTAssertEqual((error as? ExitCode)?.rawValue, 64, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: database), "refused before the database is opened")
    }
}
