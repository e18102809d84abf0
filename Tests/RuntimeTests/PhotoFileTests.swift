import Foundation
@testable import TouristRuntime
import XCTest

/// File names for saved photos, the pictures folder, and how the page opener starts its program.
final class PhotoFileTests: XCTestCase {
    func testTitlesBecomeSafeFileNames() {
        XCTAssertEqual(PhotoFile.safeName("Castel dell'Ovo"), "Castel dell'Ovo")
        XCTAssertEqual(PhotoFile.safeName("a/b\\c"), "a-b-c")
        XCTAssertEqual(PhotoFile.safeName("tab\there\nnew\u{1B}[2J line"), "tab here new [2J line")
        XCTAssertEqual(PhotoFile.safeName("..hidden"), "hidden")
        XCTAssertEqual(PhotoFile.safeName(""), "photo")
        XCTAssertEqual(PhotoFile.safeName(" \u{7} "), "photo")
        XCTAssertEqual(PhotoFile.safeName("/"), "-")
        XCTAssertEqual(PhotoFile.safeName(String(repeating: "é", count: 200)).count, PhotoFile.maxNameLength)
    }

    func testThePicturesFolderIsXDGsElseTheHomes() {
        XCTAssertEqual(PhotoFile.picturesFolder(environment: ["XDG_PICTURES_DIR": "/data/pics", "HOME": "/home/me"]).path,
                       "/data/pics")
        XCTAssertEqual(PhotoFile.picturesFolder(environment: ["HOME": "/home/me"]).path, "/home/me/Pictures")
        // A relative or empty setting is not a folder to write to.
        XCTAssertEqual(PhotoFile.picturesFolder(environment: ["XDG_PICTURES_DIR": "pics", "HOME": "/home/me"]).path,
                       "/home/me/Pictures")
    }

    func testTheOpenersProgramHasNothingOfTheTerminalAndASessionOfItsOwn() throws {
        let script = """
            for fd in 0 1 2; do [ "$(readlink /proc/$$/fd/$fd)" = /dev/null ] || exit 10; done
            set -- $(cat /proc/$$/stat)
            [ "$6" = "$$" ] || exit 11
            exit 3
            """
        let (pid, error) = PageOpener.spawnDetached("sh", ["-c", script])
        let child = try XCTUnwrap(pid, "sh did not start: \(error)")
        XCTAssertEqual(PageOpener.waitForExit(child), 3)
    }

    func testAProgramNotOnThePathIsReportedAsMissing() {
        let (pid, error) = PageOpener.spawnDetached("vtourist-no-such-opener", ["https://example.org/"])
        XCTAssertNil(pid)
        XCTAssertEqual(error, ENOENT)
    }
}
