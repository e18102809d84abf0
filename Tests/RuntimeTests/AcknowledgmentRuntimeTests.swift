import Foundation
import GRDB
import Model
import Store
import TestSupport
import Terminal
import TouristCore
import XCTest

/// What the screen says is done is stored: each change the user makes is said on its way while the
/// store's write is held (another connection holds the write lock of the real file), and said done
/// only once the write has landed.
extension RuntimeTests {
    /// Another connection that holds the database's write lock until `release` is called.
    func holdWrites() throws -> DatabaseQueue {
        var holdsLock = Configuration()
        holdsLock.allowsUnsafeTransactions = true  // the lock is held across accesses on purpose
        holdsLock.busyMode = .timeout(600)  // waits for a write of the app's under way, rather than failing
        let other = try DatabaseQueue(path: path, configuration: holdsLock)
        try other.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        return other
    }

    func release(_ other: DatabaseQueue) throws {
        try other.inDatabase { db in try db.execute(sql: "ROLLBACK") }
    }

    /// Presses `keys` while the store's writes are held: the screen says `onItsWay` and not `done`,
    /// and `stored` (read from the store) is still false; once the lock goes, `done` comes and is stored.
    func heldWrite(_ keys: [Key], onItsWay: String, done: String, stored: () throws -> Bool,
                   file: StaticString = #filePath, line: UInt = #line) throws {
        let other = try holdWrites()
        var mark = terminal.frameCount
        for key in keys { terminal.press(key) }
        // The first frame that says anything of the change says it is on its way, and none says it is done.
        let said = try XCTUnwrap(terminal.frame(after: mark) { $0.text.contains(onItsWay) || $0.text.contains(done) },
                                 file: file, line: line)
        XCTAssertTrue(said.text.contains(onItsWay), said.text, file: file, line: line)
        terminal.waitUntilEventsAreTaken()
        for frame in terminal.frames(from: mark) {
            XCTAssertFalse(frame.text.contains(done), "said done before it is stored: \(frame.text)", file: file, line: line)
        }
        XCTAssertFalse(try stored(), "not stored while the write is held", file: file, line: line)
        mark = terminal.frameCount
        try release(other)
        XCTAssertNotNil(terminal.frame(after: mark, showing: done), file: file, line: line)
        XCTAssertTrue(try stored(), "stored once said", file: file, line: line)
    }

    /// The app started with a pin dropped under the cursor (its own ack seen).
    func startWithADroppedPin() throws -> Pin {
        terminal = TestTerminal(width: 220)
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        terminal.press(.char("p"))
        XCTAssertNotNil(terminal.frame(showing: "1 pin ", "Pin dropped at"))
        return try XCTUnwrap(store.pins().first)
    }

    func testADropIsSaidDroppedOnlyOnceTheStoreHasIt() throws {
        terminal = TestTerminal(width: 220)
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        try heldWrite([.char("p")], onItsWay: "Dropping a pin at", done: "Pin dropped at",
                      stored: { try store.pins().count == 1 })
    }

    func testAPinDeletionIsSaidDoneOnlyOnceTheStoreHasIt() throws {
        let pin = try startWithADroppedPin()
        try heldWrite([.char("x"), .char("y")], onItsWay: "Deleting pin \u{201C}\(pin.displayName)\u{201D}\u{2026}",
                      done: "Deleted pin \u{201C}\(pin.displayName)\u{201D}.", stored: { try store.pins().isEmpty })
    }

    func testARenameIsSaidDoneOnlyOnceTheStoreHasIt() throws {
        let pin = try startWithADroppedPin()
        try heldWrite([.char("R"), .control("u"), .char("H"), .char("u"), .char("t"), .enter],
                      onItsWay: "Renaming \u{201C}\(pin.displayName)\u{201D} to \u{201C}Hut\u{201D}\u{2026}",
                      done: "Renamed \u{201C}\(pin.displayName)\u{201D} to \u{201C}Hut\u{201D}.",
                      stored: { try store.pins().first?.ownName == "Hut" })
    }

    func testAMoveIsSaidDoneOnlyOnceTheStoreHasIt() throws {
        let pin = try startWithADroppedPin()
        try heldWrite([.char("m"), .right, .right, .right, .enter], onItsWay: "Moving \u{201C}\(pin.displayName)\u{201D}\u{2026}",
                      done: "Moved; a new album is on its way for",
                      stored: { try store.pins().first?.coordinate != pin.coordinate })
    }

    func testASettingIsSaidSavedOnlyOnceTheStoreHasIt() throws {
        terminal = TestTerminal(width: 220)
        try start()
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        // Photos per collection: 21 → 5.
        terminal.press(.char("s"), .down, .down, .down, .enter, .backspace, .backspace, .char("5"))
        try heldWrite([.enter], onItsWay: "Saving photos per collection\u{2026}", done: "Saved: photos per collection 5.",
                      stored: { try store.settings().photosPerCollection == 5 })
    }

    func testAPhotoDeletionIsSaidDoneOnlyOnceTheStoreHasIt() throws {
        let server = try PhotoServer()
        let photo = try openFirstPhoto(server: server)
        let title = try XCTUnwrap(photo.title)
        try heldWrite([.char("x")], onItsWay: "Deleting \u{201C}\(title)\u{201D}\u{2026}", done: "Deleted \u{201C}\(title)\u{201D}.",
                      stored: { try !store.photos(pinID: photo.pinID).contains { $0.id == photo.id } })
    }

    func testMarkedPhotosAreSaidDeletedOnlyOnceTheStoreHasThem() throws {
        let server = try PhotoServer()
        let photo = try openFirstPhoto(server: server)
        terminal.press(.escape)
        XCTAssertNotNil(terminal.frame(showing: " 21 photos"))
        try heldWrite([.char(" "), .char(" "), .char("X"), .char("y")], onItsWay: "Deleting 2 photos\u{2026}", done: "Deleted 2 photos.",
                      stored: { try store.photos(pinID: photo.pinID).count == 19 })
    }

    func testAFilterIsSaidSavedOnlyOnceTheStoreHasIt() throws {
        let server = try PhotoServer()
        let photo = try openFirstPhoto(server: server)
        terminal.press(.escape)
        XCTAssertNotNil(terminal.frame(showing: " 21 photos"))
        // f, Enter, "food", Enter: the filter editor's text field; s saves, y replaces the 21 photos.
        terminal.press(.char("f"))
        XCTAssertNotNil(terminal.frame(showing: "s save"))
        terminal.press(.enter, .char("f"), .char("o"), .char("o"), .char("d"), .enter)
        try heldWrite([.char("s"), .char("y")], onItsWay: "Saving the filter \u{201C}food\u{201D}\u{2026}",
                      done: "Fetching a new collection for \u{201C}food\u{201D}\u{2026}",
                      stored: { try store.pins().first { $0.id == photo.pinID }?.filter.text == "food" })
    }

    func testAFailedDeletionSaysSoAndThePinComesBack() throws {
        let pin = try startWithADroppedPin()
        try otherProcess().write { db in
            try db.execute(sql: "CREATE TRIGGER keep BEFORE DELETE ON pin BEGIN SELECT RAISE(ABORT, 'pins are kept'); END")
        }
        let mark = terminal.frameCount
        terminal.press(.char("x"), .char("y"))
        let frame = try XCTUnwrap(terminal.frame(after: mark, showing: "Could not save: database \(path!): pins are kept", "1 pin "))
        XCTAssertFalse(frame.text.contains("Deleted pin"), frame.text)
        XCTAssertEqual(try store.pins().map(\.id), [pin.id])
    }
}
