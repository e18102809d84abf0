import Dispatch
import Foundation
import Imaging
import Model
import Terminal
import TouristCore
import TouristRuntime

/// `vtourist-bench zoom FILE [RUNS]`: one zoom or pan step of the photo view at 200x60 in true
/// colour, over the large JPEG in FILE: the key reduced, the part of the photo it shows decoded and
/// rendered into cells by the live painter (as a picture thread does), and the frame drawn. Each
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
        func step(_ key: Key) -> Double {
            milliseconds {
                _ = reducer.reduce(&state, .event(.key(key), time: 0))
                for wanted in state.wantedPictures.prefix(1) where shelf[wanted] == nil {
                    shelf[wanted] = painter.paint(data, wanted)
                    painted += 1
                }
                _ = AppView.render(state, raster: nil, pictures: shelf)
            }
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
        var times: [Double] = []
        for _ in 0..<runs {
            shelf = PictureShelf()
            shelf[first] = painter.paint(data, first)
            _ = reducer.reduce(&state, .event(.key(.char("0")), time: 0))
            for key in keys { times.append(step(key)) }
        }
        let perStep = times.sorted()
        print(String(format: "  Zoom step at %dx%d, key to frame with its picture: median %.1f ms (min %.1f, max %.1f, n=%d)  [target < 30 ms]",
                     width, height, median(times), perStep.first ?? 0, perStep.last ?? 0, times.count))
        print("  Pictures painted: \(painted) (each step's part once a run; zooming out repaints the part it left)")
    }
}
