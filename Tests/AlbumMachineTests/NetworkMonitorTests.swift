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

    func testAProbeFailingAfterTheNetworkCameBackIsStale() {
        let monitor = run([
            Row(.unreachable(host: "a", reason: "refused"), at: 0, [.scheduleProbe(at: 1), .report], offline: true, probe: 1),
            Row(.probeDue, at: 1, [.probe, .report], offline: true),
            Row(.reached(host: "a"), at: 2, [.scheduleProbe(at: nil), .resumeWaiting, .report], offline: false),
            Row(.probeFailed(host: "a", reason: "refused"), at: 3, [], offline: false),
        ])
        XCTAssertEqual(monitor.hosts, ["a": true])
    }

    func testAProbeStillOutWhenTheNetworkFailsAgainAnswersForTheNewOutage() {
        let monitor = run([
            Row(.unreachable(host: "a", reason: "refused"), at: 0, [.scheduleProbe(at: 1), .report], offline: true, probe: 1),
            Row(.probeDue, at: 1, [.probe, .report], offline: true),
            Row(.reached(host: "b"), at: 2, [.scheduleProbe(at: nil), .resumeWaiting, .report], offline: false),
            // Offline again while the first probe is out: no second probe, no timer.
            Row(.unreachable(host: "b", reason: "reset"), at: 3, [.report], offline: true),
            Row(.probeDue, at: 3.5, [], offline: true),
            Row(.probeFailed(host: "a", reason: "refused"), at: 4, [.scheduleProbe(at: 6), .report], offline: true, probe: 6),
            Row(.probeDue, at: 6, [.probe, .report], offline: true),
        ])
        XCTAssertTrue(monitor.isProbing)
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

/// Random outcomes of transfers and probes, timers ringing when due: the monitor is never offline
/// with neither a probe timer set nor a probe out (it would wait for ever), never has two probes
/// out (even one sent before the network came back), and every change of the offline flag or the
/// next probe is reported.
final class NetworkMonitorSequenceTests: XCTestCase {
    func testNoSequenceLeavesTheAppOfflineWithNothingToBringItBack() {
        let policy = RetryPolicy.standard
        let hosts = ["api.flickr.com", "live.staticflickr.com", "commons.wikimedia.org"]
        for seed in UInt64(1)...200 {
            var random = SeededGenerator(seed: seed)
            var monitor = NetworkMonitor()
            var now = 0.0
            var timer: Double?
            // Probes sent and not answered yet.
            var probes = 0
            var reported = (isOffline: false, nextProbe: Double?.none)
            var resumed = 0

            for index in 0..<300 {
                let context = "seed \(seed), step \(index)"
                let wasOffline = monitor.isOffline
                let event: NetworkEvent
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<3:
                    event = .unreachable(host: hosts.randomElement(using: &random)!, reason: "refused")
                case 3:
                    event = .reached(host: hosts.randomElement(using: &random)!)
                case 4..<7:
                    guard let due = timer else { continue }
                    now = max(now, due)
                    timer = nil
                    event = .probeDue
                default:
                    guard probes > 0 else { continue }
                    probes -= 1
                    let host = hosts.randomElement(using: &random)!
                    event = Int.random(in: 0..<4, using: &random) == 0 ? .probeReached(host: host) : .probeFailed(host: host, reason: "refused")
                }
                now += Double.random(in: 0...5, using: &random)
                let effects = reduce(&monitor, event, now: now, jitter: Double.random(in: 0...1, using: &random), policy: policy)
                for effect in effects {
                    switch effect {
                    case .probe:
                        XCTAssertEqual(probes, 0, "\(context): a second probe")
                        probes += 1
                    case .scheduleProbe(let at): timer = at
                    case .resumeWaiting: resumed += 1
                    case .report: reported = (monitor.isOffline, monitor.nextProbe)
                    }
                }
                if wasOffline && !monitor.isOffline {
                    XCTAssertTrue(effects.contains(.resumeWaiting), context)
                } else {
                    XCTAssertFalse(effects.contains(.resumeWaiting), context)
                }
                XCTAssertEqual(timer, monitor.nextProbe, "\(context): the timer")
                XCTAssertEqual(reported.isOffline, monitor.isOffline, "\(context): reported")
                XCTAssertEqual(reported.nextProbe, monitor.nextProbe, "\(context): reported")
                if monitor.isOffline {
                    XCTAssertTrue((timer != nil) != (probes > 0), "\(context): offline with nothing to bring it back, or a timer and a probe")
                    XCTAssertTrue(monitor.hosts.values.allSatisfy { !$0 } || wasOffline, context)
                    if let timer { XCTAssertLessThanOrEqual(timer - now, policy.maxDelay, context) }
                } else {
                    XCTAssertNil(timer, context)
                }
            }
            XCTAssertGreaterThan(resumed + (monitor.isOffline ? 1 : 0), 0, "seed \(seed): the sequence never went offline")
        }
    }
}
