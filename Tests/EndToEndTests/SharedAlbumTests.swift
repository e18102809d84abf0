import Foundation
import XCTest

/// Albums shared between processes: a pin dropped from a shell is fetched by the open app.
final class SharedAlbumEndToEndTests: EndToEndTestCase {
    func testAPinDroppedFromTheShellIsDownloadedByTheOpenApp() throws {
        let db = try temporaryDirectory().appendingPathComponent("shared.sqlite").path
        let t = try app(db, environment: ["FLICKR_API_KEY": nil])
        t.wait(forText: "? help")
        let dropped = try cli(["drop", "-33.9", "151.2", "--db", db])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let id = try XCTUnwrap(Int64(dropped.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        t.wait(forText: "1 pin ")
        // No key pressed: the app takes the album up and fetches every photo.
        let pin = try waitFor("the app to fetch the dropped pin's album", timeout: 30) { () -> PinRow? in
            try pins(db: db).first { $0.id == id && $0.state == "ready" }
        }
        XCTAssertEqual(pin.photos, 21)
        XCTAssertEqual(pin.downloaded, 21)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
