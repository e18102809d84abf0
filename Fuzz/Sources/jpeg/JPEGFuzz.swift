import Foundation
import FuzzSupport
import Imaging
import Terminal

/// Bytes as a downloaded photo: decoded into a small box, every pixel as TurboJPEG's own decode of
/// the same bytes gives it (`TurboJPEGOracle`), then drawn in cells with libchafa in each colour
/// mode; or an `ImageError` with a message; never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzData(data, size)
    // Small boxes keep executions fast; the budget stops huge declared sizes early.
    let box = (width: 8 + size % 40, height: 8 + size % 24)
    let renderer = JPEGFuzz.renderers[size % JPEGFuzz.renderers.count]
    do {
        let image = try JPEGDecoder.decode(bytes, fitting: box.width, box.height, pixelBudget: 4_000_000)
        FuzzCheck.that(image.width > 0 && image.height > 0 && image.pixels.count == image.width * image.height * 3,
                       "decoded \(image.width)x\(image.height) with \(image.pixels.count) bytes")
        TurboJPEGOracle.check(bytes, image, box: box)
        let cells = renderer.render(image, columns: 6, rows: 3)
        FuzzCheck.that(cells.width == 6 && cells.height == 3, "rendered \(cells.width)x\(cells.height)")
        Acceptance.note(true)
    } catch {
        FuzzCheck.terminalSafe(error.description, "error message")
        Acceptance.note(false)
    }
    // The album's path: the header read first, then decoded at the fitted size.
    _ = try? renderer.render(jpeg: bytes, columns: 5, rows: 2, pixelBudget: 4_000_000)
    return 0
}

enum JPEGFuzz {
    /// One renderer for each colour depth and symbol set the app uses.
    static let renderers: [PictureRenderer] = {
        chafaSingleThread()
        return [
            PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .indexed256)),
            PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .trueColor), symbols: .halfBlocks),
            PictureRenderer(capabilities: TerminalCapabilities(unicode: false, colors: .eight)),
            PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .none)),
        ]
    }()

    /// chafa's thread pool makes every run slower and ASan reports harder to read.
    static func chafaSingleThread() {
        ImageLibraries.drawEachPictureOnItsCallersThread()
    }
}
