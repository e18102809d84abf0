import AlbumMachine
import AlbumService
import Foundation
import HTTP
import PhotoSources
@testable import Store
import TestSupport
import Model
import Synchronization
import Geo
import Imaging
import XCTest

/// What the album tests stand on: the real photo-source clients over real libcurl against the
/// local stand-in server, and a real SQLite file.
class AlbumServiceTestCase: XCTestCase {
    var server: PhotoServer!
    var store: AppDatabase!
    var folder: URL!

    override func setUpWithError() throws {
        events = Events()
        server = try PhotoServer(delayMs: 20)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-albums-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try AppDatabase.open(path: folder.appendingPathComponent("albums.sqlite").path)
    }

    override func tearDownWithError() throws {
        try? store.close()
        try? FileManager.default.removeItem(at: folder)
        // Let go of what the test made: XCTest never frees a test case, so what it still holds at
        // exit would stay allocated (and be reported as leaked).
        (server, store, folder, events) = (nil, nil, nil, nil)
    }

    /// Passing failures fail at once, as permanent ones do: for tests of what a failure says, not of
    /// its retries (RetryServiceTests).
    static let noRetryWindow = RetryPolicy(giveUpAfter: 0)
    /// The retry policy of this class's services when a test names none (nil: the standard one).
    var defaultRetryPolicy: RetryPolicy? { nil }

    /// A service over Flickr with `key` (the stand-in picks faults by key), or Commons.
    /// `flickrEndpoint` replaces the server's (a closed port, a host no resolver can ask for); `store`
    /// another connection to the file (a second window); `pickPage` New Collection's page.
    func service(key: String? = "good-key", commons: Bool = false, events: Events? = nil,
                 server: PhotoServer? = nil, maxConnectionsPerHost: Int = AlbumService.connectionsPerHost, flickrEndpoint: String? = nil,
                 store: AppDatabase? = nil,
                 pickPage: @escaping @Sendable (Int, Int) -> Int = { current, count in current % count + 1 },
                 imageCheck: ImageCheck = ImageCheck(JPEGDecoder.downloadProblem),
                 leaseClock: @escaping @Sendable () -> Double = AlbumLease.wallClock,
                 heartbeat: LeaseHeartbeat = .timer, retryPolicy: RetryPolicy? = nil,
                 retryClock: RetryClock = .live, http: HTTPClient? = nil,
                 transfersAtOnce: Int = AlbumService.transfersAtOnce) -> AlbumService {
        let server = server ?? self.server!
        var env = ["VTOURIST_FLICKR_ENDPOINT": flickrEndpoint ?? server.flickrEndpoint,
                   "VTOURIST_COMMONS_ENDPOINT": server.commonsEndpoint]
        if let key, !commons { env["FLICKR_API_KEY"] = key }
        let settings = PhotoSourceSettings.resolve(environment: env, stored: [:])
        // Short low-speed limit so a server that never answers fails within a second or two.
        let http = http ?? HTTPClient(userAgent: "vtourist-tests", maxConnectionsPerHost: maxConnectionsPerHost, lowSpeedTime: 1)
        let events = events ?? self.events!
        return AlbumService(store: store ?? self.store, http: http, settings: settings, imageCheck: imageCheck,
                            environment: AlbumEnvironment(perPage: 21, pickPage: pickPage), retryPolicy: retryPolicy ?? defaultRetryPolicy,
                            retryClock: retryClock, userAgent: "vtourist-tests", leaseClock: leaseClock,
                            heartbeat: heartbeat, transfersAtOnce: transfersAtOnce) { events.record($0) }
    }

    /// What the services of a test reported; `wait` blocks until the next report.
    final class Events: Sendable {
        private let all = Mutex<[AlbumEvent]>([])
        private let changed = DispatchSemaphore(value: 0)
        func record(_ e: AlbumEvent) {
            all.withLock { $0.append(e) }
            changed.signal()
        }
        var notices: [String] {
            all.withLock { $0.compactMap { if case let .notice(_, m) = $0 { return m } else { return nil } } }
        }
        /// Every `.network` report, in order.
        var networkReports: [NetworkReport] {
            all.withLock { $0.compactMap { if case let .network(r) = $0 { return r } else { return nil } } }
        }
        var storeFailures: [String] {
            all.withLock { $0.compactMap { if case let .storeFailed(_, m) = $0 { return m } else { return nil } } }
        }
        /// Waits for reports until `done` holds (the limit only ends a hang).
        func wait(file: StaticString = #filePath, line: UInt = #line, limit: TimeInterval = 30,
                  until done: () throws -> Bool) rethrows {
            let deadline = Date().addingTimeInterval(limit)
            while try !done() {
                guard Date() < deadline else { return XCTFail("waited in vain", file: file, line: line) }
                _ = changed.wait(timeout: .now() + 1)
            }
        }
    }
    /// What this test's services reported (made in setUp, let go in tearDown).
    var events: Events!

    /// Waits until the album leaves `downloading`, and checks that the store holds exactly the status
    /// the album state machine decided (one truth, two readers).
    @discardableResult
    func settle(_ service: AlbumService, _ pin: Pin.ID, file: StaticString = #filePath, line: UInt = #line) -> StoredAlbum? {
        _ = service.album(pin)  // takes up everything already sent to the service
        var album: StoredAlbum?
        events.wait(file: file, line: line) {
            album = try? store.album(pinID: pin)
            return album.map { $0.status != .downloading } ?? true
        }
        XCTAssertEqual(service.album(pin)?.status, album?.status, "the store holds what the machine decided", file: file, line: line)
        return album
    }

    func dropPin() throws -> Pin {
        try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
    }
}
