// The album's filter editor opening: FilterEditorBench.swift. The pins list: PinsListBench.swift.
// Benchmarks for `make bench`: frame rendering at world and city zoom with
// 10,000 pins, a 10,000-pin database for the start-up measurement, and the
// album's first paint and selection moves (AlbumBench.swift), and the go-to
// prompt's completion letter by letter (CompletionBench.swift), the photo view's large images
// (PhotoBench.swift), and a filtered search against an unfiltered one (FilterBench.swift).
import Dispatch
import Foundation
import Gazetteer
import Store
import Terminal
import TouristCore
import Geo
import Model
import WorldMap

/// A small deterministic generator so every run draws the same pins.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// 10,000 pins: most spread over the world, a tenth around Naples.
func benchmarkPins(count: Int = 10_000) -> [Pin] {
    var rng = SplitMix(state: 42)
    return (0..<count).map { i in
        let point: GeoPoint
        if i % 10 == 0 {
            point = GeoPoint(latitude: 40.85 + Double.random(in: -0.2...0.2, using: &rng),
                             longitude: 14.27 + Double.random(in: -0.3...0.3, using: &rng))
        } else {
            point = GeoPoint(latitude: Double.random(in: -60...75, using: &rng),
                             longitude: Double.random(in: -180..<180, using: &rng))
        }
        return Pin(id: Int64(i + 1), coordinate: point, name: "Pin \(i + 1)")
    }
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.isEmpty ? 0 : (s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2)
}

func milliseconds(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
}

func frameBenchmark() throws {
    let geometry = try WorldGeometry.bundled()
    let gazetteer = try Gazetteer.bundled()
    let pins = benchmarkPins()
    let width = 200, height = 60
    let cases: [(String, GeoPoint, Int)] = [
        ("world zoom (z0)", GeoPoint(latitude: 20, longitude: 0), 0),
        ("world zoom (z2)", GeoPoint(latitude: 20, longitude: 0), 2),
        ("z6 (Italy)", GeoPoint(latitude: 42, longitude: 12.5), 6),
        ("z12, Naples", GeoPoint(latitude: 40.85, longitude: 14.27), 12),
        // The densest places at city zoom: towns, rivers, provinces and the finest shores.
        ("z12, the Ruhr", GeoPoint(latitude: 51.45, longitude: 7.0), 12),
        ("z12, the Nile delta", GeoPoint(latitude: 30.9, longitude: 31.2), 12),
        ("z12, Tokyo", GeoPoint(latitude: 35.68, longitude: 139.77), 12),
        // Landmarks and peaks named beside the places.
        ("z13, Paris's landmarks", GeoPoint(latitude: 48.86, longitude: 2.32), 13),
        ("z9, the Alps' peaks", GeoPoint(latitude: 46.2, longitude: 7.8), 9),
    ]
    var places = PlaceLookup.none
    let setUp = milliseconds { places = PlaceLookup.live(gazetteer) }
    print("Frame: rasterise the map (land, shores, borders, province lines, rivers), choose its labels and render "
          + "map + labels + \(pins.count) pins + status line into a \(width)x\(height) buffer")
    print(String(format: "  place lookup set-up (countries, capitals): %.3f ms, once at start", setUp))
    for (label, center, zoom) in cases {
        let p = Mercator.project(center)
        var state = AppState(camera: MapCamera(centerX: p.x, centerY: p.y, zoom: zoom, cursorX: p.x, cursorY: p.y),
                             width: width, height: height)
        state.pins = pins
        AppReducer(places: .live(gazetteer)).updateCursorPlace(&state)
        var samples: [Double] = [], candidateSamples: [Double] = [], placeSamples: [Double] = []
        var sink = 0
        for i in 0..<60 {
            let ms = milliseconds {
                let raster = rasterize(geometry, viewport: state.viewport)
                let labels = places.labels(state.viewport)
                let buffer = AppView.render(state, raster: raster, labels: labels)
                sink &+= Int(buffer[0, 0].symbol.value)
            }
            var labels = LabelCandidates(viewport: state.viewport, items: [])
            let query = milliseconds { labels = places.labels(state.viewport) }
            let layout = PinLayout(pins: state.pins, viewport: state.viewport)
            let place = milliseconds {
                sink &+= MapLabels.place(labels.items, viewport: state.viewport, pins: state.pins, markers: layout.markers,
                                         cursor: state.cursorCell, unicode: true).count
            }
            if i >= 10 {  // the first frames load the level of detail
                samples.append(ms)
                candidateSamples.append(query)
                placeSamples.append(place)
            }
        }
        print(String(format: "  %-26@ median %.3f ms  (min %.3f, max %.3f, n=%d)  [target < 4 ms]",
                     label as NSString, median(samples), samples.min() ?? 0, samples.max() ?? 0, samples.count)
              + (sink == 42 ? " " : ""))
        print(String(format: "    labels: candidates %.3f ms (once per view), placement %.3f ms (every frame)",
                     median(candidateSamples), median(placeSamples)))
    }
}

/// `vtourist-bench make-db PATH [N]`: a database with N pins (default 10,000).
func makeDatabase(path: String, count: Int) throws {
    try? FileManager.default.removeItem(atPath: path)
    let store = try AppDatabase.open(path: path)
    try store.insertPins(benchmarkPins(count: count).map { ($0.coordinate, $0.name) })
    let view = MapViewState(center: GeoPoint(latitude: 20, longitude: 0), zoom: 2,
                            cursor: GeoPoint(latitude: 20, longitude: 0))
    try store.saveMapView(view)
}

let args = CommandLine.arguments
do {
    if args.count >= 2, args[1] == "pins-list" {
        // `vtourist-bench pins-list [RUNS]`: the pins list over 10,000 pins, opening and one keystroke.
        PinsListBench.run(runs: args.count >= 3 ? Int(args[2]) ?? 21 : 21)
    } else if args.count >= 2, args[1] == "filter-editor" {
        // `vtourist-bench filter-editor [RUNS]`: the album's filter editor opening, key to frame.
        FilterEditorBench.run(runs: args.count >= 3 ? Int(args[2]) ?? 101 : 101)
    } else if args.count >= 3, args[1] == "make-db" {
        try makeDatabase(path: args[2], count: args.count >= 4 ? Int(args[3]) ?? 10_000 : 10_000)
    } else if args.count >= 5, args[1] == "make-album" {
        // `vtourist-bench make-album PATH FOLDER N`: one pin, N stored photos, FOLDER's JPEGs in turn.
        try AlbumBench.makeAlbum(path: args[2], pictures: args[3], count: Int(args[4]) ?? 500)
    } else if args.count >= 3, args[1] == "album" {
        // `vtourist-bench album FOLDER [RUNS]`: FOLDER holds the album's JPEGs.
        try AlbumBench.run(pictures: args[2], runs: args.count >= 4 ? Int(args[3]) ?? 9 : 9, moves: 200)
    } else if args.count >= 3, args[1] == "inline" {
        // `vtourist-bench inline FOLDER [RUNS]`: bytes written per photo view in each inline protocol.
        try InlineBench.run(pictures: args[2], runs: args.count >= 4 ? Int(args[3]) ?? 5 : 5)
    } else if args.count >= 3, args[1] == "zoom" {
        // `vtourist-bench zoom FILE [RUNS]`: zoom and pan steps of the photo view over a large JPEG.
        try ZoomBench.run(file: args[2], runs: args.count >= 4 ? Int(args[3]) ?? 9 : 9)
    } else if args.count >= 2, args[1] == "photo" {
        // `vtourist-bench photo [RUNS]`: the photo view's large images against the stand-in server.
        try PhotoBench.run(runs: args.count >= 3 ? Int(args[2]) ?? 7 : 7)
    } else if args.count >= 2, args[1] == "filter" {
        // `vtourist-bench filter [RUNS]`: a filtered search against an unfiltered one, through libcurl.
        try FilterBench.run(runs: args.count >= 3 ? Int(args[2]) ?? 41 : 41)
    } else if args.count >= 2, args[1] == "completion" {
        // `vtourist-bench completion [DESTINATIONS]`: go-to suggestions letter by letter.
        try CompletionBench.run(destinations: args.count >= 3 ? args[2] : nil)
    } else {
        try frameBenchmark()
    }
} catch {
    StandardStream.error.write("vtourist-bench: \(error)\n")
    exit(1)
}
