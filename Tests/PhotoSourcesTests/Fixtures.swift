import Locking
import Foundation
@testable import PhotoSources

/// What the sources send as their User-Agent in these tests.
let testUserAgent = "vtourist-test/1"

/// Answers shaped like the real APIs' (trimmed), written for these tests.
enum Fixture {
    static func data(_ text: String) -> Data { Data(text.utf8) }

    /// Flickr: numbers as strings, sizes as strings, a photo without any URL,
    /// an unknown field, and the rarer size set (q and z only).
    static let flickrSuccess = """
    {"photos":{"page":1,"pages":"60","perpage":21,"total":"1254","photo":[
      {"id":"53712345678","owner":"12345678@N00","secret":"a1b2c3d4e5","server":"65535","farm":66,
       "title":"Tour Eiffel at dusk","ispublic":1,"isfriend":0,"isfamily":0,"license":"4",
       "datetaken":"2024-05-01 20:14:02","datetakengranularity":0,"datetakenunknown":"0",
       "ownername":"Jane Doe","views":"42",
       "url_q":"https://live.staticflickr.com/65535/53712345678_a1b2c3d4e5_q.jpg","height_q":150,"width_q":150,
       "url_n":"https://live.staticflickr.com/65535/53712345678_a1b2c3d4e5_n.jpg","height_n":"213","width_n":"320",
       "url_z":"https://live.staticflickr.com/65535/53712345678_a1b2c3d4e5_z.jpg","height_z":"427","width_z":"640",
       "url_l":"https://live.staticflickr.com/65535/53712345678_a1b2c3d4e5_b.jpg","height_l":"683","width_l":"1024",
       "some_future_field":{"nested":[1,2,3]}},
      {"id":53712345679,"owner":"87654321@N01","secret":"ffeeddccbb","server":"65535","farm":66,
       "title":"","ispublic":1,"license":9,
       "url_q":"https://live.staticflickr.com/65535/53712345679_ffeeddccbb_q.jpg","height_q":"150","width_q":"150",
       "url_z":"https://live.staticflickr.com/65535/53712345679_ffeeddccbb_z.jpg","height_z":"480","width_z":"640"},
      {"id":"53712345680","owner":"1@N01","title":"No sizes at all","license":"0"},
      {"id":"53712345681","owner":"1@N01","title":"A bad URL","url_n":"javascript:alert(1)"},
      "not a photo",
      {"title":"no id","url_n":"https://live.staticflickr.com/1/2_n.jpg"}
    ]},"stat":"ok"}
    """

    static let flickrHuge = """
    {"photos":{"page":2,"pages":4762,"perpage":21,"total":100000,"photo":[]},"stat":"ok"}
    """

    static let flickrEmpty = """
    {"photos":{"page":1,"pages":0,"perpage":21,"total":0,"photo":[]},"stat":"ok"}
    """

    static let flickrInvalidKey = """
    {"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}
    """

    /// Flickr's outage notice sends the code as a string.
    static let flickrUnavailable = """
    {"stat":"fail","code":"105","message":"Service currently unavailable (Site Disabled)"}
    """

    static let flickrTruncated = """
    {"photos":{"page":1,"pages":3,"photo":[{"id":"1","tit
    """

    static let flickrPhotosIsList = """
    {"photos":[1,2,3],"stat":"ok"}
    """

    static let flickrPhotoIsObject = """
    {"photos":{"page":1,"pages":1,"total":1,"photo":{"id":"1"}},"stat":"ok"}
    """

    static let flickrEscapes = """
    {"photos":{"page":1,"pages":1,"perpage":21,"total":1,"photo":[
      {"id":"7","owner":"1@N01","title":"Evil\\u001b[2J\\u001b]0;pwned\\u0007title\\r\\n\\tline\\u009b31m two","ownername":"Mallory\\u0000\\u0085\\u202e reversed",
       "datetaken":"2024\\u001b[31m-01-01","license":"4","url_n":"https://live.staticflickr.com/1/7_n.jpg"}
    ]},"stat":"ok"}
    """

    /// Commons, formatversion=2: distances out of page order, a PNG, a page
    /// without imageinfo (beyond the 50-thumbnail limit), HTML in Artist, and a continue.
    static let commonsWithContinue = """
    {"continue":{"iicontinue":"Zebra.jpg|20240101000000","continue":"||"},
     "query":{"pages":[
      {"pageid":300,"ns":6,"title":"File:Louvre Pyramid.jpg","index":2,
       "coordinates":[{"lat":48.861,"lon":2.3358,"primary":true,"globe":"earth","dist":812.4}],
       "imagerepository":"local",
       "imageinfo":[{"user":"Uploader3","size":4800000,"width":4000,"height":3000,
         "thumburl":"https://upload.wikimedia.org/wikipedia/commons/thumb/a/ab/Louvre_Pyramid.jpg/320px-Louvre_Pyramid.jpg",
         "thumbwidth":320,"thumbheight":240,
         "responsiveUrls":{"1.5":"https://upload.wikimedia.org/wikipedia/commons/thumb/a/ab/Louvre_Pyramid.jpg/480px-Louvre_Pyramid.jpg",
                           "2":"https://upload.wikimedia.org/wikipedia/commons/thumb/a/ab/Louvre_Pyramid.jpg/640px-Louvre_Pyramid.jpg"},
         "url":"https://upload.wikimedia.org/wikipedia/commons/a/ab/Louvre_Pyramid.jpg",
         "descriptionurl":"https://commons.wikimedia.org/wiki/File:Louvre_Pyramid.jpg",
         "descriptionshorturl":"https://commons.wikimedia.org/w/index.php?curid=300",
         "mime":"image/jpeg",
         "extmetadata":{
           "ObjectName":{"value":"Louvre Pyramid","source":"description"},
           "Artist":{"value":"<a href=\\"//commons.wikimedia.org/wiki/User:Jane\\" title=\\"User:Jane\\">Jane &amp; John</a>","source":"commons-desc-page"},
           "LicenseShortName":{"value":"CC BY-SA 4.0","source":"commons-desc-page","hidden":""},
           "DateTimeOriginal":{"value":"2019-06-01 10:00:00","source":"commons-desc-page"}}}]},
      {"pageid":100,"ns":6,"title":"File:Eiffel_Tower_from_Trocadero.jpg","index":0,
       "coordinates":[{"lat":48.8616,"lon":2.2893,"primary":true,"globe":"earth","dist":120.0}],
       "imageinfo":[{"user":"Uploader1","size":"12000000","width":"6000","height":"4000",
         "thumburl":"https://upload.wikimedia.org/wikipedia/commons/thumb/e/e1/Eiffel.jpg/320px-Eiffel.jpg",
         "thumbwidth":"320","thumbheight":"213",
         "responsiveUrls":{"2":"https://upload.wikimedia.org/wikipedia/commons/thumb/e/e1/Eiffel.jpg/640px-Eiffel.jpg"},
         "url":"https://upload.wikimedia.org/wikipedia/commons/e/e1/Eiffel.jpg",
         "descriptionurl":"https://commons.wikimedia.org/wiki/File:Eiffel_Tower_from_Trocadero.jpg",
         "mime":"image/jpeg",
         "extmetadata":{"LicenseShortName":{"value":"Public domain"}}}]},
      {"pageid":200,"ns":6,"title":"File:Map of Paris.png","index":1,
       "coordinates":[{"lat":48.85,"lon":2.35,"primary":true,"globe":"earth","dist":400}],
       "imageinfo":[{"user":"Cartographer","size":50000,"width":800,"height":600,"mime":"image/png",
         "thumburl":"https://upload.wikimedia.org/wikipedia/commons/thumb/1/12/Map.png/320px-Map.png",
         "url":"https://upload.wikimedia.org/wikipedia/commons/1/12/Map.png"}]},
      {"pageid":400,"ns":6,"title":"File:Zebra crossing.jpg","index":3,
       "coordinates":[{"lat":48.87,"lon":2.36,"primary":true,"globe":"earth","dist":1500}]}
     ]}}
    """

    /// Commons, formatversion=1 (pages keyed by id), no continue, no coordinates.
    static let commonsNoContinue = """
    {"batchcomplete":"","query":{"pages":{
      "11":{"pageid":11,"ns":6,"title":"File:Old bridge.jpg","index":1,
        "imageinfo":[{"user":"Someone","size":"2000","mime":"image/jpeg",
          "thumburl":"https://upload.wikimedia.org/thumb/Old_bridge.jpg/320px-Old_bridge.jpg","thumbwidth":320,"thumbheight":200,
          "url":"https://upload.wikimedia.org/Old_bridge.jpg","descriptionurl":"https://commons.wikimedia.org/wiki/File:Old_bridge.jpg",
          "extmetadata":{"ImageDescription":{"value":"<p>A bridge</p>"},
                         "Artist":{"value":"<span class=\\"fn\\">Photo&nbsp;by <b>Ann</b></span>&#27;[31m"}}}]},
      "10":{"pageid":10,"ns":6,"title":"File:New bridge.jpeg","index":0,
        "imageinfo":[{"user":"Other\\u001b[5mUser","size":1000,"mime":"image/jpeg",
          "thumburl":"https://upload.wikimedia.org/thumb/New_bridge.jpeg/320px-New_bridge.jpeg"}]},
      "-1":{"ns":6,"title":"File:Missing.jpg","missing":""}
    }}}
    """

    static let commonsEmpty = """
    {"batchcomplete":true}
    """

    static let commonsError = """
    {"error":{"code":"badcoord","info":"Invalid coordinate provided","*":"See https://commons.wikimedia.org/w/api.php for API usage."},"servedby":"mw1234"}
    """

    static let commonsPagesWrongShape = """
    {"query":{"pages":"nope"}}
    """

    /// A Commons answer with `count` JPEG files at increasing distance, image
    /// info only for `withInfo` of them (page ids from `firstID`).
    static func commonsMany(count: Int, withInfo: Set<Int>, firstID: Int = 1000, continueWith: String?) -> String {
        var pages: [String] = []
        for i in 0..<count {
            let id = firstID + i
            var page = #"{"pageid":\#(id),"ns":6,"title":"File:P\#(id).jpg","index":\#(count - i),"coordinates":[{"lat":0,"lon":0,"primary":true,"dist":\#(Double(i) * 10 + 0.5)}]"#
            if withInfo.contains(i) {
                page += #","imageinfo":[{"size":1000,"mime":"image/jpeg","thumburl":"https://upload.example/\#(id)_320.jpg","url":"https://upload.example/\#(id).jpg","thumbwidth":320,"thumbheight":240}]"#
            }
            pages.append(page + "}")
        }
        let cont = continueWith.map { #""continue":{"iicontinue":"\#($0)","continue":"||"},"# } ?? ""
        return "{\(cont)\"query\":{\"pages\":[\(pages.joined(separator: ","))]}}"
    }
}

/// An HTTP fetcher that serves canned answers and records what was asked.
final class FakeHTTP: HTTPFetching, Sendable {
    struct Request: Equatable {
        var url: String
        var headers: [String: String]
        var maxBytes: Int
    }
    enum Reply {
        case body(Int, String)
        /// A status, response headers and a body.
        case answer(Int, [String: String], String)
        case fail(any Error)
    }

    private struct Log {
        var replies: [Reply]
        var recorded: [Request] = []
    }
    private let log: Locked<Log>

    init(_ replies: [Reply]) { log = Locked(Log(replies: replies)) }

    var requests: [Request] { log.withLock { $0.recorded } }

    func fetch(url: String, headers: [String: String], maxBytes: Int) async throws -> (status: Int, headers: [String: String], body: Data) {
        let reply: Reply = log.withLock { log in
            log.recorded.append(Request(url: url, headers: headers, maxBytes: maxBytes))
            // The last reply repeats, so a loop can't run off the end.
            return log.replies.count > 1 ? log.replies.removeFirst() : (log.replies.first ?? .body(404, ""))
        }
        switch reply {
        case let .body(status, text): return (status, [:], Data(text.utf8))
        case let .answer(status, headers, text): return (status, headers, Data(text.utf8))
        case let .fail(error): throw error
        }
    }
}

struct ConnectionRefused: Error, CustomStringConvertible {
    var description: String { "Couldn't connect to server (connection refused)" }
}

/// Query items of a URL as a dictionary (last one wins).
func queryItems(_ url: String) -> [String: String] {
    guard let items = URLComponents(string: url)?.queryItems else { return [:] }
    var out: [String: String] = [:]
    for item in items { out[item.name] = item.value ?? "" }
    return out
}
