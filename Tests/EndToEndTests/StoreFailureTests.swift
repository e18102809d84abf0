import Foundation
import XCTest

/// What the command line says when the database refuses the album's writes.
final class StoreFailureTests: EndToEndTestCase {
    /// The album's state cannot be saved: `drop --wait` says so and ends, instead of waiting for ever
    /// on a state that stays `downloading` on disk.
    func testDropWaitEndsWhenTheAlbumsStateCannotBeSaved() throws {
        let db = try temporaryDirectory().appendingPathComponent("refusing.sqlite").path
        try makeEmptyDatabase(db)
        let trigger = try runProcess("/usr/bin/sqlite3", [db, """
            CREATE TRIGGER refuse_album_state BEFORE UPDATE OF albumState ON pin
            BEGIN SELECT RAISE(ABORT, 'disk says no'); END;
            """], environment: environment())
        XCTAssertEqual(trigger.status, 0, trigger.stderr)

        let r = try cli(["drop", "40.85", "14.27", "--wait", "--db", db])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stderr.split(separator: "\n").map { String($0) }.filter { !$0.hasPrefix("Searching") }
        XCTAssertTrue(lines.last?.hasPrefix("vtourist: pin 1's album could not be saved:") == true, r.stderr)
        XCTAssertTrue(r.stderr.contains("disk says no"), r.stderr)
        // The pin itself was saved before: nothing stored is lost.
        XCTAssertEqual(try cli(["pins", "--json", "--db", db]).stdout.contains("\"id\" : 1"), true)
    }
}
