import Foundation
import TestSupport
import XCTest

/// A real network through the release binary: the stand-in behind net_proxy.py, which the tests
/// take down, bring back and make flap; the server's passing faults (429 with Retry-After in
/// seconds and as a date, 503 without, Commons maxlag, every third image failing once, one image
/// failing always); a host name that does not resolve; a proxy that is not there; `kill -9` while
/// an album waits; extra certificate authorities (VTOURIST_CA_BUNDLE) and a bad retry scale. `drop --wait` waits each out and finishes, `--timeout` leaves the album to
/// resume (exit 75), and the app says `offline` and resumes by itself when the network returns.
/// Retries run 100 times faster (VTOURIST_RETRY_SCALE, in every test's environment), so each case
/// takes seconds: the 10-minute give-up window is 6 s.
final class NetworkOutageTests: EndToEndTestCase {
    /// The proxy in front of `server`: the network the app sees in these tests.
    var proxy: NetProxy!
    /// Photos in an album (the first page of a search).
    let albumSize = 21

    override func setUpWithError() throws {
        try super.setUpWithError()
        proxy = try NetProxy(targetPort: server.port)
    }

    override func tearDown() {
        proxy = nil
        super.tearDown()
    }

    /// A fresh database path in the test's folder.
    func newDatabase(_ name: String = "outage") throws -> String {
        try temporaryDirectory().appendingPathComponent(name + ".sqlite").path
    }

    /// Both endpoints through the proxy (Flickr with a key the stand-in accepts), so the photo URLs
    /// the searches give go through it too.
    func throughProxy(_ extra: [String: String?] = [:]) -> [String: String?] {
        var env: [String: String?] = ["VTOURIST_FLICKR_ENDPOINT": proxy.base + "/flickr/rest",
                                      "VTOURIST_COMMONS_ENDPOINT": proxy.base + "/commons/api.php",
                                      "FLICKR_API_KEY": "k"]
        env.merge(extra) { _, new in new }
        return env
    }

    /// `vtourist ARGUMENTS` started in the background; `kill -9`ed at the end of the test if still running.
    func start(_ arguments: [String], environment overrides: [String: String?]) throws -> Running {
        let dir = try temporaryDirectory()
        let running = try Running(try vtouristBinary(), arguments, environment: environment(overrides),
                                  stdout: dir.appendingPathComponent("stdout").path,
                                  stderr: dir.appendingPathComponent("stderr").path)
        addTeardownBlock { running.stop() }
        return running
    }

    /// The exit status of `running`, waited for; the limit only ends a hang.
    func exitStatus(_ running: Running, _ what: String, timeout: Double = 40) throws -> Int32 {
        try waitFor(what, timeout: timeout) { running.exited() }
    }

    /// The only pin of `db`.
    func onlyPin(_ db: String, file: StaticString = #filePath, line: UInt = #line) throws -> PinRow {
        let all = try pins(db: db, file: file, line: line)
        XCTAssertEqual(all.count, 1, "\(all)", file: file, line: line)
        return try XCTUnwrap(all.first, file: file, line: line)
    }

    /// The album is whole: ready, every photo stored.
    func assertWholeAlbum(_ db: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let pin = try onlyPin(db, file: file, line: line)
        XCTAssertEqual(pin.state, "ready", file: file, line: line)
        XCTAssertEqual(pin.photos, albumSize, file: file, line: line)
        XCTAssertEqual(pin.downloaded, albumSize, file: file, line: line)
    }

    // MARK: The network goes away

    func testDropWaitsThroughAnOutageAndFinishesWhenTheNetworkReturns() throws {
        let db = try newDatabase()
        proxy.setDown(true)
        let drop = try start(["drop", "40.85", "14.27", "--wait", "--db", db], environment: throughProxy())
        try waitFor("drop --wait to say it is offline") { drop.stderr.contains("offline") ? true : nil }
        XCTAssertNil(drop.exited(), "drop --wait keeps waiting while offline: \(drop.stderr)")
        XCTAssertEqual(try onlyPin(db).state, "downloading", "a waiting search is not a failed one")
        XCTAssertEqual(server.stats()["requests"] ?? 0, 0, "nothing got through while the network was down")
        proxy.setDown(false)
        XCTAssertEqual(try exitStatus(drop, "drop --wait to finish once the network is back"), 0, drop.stderr)
        try assertWholeAlbum(db)
        XCTAssertGreaterThanOrEqual(server.stats()["head_requests"] ?? 0, 1, "the probe asked the endpoint whether the network was back")
    }

    func testDropWaitsOutANetworkThatFlaps() throws {
        // The images are held at the server while the network goes down and up every 0.3 s, so the
        // outages cut transfers in flight (each reset), whatever the speed of the machine.
        server.set(.holdImages, true)
        proxy.flap(every: 0.3)
        let db = try newDatabase()
        let drop = try start(["drop", "40.85", "14.27", "--wait", "--db", db], environment: throughProxy())
        try waitFor("the images to be asked for") { (server.stats()["image_requests"] ?? 0) > 0 ? true : nil }
        let outages = proxy.stats()["refused_periods"] ?? 0
        try waitFor("three more outages") { (proxy.stats()["refused_periods"] ?? 0) >= outages + 3 ? true : nil }
        server.set(.holdImages, false)
        XCTAssertEqual(try exitStatus(drop, "drop --wait to finish while the network flaps"), 0, drop.stderr)
        proxy.flap(every: nil)
        try assertWholeAlbum(db)
        XCTAssertGreaterThan(server.stats()["image_requests"] ?? 0, albumSize, "the images cut by the outages were asked for again")
    }

    func testTimeoutLeavesTheAlbumToResumeWithExitStatus75() throws {
        let db = try newDatabase()
        proxy.setDown(true)
        let r = try cli(["drop", "40.85", "14.27", "--wait", "--timeout", "1", "--db", db], environment: throughProxy())
        XCTAssertEqual(r.status, 75, r.stderr)
        XCTAssertTrue(r.stderr.contains("offline"), r.stderr)
        XCTAssertEqual(try onlyPin(db).state, "downloading", "left to resume")
    }

    func testATimeoutThatIsNotANumberOfSecondsIsRefused() throws {
        let db = try newDatabase()
        for bad in ["abc", "-1", "nan", ""] {
            let r = try cli(["drop", "40.85", "14.27", "--wait", "--timeout", bad, "--db", db], environment: throughProxy())
            XCTAssertEqual(r.status, 64, "--timeout \(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("timeout"), "--timeout \(bad): \(r.stderr)")
        }
        XCTAssertEqual(try pins(db: db), [], "a refused command adds no pin")
    }

    func testKilledWhileWaitingTheNextStartResumesAndTheStatusLineSaysOffline() throws {
        let db = try newDatabase()
        proxy.setDown(true)
        let drop = try start(["drop", "40.85", "14.27", "--wait", "--db", db], environment: throughProxy())
        try waitFor("drop --wait to say it is offline") { drop.stderr.contains("offline") ? true : nil }
        drop.kill9()
        XCTAssertEqual(try exitStatus(drop, "the killed drop"), 128 + SIGKILL)
        XCTAssertEqual(try onlyPin(db).state, "downloading")
        // The next start takes the album up, finds the network gone and says so.
        let t = try app(db, environment: throughProxy())
        t.wait(for: "the status line to say offline", timeout: 20) { statusLine($0).contains("offline") }
        XCTAssertEqual(try onlyPin(db).state, "downloading", "still waiting, not failed")
        proxy.setDown(false)
        // No key pressed: the album resumes by itself.
        try waitFor("the album to complete once the network is back") { try onlyPin(db).state == "ready" ? true : nil }
        t.wait(for: "the status line to stop saying offline") { !statusLine($0).contains("offline") }
        try assertWholeAlbum(db)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testTheAlbumScreenSaysItWaitsForTheNetworkAndFillsWhenItReturns() throws {
        let db = try newDatabase()
        proxy.setDown(true)
        let t = try app(db, environment: throughProxy())
        t.wait(forText: "? help")
        try t.keys("p")
        t.wait(forText: "1 pin ")
        try t.keys("Enter")
        let waiting = t.wait(for: "the album to say it waits for the network") { $0.contains("waiting for the network (offline)") }
        XCTAssertFalse(waiting.contains("The search failed"), waiting)
        proxy.setDown(false)
        // No key pressed: the album fills and the line goes.
        let filled = t.wait(for: "the album to fill once the network is back") { $0.contains("Photo 0 ") && !$0.contains("waiting for the network") }
        XCTAssertFalse(filled.contains("offline"), filled)
        try waitFor("every photo to be stored") { try onlyPin(db).downloaded == albumSize ? true : nil }
        try t.keys("Escape", "q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    // MARK: A name that does not resolve, a proxy that is not there

    func testAHostNameThatDoesNotResolveWaitsAndTheNextStartWithAWorkingOneFinishes() throws {
        let db = try newDatabase()
        // The stand-in's DNS-failing name: its lookup fails without a query; exempt from the proxy trap
        // so that it is looked up (the trap stays empty: nothing was asked of another host).
        let failing: [String: String?] = ["FLICKR_API_KEY": "k", "no_proxy": PhotoServer.dnsFailingHost,
                                          "NO_PROXY": PhotoServer.dnsFailingHost,
                                          "VTOURIST_FLICKR_ENDPOINT": "https://\(PhotoServer.dnsFailingHost)/services/rest/"]
        let r = try cli(["drop", "40.85", "14.27", "--wait", "--timeout", "1", "--db", db], environment: failing)
        XCTAssertEqual(r.status, 75, r.stderr)
        XCTAssertTrue(r.stderr.contains("offline"), r.stderr)
        XCTAssertTrue(r.stderr.contains("DNS"), "the reason names the lookup: \(r.stderr)")
        XCTAssertEqual(try onlyPin(db).state, "downloading")
        // The name works now (the stand-in's own address): the app's next start finishes the album.
        let t = try app(db, environment: ["FLICKR_API_KEY": "k"])
        try waitFor("the album to complete with a name that resolves") { try onlyPin(db).state == "ready" ? true : nil }
        try assertWholeAlbum(db)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    func testAProxyThatIsNotThereIsNamedAndTheAlbumWaits() throws {
        let db = try newDatabase()
        let nowhere = try ClosedPort()
        var env: [String: String?] = ["FLICKR_API_KEY": "k",
                                      "VTOURIST_FLICKR_ENDPOINT": "https://\(PhotoServer.elsewhereHost)/services/rest/"]
        for name in proxyVariables { env[name] = "http://127.0.0.1:\(nowhere.port)" }
        let r = try cli(["drop", "40.85", "14.27", "--wait", "--timeout", "1", "--db", db], environment: env)
        XCTAssertEqual(r.status, 75, r.stderr)
        XCTAssertTrue(r.stderr.contains("127.0.0.1:\(nowhere.port)"), "the message names the proxy: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("https_proxy"), "the message names the variable the proxy came from: \(r.stderr)")
        XCTAssertEqual(try onlyPin(db).state, "downloading", "a proxy that is not there is a passing failure")
    }

    func testABadRetryScaleIsSaidAndLeftAtOne() throws {
        for bad in ["abc", "0", "-2"] {
            let db = try newDatabase("scale\(bad)")
            let r = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: ["FLICKR_API_KEY": "k", "VTOURIST_RETRY_SCALE": bad])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("VTOURIST_RETRY_SCALE must be a number above 0"), "\(bad): \(r.stderr)")
            try assertWholeAlbum(db)
        }
    }

    // MARK: Extra certificate authorities

    func testVTOURIST_CA_BUNDLEIsTrustedAsWellAndAMissingFileIsSaid() throws {
        // The stand-in over https with the test certificate, which no system store trusts.
        server = try PhotoServer(tlsCertificate: TestCertificates.server)
        let trusted = try newDatabase("trusted")
        let r = try cli(["drop", "40.85", "14.27", "--wait", "--db", trusted],
                        environment: ["FLICKR_API_KEY": "k", "VTOURIST_CA_BUNDLE": TestCertificates.authority])
        XCTAssertEqual(r.status, 0, Self.said(r))
        try assertWholeAlbum(trusted)
        // Without it the certificate is refused: permanent, said at once.
        let refused = try newDatabase("refused")
        let without = try cli(["drop", "40.85", "14.27", "--wait", "--db", refused], environment: ["FLICKR_API_KEY": "k"])
        XCTAssertEqual(without.status, 1, Self.said(without))
        XCTAssertTrue(without.stderr.contains("certificate"), without.stderr)
        XCTAssertEqual(try onlyPin(refused).state, "failed")
        // A file that is not there is named, and left aside.
        let missing = try newDatabase("missing")
        let gone = try cli(["drop", "40.85", "14.27", "--wait", "--db", missing],
                           environment: ["FLICKR_API_KEY": "k", "VTOURIST_CA_BUNDLE": "/nonexistent/ca.pem"])
        XCTAssertEqual(gone.status, 1, Self.said(gone))
        XCTAssertTrue(gone.stderr.contains("VTOURIST_CA_BUNDLE") && gone.stderr.contains("/nonexistent/ca.pem"), gone.stderr)
    }

    /// A command's end in one line: its status (a signal named) and the last lines of its stderr,
    /// so a failure reads whole in a short excerpt of the log.
    static func said(_ r: (status: Int32, stdout: String, stderr: String)) -> String {
        let how = r.status > 128 ? "killed by signal \(r.status - 128)" : "exit \(r.status)"
        let last = r.stderr.split(separator: "\n").suffix(3).joined(separator: " | ")
        return "\(how); stdout \(r.stdout.debugDescription); stderr ends: \(last)"
    }

    // MARK: The server is busy

    /// Waits for the first search of a drop that meets `fault`, heals it, and returns the seconds from
    /// that search to the next, which the server's Retry-After must have set (not the backoff, 100
    /// times shorter here: Retry-After is the server's and is not scaled).
    func secondsToTheSearchAfter(_ fault: String, db: String, environment overrides: [String: String?],
                                 file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let before = server.searchRequests().count
        server.set(.searchFault, to: fault)
        let drop = try start(["drop", "40.85", "14.27", "--wait", "--db", db], environment: overrides)
        try waitFor("the first search, answered \(fault)") { server.searchRequests().count > before ? true : nil }
        let refused = Date()
        XCTAssertEqual(try onlyPin(db).state, "downloading", "\(fault): waiting, not failed", file: file, line: line)
        server.set(.searchFault, false)
        try waitFor("the search to be asked again after \(fault)") { server.searchRequests().count > before + 1 ? true : nil }
        let waited = Date().timeIntervalSince(refused)
        XCTAssertEqual(try exitStatus(drop, "drop --wait to finish after \(fault)"), 0, "\(fault): \(drop.stderr)", file: file, line: line)
        return waited
    }

    func testRateLimitsAreWaitedOutWithRetryAfterInSecondsAndAsADate() throws {
        // Retry-After: 3, and an HTTP-date 3 s ahead (whole seconds: 2 to 3 s from when it was sent).
        for (form, atLeast) in [("429", 2.5), ("429-date", 1.5)] {
            let db = try newDatabase(form)
            let waited = try secondsToTheSearchAfter(form, db: db, environment: throughProxy())
            XCTAssertGreaterThanOrEqual(waited, atLeast, "\(form): the next try waited for what Retry-After asked")
            try assertWholeAlbum(db)
        }
    }

    func testImagesAnswering503WithoutRetryAfterAreFetchedAgain() throws {
        server.set(.imageFault, to: "503")
        let db = try newDatabase()
        let drop = try start(["drop", "40.85", "14.27", "--wait", "--db", db], environment: throughProxy())
        // Every image asked for once, and some of them again.
        try waitFor("every image to be asked again after a 503") { (server.stats()["image_requests"] ?? 0) >= albumSize + 3 ? true : nil }
        XCTAssertEqual(try onlyPin(db).state, "downloading")
        server.set(.imageFault, false)
        XCTAssertEqual(try exitStatus(drop, "drop --wait to finish after the 503s"), 0, drop.stderr)
        try assertWholeAlbum(db)
    }

    func testCommonsMaxlagIsWaitedOutAndEveryRequestCarriesMaxlag() throws {
        let db = try newDatabase()
        let commons = throughProxy(["FLICKR_API_KEY": nil, "VTOURIST_SOURCE": "commons"])
        // maxlag answers Retry-After: 5.
        let waited = try secondsToTheSearchAfter("maxlag", db: db, environment: commons)
        XCTAssertGreaterThanOrEqual(waited, 4.5, "the next try waited for what Retry-After asked")
        let pin = try onlyPin(db)
        XCTAssertEqual(pin.state, "ready")
        XCTAssertEqual(pin.downloaded, pin.photos)
        let searches = server.searchRequests()
        XCTAssertFalse(searches.isEmpty)
        for query in searches {
            XCTAssertEqual(PhotoServer.parameters(query)["maxlag"], "5", query)
        }
    }

    // MARK: Some images fail

    func testEveryThirdImageFailingOnceIsFetchedAgainAndTheAlbumIsWhole() throws {
        server.set(.imageFault, to: "flaky3")
        let db = try newDatabase()
        let r = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: throughProxy())
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertWholeAlbum(db)
        // Photos 0, 3, …, 18 failed once each and were asked for again; none more than that.
        XCTAssertEqual(server.stats()["image_requests"], albumSize + 7)
    }

    func testAnImageThatFailsEveryTimeIsFailedAfterTheWindowAndTheAlbumSettles() throws {
        let db = try newDatabase()
        // The first photo's image answers 500 every time; given up after the window (0.6 s at this scale).
        let r = try cli(["drop", "40.85", "14.27", "--wait", "--db", db],
                        environment: throughProxy(["FLICKR_API_KEY": "img-500", "VTOURIST_RETRY_SCALE": "0.001"]))
        XCTAssertEqual(r.status, 0, r.stderr)
        let pin = try onlyPin(db)
        XCTAssertEqual(pin.state, "ready", "the album settles")
        XCTAssertEqual(pin.photos, albumSize)
        XCTAssertEqual(pin.downloaded, albumSize - 1)
        XCTAssertGreaterThan(server.stats()["image_requests"] ?? 0, albumSize + 1, "the failing image was tried again before it was given up")
        let album = try cli(["album", String(pin.id), "--json", "--db", db])
        XCTAssertEqual(album.status, 0, album.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(album.stdout.utf8)) as? [String: Any])
        let photos = try XCTUnwrap(object["photos"] as? [[String: Any]])
        XCTAssertEqual(photos.filter { ($0["downloaded"] as? Bool) == false }.count, 1, album.stdout)
    }
}

/// A process started with posix_spawn, its output going to files, whose exit can be polled.
final class Running: @unchecked Sendable {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private var status: Int32?
    private let lock = NSLock()

    init(_ executable: String, _ arguments: [String], environment: [String: String], stdout: String, stderr: String) throws {
        stdoutPath = stdout
        stderrPath = stderr
        pid = try spawnProgram(executable, arguments, environment: environment, stdout: stdout, stderr: stderr)
    }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Its exit status (128+N after signal N) once it has ended, else nil.
    func exited() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
        let decoded = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        status = decoded
        return decoded
    }

    /// SIGKILL, if it still runs.
    func kill9() {
        if exited() == nil { kill(pid, SIGKILL) }
    }

    /// Killed if it still runs, and reaped.
    func stop() {
        kill9()
        while exited() == nil { usleep(10_000) }
    }
}

/// The long flapping run, in `make check` only (CHECK_ONLY_E2E in the Makefile): the network goes
/// down and comes back every 2 s for a minute while albums are dropped one after another, each
/// with every answer taking 100 ms; every one completes whole.
final class NetworkFlapMinuteTests: EndToEndTestCase {
    func testAMinuteOfANetworkFlappingEveryTwoSecondsLosesNoAlbum() throws {
        server = try PhotoServer(delayMs: 100)
        let proxy = try NetProxy(targetPort: server.port)
        let env: [String: String?] = ["VTOURIST_FLICKR_ENDPOINT": proxy.base + "/flickr/rest",
                                      "VTOURIST_COMMONS_ENDPOINT": proxy.base + "/commons/api.php", "FLICKR_API_KEY": "k"]
        let db = try temporaryDirectory().appendingPathComponent("flap.sqlite").path
        proxy.flap(every: 2)
        defer { proxy.flap(every: nil) }
        let start = Date()
        var dropped = 0
        while Date().timeIntervalSince(start) < 60 {
            // Each drop somewhere else, so none is refused as a second pin at one place.
            let r = try cli(["drop", String(10 + Double(dropped) * 0.5), "14.27", "--wait", "--db", db], environment: env)
            XCTAssertEqual(r.status, 0, "drop \(dropped): \(r.stderr)")
            dropped += 1
        }
        let all = try pins(db: db)
        XCTAssertEqual(all.count, dropped)
        XCTAssertGreaterThanOrEqual(dropped, 2)
        for pin in all {
            XCTAssertEqual(pin.state, "ready", "pin \(pin.id)")
            XCTAssertEqual(pin.downloaded, 21, "pin \(pin.id)")
        }
        XCTAssertGreaterThanOrEqual(proxy.stats()["refused_periods"] ?? 0, 10, "the network went away every 4 s for a minute (about 15 times)")
    }
}
