import Dispatch
import Foundation
import Imaging
import Locking
import Terminal
import TouristCore

/// Turns a stored image into the picture for a box of cells: decoding and rendering, run off the
/// UI thread. A struct of one closure: the live one over the image libraries, or one a test gives.
public struct PicturePainter: Sendable {
    public var paint: @Sendable (Data, PictureSize) -> Picture

    public init(paint: @escaping @Sendable (Data, PictureSize) -> Picture) {
        self.paint = paint
    }

    /// The album's renderer for a terminal with these capabilities; what cannot be decoded
    /// becomes a failed picture saying why.
    public static func live(capabilities: TerminalCapabilities) -> PicturePainter {
        // The picture threads already render several pictures at once.
        ImageLibraries.drawEachPictureOnItsCallersThread()
        let renderer = PictureRenderer(capabilities: capabilities)
        return PicturePainter { data, size in
            do throws(ImageError) {
                return .cells(try renderer.render(jpeg: data, columns: size.columns, rows: size.rows))
            } catch {
                return .failed(error.description)
            }
        }
    }
}

extension PicturePainter {
    /// A stored image as a real picture for the terminal's inline image protocol, fitted and
    /// centred in `area` (cells of `cell` pixels); nil when it cannot be decoded.
    static func inline(_ data: Data, protocol imageProtocol: InlineProtocol, cell: (width: Int, height: Int),
                       key: String, in area: Rect) -> InlinePicture? {
        let encoder = InlineImageEncoder(protocol: imageProtocol, cellWidth: cell.width, cellHeight: cell.height)
        guard let source = try? JPEGDecoder.dimensions(data) else { return nil }
        let box = encoder.box(imageWidth: source.width, imageHeight: source.height, columns: area.width, rows: area.height)
        let pixels = encoder.pixelSize(box: box)
        guard let image = try? JPEGDecoder.decode(data, fitting: pixels.width, pixels.height) else { return nil }
        return encoder.picture(image, key: key, in: area)
    }
}

/// Renders pictures on a few threads, the most wanted first. Each `want` replaces the list of
/// pictures waiting, so pictures the screen scrolled past before their turn are never rendered;
/// one being rendered is not asked for twice, nor one delivered until the loop has taken it.
final class PictureWorker: Sendable {
    private struct Queue {
        var waiting: [PictureKey] = []
        var running: Set<PictureKey> = []
        /// Delivered to the loop and not yet taken by it.
        var delivered: Set<PictureKey> = []
        var threads = 0
    }

    private let queue = Locked(Queue())
    private let threads: Int
    private let render: @Sendable (PictureKey) -> Picture?
    private let deliver: @Sendable (PictureKey, Picture) -> Void

    /// `render` gives nil when the photo has no stored image (any more); `deliver` is called on the
    /// worker's thread.
    init(threads: Int, render: @escaping @Sendable (PictureKey) -> Picture?,
         deliver: @escaping @Sendable (PictureKey, Picture) -> Void) {
        self.threads = max(1, threads)
        self.render = render
        self.deliver = deliver
    }

    /// The pictures wanted and not yet on the shelf, most wanted first.
    func want(_ keys: [PictureKey]) {
        let start = queue.withLock { q -> Int in
            q.waiting = keys.filter { !q.running.contains($0) && !q.delivered.contains($0) }
            let more = min(threads - q.threads, q.waiting.count)
            q.threads += max(0, more)
            return max(0, more)
        }
        for _ in 0..<start {
            DispatchQueue.global(qos: .userInitiated).async { [self] in work() }
        }
    }

    /// The loop has put a delivered picture on its shelf.
    func taken(_ key: PictureKey) {
        queue.withLock { _ = $0.delivered.remove(key) }
    }

    private func work() {
        while let key = next() {
            let picture = render(key)
            queue.withLock { q in
                q.running.remove(key)
                if picture != nil { q.delivered.insert(key) }
            }
            if let picture { deliver(key, picture) }
        }
    }

    private func next() -> PictureKey? {
        queue.withLock { q in
            guard !q.waiting.isEmpty else {
                q.threads -= 1
                return nil
            }
            let key = q.waiting.removeFirst()
            q.running.insert(key)
            return key
        }
    }
}
