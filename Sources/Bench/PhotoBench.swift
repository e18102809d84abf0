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

/// `vtourist-bench photo [RUNS]`: the photo view's large images through the real runtime, store,
/// renderer and libcurl, against the stand-in photo server (Tests/Support/photo_server.py) answering
/// every request after 100 ms, with a scripted 200x60 true-colour terminal (cells, 10 px wide).
/// One pin whose album of 100 photos has its thumbnails stored and its large images (1024x768) not.
/// 1. Enter to first paint: the photo view's first frame with the thumbnail drawn.
/// 2. Enter to sharp picture: the first frame with the large picture drawn (one round trip).
/// 3. `→` to sharp picture when the next photo's large image was prefetched.
/// 4. Peak memory (the process's maximum resident size) after browsing all 100 large images.
enum PhotoBench {
    static let width = 200, height = 60
    static let count = 100
    static let delayMs = 100
    static let largeNote = "large 1024\u{00D7}768"

    static func run(runs: Int) throws {
        let server = try BenchPhotoServer(delayMs: delayMs)
        defer { server.stop() }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-photo-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        print("Photo view: \(count) photos with stored thumbnails, large images 1024x768 fetched from the stand-in server "
              + "(\(delayMs) ms per response), \(width)x\(height) true-colour terminal, \(runs) runs (a fresh runtime and database each)")

        // Memory first: the process's peak is what browsing leaves, not an earlier run's.
        let browse = try session(server: server, folder: work, name: "browse") { terminal, store in
            _ = try open(terminal, store: store)
            for i in 2...count {
                let mark = terminal.frameCount
                terminal.press(.right)
                guard terminal.frame(after: mark, where: { $0.text.contains("\(i) of \(count)") && $0.text.contains(largeNote) }) != nil
                else { throw BenchError("photo \(i)'s large image never came") }
            }
            return try store.largeImageInfos(pinID: 1).count
        }
        let peakMB = peakResidentMB()

        var firstFrames: [Double] = [], firstPaints: [Double] = [], fullThumbs: [Double] = [], sharps: [Double] = [],
            steps: [Double] = []
        for run in 0..<runs {
            try _ = session(server: server, folder: work, name: "run\(run)") { terminal, store in
                let (first, thumb, thumbFull, sharp) = try open(terminal, store: store)
                firstFrames.append(first)
                firstPaints.append(thumb)
                fullThumbs.append(thumbFull)
                sharps.append(sharp.ms)
                // The next photo's large image stored and its picture rendered meanwhile.
                guard waitFor({ (try? store.largeImage(photoID: 2)) != nil }) else { throw BenchError("no prefetch") }
                Thread.sleep(forTimeInterval: 0.3)
                let mark = terminal.frameCount
                terminal.press(.right)
                guard let frame = terminal.frame(after: mark, where: {
                    $0.text.contains("2 of \(count)") && pictureCells($0) == sharp.cells
                }) else { throw BenchError("the prefetched photo was never sharp") }
                steps.append(Double(frame.time - terminal.lastHandedOver) / 1e6)
                return 0
            }
        }
        func line(_ label: String, _ xs: [Double], _ target: String) -> String {
            String(format: "  %@: median %.1f ms (min %.1f, max %.1f, n=%d)  [target %@]",
                   label, median(xs), xs.min() ?? 0, xs.max() ?? 0, xs.count, target)
        }
        print(line("Enter to first paint (thumbnail)", firstPaints, "< 30 ms"))
        print(String(format: "    Enter to the photo view's first frame: median %.1f ms; to the thumbnail drawn in full (its sketch "
                     + "replaced): median %.1f ms; one thumbnail (320x240) drawn alone in the %dx%d picture box: median %.1f ms",
                     median(firstFrames), median(fullThumbs), width - 2, height - 8, try renderAlone()))
        print(line("Enter to sharp picture (large 1024x768 not stored)", sharps, "< 1 RTT + 60 ms = \(delayMs + 60) ms"))
        print(line("\u{2192} to sharp picture, prefetched", steps, "< 40 ms"))
        print(String(format: "  Peak memory while browsing %d large images: %.0f MB resident (the whole bench process; %d stored)  [target < 200 MB]",
                     count, peakMB, browse))
    }

    /// Enter on the album's first photo: milliseconds to the view's first frame, to the first with
    /// its thumbnail drawn (a sketch on a box this large), to the thumbnail drawn in full, and to
    /// the large picture drawn in full (exactly the cells the live painter makes of the large image).
    static func open(_ terminal: BenchTerminal, store: AppDatabase)
        throws -> (first: Double, thumb: Double, thumbFull: Double, sharp: (ms: Double, cells: [Cell])) {
        let mark = terminal.frameCount
        terminal.press(.enter)
        guard let first = terminal.frame(after: mark, where: { $0.text.contains("1 of \(count)") }) else {
            throw BenchError("no photo view")
        }
        guard let thumb = terminal.frame(after: mark, where: { $0.text.contains("1 of \(count)") && hasPicture($0) }) else {
            throw BenchError("no thumbnail")
        }
        let enter = terminal.lastHandedOver
        let size = PictureSize(columns: width - 2, rows: height - 8)
        guard let thumbBytes = try store.imageBytes(photoID: 1) else { throw BenchError("no stored thumbnail") }
        let thumbCells = drawn(thumbBytes, PictureKey(photoID: 1, size: size))
        guard let thumbFull = terminal.frame(after: mark, where: { shows($0, thumbCells) }) else {
            throw BenchError("the thumbnail was never drawn in full")
        }
        guard waitFor({ (try? store.largeImage(photoID: 1)) != nil }), let large = try store.largeImage(photoID: 1) else {
            throw BenchError("the large image was never stored")
        }
        let sharpCells = drawn(large.bytes, PictureKey(photoID: 1, size: size, image: .large))
        guard let sharp = terminal.frame(after: thumb.index, where: { shows($0, sharpCells) }) else {
            throw BenchError("no sharp picture")
        }
        return (Double(first.time - enter) / 1e6, Double(thumb.time - enter) / 1e6, Double(thumbFull.time - enter) / 1e6,
                (Double(sharp.time - enter) / 1e6, pictureCells(sharp.buffer)))
    }

    /// The cells the live painter makes of a picture, as the photo view's picture area holds them
    /// (nil: a blank cell, where the view's own background shows).
    static func drawn(_ data: Data, _ key: PictureKey) -> [Cell?] {
        let painter = PicturePainter.live(capabilities: TerminalCapabilities(unicode: true, colors: .trueColor))
        guard case let .cells(buffer) = painter.paint(data, key) else { return [] }
        return (0..<buffer.height).flatMap { y in (0..<buffer.width).map { buffer[$0, y] == .blank ? nil : buffer[$0, y] } }
    }

    /// Whether a frame's picture area shows exactly these drawn cells.
    static func shows(_ frame: CellBuffer, _ drawn: [Cell?]) -> Bool {
        let cells = pictureCells(frame)
        return cells.count == drawn.count && !drawn.isEmpty
            && zip(cells, drawn).allSatisfy { cell, want in want.map { $0 == cell } ?? true }
    }

    /// The album's renderer drawing the first thumbnail for the photo view's box, on this thread.
    static func renderAlone() throws -> Double {
        let thumb = try Data(contentsOf: BenchPhotoServer.repository.appendingPathComponent("Tests/Fixtures/photo1.jpg"))
        let painter = PicturePainter.live(capabilities: TerminalCapabilities(unicode: true, colors: .trueColor))
        var times: [Double] = []
        for _ in 0..<9 { times.append(AlbumBench.timed { _ = painter.paint(thumb, PictureKey(photoID: 1, size: PictureSize(columns: width - 2, rows: height - 8))) }) }
        return median(times)
    }

    /// A fresh database and runtime with the album open; `body` runs in it, then the app quits.
    static func session<T>(server: BenchPhotoServer, folder: URL, name: String,
                           _ body: (BenchTerminal, AppDatabase) throws -> T) throws -> T {
        let path = folder.appendingPathComponent("\(name).sqlite").path
        try makeAlbum(path: path, base: server.base)
        let store = try AppDatabase.open(path: path)
        defer { try? store.close() }
        let geometry = try WorldGeometry.bundled()
        let terminal = BenchTerminal(width: width, height: height)
        let finished = DispatchSemaphore(value: 0)
        let begin = RuntimeStart(pins: try store.pins(), view: nil, settings: Settings())
        let userAgent = Settings.userAgent(version: "bench", contact: nil)
        let pictures = folder.appendingPathComponent("Pictures")
        let commons = server.base + "/commons/api.php"
        Thread {
            let world = RuntimeWorld(terminal: terminal, store: store, makeAlbums: { onEvent in
                let settings = PhotoSourceSettings.resolve(environment: [
                    "VTOURIST_FLICKR_ENDPOINT": AlbumBench.nowhere, "VTOURIST_COMMONS_ENDPOINT": AlbumBench.nowhere,
                ], stored: [:])
                return .live(AlbumService(store: store, http: HTTPClient(userAgent: userAgent), settings: settings,
                                          imageCheck: ImageCheck(JPEGDecoder.downloadProblem),
                                          userAgent: userAgent, onEvent: onEvent), photoSettings: nil)
            }, geometry: geometry, places: .none, photoSaver: .folder(pictures),
               pageOpener: .immediate { _ in .failure(PageOpenFailure("no browser in the bench")) },
               largeImages: .live(http: HTTPClient(userAgent: userAgent), commonsEndpoint: commons, userAgent: userAgent))
            AppRuntime(world: world, start: begin).run()
            finished.signal()
        }.start()
        guard terminal.frame(after: 0, where: { $0.text.contains("1 pin ") }) != nil else { throw BenchError("no map") }
        var mark = terminal.frameCount
        terminal.press(.tab)
        guard terminal.frame(after: mark, where: { _ in true }) != nil else { throw BenchError("Tab drew nothing") }
        mark = terminal.frameCount
        terminal.press(.enter)
        guard terminal.frame(after: mark, where: { $0.text.contains(" \(count) photos") }) != nil else {
            throw BenchError("no album")
        }
        terminal.waitUntilEventsAreTaken()
        let result = try body(terminal, store)
        terminal.press(.escape, .escape, .char("q"))
        guard finished.wait(timeout: .now() + 30) == .success else { throw BenchError("the loop did not end") }
        return result
    }

    /// One pin whose ready album of `count` photos stores the fixtures' thumbnails; each photo's
    /// large URL is the server's.
    static func makeAlbum(path: String, base: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let fixtures = BenchPhotoServer.repository.appendingPathComponent("Tests/Fixtures")
        let thumbs = try ["photo1.jpg", "photo2.jpg", "photo3.jpg"].map { try Data(contentsOf: fixtures.appendingPathComponent($0)) }
        let store = try AppDatabase.open(path: path)
        let pin = try store.insertPin(at: GeoPoint(latitude: 40.85, longitude: 14.27), name: "Naples")
        let photos = try store.replaceAlbum(pinID: pin.id, generation: 1, photos: (0..<count).map { i in
            NewPhoto(source: "flickr", sourceID: "bench-\(i)", title: "Photo \(i) near Naples", author: "bench",
                     url: "\(base)/img/\(i).jpg", largeURL: "\(base)/img/large/\(i * 3).jpg", width: 320, height: 240)
        })
        for (i, photo) in photos.enumerated() {
            guard try store.storeImage(photoID: photo.id, generation: 1, bytes: thumbs[i % thumbs.count]) else {
                throw BenchError("photo \(photo.id) not stored")
            }
        }
        _ = try store.saveAlbumStatus(pinID: pin.id, generation: 1, status: .ready, page: 1, pageCount: 1, source: "flickr")
        try store.close()
    }

    /// The photo view's picture area.
    static func area(_ buffer: CellBuffer) -> Rect {
        Rect(x: 1, y: 1, width: buffer.width - 2, height: buffer.height - 1 - 1 - 5 - 1)
    }

    static func hasPicture(_ buffer: CellBuffer) -> Bool {
        let a = area(buffer)
        let theme = Theme.forDepth(.trueColor)
        let bg = buffer[a.x + a.width / 2, a.y + a.height / 2].style.bg
        return bg != .default && bg != theme.dialog.bg && bg != theme.dim.bg
    }

    static func pictureCells(_ buffer: CellBuffer) -> [Cell] {
        let a = area(buffer)
        return (a.y..<a.bottom).flatMap { y in (a.x..<a.right).map { buffer[$0, y] } }
    }

    /// Polls until `probe` holds (work on other threads), at most 30 s.
    static func waitFor(_ probe: () -> Bool) -> Bool {
        let giveUp = Date().addingTimeInterval(30)
        while Date() < giveUp {
            if probe() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return false
    }

    /// The process's largest resident size so far, in MB.
    static func peakResidentMB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}

/// The stand-in photo server as a child process on 127.0.0.1.
final class BenchPhotoServer {
    /// The repository the bench was built from (the server script and the fixtures live there).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let process = Process()
    let base: String

    init(delayMs: Int, arguments: [String] = []) throws {
        let script = Self.repository.appendingPathComponent("Tests/Support/photo_server.py").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--delay-ms", String(delayMs)] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchError("the photo server did not start") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }), let port = Int(line.dropFirst(5)) else {
            throw BenchError("the photo server said no port")
        }
        base = "http://127.0.0.1:\(port)"
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
