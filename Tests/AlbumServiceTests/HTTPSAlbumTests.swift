import AlbumMachine
import AlbumService
import Foundation
import HTTP
import Imaging
import Model
import PhotoSources
import TestSupport
import XCTest

/// The real photo path over https: search and downloads through libcurl to the stand-in
/// server speaking TLS with a certificate from the test authority, which only this
/// client trusts (the same verification as for the real services).
extension AlbumServiceTests {
    private func httpsService(_ server: PhotoServer, commons: Bool, trusting authorities: String?) -> AlbumService {
        var env = ["VTOURIST_FLICKR_ENDPOINT": server.flickrEndpoint, "VTOURIST_COMMONS_ENDPOINT": server.commonsEndpoint]
        if !commons { env["FLICKR_API_KEY"] = "good-key" }
        let settings = PhotoSourceSettings.resolve(environment: env, stored: [:])
        let http = HTTPClient(userAgent: "vtourist-tests", maxConnectionsPerHost: 8, certificateAuthorities: authorities)
        return AlbumService(store: store, http: http, settings: settings, imageCheck: ImageCheck(JPEGDecoder.downloadProblem),
                            environment: AlbumEnvironment(perPage: 21) { current, count in current % count + 1 },
                            userAgent: "vtourist-tests") { [events] in events.record($0) }
    }

    private func assertEveryPhotoStoredOverHTTPS(_ server: PhotoServer, commons: Bool) throws {
        let s = httpsService(server, commons: commons, trusting: TestCertificates.authority)
        defer { s.shutdown() }
        XCTAssertEqual(s.sourceName, commons ? "commons" : "flickr")
        let pin = try dropPin()
        s.start(pin)
        XCTAssertEqual(settle(s, pin.id)?.status, .ready)
        let photos = try store.photos(pinID: pin.id)
        XCTAssertEqual(photos.count, 21)
        XCTAssertTrue(photos.allSatisfy { $0.state == .stored && $0.byteCount > 1000 })
        // The photo URLs came from the search answer, so they too were fetched over https.
        XCTAssertTrue(photos.allSatisfy { $0.found.url.hasPrefix("https://127.0.0.1:\(server.port)/img/") },
                      "\(photos.map(\.found.url))")
        let first = try XCTUnwrap(store.imageBytes(photoID: photos[0].id))
        XCTAssertEqual(Array(first.prefix(3)), [0xFF, 0xD8, 0xFF])
        XCTAssertEqual(server.stats()["image_requests"], 21)
    }

    func testFlickrAlbumOverHTTPSWithTheTestAuthority() throws {
        let server = try PhotoServer(tlsCertificate: TestCertificates.server)
        XCTAssertTrue(server.flickrEndpoint.hasPrefix("https://"))
        try assertEveryPhotoStoredOverHTTPS(server, commons: false)
    }

    func testCommonsAlbumOverHTTPSWithTheTestAuthority() throws {
        let server = try PhotoServer(tlsCertificate: TestCertificates.server)
        try assertEveryPhotoStoredOverHTTPS(server, commons: true)
    }

    /// Without the test authority the search is refused, and the album says it was the secure connection.
    func testUntrustedServerFailsTheSearchWithATLSReason() throws {
        let server = try PhotoServer(tlsCertificate: TestCertificates.server)
        let s = httpsService(server, commons: false, trusting: nil)
        defer { s.shutdown() }
        let pin = try dropPin()
        s.start(pin)
        guard case let .failed(reason)? = settle(s, pin.id)?.status else {
            return XCTFail("\(String(describing: s.album(pin.id)?.status))")
        }
        XCTAssertTrue(reason.contains("secure connection failed"), reason)
        XCTAssertEqual(try store.photos(pinID: pin.id).count, 0)
        XCTAssertEqual(server.stats()["requests"] ?? 0, 0, "no request got through the refused handshake")
    }
}
