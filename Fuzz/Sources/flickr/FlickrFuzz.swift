import FuzzSupport
import PhotoSources

/// Bytes as a Flickr `flickr.photos.search` answer: photos that are safe to show, or an error
/// with a message; never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFlickr(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = fuzzData(data, size)
    // The page size asked for varies with the input, so the page arithmetic meets odd values too.
    let perPage = [1, 21, 250, 500][size % 4]
    do {
        FuzzCheck.searchPage(try FlickrSource.parse(body, perPage: perPage))
    } catch {
        FuzzCheck.photoSourceError(error)
    }
    return 0
}
