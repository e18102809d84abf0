import Foundation
import XCTest
import Model
@testable import PhotoSources

/// The photo view's large image: which Flickr size, and when Commons is asked for a thumbnail.
final class LargeImageTests: XCTestCase {
    func flickrPhoto(_ fields: String) throws -> NewPhoto {
        let text = #"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":"7","owner":"1@N01","#
            + fields + "}]},\"stat\":\"ok\"}"
        return try XCTUnwrap(FlickrSource.parse(Fixture.data(text), perPage: 1).photos.first)
    }

    func testFlickrAsksForTheSizesUpTo2048() {
        let items = queryItems(FlickrSource.searchURL(PhotoQuery(center: .init(latitude: 0, longitude: 0)), apiKey: "k"))
        let extras = Set((items["extras"] ?? "").split(separator: ",").map(String.init))
        XCTAssertTrue(extras.isSuperset(of: ["url_l", "url_h", "url_k"]), "\(extras)")
        XCTAssertFalse(extras.contains("url_o"), "the original may be any size")
    }

    func testFlickrLargeIsTheLargestSizeUpTo2048Wide() throws {
        let all = try flickrPhoto(#""url_n":"https://f.example/n.jpg","width_n":"320","url_l":"https://f.example/l.jpg","width_l":1024,"#
            + #""url_h":"https://f.example/h.jpg","width_h":"1600","url_k":"https://f.example/k.jpg","width_k":"2048""#)
        XCTAssertEqual(all.largeURL, "https://f.example/k.jpg")
        XCTAssertEqual(all.url, "https://f.example/n.jpg", "the grid keeps its size")
        XCTAssertEqual(all.width, 320, "the model's size is the grid image's")
        // An original over 2048 is passed over; one within it is the largest.
        let original = try flickrPhoto(#""url_n":"https://f.example/n.jpg","url_h":"https://f.example/h.jpg","width_h":"1600","#
            + #""url_o":"https://f.example/o.jpg","width_o":"6000""#)
        XCTAssertEqual(original.largeURL, "https://f.example/h.jpg")
        let smallOriginal = try flickrPhoto(#""url_n":"https://f.example/n.jpg","url_h":"https://f.example/h.jpg","width_h":"1600","#
            + #""url_o":"https://f.example/o.jpg","width_o":"1800""#)
        XCTAssertEqual(smallOriginal.largeURL, "https://f.example/o.jpg")
        // Without widths, the size table says how large each is; a tall k is narrower than 2048.
        let noWidths = try flickrPhoto(#""url_q":"https://f.example/q.jpg","url_c":"https://f.example/c.jpg","url_l":"https://f.example/l.jpg""#)
        XCTAssertEqual(noWidths.largeURL, "https://f.example/l.jpg")
        let tall = try flickrPhoto(#""url_n":"https://f.example/n.jpg","url_k":"https://f.example/k.jpg","width_k":"1365","height_k":"2048""#)
        XCTAssertEqual(tall.largeURL, "https://f.example/k.jpg")
        // A bad URL for the largest counts as missing.
        let bad = try flickrPhoto(#""url_n":"https://f.example/n.jpg","url_z":"https://f.example/z.jpg","url_k":"javascript:alert(1)""#)
        XCTAssertEqual(bad.largeURL, "https://f.example/z.jpg")
        // Only the grid size: the large image is that one.
        let one = try flickrPhoto(#""url_q":"https://f.example/q.jpg""#)
        XCTAssertEqual(one.largeURL, "https://f.example/q.jpg")
    }

    /// A photo offered only at a size the search asks for beyond 1024 px is still a photo, shown
    /// from that size (the fuzzer found one with only url_h dropped).
    func testAPhotoOfferedOnlyLargeIsKept() throws {
        for suffix in ["h", "k"] {
            let photo = try flickrPhoto(#""url_\#(suffix)":"https://f.example/\#(suffix).jpg""#)
            XCTAssertEqual(photo.url, "https://f.example/\(suffix).jpg")
            XCTAssertEqual(photo.largeURL, "https://f.example/\(suffix).jpg")
        }
        XCTAssertEqual(Set(FlickrSource.gridOrder.map { "url_" + $0 }).intersection(FlickrSource.sizeExtras).count,
                       FlickrSource.sizeExtras.count, "every size asked for can be the grid's")
    }

    func testFlickrPlanDownloadsTheStoredURL() {
        let photo = NewPhoto(source: "flickr", sourceID: "7", url: "https://f.example/n.jpg", largeURL: "https://f.example/k.jpg")
        XCTAssertEqual(LargeImagePlan.plan(for: photo, screenWidth: 1600), .download("https://f.example/k.jpg"))
        var noLarge = photo
        noLarge.largeURL = nil
        XCTAssertEqual(LargeImagePlan.plan(for: noLarge, screenWidth: 1600), .download("https://f.example/n.jpg"))
    }

    func testCommonsUsesAStoredThumbnailOfASuitableSizeElseAsksForOne() {
        let thumb = "https://upload.wikimedia.org/wikipedia/commons/thumb/e/e1/Eiffel.jpg/"
        func photo(_ large: String?) -> NewPhoto {
            NewPhoto(source: "commons", sourceID: "4242", url: thumb + "320px-Eiffel.jpg", largeURL: large)
        }
        let cases: [(large: String?, screen: Int, plan: LargeImagePlan)] = [
            // Wide enough for the terminal, within 2048: used as stored.
            (thumb + "1600px-Eiffel.jpg", 1280, .download(thumb + "1600px-Eiffel.jpg")),
            (thumb + "1280px-Eiffel.jpg", 1280, .download(thumb + "1280px-Eiffel.jpg")),
            // Too narrow: a thumbnail at the terminal's width is asked for.
            (thumb + "640px-Eiffel.jpg", 1600, .askCommons(pageID: "4242", width: 1600)),
            // Wider than any large image: asked at most 2048.
            (thumb + "4000px-Eiffel.jpg", 3200, .askCommons(pageID: "4242", width: 2048)),
            // The original (no thumbnail), or none: asked.
            ("https://upload.wikimedia.org/wikipedia/commons/e/e1/Eiffel.jpg", 1600, .askCommons(pageID: "4242", width: 1600)),
            (nil, 1600, .askCommons(pageID: "4242", width: 1600)),
            // A narrow terminal still asks more than the grid has; a huge one at most 2048.
            (nil, 80, .askCommons(pageID: "4242", width: 640)),
            (nil, 9000, .askCommons(pageID: "4242", width: 2048)),
        ]
        for c in cases {
            XCTAssertEqual(LargeImagePlan.plan(for: photo(c.large), screenWidth: c.screen), c.plan, "\(c)")
        }
    }

    func testThumbnailWidthIsReadNotGuessed() {
        XCTAssertEqual(CommonsSource.thumbnailWidth(of: "https://u.example/thumb/a/ab/X.jpg/1024px-X.jpg"), 1024)
        XCTAssertEqual(CommonsSource.thumbnailWidth(of: "https://u.example/thumb/a/ab/X.jpg/800px-X.jpg?1"), 800)
        XCTAssertNil(CommonsSource.thumbnailWidth(of: "https://u.example/a/ab/X.jpg"))
        XCTAssertNil(CommonsSource.thumbnailWidth(of: "https://u.example/a/ab/px-X.jpg"))
        XCTAssertNil(CommonsSource.thumbnailWidth(of: "https://u.example/a/ab/+12px-X.jpg"))
        XCTAssertNil(CommonsSource.thumbnailWidth(of: "https://u.example/a/ab/99999999px-X.jpg"))
    }

    func testCommonsImageInfoRequestAndAnswer() async throws {
        let answer = #"{"batchcomplete":true,"query":{"pages":[{"pageid":4242,"ns":6,"title":"File:Eiffel.jpg","imageinfo":[{"#
            + #""url":"https://u.example/Eiffel.jpg","width":4000,"height":3000,"mime":"image/jpeg","#
            + #""thumburl":"https://u.example/thumb/Eiffel.jpg/1600px-Eiffel.jpg","thumbwidth":1600,"thumbheight":1200}]}]}}"#
        let http = FakeHTTP([.body(200, answer)])
        let commons = CommonsSource(endpoint: "http://127.0.0.1:9/w/api.php", userAgent: testUserAgent, http: http)
        let address = try await commons.largeImage(pageID: "4242", width: 1600)
        XCTAssertEqual(address, LargeImageAddress(url: "https://u.example/thumb/Eiffel.jpg/1600px-Eiffel.jpg", width: 1600, height: 1200))
        let request = try XCTUnwrap(http.requests.first)
        XCTAssertEqual(request.headers["User-Agent"], testUserAgent)
        let items = queryItems(request.url)
        XCTAssertTrue(request.url.hasPrefix("http://127.0.0.1:9/w/api.php?"), request.url)
        XCTAssertEqual(items["pageids"], "4242")
        XCTAssertEqual(items["prop"], "imageinfo")
        XCTAssertEqual(items["iiurlwidth"], "1600")
        XCTAssertEqual(items["formatversion"], "2")
        XCTAssertEqual(queryItems(CommonsSource.largeImageURL(pageID: "1", width: 5000))["iiurlwidth"], "2048")
    }

    func testCommonsImageInfoFailures() async {
        let cases: [(FakeHTTP.Reply, (PhotoSourceError) -> Bool)] = [
            (.body(500, "<html>Internal error</html>"), { $0 == .http(status: 500) }),
            (.body(200, "<!DOCTYPE html><html>Portal</html>"), { if case .malformed = $0 { true } else { false } }),
            (.body(200, #"{"batchcomplete":true,"query":{"pages":[{"pageid":1,"missing":true}]}}"#),
             { if case .malformed = $0 { true } else { false } }),
            (.body(200, #"{"query":{"pages":[{"pageid":1,"imageinfo":[{"mime":"image/png","thumburl":"https://u.example/1px-a.png"}]}]}}"#),
             { $0.description.contains("not a JPEG") }),
            (.body(200, #"{"query":{"pages":[{"pageid":1,"imageinfo":[{"mime":"image/jpeg","thumburl":"javascript:x"}]}]}}"#),
             { if case .malformed = $0 { true } else { false } }),
            (.body(200, #"{"error":{"code":"badinteger","info":"Invalid value"}}"#), { $0.description.contains("badinteger") }),
            (.fail(ConnectionRefused()), { if case .transport = $0 { true } else { false } }),
        ]
        for (reply, expected) in cases {
            let commons = CommonsSource(endpoint: "http://127.0.0.1:9/w/api.php", userAgent: testUserAgent, http: FakeHTTP([reply]))
            do {
                let address = try await commons.largeImage(pageID: "1", width: 1600)
                XCTFail("expected a failure, got \(address)")
            } catch {
                XCTAssertTrue(expected(error), "\(error)")
            }
        }
    }
}
