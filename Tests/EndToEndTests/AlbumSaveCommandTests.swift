import Foundation
import TestSupport
import XCTest

/// `vtourist album PIN --save DIR [--force]` with the release binary: an album fetched from the
/// stand-in server by `drop --wait`, saved into folders, and every bad input refused in one line.
final class AlbumSaveCommandTests: EndToEndTestCase {
    var folder = ""
    var db: String { folder + "/save.sqlite" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try temporaryDirectory().path
    }

    /// Pin 1 at Naples with its 21 photos stored.
    func naples() throws {
        let r = try cli(["drop", "40.85", "14.27", "--wait", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try pins(db: db).first?.downloaded, 21)
    }

    func save(_ dir: String, _ extra: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        try cli(["album", "1", "--save", dir, "--db", db] + extra)
    }

    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    func testTheAlbumIsSavedWithItsBytesCreditsAndAnOfflineSheet() throws {
        try naples()
        let dir = folder + "/home/trip"
        let r = try save(dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "saved 21 photos, credits.json and index.html into \(dir)\n")
        let written = lines(r.stdout)
        XCTAssertEqual(written.count, 23)
        XCTAssertEqual(written.map { ($0 as NSString).lastPathComponent }, directoryListing(dir).sorted(), "each file said once")
        XCTAssertTrue(written.first?.hasPrefix(dir + "/01-") == true, r.stdout)
        XCTAssertEqual(written.suffix(2).map { ($0 as NSString).lastPathComponent }, ["credits.json", "index.html"])

        // Each photo's file holds the stored bytes: the sizes `album --json` gives.
        let album = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try cli(["album", "1", "--json", "--db", db]).stdout.utf8)) as? [String: Any])
        let photos = try XCTUnwrap(album["photos"] as? [[String: Any]])
        let credits = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/credits.json"))) as? [[String: Any]])
        XCTAssertEqual(credits.count, 21)
        for (photo, credit) in zip(photos, credits) {
            XCTAssertEqual(credit["id"] as? Int, photo["id"] as? Int)
            XCTAssertEqual(credit["title"] as? String, photo["title"] as? String)
            XCTAssertEqual(Set(credit.keys), Set(photo.keys).union(["file"]), "album --json's fields and the file")
            let file = try XCTUnwrap(credit["file"] as? String)
            let size = try FileManager.default.attributesOfItem(atPath: dir + "/" + file)[.size] as? Int
            XCTAssertEqual(size, photo["bytes"] as? Int, file)
        }

        let html = try String(contentsOfFile: dir + "/index.html", encoding: .utf8)
        XCTAssertFalse(html.lowercased().contains("<script") || html.lowercased().contains("url("))
        let pages = Set(photos.compactMap { $0["pageURL"] as? String })
        for reference in ContactSheetLinks.attributes(html) where !pages.contains(reference) {
            let name = try XCTUnwrap(reference.removingPercentEncoding)
            XCTAssertFalse(name.contains("/"), name)
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/" + name), name)
        }
        XCTAssertEqual(ContactSheetLinks.attributes(html).filter { !pages.contains($0) }.count, 42, "each picture shown and linked")
        XCTAssertEqual(Set(ContactSheetLinks.attributes(html).filter(pages.contains)), pages, "each photo's page linked")
    }

    func testAFileAlreadyThereIsNamedAndNothingIsWrittenUnlessForced() throws {
        try naples()
        let first = folder + "/first"
        XCTAssertEqual(try save(first).status, 0)
        let name = directoryListing(first).sorted()[4]
        let dir = folder + "/second"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        let refused = try save(dir)
        XCTAssertEqual(refused.status, 64)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(refused.stderr, "vtourist: \(dir)/\(name) already exists: nothing written; --force writes over it\n")
        XCTAssertEqual(directoryListing(dir), [name])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)), Data("mine".utf8))

        let forced = try save(dir, ["--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(directoryListing(dir).sorted(), directoryListing(first).sorted())
        XCTAssertEqual(try sha256(dir + "/" + name), try sha256(first + "/" + name))
    }

    func testAFolderThatIsAFileIsNamed() throws {
        try naples()
        let file = folder + "/plain"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for dir in [file, file + "/below"] {
            let r = try save(dir)
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.stderr, "vtourist: cannot make the folder \(file): it is a file, not a folder\n")
        }
    }

    func testAnUnwritableFolderIsNamed() throws {
        try naples()
        if geteuid() == 0 {
            // The superuser writes through permissions; sysfs refuses a new folder to everyone.
            let r = try save("/sys/vtourist-album-test/trip")
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.stderr.hasPrefix("vtourist: cannot make the folder /sys/vtourist-album-test: "), r.stderr)
            XCTAssertEqual(lines(r.stderr).count, 1)
        } else {
            let dir = folder + "/locked"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            XCTAssertEqual(chmod(dir, 0o555), 0)
            let r = try save(dir)
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.stderr.hasPrefix("vtourist: cannot write \(dir)/01-"), r.stderr)
            XCTAssertTrue(r.stderr.hasSuffix(": Permission denied; nothing written\n"), r.stderr)
        }
    }

    /// A full disk. Where a mount namespace of the command's own can mount a tmpfs (the superuser,
    /// unless a sandbox refuses it), a real one: DIR on a 200 KB tmpfs (ENOSPC; a sanitized binary
    /// starts there too, where ThreadSanitizer's runtime cannot start under a file-size limit).
    /// Otherwise a file-size limit (`prlimit`) stands for it: a write past it fails with EFBIG, as a
    /// full file system's fails with ENOSPC. Either way the fourth photo's stored image is made
    /// larger than the room left.
    func testAFullDiskNamesTheFileAndLeavesTheOnesWrittenBefore() throws {
        try naples()
        let big = LargeJPEG.url.path
        let sql = "UPDATE photoImage SET bytes = readfile('\(big)') WHERE photoId = "
            + "(SELECT id FROM photo WHERE pinId = 1 ORDER BY position LIMIT 1 OFFSET 3)"
        let updated = try runProcess("/usr/bin/sqlite3", [db, sql], environment: environment())
        XCTAssertEqual(updated.status, 0, updated.stderr)
        let dir = folder + "/full"
        let r: (status: Int32, stdout: String, stderr: String)
        let realDisk = try Self.canMountATmpfs(in: folder)
        if realDisk {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            // The tmpfs goes with the namespace: what it held is listed beside it before it goes.
            let script = "mount -t tmpfs -o size=200k tmpfs \"$1\" || exit 99; d=$1; shift; \"$@\"; s=$?; "
                + "ls -1 \"$d\" > \"$d.listing\"; exit $s"
            r = try runProcess("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", dir, try vtouristBinary(),
                                                    "album", "1", "--save", dir, "--db", db], environment: environment())
        } else {
            r = try runProcess("/usr/bin/prlimit", ["--fsize=100000", try vtouristBinary(), "album", "1", "--save", dir, "--db", db],
                               environment: environment())
        }
        XCTAssertEqual(r.status, 1, r.stderr)
        let written = realDisk
            ? lines(try String(contentsOfFile: dir + ".listing", encoding: .utf8)).sorted() : directoryListing(dir).sorted()
        XCTAssertEqual(written.count, 3, "the three photos before the one that did not fit")
        XCTAssertEqual(lines(r.stdout), written.map { dir + "/" + $0 }, "the files written are listed")
        XCTAssertEqual(lines(r.stderr).count, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("vtourist: cannot write \(dir)/04-"), r.stderr)
        XCTAssertTrue(r.stderr.contains(": the disk is full; the 3 files written before it are left in place: "
                                        + written.joined(separator: ", ")), r.stderr)
        XCTAssertTrue(written.allSatisfy { $0.hasPrefix("0") && $0.hasSuffix(".jpg") }, "no credits, no sheet, no half file")
    }

    /// A save killed (SIGKILL) at any moment leaves under the photos' names only whole files: each is
    /// written under a hidden temporary name and takes its own once whole. Kills at nine points
    /// spread over a save's length (the photos made 4 MB each, so most of it is writing); every file
    /// left under a photo's name is byte for byte the one a whole save writes.
    func testASaveKilledAtAnyMomentLeavesOnlyWholeFiles() throws {
        try naples()
        let sql = "UPDATE photoImage SET bytes = readfile('\(LargeJPEG.url.path)') || zeroblob(4000000)"
        let updated = try runProcess("/usr/bin/sqlite3", [db, sql], environment: environment())
        XCTAssertEqual(updated.status, 0, updated.stderr)
        let whole = folder + "/whole"
        let started = Date()
        XCTAssertEqual(try save(whole).status, 0)
        let length = Date().timeIntervalSince(started)
        var killedMidway = 0
        for point in 1...9 {
            let dir = folder + "/killed-\(point)"
            let pid = try spawnProgram(try vtouristBinary(), ["album", "1", "--save", dir, "--db", db], environment: environment())
            usleep(useconds_t(length * Double(point) / 10 * 1_000_000))
            kill(pid, SIGKILL)
            if waitForExit(pid) == 128 + SIGKILL { killedMidway += 1 }
            for name in directoryListing(dir) where !name.hasPrefix(".vtourist-") {
                XCTAssertEqual(FileManager.default.contents(atPath: dir + "/" + name), FileManager.default.contents(atPath: whole + "/" + name),
                               "\(name), killed at \(point)/10 of the save")
            }
        }
        XCTAssertGreaterThan(killedMidway, 0, "some kill came before the save had finished")
    }

    /// Whether `unshare -m` may mount a tmpfs here: it takes the superuser, and a sandbox may refuse
    /// even that (then the file-size limit stands in).
    static func canMountATmpfs(in folder: String) throws -> Bool {
        let probe = folder + "/mount-probe"
        try FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let r = try runProcess("/usr/bin/unshare", ["-m", "/bin/sh", "-c", "mount -t tmpfs -o size=4k tmpfs \"$1\"", "sh", probe])
        return r.status == 0
    }

    func testAnAlbumWithNothingStoredWritesNothing() throws {
        // Without --wait nothing is downloaded here: no app runs.
        XCTAssertEqual(try cli(["drop", "40.85", "14.27", "--db", db]).status, 0)
        let dir = folder + "/none"
        let r = try save(dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "vtourist: pin 1 has no stored photos yet: nothing written\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
    }

    func testBadUsageIsRefused() throws {
        try naples()
        for (arguments, message) in [
            (["album", "1", "--force", "--db", db], "--force goes with --save DIR"),
            (["album", "1", "--json", "--save", folder + "/x", "--db", db], "--json lists the album; --save writes it: give one"),
            (["album", "1", "--save", " ", "--db", db], "--save needs a folder"),
        ] {
            let r = try cli(arguments)
            XCTAssertEqual(r.status, 64, "\(arguments)")
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/x"))
    }

    func testWInTheAppSavesIntoANewFolderOfThePicturesFolder() throws {
        try naples()
        let pictures = folder + "/My Pictures"
        let t = try app(db, width: 200, height: 32, environment: ["XDG_PICTURES_DIR": pictures])
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")
        try t.keys("W")
        t.wait(forText: "Saved 21 photos to \(pictures)/vtourist/")
        let folders = directoryListing(pictures + "/vtourist")
        XCTAssertEqual(folders.count, 1, "\(folders)")
        let name = try XCTUnwrap(folders.first)
        XCTAssertEqual(directoryListing(pictures + "/vtourist/" + name).count, 23)
        // Again: the folder holds files, so a new one beside it.
        try t.keys("W")
        t.wait(forText: "Saved 21 photos to \(pictures)/vtourist/\(name) 2 (\(name) holds files already)")
        XCTAssertEqual(directoryListing(pictures + "/vtourist"), [name, name + " 2"])
        XCTAssertEqual(directoryListing(pictures + "/vtourist/" + name + " 2"), directoryListing(pictures + "/vtourist/" + name))
        XCTAssertEqual(try sha256(pictures + "/vtourist/\(name) 2/credits.json"), try sha256(pictures + "/vtourist/\(name)/credits.json"))
    }

    /// Titles and authors built to take over a terminal (escapes, controls, direction overrides,
    /// 5,000 characters): every file name stays a safe name in the folder, the sheet escapes them.
    func testHostileTitlesMakeSafeNamesAndAnEscapedSheet() throws {
        server = try PhotoServer(switchedOn: [.hostileText])
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let dir = folder + "/hostile"
        let r = try save(dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let names = directoryListing(dir)
        XCTAssertEqual(names.count, 23)
        for name in names {
            XCTAssertLessThanOrEqual(name.utf8.count, 255, name)
            XCTAssertFalse(name.hasPrefix("."), name)
            XCTAssertFalse(name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }, name)
        }
        XCTAssertFalse(r.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" }, "no escape reaches the terminal")
        let html = try String(contentsOfFile: dir + "/index.html", encoding: .utf8)
        XCTAssertFalse(html.lowercased().contains("<script"))
        XCTAssertFalse(html.unicodeScalars.contains { $0 == "\u{1B}" })
        for reference in ContactSheetLinks.attributes(html) where !reference.hasPrefix("https://") && !reference.hasPrefix("http://127.0.0.1") {
            XCTAssertFalse(reference.contains(":") || reference.contains("//"), reference)
            let name = try XCTUnwrap(reference.removingPercentEncoding)
            XCTAssertTrue(names.contains(name), name)
        }
    }
}
