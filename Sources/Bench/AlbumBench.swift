import AlbumService
import Dispatch
import Foundation
import HTTP
import Imaging
import Model
import PhotoSources
import Store
import Terminal
import TouristCore
import TouristRuntime
import Geo
import WorldMap

/// `vtourist-bench album FOLDER`: the real runtime, store and album renderer with a scripted
/// 200x60 true-colour terminal, over a database holding one pin whose ready album stores the
/// JPEGs in FOLDER (bench/album_pictures.py makes them).
/// 1. First paint: from Enter handed to the loop to the first frame with every cell's picture.
/// 2. Selection moves with every picture in: from the key handed over to its frame.
enum AlbumBench {
    static let width = 200, height = 60
    /// Nothing listens on the discard port of loopback: no request leaves the machine.
    static let nowhere = "http://127.0.0.1:9/"

    static func run(pictures folder: String, runs: Int, moves: Int) throws {
        let images = try jpegs(in: folder)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-album-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let path = work.appendingPathComponent("album.sqlite").path
        try makeAlbum(path: path, images: images)

        let geometry = try WorldGeometry.bundled()
        let grid = AlbumGrid(area: Rect(x: 0, y: 0, width: width, height: height - 1))
        let body = Rect(x: 0, y: AlbumGrid.top, width: width, height: height - 1 - AlbumGrid.top)
        let count = images.count
        guard grid.columns * grid.visibleRows >= count else { throw BenchError("\(count) photos do not fit the screen") }
        let pixels = images.first.flatMap(jpegSize).map { "\($0.width)x\($0.height)" } ?? "?"
        print("Album: \(count) stored photos (\(pixels) JPEGs), \(width)x\(height) true-colour terminal, "
              + "cells of \(grid.pictureSize) picture cells, \(ProcessInfo.processInfo.activeProcessorCount) picture threads, "
              + "live album renderer, \(runs) runs (a fresh runtime each)")

        var firstPaints: [Double] = [], cpuTimes: [Double] = [], firstFrames: [Double] = [], framesDrawn: [Double] = [], moveTimes: [Double] = []
        for _ in 0..<runs {
            let store = try AppDatabase.open(path: path)
            let terminal = BenchTerminal(width: width, height: height)
            let finished = DispatchSemaphore(value: 0)
            let begin = RuntimeStart(pins: try store.pins(), view: nil, settings: Settings())
            let pictures = work.appendingPathComponent("Pictures")
            let benchUserAgent = Settings.userAgent(version: "bench", contact: nil)
            Thread {
                let world = RuntimeWorld(terminal: terminal, store: store, makeAlbums: { onEvent in
                    let settings = PhotoSourceSettings.resolve(environment: [
                        "VTOURIST_FLICKR_ENDPOINT": nowhere, "VTOURIST_COMMONS_ENDPOINT": nowhere,
                    ], stored: [:])
                    return .live(AlbumService(store: store, http: HTTPClient(userAgent: benchUserAgent), settings: settings,
                                              imageCheck: ImageCheck(JPEGDecoder.downloadProblem),
                                              userAgent: benchUserAgent, onEvent: onEvent), photoSettings: nil)
                }, geometry: geometry, places: .none, photoSaver: .folder(pictures),
                   pageOpener: .immediate { _ in .failure(PageOpenFailure("no browser in the bench")) })
                AppRuntime(world: world, start: begin).run()
                finished.signal()
            }.start()

            guard terminal.frame(after: 0, where: { $0.text.contains("1 pin ") }) != nil else { throw BenchError("no map") }
            var mark = terminal.frameCount
            terminal.press(.tab)
            guard terminal.frame(after: mark, where: { _ in true }) != nil else { throw BenchError("Tab drew nothing") }
            terminal.waitUntilEventsAreTaken()

            // First paint.
            mark = terminal.frameCount
            let cpuBefore = cpuSeconds()
            terminal.press(.enter)
            guard let album = terminal.frame(after: mark, where: { $0.text.contains(" \(count) photos") }),
                  let painted = terminal.frame(after: mark, where: { buffer in
                      (0..<count).allSatisfy { showsPicture(buffer, cell: grid.cell($0, topRow: 0, in: body), grid: grid) }
                  })
            else { throw BenchError("the album's pictures were never all drawn") }
            cpuTimes.append((cpuSeconds() - cpuBefore) * 1000)
            let enter = terminal.lastHandedOver
            firstPaints.append(Double(painted.time - enter) / 1e6)
            firstFrames.append(Double(album.time - enter) / 1e6)
            framesDrawn.append(Double(painted.index - mark + 1))

            // Selection moves: along the album and back (it stops at either end), a frame each.
            var selected = 0
            for _ in 0..<moves {
                let key: Key = (selected / (count - 1)) % 2 == 0 ? .right : .left
                selected += 1
                let before = terminal.frameCount
                terminal.press(key)
                guard let frame = terminal.frame(after: before, where: { _ in true }) else { throw BenchError("a move drew nothing") }
                moveTimes.append(Double(frame.time - terminal.lastHandedOver) / 1e6)
            }

            terminal.press(.escape, .char("q"))
            guard finished.wait(timeout: .now() + 30) == .success else { throw BenchError("the loop did not end") }
            try store.close()
        }

        print(String(format: "  First paint, Enter to every picture drawn: median %.1f ms (min %.1f, max %.1f, n=%d)  [target < 50 ms]",
                     median(firstPaints), firstPaints.min() ?? 0, firstPaints.max() ?? 0, firstPaints.count))
        print(String(format: "    of which Enter to the album's first frame: median %.1f ms; frames drawn until all are in: median %.0f; "
                     + "CPU time of the process meanwhile (all threads): median %.1f ms",
                     median(firstFrames), median(framesDrawn), median(cpuTimes)))
        try stages(path: path, count: count, size: grid.pictureSize)
        print(String(format: "  Selection move, key to frame drawn: median %.2f ms, p95 %.2f ms (max %.2f, n=%d)  [target < 2 ms]",
                     median(moveTimes), percentile(moveTimes, 0.95), moveTimes.max() ?? 0, moveTimes.count))
    }

    /// Where one picture's time goes, each stage timed alone on this thread for every photo in turn:
    /// the stored bytes read, the JPEG decoded at the cells' pixel box, the pixels made cells.
    static func stages(path: String, count: Int, size: PictureSize) throws {
        let store = try AppDatabase.open(path: path)
        defer { try? store.close() }
        let renderer = PictureRenderer(capabilities: TerminalCapabilities(unicode: true, colors: .trueColor))
        renderer.warmUp()
        var reads: [Double] = [], decodes: [Double] = [], cells: [Double] = [], wholes: [Double] = []
        for round in 0..<3 {
            for id in 1...Int64(count) {
                var bytes: Data?
                let read = try timed { bytes = try store.imageBytes(photoID: id) }
                guard let bytes else { throw BenchError("photo \(id) has no stored image") }
                let source = try JPEGDecoder.dimensions(bytes)
                let fit = PictureRenderer.fitted(imageWidth: source.width, imageHeight: source.height,
                                                 columns: size.columns, rows: size.rows)
                let box = PictureRenderer.decodeBox(fit)
                var image: RGBImage?
                let decode = try timed { image = try JPEGDecoder.decode(bytes, fitting: box.width, box.height) }
                guard let image else { continue }
                let cell = timed { _ = renderer.render(image, columns: size.columns, rows: size.rows) }
                let whole = try timed { _ = try renderer.render(jpeg: bytes, columns: size.columns, rows: size.rows) }
                if round > 0 { reads.append(read); decodes.append(decode); cells.append(cell); wholes.append(whole) }
            }
        }
        print(String(format: "    one picture alone, median ms: store read %.2f, decode %.2f, cells (chafa) %.2f; "
                     + "render(jpeg:) whole %.2f", median(reads), median(decodes), median(cells), median(wholes)))
    }

    static func timed(_ body: () throws -> Void) rethrows -> Double {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
    }

    /// The .jpg files in a folder, by name.
    static func jpegs(in folder: String) throws -> [Data] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
        guard !files.isEmpty else { throw BenchError("no .jpg files in \(folder)") }
        return try files.map { try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent($0)) }
    }

    /// A database at `path` whose one pin's album stores `count` photos, the folder's JPEGs in turn.
    static func makeAlbum(path: String, pictures folder: String, count: Int) throws {
        let images = try jpegs(in: folder)
        try? FileManager.default.removeItem(atPath: path)
        try makeAlbum(path: path, images: (0..<count).map { images[$0 % images.count] })
    }

    /// One pin whose ready album stores `images` as its photos' JPEGs, as a finished download leaves it.
    static func makeAlbum(path: String, images: [Data]) throws {
        let store = try AppDatabase.open(path: path)
        let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
        let photos = try store.replaceAlbum(pinID: pin.id, generation: 1, photos: images.indices.map { i in
            NewPhoto(source: "flickr", sourceID: "bench-\(i)", title: "Photo \(i) near Naples", author: "bench",
                     url: "\(nowhere)photo/\(i).jpg", width: 640, height: 480)
        })
        for (photo, bytes) in zip(photos, images) {
            guard try store.storeImage(photoID: photo.id, generation: 1, bytes: bytes) else { throw BenchError("photo \(photo.id) not stored") }
        }
        _ = try store.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr")
        try store.close()
    }

    /// Whether a cell's picture area shows the photo: a row across its middle in picture colours,
    /// none the album's background, panel or placeholder.
    static func showsPicture(_ buffer: CellBuffer, cell: Rect?, grid: AlbumGrid) -> Bool {
        guard let cell else { return false }
        let theme = Theme.forDepth(.trueColor)
        let y = cell.y + 1 + grid.pictureSize.rows / 2
        return stride(from: cell.x + cell.width / 4, through: cell.x + cell.width * 3 / 4, by: 2).allSatisfy { x in
            let bg = buffer[x, y].style.bg
            return bg != .default && bg != theme.dialog.bg && bg != theme.dim.bg
        }
    }

    /// Width and height from a baseline or progressive JPEG's frame header.
    static func jpegSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        var i = 2
        while i + 9 < bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xC0 || marker == 0xC2 {
                return (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]))
            }
            i += 2 + length
        }
        return nil
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// User and system time of the whole process so far, every thread's.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func percentile(_ xs: [Double], _ p: Double) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return 0 }
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
}
