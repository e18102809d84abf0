@testable import AlbumExport
import Foundation
import Model
import Store
import TestSupport
import XCTest

/// An album written into a folder from a real SQLite file: the bytes, the refusals, the failures.
final class AlbumSavingTests: AlbumStoreTestCase {
    var dir: URL { folder.appendingPathComponent("out/trip", isDirectory: true) }

    func testEveryStoredPhotoIsWrittenWithItsOriginalBytesTheLargeOneWhereStored() throws {
        let (pin, photos) = try album([("Bay", true), ("Bay", true), ("pending", false), ("Vesuvius", true)])
        let large = LargeImage(bytes: LargeJPEG.bytes, width: LargeJPEG.width, height: LargeJPEG.height)
        XCTAssertTrue(try store.storeLargeImage(photoID: photos[1].id, large, budgetBytes: 10_000_000, now: 1))
        var heard: [String] = []
        let saved = try AlbumSaving.save(store, pinID: pin.id, into: dir.path, force: false) { heard.append($0) }

        XCTAssertEqual(listing(dir), ["01-Bay.jpg", "02-Bay.jpg", "03-Vesuvius.jpg", "credits.json", "index.html"])
        XCTAssertEqual(saved.photos, 3)
        XCTAssertEqual(heard, saved.files)
        XCTAssertEqual(heard.map { ($0 as NSString).lastPathComponent }, listing(dir))
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("01-Bay.jpg")), try store.imageBytes(photoID: photos[0].id))
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("02-Bay.jpg")), LargeJPEG.bytes, "the large image, Exif and all")
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("03-Vesuvius.jpg")), try store.imageBytes(photoID: photos[3].id))
        let credits = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("credits.json"))) as? [[String: Any]])
        XCTAssertEqual(credits.map { $0["file"] as? String }, ["01-Bay.jpg", "02-Bay.jpg", "03-Vesuvius.jpg"])
        XCTAssertEqual((credits[1]["large"] as? [String: Any])?["width"] as? Int, LargeJPEG.width)
        // The folder and its parents made 0755 (as the umask allows), the files 0644.
        let mode = try FileManager.default.attributesOfItem(atPath: dir.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode.map { $0 & 0o700 }, 0o700)
        XCTAssertEqual(mode.map { $0 & 0o022 }, 0)
        let fileMode = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("credits.json").path)[.posixPermissions] as? Int
        XCTAssertEqual(fileMode.map { $0 & 0o777 & ~0o022 }, 0o644)
    }

    func testTheCreditsSayWhatWasWrittenWhenTheAlbumChangesMeanwhile() throws {
        let (pin, photos) = try album([("Bay", true), ("Gone", true), ("Vesuvius", true)])
        let large = LargeImage(bytes: LargeJPEG.bytes, width: LargeJPEG.width, height: LargeJPEG.height)
        XCTAssertTrue(try store.storeLargeImage(photoID: photos[2].id, large, budgetBytes: 10_000_000, now: 1))
        // Another window, after the first file: deletes the second photo and lets the large images go.
        var first = true
        let saved = try AlbumSaving.save(store, pinID: pin.id, into: dir.path, force: false) { _ in
            guard first else { return }
            first = false
            let deleted = try? self.store.deletePhotos(ids: [photos[1].id])
            XCTAssertEqual(deleted, 1)
            _ = try? self.store.trimLargeImages(budgetBytes: 0)
        }
        XCTAssertEqual(try store.largeImageInfos(pinID: pin.id), [:], "let go meanwhile")
        XCTAssertEqual(saved.photos, 2)
        XCTAssertEqual(listing(dir), ["01-Bay.jpg", "03-Vesuvius.jpg", "credits.json", "index.html"])
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("03-Vesuvius.jpg")), Fixture.photo(3), "the album's image")
        let credits = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("credits.json"))) as? [[String: Any]])
        XCTAssertEqual(credits.map { $0["file"] as? String }, ["01-Bay.jpg", "03-Vesuvius.jpg"])
        XCTAssertTrue(credits[1]["large"] is NSNull, "written from the album's image, so no large one credited")
        let html = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertFalse(html.contains("Gone"))
    }

    func testTheSheetNamesEveryFileItShows() throws {
        let (pin, _) = try album([("50% off #1?", true), ("../../etc/passwd", true), ("....", true)])
        _ = try AlbumSaving.save(store, pinID: pin.id, into: dir.path, force: false)
        let html = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        let references = ContactSheetLinks.files(html)
        XCTAssertEqual(references.count, 6, "an image and a link each")
        for reference in references {
            let name = try XCTUnwrap(reference.removingPercentEncoding)
            XCTAssertFalse(name.contains("/"), name)
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), name)
        }
        XCTAssertFalse(html.contains("http:"))
        XCTAssertEqual(ContactSheetLinks.attributes(html).filter { $0.contains("//") }, ContactSheetLinks.pageLinks(html))
        XCTAssertEqual(listing(folder).sorted(), ["out", "vtourist.sqlite"] + listing(folder).filter { $0.hasPrefix("vtourist.sqlite-") },
                       "nothing written beside the folder")
    }

    func testAnExistingFileIsNamedAndNothingIsWritten() throws {
        let (pin, _) = try album([("Bay", true), ("Vesuvius", true)])
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: dir.appendingPathComponent("02-Vesuvius.jpg"))
        try Data("mine".utf8).write(to: dir.appendingPathComponent("index.html"))
        XCTAssertThrowsError(try AlbumSaving.save(store, pinID: pin.id, into: dir.path, force: false)) { error in
            XCTAssertEqual(error as? AlbumSaveFailure, .exists(path: dir.appendingPathComponent("02-Vesuvius.jpg").path, others: 1))
            XCTAssertTrue("\(error)".contains("02-Vesuvius.jpg already exists (and 1 other file): nothing written"), "\(error)")
        }
        XCTAssertEqual(listing(dir), ["02-Vesuvius.jpg", "index.html"], "nothing written")
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("index.html")), Data("mine".utf8))

        // --force writes over them.
        _ = try AlbumSaving.save(store, pinID: pin.id, into: dir.path, force: true)
        XCTAssertEqual(listing(dir), ["01-Bay.jpg", "02-Vesuvius.jpg", "credits.json", "index.html"])
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("02-Vesuvius.jpg")), Fixture.photo(2))
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
    }

    func testALinkInTheFolderIsNeverFollowed() throws {
        let (pin, _) = try album([("Bay", true)])
        let outside = folder.appendingPathComponent("outside.txt")
        try Data("keep".utf8).write(to: outside)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("01-Bay.jpg").path, withDestinationPath: outside.path)
        XCTAssertThrowsError(try AlbumSaving.save(store, pinID: pin.id, into: dir.path, force: false))
        _ = try AlbumSaving.save(store, pinID: pin.id, into: dir.path, force: true)
        XCTAssertEqual(try Data(contentsOf: outside), Data("keep".utf8), "the link is replaced, not written through")
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("01-Bay.jpg")), Fixture.photo(1))
    }

    func testAFolderThatIsAFileIsNamed() throws {
        let (pin, _) = try album([("Bay", true)])
        let file = folder.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        for target in [file, file.appendingPathComponent("below")] {
            XCTAssertThrowsError(try AlbumSaving.save(store, pinID: pin.id, into: target.path, force: false)) { error in
                XCTAssertEqual(error as? AlbumSaveFailure, .folder(path: file.path, reason: "it is a file, not a folder"))
            }
        }
        XCTAssertEqual(try Data(contentsOf: file), Data("x".utf8))
    }

    func testAnUnwritableFolderIsNamed() throws {
        let (pin, _) = try album([("Bay", true)])
        let target: String
        if geteuid() == 0 {
            // The superuser writes through permissions; sysfs refuses a new folder to everyone.
            target = "/sys/vtourist-album-test/trip"
            XCTAssertThrowsError(try AlbumSaving.save(store, pinID: pin.id, into: target, force: false)) { error in
                guard case let .folder(path, _) = error as? AlbumSaveFailure else { return XCTFail("\(error)") }
                XCTAssertEqual(path, "/sys/vtourist-album-test")
            }
        } else {
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            chmod(locked.path, 0o555)
            XCTAssertThrowsError(try AlbumSaving.save(store, pinID: pin.id, into: locked.path, force: false)) { error in
                guard case let .cannotWrite(path, reason, written) = error as? AlbumSaveFailure else { return XCTFail("\(error)") }
                XCTAssertEqual(path, locked.appendingPathComponent("01-Bay.jpg").path)
                XCTAssertEqual(reason, "Permission denied")
                XCTAssertEqual(written, [])
            }
        }
    }

    func testNoStoredPhotosWritesNothingNotEvenTheFolder() throws {
        let (pin, _) = try album([("pending", false)])
        XCTAssertThrowsError(try AlbumSaving.save(store, pinID: pin.id, into: dir.path, force: false)) { error in
            XCTAssertEqual(error as? AlbumSaveFailure, .nothingStored(pin.id))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    func testAFailedWriteNamesTheFileAndTheOnesBeforeIt() {
        let failure = AlbumSaveFailure.cannotWrite(path: "/t/03-c.jpg", reason: "the disk is full", written: ["/t/01-a.jpg", "/t/02-b.jpg"])
        XCTAssertEqual(failure.description,
                       "cannot write /t/03-c.jpg: the disk is full; the 2 files written before it are left in place: 01-a.jpg, 02-b.jpg")
        XCTAssertEqual(AlbumSaving.reason(EFBIG), "the disk is full")
        XCTAssertEqual(AlbumSaving.reason(ENOSPC), "the disk is full")
    }

    func testThePicturesFolderIsANewFolderNamedAfterThePin() throws {
        let (pin, _) = try album([("Bay", true)], name: "../Naples/..")
        let pictures = folder.appendingPathComponent("Pictures")
        let first = AlbumSaving.picturesFolder(pictures, pin: pin)
        XCTAssertEqual(first.folder, pictures.appendingPathComponent("vtourist/-Naples-").path)
        XCTAssertNil(first.taken)
        // An empty folder of that name is used; one holding files is passed over for `<name> 2`, `3`, …
        try FileManager.default.createDirectory(atPath: first.folder, withIntermediateDirectories: true)
        XCTAssertEqual(AlbumSaving.picturesFolder(pictures, pin: pin).folder, first.folder)
        _ = try AlbumSaving.save(store, pinID: pin.id, into: first.folder, force: false)
        let second = AlbumSaving.picturesFolder(pictures, pin: pin)
        XCTAssertEqual(second.folder, first.folder + " 2")
        XCTAssertEqual(second.taken, first.folder)
        try Data().write(to: URL(fileURLWithPath: first.folder + " 2"))
        XCTAssertEqual(AlbumSaving.picturesFolder(pictures, pin: pin).folder, first.folder + " 3", "a file of that name too")
    }

    func testAPicturesFolderWhoseVtouristIsAFileIsNamed() throws {
        let (pin, _) = try album([("Bay", true)])
        let pictures = folder.appendingPathComponent("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: pictures.appendingPathComponent("vtourist"))
        let chosen = AlbumSaving.picturesFolder(pictures, pin: pin)
        XCTAssertEqual(chosen.folder, pictures.appendingPathComponent("vtourist/Naples").path)
        XCTAssertThrowsError(try AlbumSaving.save(store, pinID: pin.id, into: chosen.folder, force: false)) { error in
            XCTAssertEqual(error as? AlbumSaveFailure,
                           .folder(path: pictures.appendingPathComponent("vtourist").path, reason: "it is a file, not a folder"))
        }
    }
}
