import Foundation
import XCTest

/// SPEC 5: the database is `--db`, else $VTOURIST_DB, else
/// $XDG_DATA_HOME/vtourist/vtourist.sqlite, else ~/.local/share/vtourist/vtourist.sqlite.
/// Each case drops a pin with the command line in a temporary HOME and looks
/// for it in every candidate file.
final class DatabasePathTests: EndToEndTestCase {
    var flag = ""
    var variable = ""
    var xdg = ""
    var homeFile = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        let dir = try temporaryDirectory().path
        flag = dir + "/flag.sqlite"
        variable = dir + "/variable.sqlite"
        xdg = dir + "/xdg"
        homeFile = home + "/.local/share/vtourist/vtourist.sqlite"
    }

    var xdgFile: String { xdg + "/vtourist/vtourist.sqlite" }
    var candidates: [String] { [flag, variable, xdgFile, homeFile] }

    /// Drops a pin and lists pins with `arguments` and `environment`, then
    /// returns which candidate files exist and which holds the pin.
    func dropAndList(_ arguments: [String], environment overrides: [String: String?],
                     file: StaticString = #filePath, line: UInt = #line) throws -> (existing: [String], listed: Int) {
        let drop = try cli(["drop", "12.5", "45.25", "--wait"] + arguments, environment: overrides)
        XCTAssertEqual(drop.status, 0, drop.stderr, file: file, line: line)
        let list = try cli(["pins", "--json"] + arguments, environment: overrides)
        XCTAssertEqual(list.status, 0, list.stderr, file: file, line: line)
        let listed = try JSONDecoder().decode([PinRow].self, from: Data(list.stdout.utf8))
        XCTAssertEqual(listed.map(\.latitude), [12.5], file: file, line: line)
        return (candidates.filter { FileManager.default.fileExists(atPath: $0) }, listed.count)
    }

    /// The pins in one file, read with sqlite3 rather than the app.
    func storedLatitudes(_ path: String) throws -> [String] {
        let r = try runProcess("/usr/bin/sqlite3", [path, "SELECT latitude FROM pin;"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func testTheFlagBeatsEverything() throws {
        let r = try dropAndList(["--db", flag], environment: ["VTOURIST_DB": variable, "XDG_DATA_HOME": xdg])
        XCTAssertEqual(r.existing, [flag])
        XCTAssertEqual(try storedLatitudes(flag), ["12.5"])
    }

    func testTheVariableBeatsXDG() throws {
        let r = try dropAndList([], environment: ["VTOURIST_DB": variable, "XDG_DATA_HOME": xdg])
        XCTAssertEqual(r.existing, [variable])
        XCTAssertEqual(try storedLatitudes(variable), ["12.5"])
    }

    func testXDGBeatsHome() throws {
        let r = try dropAndList([], environment: ["VTOURIST_DB": nil, "XDG_DATA_HOME": xdg])
        XCTAssertEqual(r.existing, [xdgFile])
        XCTAssertEqual(try storedLatitudes(xdgFile), ["12.5"])
    }

    func testHomeWhenNothingElseIsSet() throws {
        let r = try dropAndList([], environment: ["VTOURIST_DB": nil, "XDG_DATA_HOME": nil])
        XCTAssertEqual(r.existing, [homeFile])
        XCTAssertEqual(try storedLatitudes(homeFile), ["12.5"])
    }

    /// The XDG spec ignores a relative XDG_DATA_HOME; so do we.
    func testARelativeXDGDataHomeIsIgnored() throws {
        let r = try dropAndList([], environment: ["VTOURIST_DB": nil, "XDG_DATA_HOME": "relative/xdg"])
        XCTAssertEqual(r.existing, [homeFile])
    }

    /// An empty VTOURIST_DB counts as unset.
    func testAnEmptyVariableFallsThrough() throws {
        let r = try dropAndList([], environment: ["VTOURIST_DB": "", "XDG_DATA_HOME": xdg])
        XCTAssertEqual(r.existing, [xdgFile])
    }
}
