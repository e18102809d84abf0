import Locking
import Geo
import Foundation
import Model
import XCTest
@testable import AlbumMachine

/// Steps an album through actions, TCA style: each step asserts the exact effects and the exact new state.
final class AlbumTester {
    private(set) var album: Album
    let environment: AlbumEnvironment

    init(_ album: Album, _ environment: AlbumEnvironment = .fixed()) {
        self.album = album
        self.environment = environment
    }

    /// Sends `action`; `update` turns the previous state into the expected one (nothing changes when omitted).
    func send(_ action: AlbumAction, _ effects: [AlbumEffect], file: StaticString = #filePath, line: UInt = #line,
              _ update: (inout Album) -> Void = { _ in }) {
        var expected = album
        update(&expected)
        let actual = reduce(&album, action, environment)
        XCTAssertEqual(actual, effects, "effects", file: file, line: line)
        XCTAssertEqual(album, expected, "album", file: file, line: line)
    }
}

/// Records the arguments New Collection's page picker was called with.
final class PickLog: Sendable {
    private let calls = Locked<[[Int]]>([])

    func record(_ current: Int, _ pageCount: Int) {
        calls.withLock { $0.append([current, pageCount]) }
    }

    var all: [[Int]] { calls.withLock { $0 } }
}

extension AlbumEnvironment {
    /// Three photos a page and a picker that always answers `page`.
    static func fixed(perPage: Int = 3, page: Int = 7, log: PickLog? = nil) -> AlbumEnvironment {
        AlbumEnvironment(perPage: perPage) { current, pageCount in
            log?.record(current, pageCount)
            return page
        }
    }
}

let pin: Int64 = 42
let rome = GeoPoint(latitude: 41.9, longitude: 12.5)
let oslo = GeoPoint(latitude: 59.9, longitude: 10.75)

func saved(_ ids: Int64...) -> [SavedPhoto] { ids.map { SavedPhoto(id: $0, url: "https://example.org/\($0).jpg") } }
func photo(_ id: Int64, _ state: PhotoState = .pending) -> AlbumPhoto {
    AlbumPhoto(id: id, url: "https://example.org/\(id).jpg", state: state)
}
func download(_ id: Int64, generation: Int = 1) -> AlbumEffect {
    .download(photo: id, url: "https://example.org/\(id).jpg", generation: generation)
}

/// A fresh pin's album whose first search (page 1, 3 per page) answered with photos 1, 2, 3 out of 10 pages.
func downloadingAlbum(_ tester: AlbumTester? = nil) -> AlbumTester {
    let tester = tester ?? AlbumTester(Album(pin: pin, place: rome))
    _ = reduce(&tester.albumForSetUp, .start, tester.environment)
    _ = reduce(&tester.albumForSetUp, .searchAnswered(generation: 1, pageCount: 10, photos: saved(1, 2, 3)),
               tester.environment)
    return tester
}

/// `downloadingAlbum` with every photo stored.
func readyAlbum() -> AlbumTester {
    let tester = downloadingAlbum()
    for id: Int64 in [1, 2, 3] {
        _ = reduce(&tester.albumForSetUp, .photoDownloaded(generation: 1, id: id), tester.environment)
    }
    return tester
}

extension AlbumTester {
    /// Set-up steps already asserted elsewhere, run without asserting.
    var albumForSetUp: Album {
        get { album }
        set { album = newValue }
    }
}
