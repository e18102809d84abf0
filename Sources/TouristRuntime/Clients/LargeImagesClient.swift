import AlbumService
import Foundation
import HTTP
import Imaging
import Locking
import Model
import PhotoSources
import Store
import TouristCore

/// The photo view's large images as the loop uses them: a struct of closures with a live value
/// (downloads over the HTTP module, the store) and values tests make. Outcomes come back as
/// `AppAction.largeImage` through the handler it was made with.
struct LargeImagesClient: Sendable {
    /// What the photo screen wants now (`LargeImageRequest`), replacing what waits.
    var want: @Sendable (LargeImageRequest) -> Void
    /// Stops every download (at quit).
    var shutdown: @Sendable () -> Void
}

/// Large images just downloaded, kept in memory while the photo screen wants them: drawn from
/// here before they are stored, and shown still when they could not be (a budget of 0, a full disk).
final class LargeImageMemory: Sendable {
    private let images = Locked<[PhotoRecord.ID: Data]>([:])

    init() {}

    subscript(_ id: PhotoRecord.ID) -> Data? { images.withLock { $0[id] } }

    func keep(_ id: PhotoRecord.ID, _ bytes: Data) { images.withLock { $0[id] = bytes } }

    /// Drops every copy but those of `ids`.
    func keepOnly(_ ids: Set<PhotoRecord.ID>) { images.withLock { $0 = $0.filter { ids.contains($0.key) } } }

    var count: Int { images.withLock { $0.count } }
}

/// Where the picture pipeline reads the bytes a picture is made from: the thumbnail from the
/// store, the large image from memory (when it could not be stored) or the store. The one place
/// that decides it.
public struct PictureBytes: Sendable {
    public var read: @Sendable (_ photoID: PhotoRecord.ID, _ image: PictureImage) throws(StoreError) -> Data?

    public init(read: @escaping @Sendable (_ photoID: PhotoRecord.ID, _ image: PictureImage) throws(StoreError) -> Data?) {
        self.read = read
    }

    static func live(store: AppDatabase, memory: LargeImageMemory) -> PictureBytes {
        PictureBytes { id, image throws(StoreError) in
            switch image {
            case .thumbnail: return try store.imageBytes(photoID: id)
            case .large:
                if let kept = memory[id] { return kept }
                return try store.largeImage(photoID: id)?.bytes
            }
        }
    }
}

/// Makes the large-image client for a run.
public struct LargeImagePipeline: Sendable {
    typealias Make = @Sendable (_ store: AppDatabase, _ memory: LargeImageMemory,
                                _ report: @escaping @Sendable (AppAction) -> Void) -> LargeImagesClient
    let make: Make

    /// Fetches nothing: a run with no network (the photo view keeps its thumbnails).
    public static let none = LargeImagePipeline { _, _, _ in LargeImagesClient(want: { _ in }, shutdown: {}) }

    /// Answers each photo asked for at once, on the caller's thread (tests, with no threads):
    /// `answer` gives its status and, when ready, the bytes its pictures are made from (kept in memory,
    /// as a large image not stored is). `asked` hears every request.
    public static func immediate(asked: @escaping @Sendable (_ fetch: [PhotoRecord.ID], _ keep: Set<PhotoRecord.ID>) -> Void = { _, _ in },
                                 _ answer: @escaping @Sendable (LargeImageWant) -> (LargeImageStatus, Data?)) -> LargeImagePipeline {
        LargeImagePipeline { _, memory, report in
            LargeImagesClient(want: { request in
                asked(request.fetch.map(\.photoID), request.keep)
                memory.keepOnly(request.keep)
                for want in request.fetch {
                    let (status, bytes) = answer(want)
                    if let bytes { memory.keep(want.photoID, bytes) }
                    report(.largeImage(want.photoID, status))
                }
            }, shutdown: {})
        }
    }

    /// Downloads over `http`, the same limits and checks as the album's thumbnails; Commons
    /// thumbnails are asked of `commonsEndpoint`. `now` stamps when a large image was last viewed
    /// (seconds; it outlives the run, so the wall clock).
    public static func live(http: HTTPClient, commonsEndpoint: String, userAgent: String,
                            now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) -> LargeImagePipeline {
        LargeImagePipeline { store, memory, report in
            let fetcher = LargeImageFetcher(http: http, commons: CommonsSource(endpoint: commonsEndpoint, userAgent: userAgent,
                                                                                http: HTTPClientFetcher(client: http)),
                                            store: store, memory: memory, now: now, report: report)
            return LargeImagesClient(want: { fetcher.want($0) }, shutdown: { fetcher.shutdown() })
        }
    }
}

/// The live large-image client: one download at a time, the most wanted first.
final class LargeImageFetcher: Sendable {
    /// The largest large image accepted, in bytes: the album's limit.
    static let maxBytes = AlbumService.maxImageBytes

    private struct Queue {
        var waiting: [LargeImageWant] = []
        var running: (id: PhotoRecord.ID, number: Int, task: Task<Void, Never>)?
        /// Downloads started, so a cancelled one that ends late is told from the one after it.
        var started = 0
        var request = LargeImageRequest.none
        var stopped = false
    }

    private let queue = Locked(Queue())
    private let http: HTTPClient
    private let commons: CommonsSource
    private let store: AppDatabase
    private let memory: LargeImageMemory
    private let now: @Sendable () -> Double
    private let report: @Sendable (AppAction) -> Void

    init(http: HTTPClient, commons: CommonsSource, store: AppDatabase, memory: LargeImageMemory,
         now: @escaping @Sendable () -> Double, report: @escaping @Sendable (AppAction) -> Void) {
        self.http = http
        self.commons = commons
        self.store = store
        self.memory = memory
        self.now = now
        self.report = report
    }

    func want(_ request: LargeImageRequest) {
        let cancelled = queue.withLock { q -> Task<Void, Never>? in
            q.request = request
            q.waiting = request.fetch.filter { $0.photoID != q.running?.id }
            // A download in flight for a photo the screen no longer wants is cancelled.
            guard let running = q.running, !request.keep.contains(running.id) else { return nil }
            q.running = nil
            return running.task
        }
        cancelled?.cancel()
        memory.keepOnly(request.keep)
        next()
    }

    func shutdown() {
        let task = queue.withLock { q -> Task<Void, Never>? in
            q.stopped = true
            q.waiting = []
            defer { q.running = nil }
            return q.running?.task
        }
        task?.cancel()
    }

    /// Starts the most wanted download when none runs.
    private func next() {
        queue.withLock { q in
            guard !q.stopped, q.running == nil, !q.waiting.isEmpty else { return }
            let item = q.waiting.removeFirst()
            let request = q.request
            q.started += 1
            let number = q.started
            let task = Task { [self] in
                let status = await fetch(item, request)
                finished(number, item.photoID, status)
            }
            q.running = (item.photoID, number, task)
        }
    }

    private func finished(_ number: Int, _ id: PhotoRecord.ID, _ status: LargeImageStatus?) {
        let current = queue.withLock { q -> Bool in
            guard q.running?.number == number else { return false }
            q.running = nil
            return true
        }
        // A cancelled download says nothing; one the screen no longer wanted is told all the same.
        if let status { report(.largeImage(id, status)) }
        if current { next() }
    }

    /// The large image of one photo: from memory, the store, or downloaded; nil when cancelled (or
    /// already told: a download is told ready before it is stored).
    private func fetch(_ want: LargeImageWant, _ request: LargeImageRequest) async -> LargeImageStatus? {
        let id = want.photoID
        if let bytes = memory[id], let size = try? JPEGDecoder.dimensions(bytes) {
            return .ready(width: size.width, height: size.height)
        }
        if let stored = try? store.largeImage(photoID: id) {
            // The least recently viewed go first: opening one counts.
            if want.shown { try? store.markLargeImageViewed(photoID: id, now: now()) }
            return .ready(width: stored.width, height: stored.height)
        }
        let bytes: Data
        do {
            bytes = try await download(want.photo, screenWidth: request.screenWidth)
        } catch {
            return Task.isCancelled ? nil : .failed(error.description)
        }
        guard !Task.isCancelled else { return nil }
        let size: (width: Int, height: Int)
        do {
            try JPEGDecoder.check(bytes)
            size = try JPEGDecoder.dimensions(bytes)
        } catch {
            return .failed(error.description)
        }
        // Drawn from memory at once, while it is stored; one not stored (a budget of 0, a full disk,
        // any store failure) stays shown from memory all the same.
        memory.keep(id, bytes)
        report(.largeImage(id, .ready(width: size.width, height: size.height)))
        let image = LargeImage(bytes: bytes, width: size.width, height: size.height)
        _ = try? store.storeLargeImage(photoID: id, image, budgetBytes: request.budgetBytes, now: now())
        return nil
    }

    /// Finds the URL (a new Commons request where the stored one will not do) and downloads it.
    private func download(_ photo: NewPhoto, screenWidth: Int) async throws(LargeImageFailure) -> Data {
        let url: String
        switch LargeImagePlan.plan(for: photo, screenWidth: screenWidth) {
        case let .download(stored):
            url = stored
        case let .askCommons(pageID, width):
            do {
                url = try await commons.largeImage(pageID: pageID, width: width).url
            } catch {
                throw LargeImageFailure(description: error.description)
            }
        }
        let response: HTTPResponse
        do {
            response = try await http.fetch(HTTPRequest(url: url, maxBytes: Self.maxBytes))
        } catch {
            throw LargeImageFailure(description: error.description)
        }
        guard response.status == 200 else { throw LargeImageFailure(description: "HTTP \(response.status)") }
        if let problem = JPEGDecoder.downloadProblem(response.body) { throw LargeImageFailure(description: problem) }
        return response.body
    }
}

/// Why a large image could not be had, one line.
struct LargeImageFailure: Error, CustomStringConvertible {
    var description: String
}

/// The Commons thumbnail request goes through the same libcurl client as the downloads.
struct HTTPClientFetcher: HTTPFetching {
    let client: HTTPClient

    func fetch(url: String, headers: [String: String], maxBytes: Int) async throws -> (status: Int, headers: [String: String], body: Data) {
        let response = try await client.fetch(HTTPRequest(url: url, headers: headers, maxBytes: maxBytes))
        return (response.status, response.headers, response.body)
    }
}
