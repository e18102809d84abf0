import XCTest
@testable import AlbumMachine

/// The offline rules, as tables: each row an event at a time, the effects and the state after it.
final class NetworkMonitorTests: XCTestCase {
    private let policy = RetryPolicy.standard

    private struct Row {
        let event: NetworkEvent
        let now: Double
        let effects: [NetworkEffect]
        let isOffline: Bool
        let nextProbe: Double?
        let line: UInt

        init(_ event: NetworkEvent, at now: Double, _ effects: [NetworkEffect], offline isOffline: Bool,
             probe nextProbe: Double? = nil, line: UInt = #line) {
            self.event = event
            self.now = now
            self.effects = effects
            self.isOffline = isOffline
            self.nextProbe = nextProbe
            self.line = line
        }
    }

    /// Runs the rows in order on one monitor (jitter 1: the full backoff).
    @discardableResult
    private func run(_ rows: [Row], from start: NetworkMonitor = NetworkMonitor()) -> NetworkMonitor {
        var monitor = start
        for row in rows {
            let effects = reduce(&monitor, row.event, now: row.now, jitter: 1, policy: policy)
            XCTAssertEqual(effects, row.effects, "effects", line: row.line)
            XCTAssertEqual(monitor.isOffline, row.isOffline, "offline", line: row.line)
            XCTAssertEqual(monitor.nextProbe, row.nextProbe, "next probe", line: row.line)
        }
        return monitor
    }

    func testFreshMonitorIsOnlineAndKnowsNoHost() {
        let monitor = NetworkMonitor()
        XCTAssertFalse(monitor.isOffline)
        XCTAssertNil(monitor.nextProbe)
        XCTAssertEqual(monitor.hosts, [:])
        XCTAssertEqual(monitor.report(), .online)
    }

    func testOneHostOfTwoUnreachableStaysOnline() {
        let monitor = run([
            Row(.reached(host: "api.flickr.com"), at: 0, [], offline: false),
            Row(.unreachable(host: "live.staticflickr.com", reason: "Could not connect"), at: 1, [], offline: false),
            Row(.unreachable(host: "live.staticflickr.com", reason: "Could not connect"), at: 2, [], offline: false),
        ])
        XCTAssertEqual(monitor.hosts, ["api.flickr.com": true, "live.staticflickr.com": false])
    }

    func testEveryKnownHostUnreachableIsOfflineWithOneProbeAndBackoff() {
        let monitor = run([
            Row(.reached(host: "a"), at: 0, [], offline: false),
            Row(.unreachable(host: "b", reason: "refused"), at: 5, [], offline: false),
            Row(.unreachable(host: "a", reason: "DNS failed"), at: 10, [.scheduleProbe(at: 11), .report], offline: true, probe: 11),
            // More transfers failing while offline move nothing.
            Row(.unreachable(host: "b", reason: "refused again"), at: 10.5, [], offline: true, probe: 11),
            Row(.probeDue, at: 11, [.probe, .report], offline: true),
            // A second timer while the probe is out sends no second probe.
            Row(.probeDue, at: 11.5, [], offline: true),
            Row(.probeFailed(host: "a", reason: "DNS failed"), at: 12, [.scheduleProbe(at: 14), .report], offline: true, probe: 14),
            Row(.probeDue, at: 14, [.probe, .report], offline: true),
            Row(.probeFailed(host: "a", reason: "DNS failed"), at: 14, [.scheduleProbe(at: 18), .report], offline: true, probe: 18),
            // A probe result nobody waits for (no probe out) does not move the backoff.
            Row(.probeFailed(host: "a", reason: "late"), at: 17, [], offline: true, probe: 18),
        ])
        XCTAssertEqual(monitor.probeFailures, 2)
        XCTAssertEqual(monitor.reason, "late")
        XCTAssertEqual(monitor.report(), NetworkReport(isOffline: true, reason: "late", nextProbe: 18))
    }

    func testTheProbeBackoffStopsAtTheLongestPause() {
        var monitor = NetworkMonitor()
        _ = reduce(&monitor, .unreachable(host: "a", reason: "refused"), now: 0, jitter: 1, policy: policy)
        var now = 0.0
        for _ in 0..<12 {
            now = monitor.nextProbe ?? now
            XCTAssertEqual(reduce(&monitor, .probeDue, now: now, jitter: 1, policy: policy), [.probe, .report])
            _ = reduce(&monitor, .probeFailed(host: "a", reason: "refused"), now: now, jitter: 1, policy: policy)
        }
        XCTAssertEqual(monitor.nextProbe, now + policy.maxDelay)
    }

    func testProbeReachedIsOnlineAndResumesTheWaiting() {
        let monitor = run([
            Row(.unreachable(host: "a", reason: "refused"), at: 0, [.scheduleProbe(at: 1), .report], offline: true, probe: 1),
            Row(.probeDue, at: 1, [.probe, .report], offline: true),
            Row(.probeReached(host: "a"), at: 2, [.scheduleProbe(at: nil), .resumeWaiting, .report], offline: false),
            // Online again: another probe answer, or a late timer, does nothing.
            Row(.probeReached(host: "a"), at: 3, [], offline: false),
            Row(.probeDue, at: 4, [], offline: false),
        ])
        XCTAssertEqual(monitor.probeFailures, 0)
        XCTAssertNil(monitor.reason)
        XCTAssertEqual(monitor.report(), .online)
    }

    func testAnyTransferReachingAHostWhileOfflineIsOnline() {
        run([
            Row(.unreachable(host: "a", reason: "refused"), at: 0, [.scheduleProbe(at: 1), .report], offline: true, probe: 1),
            Row(.reached(host: "b"), at: 5, [.scheduleProbe(at: nil), .resumeWaiting, .report], offline: false),
            // Host a is still known unreachable, b answered: one failure of b is not offline…
            Row(.unreachable(host: "a", reason: "refused"), at: 6, [], offline: false),
            // …but b failing too is.
            Row(.unreachable(host: "b", reason: "reset"), at: 7, [.scheduleProbe(at: 8), .report], offline: true, probe: 8),
        ])
    }

    func testAFailedProbeWhileOnlineCountsAsAnUnreachableHost() {
        run([
            Row(.probeFailed(host: "a", reason: "refused"), at: 3, [.scheduleProbe(at: 4), .report], offline: true, probe: 4),
        ])
    }

    func testTheBackoffIsSpreadByJitterAndScaled() {
        var monitor = NetworkMonitor()
        let scaled = policy.scaled(0.01)
        XCTAssertEqual(reduce(&monitor, .unreachable(host: "a", reason: "x"), now: 0, jitter: 0, policy: scaled),
                       [.scheduleProbe(at: 0.005), .report])
        XCTAssertEqual(monitor.nextProbe, 0.005)
    }

    func testTheReportWhileOfflineGivesNoAlbumATime() {
        var monitor = NetworkMonitor()
        let wait = AlbumWait(reason: "HTTP 503", nextTry: 8, isSearch: false, photos: 2)
        XCTAssertEqual(monitor.report(waits: [7: wait]).waits[7], wait)
        _ = reduce(&monitor, .unreachable(host: "a", reason: "refused"), now: 0, jitter: 1, policy: policy)
        XCTAssertEqual(monitor.report(waits: [7: wait]),
                       NetworkReport(isOffline: true, reason: "refused", nextProbe: 1,
                                     waits: [7: AlbumWait(reason: "HTTP 503", nextTry: nil, isSearch: false, photos: 2)]))
    }
}
