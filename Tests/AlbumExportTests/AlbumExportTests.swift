@testable import AlbumExport
import Foundation
import Model
import Store
import TestSupport
import XCTest

/// File names, credits.json and index.html of a saved album: pure, from a real store's album.
final class AlbumExportTests: AlbumStoreTestCase {
    func export(_ photos: [(title: String?, stored: Bool)], large: Bool = false) throws -> AlbumExport {
        let (pin, _) = try album(photos)
        let stored = try XCTUnwrap(store.album(pinID: pin.id))
        return AlbumExport(stored, large: try store.largeImageInfos(pinID: pin.id))
    }

    func testStoredPhotosAreNumberedInAlbumOrderWithSafeTitles() throws {
        let e = try export([("Bay", true), ("pending", false), ("a/b", true), (nil, true), ("....", true),
                            ("\u{1B}[2Jevil\nline", true), (String(repeating: "x", count: 300), true)])
        XCTAssertEqual(e.items.map(\.file), ["01-Bay.jpg", "02-a-b.jpg", "03-photo.jpg", "04-photo.jpg", "05-[2Jevil line.jpg",
                                             "06-" + String(repeating: "x", count: 80) + ".jpg"])
        XCTAssertEqual(e.fileNames.suffix(2), ["credits.json", "index.html"])
    }

    func testTwoPhotosWithTheSameTitleGetTwoFiles() throws {
        let e = try export([("Bay", true), ("Bay", true)])
        XCTAssertEqual(e.items.map(\.file), ["01-Bay.jpg", "02-Bay.jpg"])
    }

    func testAHundredPhotosTakeThreeDigits() throws {
        let e = try export(Array(repeating: ("Bay", true), count: 100))
        XCTAssertEqual(e.items.first?.file, "001-Bay.jpg")
        XCTAssertEqual(e.items.last?.file, "100-Bay.jpg")
    }

    func testCreditsHaveTheFileAndEveryFieldAlbumJSONWrites() throws {
        let e = try export([("Bay", true), ("Vesuvius", true)])
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: e.credits) as? [[String: Any]])
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(Set(entries.map { Set($0.keys) }), [AlbumCredit.keys])
        XCTAssertEqual(AlbumCredit.keys, AlbumPhotoJSON.keys.union(["file"]), "album --json's fields and the file")
        XCTAssertTrue(AlbumCredit.keys.isSuperset(of: ["file", "title", "author", "license", "pageURL", "dateTaken", "source"]))
        XCTAssertEqual(entries.map { $0["file"] as? String }, ["01-Bay.jpg", "02-Vesuvius.jpg"])
        XCTAssertEqual(entries.first?["author"] as? String, "Author 0")
        XCTAssertEqual(entries.first?["license"] as? String, "CC BY 2.0")
        XCTAssertEqual(entries.first?["pageURL"] as? String, "https://www.flickr.com/photos/x/0")
        XCTAssertTrue(entries.first?["large"] is NSNull)
    }

    func testEveryTextOfTheSheetIsEscaped() throws {
        let (pin, _) = try album([("<script>alert('x')</script>", true), ("a&b \"q\" 'r' <i>", true)], name: "<b>Naples & \"co\"</b>")
        let e = AlbumExport(try XCTUnwrap(store.album(pinID: pin.id)), large: [:])
        let html = e.indexHTML
        XCTAssertFalse(html.contains("<script"), html)
        XCTAssertFalse(html.contains("<b>") || html.contains("<i>"), html)
        XCTAssertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), html)
        XCTAssertTrue(html.contains("a&amp;b &quot;q&quot; &#39;r&#39; &lt;i&gt;"), html)
        XCTAssertTrue(html.contains("<h1>&lt;b&gt;Naples &amp; &quot;co&quot;&lt;/b&gt;</h1>"), html)
        XCTAssertEqual(AlbumExport.escape("<>&\"'é"), "&lt;&gt;&amp;&quot;&#39;é")
    }

    /// Every picture comes from the folder; the only other addresses are the photos' pages, as links.
    func testTheSheetLoadsOnlyTheFilesBesideIt() throws {
        let e = try export([("50% off #1? yes", true), ("Bay", true), ("Côte", true)])
        let html = e.indexHTML
        XCTAssertEqual(ContactSheetLinks.pageLinks(html), ["https://www.flickr.com/photos/x/0", "https://www.flickr.com/photos/x/1",
                                              "https://www.flickr.com/photos/x/2"])
        XCTAssertEqual(ContactSheetLinks.attributes(html).filter { $0.contains(":") }.count, 3, "no other address")
        let references = ContactSheetLinks.files(html)
        XCTAssertEqual(Set(references), ["01-50%25%20off%20%231-%20yes.jpg", "02-Bay.jpg", "03-C%C3%B4te.jpg"])
        for reference in references {
            XCTAssertEqual(reference.removingPercentEncoding.map { e.items.map(\.file).contains($0) }, true, reference)
        }
        XCTAssertFalse(html.contains("http:"), "no plain http address")
        XCTAssertFalse(html.lowercased().contains("url("))
        XCTAssertFalse(html.lowercased().contains("<script"))
        XCTAssertFalse(html.lowercased().contains("<link"))
        XCTAssertFalse(html.lowercased().contains("@import"))
        XCTAssertTrue(html.contains("www.flickr.com/photos/x/0"), "the page named as text")
    }

    func testAPageAddressOfAnotherSchemeIsNotLinked() {
        XCTAssertEqual(AlbumExport.pageLink("https://commons.wikimedia.org/wiki/File:A.jpg")?.text, "commons.wikimedia.org/wiki/File:A.jpg")
        XCTAssertEqual(AlbumExport.pageLink("https://www.flickr.com/photos/x/1")?.address, "https://www.flickr.com/photos/x/1")
        // Shown decoded, linked as given; an encoded control stays encoded in the text.
        let flickr = AlbumExport.pageLink("https://www.flickr.com/photos/1%40N01/9000000")
        XCTAssertEqual(flickr?.text, "www.flickr.com/photos/1@N01/9000000")
        XCTAssertEqual(flickr?.address, "https://www.flickr.com/photos/1%40N01/9000000")
        XCTAssertEqual(AlbumExport.pageLink("https://a.b/x%1B%5B31m")?.text, "a.b/x%1B%5B31m")
        for bad in ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "https:///x", "https://a.b/\"onmouseover=x",
                    "https://a.b/ x", "https://a.b/\u{7}", "//a.b/c", "https://"] {
            XCTAssertNil(AlbumExport.pageLink(bad), bad)
        }
    }
}
