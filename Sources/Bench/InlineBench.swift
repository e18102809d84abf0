import Foundation
import Imaging
import Terminal
import TouristRuntime

/// `vtourist-bench inline FOLDER [RUNS]`: the bytes one photo view writes to the terminal for its
/// real picture, in each inline protocol, for every JPEG in FOLDER (bench/inline_bench.py makes a
/// 500 px one and a 1024×768 one), at 160×50 cells of 10×20 pixels; the median of RUNS encodings.
/// - iTerm2: bytes written against the stored image (target ≤ 1.5×);
/// - kitty: bytes written per pixel sent (target ≤ 3.2), and the pixels sent against the image's
///   and the view's (never more than the fewer);
/// - kitty again after a repaint (placed by id: no image data);
/// - sixel: bytes written.
enum InlineBench {
    /// The photo view's picture area on a 160×50 terminal: the main area (all but the status row)
    /// less its frame, title row and the five detail rows (PhotoView.pictureArea).
    static let area = Rect(x: 1, y: 1, width: 158, height: 50 - 1 - 1 - 5 - 1)
    static let cell = (width: 10, height: 20)

    static func run(pictures folder: String, runs: Int) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
        guard !files.isEmpty else { throw BenchError("no .jpg files in \(folder)") }
        print("Inline pictures: bytes written for one photo view at 160x50 cells of \(cell.width)x\(cell.height) px "
              + "(picture area \(area.width)x\(area.height) cells), median of \(runs) runs")
        for file in files {
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(file))
            let size = try JPEGDecoder.dimensions(jpeg)
            print("  \(file): \(size.width)x\(size.height), \(jpeg.count) bytes stored")
            for imageProtocol in [InlineProtocol.iterm2, .kitty, .sixel] {
                var bytes: [Double] = [], times: [Double] = [], redraws: [Double] = []
                var picture: InlinePicture?
                for _ in 0..<runs {
                    let ms = milliseconds { picture = PicturePainter.inlinePicture(jpeg, protocol: imageProtocol, area: area,
                                                                                    cellWidth: cell.width, cellHeight: cell.height) }
                    guard let picture else { throw BenchError("\(file): no \(imageProtocol) picture") }
                    var tracker = InlinePictureTracker(protocol: imageProtocol)
                    let first = tracker.show(picture)
                    tracker.forget()
                    let again = tracker.show(picture)
                    bytes.append(Double(first.clear.count + first.draw.count))
                    redraws.append(Double(again.clear.count + again.draw.count))
                    times.append(ms)
                }
                guard let picture else { continue }
                let written = median(bytes)
                let timing = String(format: "encoded in %.1f ms", median(times))
                switch imageProtocol {
                case .iterm2:
                    print(String(format: "    iTerm2: %.0f bytes written, %.2fx the stored image  [target <= 1.5x]; %@",
                                 written, written / Double(jpeg.count), timing))
                case .kitty:
                    let sent = try pngSize(picture.transmit)
                    let view = (area.width * cell.width) * (area.height * cell.height)
                    let limit = min(size.width * size.height, view)
                    print(String(format: "    kitty: %.0f bytes written for %dx%d pixels sent, %.2f bytes per pixel  [target <= 3.2]; "
                                 + "pixels sent %d, the image has %d, the view shows %d  [target <= the fewer]; %@",
                                 written, sent.width, sent.height, written / Double(sent.width * sent.height),
                                 sent.width * sent.height, size.width * size.height, view, timing))
                    if sent.width * sent.height > limit { print("    kitty: MORE PIXELS THAN \(limit)") }
                    print(String(format: "    kitty after a repaint: %.0f bytes written (placed by id, no image data)", median(redraws)))
                case .sixel:
                    print(String(format: "    sixel: %.0f bytes written (%dx%d cells at the view's pixels); %@",
                                 written, picture.columns, picture.rows, timing))
                case .kittyUnicode:
                    break
                }
            }
        }
    }

    /// The width and height in the IHDR of the PNG that kitty's transmit commands carry.
    static func pngSize(_ transmit: [UInt8]) throws -> (width: Int, height: Int) {
        var encoded: [UInt8] = []
        var i = 0
        while let start = transmit[i...].firstIndex(of: UInt8(ascii: ";")) {
            guard let end = transmit[start...].firstIndex(of: 0x1B) else { break }
            encoded += transmit[(start + 1)..<end]
            i = end
        }
        guard let png = Data(base64Encoded: Data(encoded)), png.count > 24 else { throw BenchError("no PNG in kitty's payload") }
        let bytes = [UInt8](png)
        let be = { (o: Int) in bytes[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }
}
