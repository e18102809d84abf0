import Foundation
@testable import TouristRuntime
import XCTest

/// File names for saved photos, the pictures folder, and how the page opener starts its program.
final class PhotoFileTests: XCTestCase {
    func testAPhotoWithAVeryLongWideTitleIsSaved() throws {
        // 300 four-byte characters: cut at 80 characters they were 320 bytes, past the 255 a file name may take.
        let pictures = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-save-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pictures) }
        let saved = try PhotoFile.save(Data([0xFF, 0xD8, 0xFF, 0xD9]), title: String(repeating: "🗺", count: 300), pictures: pictures)
        XCTAssertEqual(saved, .written(pictures.appendingPathComponent("vtourist/" + String(repeating: "🗺", count: 50) + ".jpg").path))
        XCTAssertEqual(FileManager.default.contents(atPath: saved.path), Data([0xFF, 0xD8, 0xFF, 0xD9]))
    }

    func testThePicturesFolderIsXDGsElseTheHomes() {
        XCTAssertEqual(PhotoFile.picturesFolder(environment: ["XDG_PICTURES_DIR": "/data/pics", "HOME": "/home/me"]).path,
                       "/data/pics")
        XCTAssertEqual(PhotoFile.picturesFolder(environment: ["HOME": "/home/me"]).path, "/home/me/Pictures")
        // A relative or empty setting is not a folder to write to.
        XCTAssertEqual(PhotoFile.picturesFolder(environment: ["XDG_PICTURES_DIR": "pics", "HOME": "/home/me"]).path,
                       "/home/me/Pictures")
    }

    func testSavingTheSameBytesTwiceSaysWhereTheyAreAndWritesNothing() throws {
        let pictures = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-save-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pictures) }
        let folder = pictures.appendingPathComponent("vtourist")
        let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9])
        let first = folder.appendingPathComponent("Market #3.jpg").path
        XCTAssertEqual(try PhotoFile.save(bytes, title: "Market #3", pictures: pictures), .written(first))
        let again = try PhotoFile.save(bytes, title: "Market #3", pictures: pictures)
        XCTAssertEqual(again, .alreadySaved(first))
        XCTAssertEqual(again.message, "Already saved as \(first)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["Market #3.jpg"])
        // The file was changed since (same size, other bytes): the photo goes to a new file, the changed one stays.
        let edited = Data([0xFF, 0xD8, 0xFF, 0xE0, 9, 9, 9, 0xFF, 0xD9])
        try edited.write(to: URL(fileURLWithPath: first))
        let second = folder.appendingPathComponent("Market #3 (2).jpg").path
        XCTAssertEqual(try PhotoFile.save(bytes, title: "Market #3", pictures: pictures), .written(second))
        XCTAssertEqual(FileManager.default.contents(atPath: first), edited)
        XCTAssertEqual(FileManager.default.contents(atPath: second), bytes)
        // …and saved once more, it is found in the second file.
        XCTAssertEqual(try PhotoFile.save(bytes, title: "Market #3", pictures: pictures), .alreadySaved(second))
        // A folder with the photo's file name is no earlier save: the next free name is used.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Stall.jpg"), withIntermediateDirectories: false)
        XCTAssertEqual(try PhotoFile.save(bytes, title: "Stall", pictures: pictures),
                       .written(folder.appendingPathComponent("Stall (2).jpg").path))
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
