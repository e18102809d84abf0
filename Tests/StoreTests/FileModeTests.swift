import Foundation
import XCTest
@testable import Store

/// SPEC 2.3: the database can hold the Flickr key, so it is created 0600 in a 0700 folder, and an
/// older file others could read is tightened (with a note), never loosened.
final class FileModeTests: XCTestCase {
    private var savedUmask: mode_t = 0

    override func setUp() {
        super.setUp()
        // The usual umask, under which SQLite alone would create 0644 files.
        savedUmask = umask(0o022)
    }

    override func tearDown() {
        umask(savedUmask)
        super.tearDown()
    }

    private func mode(_ path: String) -> mode_t? { PrivateFiles.mode(path) }

    func testANewDatabaseAndItsFoldersAreTheOwnersOnly() throws {
        let folder = try makeTempFolder(self)
        let before = try XCTUnwrap(mode(folder))
        let path = folder + "/made/by/vtourist.sqlite"
        let db = try AppDatabase.open(path: path)
        try db.insertPin(at: .init(latitude: 1, longitude: 2), name: nil)
        XCTAssertEqual(db.permissionNotes, [])
        // While open, SQLite's -wal and -shm exist; they take the main file's mode.
        XCTAssertEqual(mode(path), 0o600)
        XCTAssertEqual(mode(path + "-wal"), 0o600)
        XCTAssertEqual(mode(path + "-shm"), 0o600)
        try db.close()
        XCTAssertEqual(mode(folder + "/made"), 0o700)
        XCTAssertEqual(mode(folder + "/made/by"), 0o700)
        XCTAssertEqual(mode(folder), before, "a folder vtourist did not create keeps its mode")
        XCTAssertEqual(try AppDatabase.open(path: path).permissionNotes, [], "a private file gets no note")
    }

    func testFoldersArePrivateWhateverTheUmask() throws {
        umask(0o277)
        let folder = try makeTempFolder(self)
        let path = folder + "/sub/vtourist.sqlite"
        let db = try AppDatabase.open(path: path)
        try db.close()
        XCTAssertEqual(mode(folder + "/sub"), 0o700)
        XCTAssertEqual(mode(path), 0o600)
    }

    func testALooserFileIsTightenedWithANote() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        let pins = try makeDatabase(at: path)
        chmod(path, 0o644)
        let db = try AppDatabase.open(path: path)
        defer { try? db.close() }
        XCTAssertEqual(mode(path), 0o600)
        XCTAssertEqual(db.permissionNotes, [PermissionNote(path: path, oldMode: 0o644, newMode: 0o600, failure: nil)])
        XCTAssertEqual(db.permissionNotes.first?.description,
                       "\(path) was readable by other users (mode 0644); it can hold the Flickr API key, so it is now 0600")
        XCTAssertEqual(try db.pins(), pins, "nothing else changed")
    }

    func testOnlyGroupAndOtherBitsAreTakenAway() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path)
        for (before, after) in [(0o666, 0o600), (0o640, 0o600), (0o602, 0o600), (0o744, 0o700), (0o600, 0o600)] {
            chmod(path, mode_t(before))
            let db = try AppDatabase.open(path: path)
            try db.close()
            XCTAssertEqual(mode(path), mode_t(after), "from \(String(before, radix: 8))")
        }
    }

    func testCompanionFilesAreTightenedToo() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/vtourist.sqlite"
        try makeDatabase(at: path)
        // As a crashed older vtourist would leave them (empty -wal: nothing to replay).
        for companion in ["-wal", "-shm"] {
            _ = FileManager.default.createFile(atPath: path + companion, contents: Data())
            chmod(path + companion, 0o644)
        }
        let db = try AppDatabase.open(path: path)
        XCTAssertEqual(Set(db.permissionNotes.map(\.path)), [path + "-wal", path + "-shm"])
        XCTAssertEqual(mode(path + "-wal"), 0o600)
        XCTAssertEqual(mode(path + "-shm"), 0o600)
        try db.close()
    }

    /// A file that is refused is left exactly as it was, mode included.
    func testARefusedFileKeepsItsMode() throws {
        let folder = try makeTempFolder(self)
        let path = folder + "/notes.sqlite"
        try Data("not a database at all, just some notes that are long enough to be read in full".utf8)
            .write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        try assertOpenRefused(path: path, folder: folder, expected: .notADatabase(path: path))
        XCTAssertEqual(mode(path), 0o644)
    }

    func testTheNoteWhenTheModeCannotBeChanged() {
        let note = PermissionNote(path: "/d/v.sqlite", oldMode: 0o666, newMode: 0o600, failure: "Operation not permitted")
        XCTAssertEqual(note.description, "/d/v.sqlite was readable by other users (mode 0666); it can hold the Flickr API key, "
                       + "but it could not be made 0600: Operation not permitted")
        XCTAssertEqual(PermissionNote(path: "/v", oldMode: 0o622, newMode: 0o600, failure: nil).description,
                       "/v was writable by other users (mode 0622); it can hold the Flickr API key, so it is now 0600")
    }
}
