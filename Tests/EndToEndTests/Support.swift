import Foundation
import TestSupport
import XCTest

/// What every end-to-end test stands on: a temporary HOME, and the local
/// Flickr/Commons stand-in as the only photo endpoint and as every proxy.
/// curl fetches loopback hosts directly and everything else through the proxy,
/// so a request for any other host lands in the stand-in's trap; each test
/// fails if one did.
class EndToEndTestCase: XCTestCase {
    /// The stand-in server; replace it for other timings (every one is checked for leaks).
    var server: PhotoServer! {
        didSet { if let server { servers.append(server) } }
    }
    private var servers: [PhotoServer] = []
    /// HOME of every process the test starts.
    private(set) var home = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        home = try temporaryDirectory().path
        server = try PhotoServer()
    }

    override func tearDown() {
        for s in servers {
            XCTAssertEqual(s.leaks(), [], "a request left loopback")
        }
        servers = []
        server = nil
        super.tearDown()
    }

    /// The whole environment of a process this test starts (see `processEnvironment`):
    /// its temporary HOME, and the stand-in as photo endpoints and proxy trap.
    func environment(_ overrides: [String: String?] = [:], terminal: String = "xterm-256color") -> [String: String] {
        processEnvironment(home: home, server: server, terminal: terminal, overrides: overrides)
    }

    /// Runs the command line (not the full-screen app).
    @discardableResult
    func cli(_ arguments: [String], environment overrides: [String: String?] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(try vtouristBinary(), arguments, environment: environment(overrides))
    }

    /// The full-screen app in its own tmux.
    func app(_ db: String, width: Int = 100, height: Int = 30, environment overrides: [String: String?] = [:],
             recording: Bool = false) throws -> TmuxSession {
        try session([try vtouristBinary(), "--db", db], width: width, height: height, environment: overrides, recording: recording)
    }

    /// Any command in its own tmux.
    func session(_ command: [String], width: Int = 100, height: Int = 30, environment overrides: [String: String?] = [:],
                 recording: Bool = false) throws -> TmuxSession {
        try TmuxSession(command: command, width: width, height: height,
                        environment: environment(overrides, terminal: "tmux-256color"), recording: recording)
    }

    /// A temporary folder for one test's files, removed after the test.
    func temporaryDirectory() throws -> URL {
        let dir = try EndToEndTests.temporaryDirectory()
        addTeardownBlock {
            // Undo the permission games some tests play, so the folder can go.
            _ = try? runProcess("/bin/chmod", ["-R", "u+rwx", dir.path])
            try? FileManager.default.removeItem(at: dir)
        }
        return dir
    }

    /// Polls `probe` until it gives a value; the limit only ends a hang.
    @discardableResult
    func waitFor<T>(_ what: String, timeout: Double = 20, _ probe: () throws -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout * waitScale)
        while Date() < deadline {
            if let value = try probe() { return value }
            usleep(50_000)
        }
        throw TmuxError(message: "timed out waiting for \(what)")
    }
}

/// The time scale of every retry of the processes these tests start (VTOURIST_RETRY_SCALE).
let retryScale = 0.01

/// The only variables VTOURIST_SANITIZER_ENV may set: a sanitizer's options.
let sanitizerVariables: Set<String> = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"]

/// The options of a binary built with a sanitizer (`make check-address-app`), given to every vtourist
/// process a test starts: VTOURIST_SANITIZER_ENV holds `NAME=VALUE` words separated by spaces, each NAME
/// one of `sanitizerVariables` (scripts/sanitizers/sanitizer_env.py reads the same words). Empty
/// when unset; the test process's own ASAN_OPTIONS and the like never reach the app.
let sanitizerEnvironment: [String: String] = {
    let text = ProcessInfo.processInfo.environment["VTOURIST_SANITIZER_ENV"] ?? ""
    var env: [String: String] = [:]
    for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
        let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, sanitizerVariables.contains(parts[0]) else {
            fatalError("VTOURIST_SANITIZER_ENV: \(word) is not NAME=VALUE with NAME one of \(sanitizerVariables.sorted())")
        }
        env[parts[0]] = parts[1]
    }
    return env
}()

/// MiB a memory bound of these tests allows on top for a binary built with a sanitizer (its shadow
/// memory, redzones and quarantine of freed blocks): VTOURIST_E2E_SANITIZER_MIB, 0 when unset.
let sanitizerMemoryMiB: Double = {
    guard let text = ProcessInfo.processInfo.environment["VTOURIST_E2E_SANITIZER_MIB"], !text.isEmpty else { return 0 }
    guard let mib = Double(text), mib.isFinite, mib >= 0 else {
        fatalError("VTOURIST_E2E_SANITIZER_MIB=\(text) is not a number of MiB, 0 or more")
    }
    return mib
}()

/// What a script that starts vtourist itself (scripts/soak.py, bench/fault_matrix.py) needs to hand
/// the sanitizer's options on: VTOURIST_SANITIZER_ENV as the test process has it, if set.
var sanitizerPassThrough: [String: String] {
    ProcessInfo.processInfo.environment["VTOURIST_SANITIZER_ENV"].map { ["VTOURIST_SANITIZER_ENV": $0] } ?? [:]
}

/// Every variable libcurl takes a proxy from (http_proxy only in lower case).
let proxyVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"]

/// The whole environment of a process an end-to-end test starts, built only
/// here: a fixed PATH and locale, HOME, a database in it, both photo endpoints
/// on the stand-in and every proxy variable on its trap, retries 100 times faster
/// (`retryScale`), and no FLICKR_API_KEY,
/// VTOURIST_SOURCE, XDG_*, NO_COLOR or proxy of the caller's; a sanitized binary's options
/// (`sanitizerEnvironment`) when the run names them. Without a
/// stand-in, endpoints and proxies name a closed loopback port: a request
/// fails at once and never leaves the machine. An override of nil removes
/// that variable.
func processEnvironment(home: String, server: PhotoServer?, terminal: String = "xterm-256color",
                        overrides: [String: String?] = [:]) -> [String: String] {
    let nowhere = "http://127.0.0.1:9"
    var env = [
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": terminal,
        "VTOURIST_DB": home + "/default.sqlite",
        "VTOURIST_COMMONS_ENDPOINT": server?.commonsEndpoint ?? nowhere + "/commons/api.php",
        "VTOURIST_FLICKR_ENDPOINT": server?.flickrEndpoint ?? nowhere + "/flickr/rest",
        // Every retry pause, give-up window and probe backoff 100 times shorter: a passing failure
        // settles in seconds (6 s to give up instead of 10 minutes).
        "VTOURIST_RETRY_SCALE": String(retryScale),
    ]
    for name in proxyVariables { env[name] = server?.proxy ?? nowhere }
    env.merge(sanitizerEnvironment) { _, sanitizer in sanitizer }
    for (name, value) in overrides { env[name] = value }
    return env
}

/// The pins in a database, as `vtourist pins --json` lists them (no network involved); none when
/// there is no database (which `pins` refuses, creating nothing).
func pins(db: String, file: StaticString = #filePath, line: UInt = #line) throws -> [PinRow] {
    guard FileManager.default.fileExists(atPath: db) else { return [] }
    let r = try runProcess(try vtouristBinary(), ["pins", "--json", "--db", db],
                           environment: processEnvironment(home: "/nonexistent", server: nil))
    XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
    return try JSONDecoder().decode([PinRow].self, from: Data(r.stdout.utf8))
}

/// Makes an empty database at `db` as a user would, by importing a file that holds no pins
/// (the commands that only read create none).
func makeEmptyDatabase(_ db: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-empty-\(UUID().uuidString).geojson")
    try Data(emptyPinFile.utf8).write(to: empty)
    defer { try? FileManager.default.removeItem(at: empty) }
    let r = try runProcess(try vtouristBinary(), ["import", empty.path, "--db", db],
                           environment: processEnvironment(home: "/nonexistent", server: nil))
    XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
}

/// A GeoJSON file with no pins in it.
let emptyPinFile = #"{"type":"FeatureCollection","features":[]}"#

/// A temporary folder for one test's files.
func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

struct PinRow: Decodable, Equatable {
    var id: Int64
    var latitude: Double
    var longitude: Double
    var name: String?
    /// The nearest place's name, whatever the pin is called.
    var place: String?
    /// The destination the pin was dropped on, if any.
    var destination: String? = nil
    var state: String
    var photos: Int
    var downloaded: Int
}

/// The status line: the last non-empty row of the screen.
func statusLine(_ screen: String) -> String {
    screen.split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init) ?? ""
}

func sha256(_ path: String) throws -> String {
    try runProcess("/usr/bin/sha256sum", [path]).stdout.split(separator: " ").first.map(String.init) ?? ""
}

func directoryListing(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
}
