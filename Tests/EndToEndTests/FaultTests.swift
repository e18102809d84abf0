import Foundation
import TestSupport
import XCTest

/// Issue 10, the fault matrix through the release binary: the album screen says why a search or a
/// picture failed, memory stays bounded when every image is endless or a bomb, and keys are
/// answered while every transfer stalls. (Every fault against the search and the downloads runs in
/// AlbumServiceTests.FaultMatrixTests; `make faults` prints the whole matrix.)
final class FaultTests: EndToEndTestCase {
    /// The environment with the stand-in's Flickr `key` (it picks faults by key), and the host of the
    /// `dns` fault exempt from the proxy trap, so that it is looked up (and fails without a query).
    func faultEnvironment(key: String, flickrEndpoint: String? = nil) -> [String: String?] {
        var env: [String: String?] = ["FLICKR_API_KEY": key, "no_proxy": PhotoServer.dnsFailingHost,
                                      "NO_PROXY": PhotoServer.dnsFailingHost]
        if let flickrEndpoint { env["VTOURIST_FLICKR_ENDPOINT"] = flickrEndpoint }
        return env
    }

    /// The app, 200 columns wide, with a pin dropped at the cursor and its album opened.
    func albumOfANewPin(_ db: String, height: Int, environment overrides: [String: String?]) throws -> TmuxSession {
        let t = try app(db, width: 200, height: height, environment: overrides)
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Enter")
        return t
    }

    func testTheAlbumScreenSaysWhyTheSearchFailed() throws {
        let cases: [(key: String, endpoint: String?, says: String)] = [
            ("html", nil, "a web page, not JSON"),
            ("redirect-loop", nil, "too many redirects"),
            // A host name that does not resolve is not a failed search but the network gone: the album
            // waits (NetworkOutageTests).
        ]
        for (key, endpoint, says) in cases {
            let db = try temporaryDirectory().appendingPathComponent("search.sqlite").path
            let t = try albumOfANewPin(db, height: 40, environment: faultEnvironment(key: key, flickrEndpoint: endpoint))
            let screen = t.wait(for: "the failed search with its reason") { $0.contains("The search failed") && $0.contains(says) }
            XCTAssertTrue(screen.contains("r retries"), screen)
            try t.keys("q", "q")
            XCTAssertEqual(t.waitForExit(), 0)
            XCTAssertEqual(try pins(db: db).first?.state, "failed", key)
        }
    }

    func testEachBrokenPictureSaysWhyInItsCellAndTheRestAreShown() throws {
        // Photo n gets the n-th fault of the list, in turn; `ok` ones are good pictures.
        let faults = ["huge", "404", "redirect-http", "ok", "bomb", "ok"]
        server.set(.imageFault, to: faults.joined(separator: ","))
        // What each fault's cell says (nil: its picture is shown).
        let says: [String: String?] = ["huge": "too large (60000×60000)", "404": "HTTP 404", "redirect-http": "refusing unencrypted",
                                       "ok": nil, "bomb": "too large (8000×8000)"]
        typealias Grid = AlbumPictureEndToEndTests.Grid
        let db = try temporaryDirectory().appendingPathComponent("images.sqlite").path
        let t = try app(db, width: Grid.width, height: Grid.height, environment: faultEnvironment(key: "k"))
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Enter")
        // Every download has ended (8 failed) and every shown cell is drawn: a picture (of block symbols) or its reason.
        func symbols(_ i: Int, _ screen: CapturedScreen) -> Int {
            Grid.picture(i, in: screen).filter(AlbumPictureEndToEndTests.isBlockSymbol).count
        }
        func cellText(_ i: Int, _ screen: CapturedScreen) -> String {
            let (x, y) = Grid.frame(i)
            return (1...Grid.pictureHeight).map { screen.text(x: x + 1, y: y + $0, width: Grid.pictureWidth) }.joined(separator: " ")
        }
        let screen = t.waitForCells("every download to end and every cell to be drawn") { screen in
            screen.plain.contains("8 failed") && (0..<Grid.visible).allSatisfy { i in
                guard let reason = says[faults[i % faults.count]] ?? nil else {
                    return symbols(i, screen) >= 80
                }
                return cellText(i, screen).contains(reason)
            }
        }
        for i in 0..<Grid.visible {
            let fault = faults[i % faults.count]
            let drawn = symbols(i, screen)
            if let reason = says[fault] ?? nil {
                XCTAssertTrue(cellText(i, screen).contains(reason), "cell \(i) (\(fault)) says \(reason):\n\(screen.plain)")
                XCTAssertEqual(drawn, 0, "cell \(i) (\(fault)) shows no picture:\n\(screen.plain)")
            } else {
                XCTAssertGreaterThanOrEqual(drawn, 80, "cell \(i) shows its picture:\n\(screen.plain)")
                for reason in says.values.compactMap({ $0 }) {
                    XCTAssertFalse(cellText(i, screen).contains(reason), "cell \(i) is a good picture:\n\(screen.plain)")
                }
            }
        }
        try t.keys("q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
        let listed = try XCTUnwrap(try pins(db: db).first)
        XCTAssertEqual(listed.state, "ready")
        XCTAssertEqual(listed.downloaded, 13)
    }

    /// Peak resident memory of `drop --wait` (getrusage of the child) when all 21 images of the album
    /// are endless, a gzip bomb, a 60000×60000 header or a progressive bomb: each endless answer fails
    /// with its reason, each too-large JPEG is stored as it came (never decoded), and memory stays
    /// under 200 MB.
    func testMemoryStaysBoundedWhenEveryImageIsEndlessOrABomb() throws {
        // nil: stored as it came (a JPEG that arrived whole; the album cell says why it cannot be shown).
        let reasons: [String: String?] = ["endless": "larger than the limit of 4 MB", "gzip-bomb": "larger than the limit of 4 MB",
                                          "huge": nil, "bomb": nil]
        for (fault, reason) in reasons.sorted(by: { $0.key < $1.key }) {
            let db = try temporaryDirectory().appendingPathComponent("memory.sqlite").path
            let folder = try temporaryDirectory()
            let (out, peak) = (folder.appendingPathComponent("err.txt").path, folder.appendingPathComponent("peak.txt").path)
            // Started from a small launcher: a child of this (large) test process would count its memory too.
            let pid = try spawnProgram("/usr/bin/python3", [peakRSSScript, peak, try vtouristBinary(),
                                                            "drop", "40.85", "14.27", "--wait", "--db", db],
                                       environment: environment(faultEnvironment(key: "imgs-" + fault)), stderr: out)
            // Every photo failing for good ends `--wait` with exit 1 and the count with its reason.
            let said = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
            XCTAssertEqual(waitForExit(pid), reason == nil ? 0 : 1, "\(fault): \(said())")
            if let reason {
                let line = said().split(separator: "\n").last.map(String.init) ?? ""
                XCTAssertTrue(line.hasPrefix("vtourist: 21 of 21 photos could not be downloaded: ") && line.contains(reason),
                              "\(fault): \(said())")
            }
            let kib = try XCTUnwrap(Double(try String(contentsOfFile: peak, encoding: .utf8)), fault)
            let peakMiB = kib / 1024
            print("drop --wait, every image \(fault): peak RSS \(String(format: "%.1f", peakMiB)) MiB")
            XCTAssertLessThan(peakMiB, 200 + sanitizerMemoryMiB, "\(fault): peak RSS \(peakMiB) MiB")
            let album = try cli(["album", "1", "--json", "--db", db])
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(album.stdout.utf8)) as? [String: Any])
            let photos = try XCTUnwrap(object["photos"] as? [[String: Any]])
            XCTAssertEqual(object["state"] as? String, "ready", fault)
            XCTAssertEqual(photos.count, 21, fault)
            for photo in photos {
                if let reason {
                    XCTAssertEqual(photo["state"] as? String, "failed", fault)
                    XCTAssertTrue((photo["error"] as? String ?? "").contains(reason), "\(fault): \(photo["error"] ?? "nil")")
                } else {
                    XCTAssertEqual(photo["state"] as? String, "stored", fault)
                    XCTAssertEqual(photo["downloaded"] as? Bool, true, fault)
                }
            }
        }
    }

    /// While every image of an album and another pin's search are held, keys still move the
    /// selection, open and close the photo view, move the map's cursor and drop a pin.
    func testKeysAreAnsweredWhileEveryTransferStalls() throws {
        server.set(.holdImages, true)
        let db = try temporaryDirectory().appendingPathComponent("stall.sqlite").path
        let t = try app(db, width: 80, height: 24, environment: faultEnvironment(key: "k"))
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try waitFor("the 21 images to be held") { (server.stats()["images_in_flight"] ?? 0) >= 21 ? true : nil }
        server.set(.holdSearch, true)
        try t.keys("l", "l", "p")
        t.wait(forText: "2 pins ")
        try waitFor("the second search to be held") { (server.stats()["in_flight"] ?? 0) >= 22 ? true : nil }
        try t.keys("BTab", "Enter")
        t.wait(for: "the album, still downloading") { $0.contains("Downloading 0/21") && $0.contains("rows 1-2 of 7") }
        // Each key, and what the screen shows once it is answered.
        for (key, shows) in [("End", "rows 6-7 of 7"), ("Home", "rows 1-2 of 7"), ("Enter", "Esc album"), ("q", "rows 1-2 of 7")] {
            try t.keys(key)
            t.wait(forText: shows)
        }
        try t.keys("q")
        let map = statusLine(t.wait(forText: "2 pins "))
        try t.keys("h")
        t.wait(for: "the cursor to move") { statusLine($0) != map && $0.contains("2 pins ") }
        try t.keys("p")
        t.wait(forText: "3 pins ")
        try waitFor("the third search to be held") { (server.stats()["in_flight"] ?? 0) >= 23 ? true : nil }
        // All of it while nothing was let through: every picture is still held.
        XCTAssertEqual(server.stats()["images_in_flight"], 21, "\(server.stats())")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}

/// Tests/Support/peak_rss.py: runs a program and writes its peak resident memory (KiB) to a file.
let peakRSSScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Support/peak_rss.py").path
