import FuzzSupport
import PhotoSources

/// Bytes as a Wikimedia Commons geosearch answer, read as page 1…3: photos that are safe to
/// show, or an error with a message; never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommons(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = fuzzData(data, size)
    let perPage = [1, 21, 250, 500][size % 4]
    let page = 1 + (size / 4) % 3
    do {
        FuzzCheck.searchPage(try CommonsSource.parse(body, page: page, perPage: perPage))
    } catch {
        FuzzCheck.photoSourceError(error)
    }
    return 0
}
