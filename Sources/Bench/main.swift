// Benchmarks for `make bench`: frame rendering at world and city zoom with
// 10,000 pins, a 10,000-pin database for the start-up measurement, and the
// album's first paint and selection moves (AlbumBench.swift).
import Dispatch
import Foundation
import Gazetteer
import Store
import Terminal
import TouristCore
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
        ("world zoom (z2)", GeoPoint(latitude: 20, longitude: 0), 2),
        ("city zoom (z12, Naples)", GeoPoint(latitude: 40.85, longitude: 14.27), 12),
    ]
    print("Frame: rasterise the map and render map + \(pins.count) pins + status line into a \(width)x\(height) buffer")
    for (label, center, zoom) in cases {
        let p = Mercator.project(center)
        var state = AppState(camera: MapCamera(centerX: p.x, centerY: p.y, zoom: zoom, cursorX: p.x, cursorY: p.y),
                             width: width, height: height)
        state.pins = pins
        AppReducer(places: .live(gazetteer)).updateCursorPlace(&state)
        var samples: [Double] = []
        var sink = 0
        for i in 0..<60 {
            let ms = milliseconds {
                let raster = rasterize(geometry, viewport: state.viewport)
                let buffer = AppView.render(state, raster: raster)
                sink &+= Int(buffer[0, 0].symbol.value)
            }
            if i >= 10 { samples.append(ms) }  // the first frames load the level of detail
        }
        print(String(format: "  %-26@ median %.3f ms  (min %.3f, max %.3f, n=%d)  [target < 4 ms]",
                     label as NSString, median(samples), samples.min() ?? 0, samples.max() ?? 0, samples.count)
              + (sink == 42 ? " " : ""))
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
    if args.count >= 3, args[1] == "make-db" {
        try makeDatabase(path: args[2], count: args.count >= 4 ? Int(args[3]) ?? 10_000 : 10_000)
    } else if args.count >= 5, args[1] == "make-album" {
        // `vtourist-bench make-album PATH FOLDER N`: one pin, N stored photos, FOLDER's JPEGs in turn.
        try AlbumBench.makeAlbum(path: args[2], pictures: args[3], count: Int(args[4]) ?? 500)
    } else if args.count >= 3, args[1] == "album" {
        // `vtourist-bench album FOLDER [RUNS]`: FOLDER holds the album's JPEGs.
        try AlbumBench.run(pictures: args[2], runs: args.count >= 4 ? Int(args[3]) ?? 9 : 9, moves: 200)
    } else {
        try frameBenchmark()
    }
} catch {
    FileHandle.standardError.write(Data("vtourist-bench: \(error)\n".utf8))
    exit(1)
}
