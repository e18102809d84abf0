import AlbumMachine
import Terminal
import TouristCore
import Geo
import Model
import WorldMap
import XCTest

/// The network on screen: `offline` on the map's status line, the album's wait and its countdown,
/// drawn from the album service's report and the loop's clock.
final class NetworkScreenTests: XCTestCase {
    let reducer = AppReducer(places: .none)

    /// The album of pin 1 open, downloading: `stored` of `total` photos in, the rest pending.
    func downloadingAlbum(stored: Int = 7, total: Int = 21, width: Int = 80) -> AppState {
        var s = Sample.mapState()
        s.width = width
        let photos = (1...Int64(total)).map { Sample.photo($0, $0 <= stored ? .stored : .pending) }
        var album = AlbumScreen(pinID: 1)
        album.apply(AlbumSnapshot(pinID: 1, photos: photos, status: .downloading, source: "flickr"))
        s.screen = .album(album)
        return s
    }

    func waiting(_ wait: AlbumWait, offline: Bool = false, reason: String? = nil) -> NetworkReport {
        NetworkReport(isOffline: offline, reason: reason, waits: [1: wait])
    }

    // MARK: - The map's status line

    func testTheStatusLineSaysOfflineInItsOwnColourAndKeepsItsHints() throws {
        var s = Sample.mapState()
        let before = AppView.render(s, raster: nil)
        let row = s.height - 1
        XCTAssertFalse(before.rowText(row).contains("offline"))
        XCTAssertTrue(reducer.reduce(&s, .network(NetworkReport(isOffline: true, reason: "could not connect"), time: 5)).isEmpty)
        let screen = AppView.render(s, raster: nil)
        let line = screen.rowText(row)
        let at = try XCTUnwrap(line.range(of: "offline")).lowerBound
        let column = line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: at)
        let theme = Theme.forDepth(s.capabilities.colors)
        for x in column..<column + 7 { XCTAssertEqual(screen[x, row].style, theme.offline, "column \(x)") }
        XCTAssertNotEqual(theme.offline, theme.status, "it stands out")
        // The 80-column line stays whole: position, zoom, scale, offline, pins and the help key.
        XCTAssertTrue(line.hasPrefix(" 40.8500°N 14.2700°E │ z10 │ "), line)
        XCTAssertTrue(line.contains("┤ │ offline"), line)
        XCTAssertTrue(line.hasSuffix("2 pins │ ? help "), line)
        XCTAssertEqual(line.count, 80)
        // Back online: the word goes.
        _ = reducer.reduce(&s, .network(.online, time: 9))
        XCTAssertEqual(AppView.render(s, raster: nil).rowText(row), before.rowText(row))
    }

    func testOnTheNarrowestLineTheScaleGivesWayToOffline() {
        var s = Sample.mapState()
        s.width = AppState.minimumWidth
        _ = reducer.reduce(&s, .network(NetworkReport(isOffline: true), time: 0))
        let line = AppView.render(s, raster: nil).rowText(s.height - 1)
        XCTAssertTrue(line.hasSuffix("│ offline") || line.contains("│ offline "), line)
        XCTAssertEqual(line.count, AppState.minimumWidth)
    }

    // MARK: - The album's wait

    func testAWaitingAlbumCountsDownToItsNextTryWithTheReason() {
        var s = downloadingAlbum()
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).hasPrefix(" Downloading 7/21 "))
        let wait = AlbumWait(reason: "HTTP 503", nextTry: 108, isSearch: false, photos: 14)
        _ = reducer.reduce(&s, .network(waiting(wait), time: 100))
        let row = AppView.render(s, raster: nil).rowText(1)
        XCTAssertTrue(row.hasPrefix(" 7/21 · the photo service is failing (HTTP 503), next try in 8 s "), row)
        XCTAssertTrue(row.hasSuffix(" rows 1-2 of 7 "), "the scroll position still fits after it: \(row)")
        XCTAssertEqual(s.countdownDue, 101.001, "the next second, a millisecond late")
        _ = reducer.reduce(&s, .countdown(time: 101.001))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).contains("(HTTP 503), next try in 7 s"))
        _ = reducer.reduce(&s, .countdown(time: 107.5))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).contains("(HTTP 503), next try in 1 s"))
        XCTAssertEqual(s.countdownDue, 108.001)
        _ = reducer.reduce(&s, .countdown(time: 108.001))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).contains("(HTTP 503), next try in 0 s"))
        XCTAssertNil(s.countdownDue, "nothing more to count: the service reports what comes next")
    }

    func testASearchThatWaitsShowsTheReasonAlone() {
        var s = Sample.mapState()
        var album = AlbumScreen(pinID: 1)
        album.apply(AlbumSnapshot(pinID: 1, photos: [], status: .downloading, source: nil))
        s.screen = .album(album)
        _ = reducer.reduce(&s, .network(waiting(AlbumWait(reason: "connection reset", nextTry: 32.2, isSearch: true, photos: 0)),
                                        time: 2))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1)
            .hasPrefix(" the photo service is failing (connection reset), next try in 31 s "))
    }

    func testOfflineTheAlbumSaysSoWithTheNetworksReasonAndCountsNothing() {
        var s = downloadingAlbum()
        let wait = AlbumWait(reason: "HTTP 503", nextTry: nil, isSearch: false, photos: 14)
        _ = reducer.reduce(&s, .network(waiting(wait, offline: true, reason: "could not connect to 127.0.0.1:9"), time: 3))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1)
            .hasPrefix(" 7/21 · waiting for the network (offline): could not connect to 127.0.0.1:9 "))
        XCTAssertNil(s.countdownDue)
        // Offline with a next try still planned: no countdown either, the probe decides.
        _ = reducer.reduce(&s, .network(waiting(AlbumWait(reason: "HTTP 503", nextTry: 50, isSearch: false, photos: 14),
                                                offline: true, reason: nil), time: 3))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).contains("waiting for the network (offline): HTTP 503"))
        XCTAssertNil(s.countdownDue)
    }

    /// One server failing while the network answers is the service's failure, not the network's:
    /// "waiting for the network" is said only while the app is offline.
    func testAFailingServerIsNotCalledAWaitForTheNetwork() {
        let wait = AlbumWait(reason: "HTTP 500", nextTry: 12, isSearch: true, photos: 0)
        XCTAssertEqual(NetworkStatus.waitLine(wait, report: waiting(wait), now: 10),
                       "the photo service is failing (HTTP 500), next try in 2 s")
        XCTAssertEqual(NetworkStatus.waitLine(wait, report: waiting(wait, offline: true, reason: "could not connect to x"), now: 10),
                       "waiting for the network (offline): could not connect to x")
        var s = downloadingAlbum()
        _ = reducer.reduce(&s, .network(waiting(wait), time: 10))
        let row = AppView.render(s, raster: nil).rowText(1)
        XCTAssertTrue(row.hasPrefix(" 7/21 · the photo service is failing (HTTP 500), next try in 2 s"), row)
        XCTAssertFalse(row.contains("network"), row)
    }

    func testOnlyTheOpenAlbumsWaitIsShownAndOnlyWhileItDownloads() {
        var s = downloadingAlbum()
        _ = reducer.reduce(&s, .network(NetworkReport(waits: [2: AlbumWait(reason: "HTTP 500", nextTry: 9, isSearch: false, photos: 1)]),
                                        time: 0))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).hasPrefix(" Downloading 7/21 "), "another pin's wait")
        XCTAssertNil(s.countdownDue)
        // A report that came before the album was loaded ready again brings no wait back.
        _ = reducer.reduce(&s, .network(waiting(AlbumWait(reason: "HTTP 500", nextTry: 9, isSearch: false, photos: 1)), time: 0))
        _ = reducer.reduce(&s, .albumLoaded(AlbumSnapshot(pinID: 1, photos: (1...3).map { Sample.photo($0) }, status: .ready,
                                                          source: "flickr")))
        XCTAssertTrue(AppView.render(s, raster: nil).rowText(1).hasPrefix(" 3 photos "))
        XCTAssertNil(s.countdownDue)
    }

    func testALongReasonIsCutAtTheRowsEndAndObeysNoEscape() {
        var s = downloadingAlbum(stored: 20, total: 21)
        let reason = "could not connect to a-very-long-host-name.example.org:8443 (connection refused) \u{1B}[31mred"
        _ = reducer.reduce(&s, .network(waiting(AlbumWait(reason: reason, nextTry: 60, isSearch: false, photos: 1)), time: 0))
        let screen = AppView.render(s, raster: nil)
        let row = screen.rowText(1)
        // The countdown goes before a reason this long, so the cut takes only the reason's end.
        XCTAssertTrue(row.hasPrefix(" 20/21 · the photo service is failing, next try in 60 s: could not connect"), row)
        XCTAssertTrue(row.hasSuffix("…"), row)
        XCTAssertEqual(row.count, 80)
        XCTAssertFalse(row.unicodeScalars.contains("\u{1B}"))
        // The key hints below are untouched.
        XCTAssertEqual(screen.rowText(2), downloadingAlbum(stored: 20, total: 21).render.rowText(2))
    }

    func testLongWaitsAreShownInMinutes() {
        XCTAssertEqual(NetworkStatus.countdown(8), "8 s")
        XCTAssertEqual(NetworkStatus.countdown(7.2), "8 s", "rounded up: never sooner than it is")
        XCTAssertEqual(NetworkStatus.countdown(119.5), "2 min")
        XCTAssertEqual(NetworkStatus.countdown(119), "119 s")
        XCTAssertEqual(NetworkStatus.countdown(3600), "60 min")
        XCTAssertEqual(NetworkStatus.countdown(-3), "0 s")
        XCTAssertEqual(NetworkStatus.countdown(.nan), "0 s")
        XCTAssertEqual(NetworkStatus.countdown(.infinity), "0 s")
    }

    func testTheCountdownsNextSecondIsAlwaysAhead() {
        // Whatever the fractions, the number shown at the due time is one less than before it.
        for next in stride(from: 0.0, through: 3.0, by: 0.137) + [400.3, 3600] {
            for now in stride(from: next - 400, to: next, by: 0.29) {
                guard let due = NetworkStatus.countdownDue(nextTry: next, now: now) else { continue }
                XCTAssertGreaterThan(due, now, "next \(next) now \(now)")
                XCTAssertNotEqual(NetworkStatus.countdown(next - due), NetworkStatus.countdown(next - now), "next \(next) now \(now)")
                // Nor does the number change before then: the loop wakes no sooner than it must.
                XCTAssertEqual(NetworkStatus.countdown(next - max(now, due - 0.002)), NetworkStatus.countdown(next - now),
                               "next \(next) now \(now)")
            }
        }
        // Minutes are counted a minute at a time: 3 min at 121 s left, 2 min from 120 s, then 119 s.
        XCTAssertEqual(NetworkStatus.countdownDue(nextTry: 1000, now: 1000 - 150), 1000 - 120 + 0.001)
        XCTAssertEqual(NetworkStatus.countdownDue(nextTry: 1000, now: 1000 - 120), 1000 - 119 + 0.001)
    }
}

private extension AppState {
    var render: CellBuffer { AppView.render(self, raster: nil) }
}
