import Dispatch
import Foundation
import Imaging
import Model
import Terminal
import TouristCore
import TouristRuntime

/// `vtourist-bench zoom FILE [RUNS]`: one zoom or pan step of the photo view at 200x60 in true
/// colour, over the large JPEG in FILE: the key reduced, the part of the photo it shows decoded and
/// rendered into cells by the live painter (as a picture thread does: its sketch first, then in
/// full), and the frames drawn. The step's time is to the first frame showing the new part. Each
/// run goes from fitted in to one image pixel a screen pixel, pans, and back out.
enum ZoomBench {
    static let width = 200, height = 60

    static func run(file: String, runs: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let size = try JPEGDecoder.dimensions(data)
        let capabilities = TerminalCapabilities(unicode: true, colors: .trueColor)
        let painter = PicturePainter.live(capabilities: capabilities)
        let reducer = AppReducer(places: .none)
        var state = AppState(camera: MapCamera(centerX: 0.5, centerY: 0.5, zoom: 2, cursorX: 0.5, cursorY: 0.5),
                             width: width, height: height)
        state.capabilities = capabilities
        var album = AlbumScreen(pinID: 1)
        let photo = PhotoRecord(id: 1, pinID: 1, position: 0,
                                found: NewPhoto(source: "flickr", sourceID: "1", title: "Bench photo", url: "http://127.0.0.1/1.jpg",
                                                width: size.width, height: size.height),
                                state: .stored, byteCount: data.count)
        album.apply(AlbumSnapshot(pinID: 1, photos: [photo], status: .ready, source: "flickr"))
        state.go(to: .photo(of: album))
        _ = reducer.reduce(&state, .largeImage(1, .ready(width: size.width, height: size.height)))

        // One frame for a key: reduce, paint the pictures wanted and not on the shelf, draw.
        var shelf = PictureShelf()
        var painted = 0
        // One step: milliseconds to the first frame with the new part drawn (its sketch, as the
        // picture threads deliver it first on a box this large), and to the frame with it in full.
        func step(_ key: Key) -> (first: Double, full: Double) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            func since() -> Double { Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6 }
            var first: Double?
            _ = reducer.reduce(&state, .event(.key(key), time: 0))
            for wanted in state.wantedPictures.prefix(1) where shelf[wanted] == nil {
                if let sketch = painter.sketch(data, wanted) {
                    shelf[wanted] = sketch
                    _ = AppView.render(state, raster: nil, pictures: shelf)
                    first = since()
                }
                shelf[wanted] = painter.paint(data, wanted)
                painted += 1
            }
            _ = AppView.render(state, raster: nil, pictures: shelf)
            let full = since()
            return (first ?? full, full)
        }
        guard let first = state.wantedPictures.first else { throw BenchError("the photo view wants no picture") }
        shelf[first] = painter.paint(data, first)
        var deepest = 0
        while true {
            let before = state.photo?.zoom
            _ = reducer.reduce(&state, .event(.key(.char("+")), time: 0))
            if state.photo?.zoom == before { break }
            deepest += 1
        }
        _ = reducer.reduce(&state, .event(.key(.char("0")), time: 0))
        let keys: [Key] = Array(repeating: .char("+"), count: deepest) + [.char("l"), .char("j"), .char("h"), .char("k")]
            + Array(repeating: .char("-"), count: deepest)
        print("Zoom: a \(size.width)x\(size.height) JPEG in the photo view at \(width)x\(height), true colour, "
              + "\(deepest) levels, \(keys.count) steps a run (in, pan, out), \(runs) runs; each step: the key, "
              + "its part decoded and rendered into cells, the frame drawn")
        var times: [Double] = [], fullTimes: [Double] = []
        for _ in 0..<runs {
            shelf = PictureShelf()
            shelf[first] = painter.paint(data, first)
            _ = reducer.reduce(&state, .event(.key(.char("0")), time: 0))
            for key in keys {
                let (sketched, full) = step(key)
                times.append(sketched)
                fullTimes.append(full)
            }
        }
        // Where a step's time goes, for one of each part painted: decoding it, and drawing it in cells.
        var decodes: [Double] = [], renders: [Double] = [], samplings: [Double] = []
        let renderer = PictureRenderer(capabilities: capabilities)
        _ = reducer.reduce(&state, .event(.key(.char("0")), time: 0))
        for key in keys {
            _ = reducer.reduce(&state, .event(.key(key), time: 0))
            guard let wanted = state.wantedPictures.first, !wanted.crop.isWhole else { continue }
            let part = wanted.crop.pixels(width: size.width, height: size.height)
            let fit = PictureRenderer.fitted(imageWidth: part.width, imageHeight: part.height,
                                             columns: wanted.size.columns, rows: wanted.size.rows)
            let box = PictureRenderer.decodeBox(fit)
            var image: RGBImage?
            decodes.append(milliseconds { image = try? JPEGDecoder.decode(data, crop: wanted.crop, fitting: box.width, box.height) })
            if let image {
                renders.append(milliseconds { _ = renderer.render(image, columns: wanted.size.columns, rows: wanted.size.rows) })
                let fitted = PictureRenderer.fitted(imageWidth: image.width, imageHeight: image.height,
                                                    columns: wanted.size.columns, rows: wanted.size.rows)
                samplings.append(milliseconds { _ = PictureRenderer.sampled(image, box: fitted) })
            }
        }
        let perStep = times.sorted()
        print(String(format: "  Zoom step at %dx%d, key to frame with its picture: median %.1f ms (min %.1f, max %.1f, n=%d)  [target < 30 ms]",
                     width, height, median(times), perStep.first ?? 0, perStep.last ?? 0, times.count))
        print(String(format: "  Zoom step at %dx%d, key to frame with its picture drawn in full (the sketch replaced): median %.1f ms (max %.1f)",
                     width, height, median(fullTimes), fullTimes.max() ?? 0))
        print("  Pictures painted: \(painted) (each step's part once a run; zooming out repaints the part it left)")
        print(String(format: "  Of a zoomed step: decoding the part %.1f ms, drawing it in cells %.1f ms (of which bringing it to the cells' pixels %.1f ms) (medians, %d cores)",
                     median(decodes), median(renders), median(samplings), ProcessInfo.processInfo.activeProcessorCount))
    }
}
