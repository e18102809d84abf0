import FuzzSupport
import PinFiles

/// Bytes as a file given to `vtourist import`: pins on the globe, or one line saying why the file
/// is refused; never a trap (GeoJSON through JSONDecoder, GPX through XMLScanner).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPinFiles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    do {
        let file = try PinFileReader.read(fuzzData(data, size))
        FuzzCheck.that(file.notPoints >= 0, "notPoints \(file.notPoints)")
        for pin in file.points {
            let p = pin.coordinate
            FuzzCheck.that((-90...90).contains(p.latitude) && (-180...180).contains(p.longitude), "a pin at \(p)")
        }
    } catch {
        FuzzCheck.that(!error.description.contains("\n"), "a message of more than one line: \(error.description)")
    }
    return 0
}
