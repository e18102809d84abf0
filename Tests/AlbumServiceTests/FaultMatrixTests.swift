import AlbumMachine
import AlbumService
import Foundation
import HTTP
import Imaging
import Model
@testable import Store
import Terminal
import TestSupport
import Geo
import XCTest

/// Issue 10, the fault matrix: every fault of the stand-in server against the search and against
/// the downloads (one photo, and one album where images fail in different ways while the rest
/// succeed), through the real AlbumService, libcurl and SQLite. Each ends in a state with its
/// reason, within the client's own limits (low-speed time 1 s here), and what was stored before
/// stays as it was.
///
/// The proxy variables of this process point at the stand-in while these tests run, so a request
/// for any host but loopback lands in its trap; the `dns` fault's host is exempt (no_proxy), so it
/// is looked up, and fails without a query (its first label is longer than DNS allows).
final class FaultMatrixTests: AlbumServiceTestCase {
    private var savedProxies: [String: String?] = [:]
    /// Each fault ends at once, with its reason: the retries of passing ones are RetryServiceTests'.
    override var defaultRetryPolicy: RetryPolicy? { Self.noRetryWindow }
    private static let proxyVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy",
                                         "no_proxy", "NO_PROXY"]

    /// What the reason of each search fault says (a part of it), and the state it ends in.
    static let searchReasons: [String: String] = [
        "bad-key": "refused the API key", "unavailable": "unavailable right now (105",
        "malformed": "unreadable answer", "wrong-shape": "unreadable answer",
        "http500": "answered HTTP 500", "http404": "answered HTTP 404",
        "html": "unreadable answer: a web page, not JSON", "garbage": "unreadable answer: not JSON",
        "truncated": "Could not reach the photo service: the connection broke", "hang": "took too long to answer",
        "slow": "took too long to answer", "gzip-bomb": "larger than the limit of 8 MB",
        "endless": "larger than the limit of 8 MB", "redirect-other": "Could not reach the photo service",
        "redirect-http": "refusing unencrypted http to a non-local host", "redirect-loop": "too many redirects",
        "refused": "could not connect to 127.0.0.1", "dns": "DNS lookup failed",
    ]

    /// What the error of a photo whose image has each fault says (a part of it).
    static let imageReasons: [String: String] = [
        "html": "not a picture (a web page)", "random": "not a JPEG picture", "trunc": "the connection broke",
        "endless": "larger than the limit of 4 MB", "404": "HTTP 404",
        "500": "HTTP 500", "hang": "took too long to answer", "slow": "took too long to answer",
        "gzip-bomb": "larger than the limit of 4 MB", "redirect-other": "network error",
        "redirect-http": "refusing unencrypted http to a non-local host", "redirect-loop": "too many redirects",
        "refused": "could not connect to 127.0.0.1", "dns": "DNS lookup failed",
    ]

    /// JPEGs that arrived whole over HTTP but are broken inside are stored as they came: what their
    /// cell says (`✗ cannot show` and this), or nil when the part that arrived is shown.
    static let storedImages: [String: String?] = [
        "half": nil, "huge": "too large (60000×60000)", "bomb": "too large (8000×8000)",
    ]

    /// What the album cell says of stored bytes: nil when they draw, else why not (the renderer's words).
    private func cellProblem(_ bytes: Data?) -> String? {
        guard let bytes else { return "nothing stored" }
        do throws(ImageError) {
            _ = try PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .trueColor))
                .render(jpeg: bytes, columns: 22, rows: 8)
            return nil
        } catch {
            return error.description
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        for name in Self.proxyVariables {
            savedProxies[name] = getenv(name).map { String(cString: $0) }
            setenv(name, name.lowercased() == "no_proxy" ? PhotoServer.dnsFailingHost : server.proxy, 1)
        }
    }

    override func tearDownWithError() throws {
        for (name, value) in savedProxies {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        savedProxies = [:]  // XCTest never frees a test case: what it holds at exit would be reported as leaked
        try super.tearDownWithError()
    }

    /// A ready album stored before the faults, to check after each that nothing of it changed.
    private func storeAGoodAlbum() throws -> (pin: Pin.ID, photos: [PhotoRecord], bytes: [Data?]) {
        let s = service()
        defer { s.shutdown() }
        let pin = try store.insertPin(at: GeoPoint(latitude: 41.9, longitude: 12.5), name: "Rome")
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        let photos = try store.photos(pinID: pin.id)
        XCTAssertEqual(photos.count, 21)
        return (pin.id, photos, try photos.map { try store.imageBytes(photoID: $0.id) })
    }

    private func assertIntact(_ kept: (pin: Pin.ID, photos: [PhotoRecord], bytes: [Data?]), after fault: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let photos = try store.photos(pinID: kept.pin)
        XCTAssertEqual(photos, kept.photos, "\(fault): the stored album changed", file: file, line: line)
        XCTAssertEqual(try photos.map { try store.imageBytes(photoID: $0.id) }, kept.bytes,
                       "\(fault): stored pictures changed", file: file, line: line)
        XCTAssertEqual(try store.pin(id: kept.pin)?.albumState, .ready, fault, file: file, line: line)
        XCTAssertTrue(try store.integrityCheck(), fault, file: file, line: line)
    }

    /// A reason the user can read: one line, no control characters, not empty.
    private func assertReadable(_ reason: String, _ fault: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(reason.trimmingCharacters(in: .whitespaces).isEmpty, "\(fault): no reason", file: file, line: line)
        XCTAssertFalse(reason.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
                       "\(fault): control characters in \(reason.debugDescription)", file: file, line: line)
    }

    func testEverySearchFaultFailsTheAlbumWithItsReasonAndKeepsWhatWasStored() throws {
        let kept = try storeAGoodAlbum()
        let closed = try ClosedPort()
        let endpoints = ["refused": "http://127.0.0.1:\(closed.port)/flickr/rest",
                         "dns": "https://\(PhotoServer.dnsFailingHost)/services/rest/"]
        let faults = PhotoServer.searchFaults + ["refused", "dns"]
        XCTAssertEqual(Set(faults).subtracting(["empty"]), Set(Self.searchReasons.keys), "every search fault has its expected reason")
        for fault in faults {
            let s = service(key: fault, flickrEndpoint: endpoints[fault])
            let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples \(fault)")
            s.start(pin)
            let album = settle(s, pin.id)
            s.shutdown()
            if fault == "empty" {
                XCTAssertEqual(album?.status, .empty, fault)
                continue
            }
            guard case let .failed(reason)? = album?.status else {
                XCTFail("\(fault): \(String(describing: album?.status))")
                continue
            }
            assertReadable(reason, fault)
            print("search \(fault): \(reason)")
            XCTAssertTrue(reason.contains(Self.searchReasons[fault] ?? "?"), "\(fault): \(reason)")
            XCTAssertFalse(reason.contains("api_key=\(fault)"), "\(fault): the key is shown: \(reason)")
            XCTAssertEqual(try store.pin(id: pin.id)?.albumState, .failed, fault)
            XCTAssertEqual(try store.photos(pinID: pin.id), [], "\(fault): photos from a failed search")
            try assertIntact(kept, after: fault)
        }
        // Only the redirect to another host went for one, and the trap caught it; the rest stayed on loopback.
        XCTAssertEqual(Set(server.leaks()), ["CONNECT \(PhotoServer.elsewhereHost):443"])
    }

    func testEveryImageFaultFailsItsPhotoAloneWithItsReason() throws {
        let kept = try storeAGoodAlbum()
        XCTAssertEqual(Set(PhotoServer.imageFaults), Set(Self.imageReasons.keys).union(Self.storedImages.keys),
                       "every image fault has its expected reason")
        for fault in PhotoServer.imageFaults {
            let s = service(key: "img-" + fault)
            let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples \(fault)")
            s.start(pin)
            let album = settle(s, pin.id)
            s.shutdown()
            XCTAssertEqual(album?.status, .ready, fault)
            let photos = try store.photos(pinID: pin.id)
            XCTAssertEqual(photos.count, 21, fault)
            if let shown = Self.storedImages[fault] {
                // Arrived whole: stored, and the cell shows the part that decodes or says why it cannot.
                XCTAssertEqual(photos.filter { $0.state == .stored }.count, 21, fault)
                let problems = try photos.map { cellProblem(try store.imageBytes(photoID: $0.id)) }
                XCTAssertEqual(problems.compactMap { $0 }, shown.map { [$0] } ?? [], fault)
                try assertIntact(kept, after: fault)
                continue
            }
            XCTAssertEqual(photos.filter { $0.state == .stored }.count, 20, fault)
            XCTAssertTrue(photos.filter { $0.state == .stored }.allSatisfy { $0.byteCount > 1000 }, fault)
            guard let broken = photos.first(where: { $0.state.isFailed }) else {
                XCTFail("\(fault): no photo failed")
                continue
            }
            let reason = broken.error ?? ""
            assertReadable(reason, fault)
            print("image \(fault): \(reason)")
            XCTAssertTrue(reason.contains(Self.imageReasons[fault] ?? "?"), "\(fault): \(reason)")
            XCTAssertNil(try store.imageBytes(photoID: broken.id), "\(fault): a broken image was stored")
            try assertIntact(kept, after: fault)
        }
        XCTAssertEqual(Set(server.leaks()), ["CONNECT \(PhotoServer.elsewhereHost):443"])
    }

    /// The download's check refuses only bytes that are no JPEG at all; a JPEG the decoder cannot draw,
    /// or one cut short inside, is a picture that arrived and is kept.
    func testOnlyBytesThatAreNoJPEGFailTheDownload() throws {
        let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images")
        func check(_ name: String) throws -> String? {
            JPEGDecoder.downloadProblem(try Data(contentsOf: images.appendingPathComponent(name)))
        }
        XCTAssertNil(try check("truncated_128x128.jpg"))
        XCTAssertNil(try check("huge_header_60000x60000.jpg"))
        XCTAssertNil(try check("grey_64x48.jpg"))
        XCTAssertEqual(try check("page.html"), "not a picture (a web page)")
        XCTAssertEqual(try check("random.bin"), "not a JPEG picture")
        XCTAssertEqual(try check("picture.png"), "not a JPEG picture")
        XCTAssertEqual(try check("empty.jpg"), "not a JPEG picture")
        // What the cells then say: the part of the cut one that arrived, and why the huge one cannot be shown.
        XCTAssertNil(cellProblem(try Data(contentsOf: images.appendingPathComponent("truncated_128x128.jpg"))))
        XCTAssertEqual(cellProblem(try Data(contentsOf: images.appendingPathComponent("huge_header_60000x60000.jpg"))),
                       "too large (60000×60000)")
    }

    /// One album where the first 17 images fail, each in its own way, at once, and the last 4 succeed.
    func testAMixedAlbumKeepsEveryGoodPhotoAndSaysWhyEachOtherFailed() throws {
        let kept = try storeAGoodAlbum()
        let s = service(key: "img-mixed")
        defer { s.shutdown() }
        let photos = try readyAlbum(s)
        var seen: Set<String> = []
        for photo in photos {
            if let fault = faultOf(photo.url), let shown = Self.storedImages[fault] {
                seen.insert(fault)
                XCTAssertEqual(photo.state, .stored, fault)
                XCTAssertEqual(cellProblem(try store.imageBytes(photoID: photo.id)), shown, fault)
            } else if let fault = faultOf(photo.url) {
                seen.insert(fault)
                XCTAssertTrue(photo.state.isFailed, "\(fault): \(photo.state)")
                XCTAssertTrue((photo.error ?? "").contains(Self.imageReasons[fault] ?? "?"), "\(fault): \(photo.error ?? "nil")")
                XCTAssertNil(try store.imageBytes(photoID: photo.id), fault)
            } else {
                XCTAssertEqual(photo.state, .stored, photo.url)
                XCTAssertGreaterThan(photo.byteCount, 1000, photo.url)
            }
        }
        XCTAssertEqual(seen, Set(PhotoServer.imageFaults))
        XCTAssertEqual(photos.filter { $0.state == .stored }.count, 21 - Self.imageReasons.count)
        XCTAssertEqual(try store.interruptedAlbums(), [], "nothing is left pending")
        try assertIntact(kept, after: "mixed")
    }

    /// The switches fault Commons as the keys fault Flickr: a search fault for every search, and
    /// picture faults given to the photos in turn.
    func testTheSwitchesFaultCommonsSearchesAndPicturesToo() throws {
        let kept = try storeAGoodAlbum()
        for (fault, says) in [("malformed", "not JSON"), ("wrong-shape", "unreadable answer"), ("html", "a web page"),
                              ("http404", "HTTP 404"), ("truncated", "the connection broke"), ("redirect-loop", "too many redirects"),
                              ("bad-key", "HTTP 503"), ("empty", "")] {
            server.set(.searchFault, to: fault)
            let s = service(key: nil, commons: true)
            let pin = try dropPin()
            s.start(pin)
            let album = settle(s, pin.id)
            s.shutdown()
            if fault == "empty" {
                XCTAssertEqual(album?.status, .empty, fault)
            } else {
                guard case let .failed(reason)? = album?.status else { XCTFail("\(fault): \(String(describing: album?.status))"); continue }
                XCTAssertTrue(reason.contains(says), "\(fault): \(reason)")
            }
        }
        server.set(.searchFault, false)
        server.set(.imageFault, to: "404,ok,huge")
        let s = service(key: nil, commons: true)
        defer { s.shutdown() }
        let photos = try readyAlbum(s)
        XCTAssertEqual(photos.filter { $0.state == .stored }.count, 14, "photos 1, 4, 7 … are good, 2, 5, 8 … too large to show")
        XCTAssertEqual(Set(photos.compactMap(\.error)), ["HTTP 404"])
        let shown = try photos.filter { $0.state == .stored }.map { cellProblem(try store.imageBytes(photoID: $0.id)) }
        XCTAssertEqual(shown.filter { $0 == nil }.count, 7)
        XCTAssertEqual(Set(shown.compactMap { $0 }), ["too large (60000×60000)"])
        try assertIntact(kept, after: "commons")
    }

    /// Drops a pin, lets `s` fill its album, checks that it ends ready with 21 photos, and returns them.
    private func readyAlbum(_ s: AlbumService, file: StaticString = #filePath, line: UInt = #line) throws -> [PhotoRecord] {
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id, file: file, line: line)?.status, .ready, file: file, line: line)
        let photos = try store.photos(pinID: pin.id)
        XCTAssertEqual(photos.count, 21, file: file, line: line)
        return photos
    }

    /// The fault an image URL of the stand-in carries, or nil for a good image.
    private func faultOf(_ url: String) -> String? {
        if url.contains(PhotoServer.dnsFailingHost) { return "dns" }
        if !url.hasPrefix(server.base + "/") { return "refused" }
        let name = url.split(separator: "/").last.map(String.init) ?? ""
        guard let dash = name.lastIndex(of: "-") else { return nil }
        return String(name[..<dash])
    }
}
