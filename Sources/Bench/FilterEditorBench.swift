import Dispatch
import Foundation
import Geo
import Model
import Terminal
import TouristCore

/// `vtourist-bench filter-editor [RUNS]`: the album's filter editor opening at 200x60 in true colour over an
/// album of 60 photos, every cell's picture on the shelf: the key `f` reduced and the frame with the
/// editor drawn, then Esc back to the album (not timed).
enum FilterEditorBench {
    static let width = 200, height = 60
    static let targetMs = 5.0

    static func run(runs: Int) {
        let reducer = AppReducer(places: .none)
        var state = AppState(camera: MapCamera(centerX: 0.5, centerY: 0.5, zoom: 2, cursorX: 0.5, cursorY: 0.5),
                             width: width, height: height)
        state.capabilities = TerminalCapabilities(unicode: true, colors: .trueColor)
        state.pins = [Pin(id: 1, coordinate: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")]
        let photos = (1...60).map { i in
            PhotoRecord(id: Int64(i), pinID: 1, position: i,
                        found: NewPhoto(source: "flickr", sourceID: "\(i)", title: "Photo \(i)", url: "http://127.0.0.1/\(i).jpg"),
                        state: .stored, byteCount: 5000)
        }
        let filter = AlbumFilter(text: "street food", tags: ["market"], taken: TakenRange(from: FilterDate(year: 2019)), sort: .recent)
        var album = AlbumScreen(pinID: 1)
        album.apply(AlbumSnapshot(pinID: 1, photos: photos, status: .ready, source: "commons", filter: filter))
        state.go(to: .backToAlbum(album))
        // Every cell on screen has its picture: a frame of the album as the user sees it.
        var shelf = PictureShelf()
        for key in state.wantedPictures {
            var cells = CellBuffer(width: key.size.columns, height: key.size.rows)
            for y in 0..<cells.height {
                for x in 0..<cells.width {
                    let shade = UInt8((x * 7 + y * 13 + Int(key.photoID)) % 256)
                    cells[x, y] = Cell("\u{2580}", style: Style(fg: .rgb(shade, 128, 255 - shade), bg: .rgb(255 - shade, shade, 64)))
                }
            }
            shelf[key] = .cells(cells)
        }
        _ = AppView.render(state, raster: nil, pictures: shelf)
        var times: [Double] = []
        for _ in 0..<runs {
            var frame: CellBuffer?
            let ms = milliseconds {
                _ = reducer.reduce(&state, .event(.key(.char("f")), time: 0))
                frame = AppView.render(state, raster: nil, pictures: shelf)
            }
            guard state.album == nil, frame?.text.contains("\u{250C} Filter") == true else {
                StandardStream.error.write("vtourist-bench filter-editor: f did not open the editor\n")
                exit(1)
            }
            times.append(ms)
            _ = reducer.reduce(&state, .event(.key(.escape), time: 0))
        }
        let sorted = times.sorted()
        print("Filter editor: key f to the frame with the editor drawn over an album of \(photos.count) photos, "
              + "\(width)x\(height), true colour, \(runs) runs")
        print(String(format: "  filter editor open median %.3f ms (min %.3f, max %.3f, n=%d)  [target < %g ms]",
                     median(times), sorted.first ?? 0, sorted.last ?? 0, times.count, targetMs))
    }
}
