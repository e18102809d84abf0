import Dispatch
import Foundation
import Store
import Terminal
import TouristCore

/// The picture pipeline as the loop uses it: render photos for boxes of cells and encode the photo
/// screen's photo for an inline image protocol. Results come back through the callbacks it was
/// made with.
struct PictureClient: Sendable {
    /// The pictures wanted and not yet on the shelf, most wanted first (replaces what waits).
    var want: @Sendable ([PictureKey]) -> Void
    /// The loop has put a delivered picture on its shelf.
    var taken: @Sendable (PictureKey) -> Void
    /// Encodes a stored photo for the terminal's inline image protocol.
    var encodeInline: @Sendable (InlineRequest) -> Void
}

/// Makes the picture pipeline for a run: live threads over the image libraries, or, in tests, a
/// painter run at once on the loop's thread.
public struct PicturePipeline: Sendable {
    typealias Make = @Sendable (_ bytes: PictureBytes, _ capabilities: TerminalCapabilities,
                                _ rendered: @escaping @Sendable (PictureKey, Picture) -> Void,
                                _ encoded: @escaping @Sendable (_ key: String, InlinePicture?) -> Void) -> PictureClient
    let make: Make

    /// Renders on `threads` threads, the most wanted first; `painter` nil: the album's renderer for
    /// the terminal's capabilities. Inline pictures are encoded on a thread of their own.
    public static func live(threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                            painter: PicturePainter? = nil) -> PicturePipeline {
        PicturePipeline { bytes, capabilities, rendered, encoded in
            let painter = painter ?? .live(capabilities: capabilities)
            let worker = PictureWorker(threads: threads, render: { render($0, bytes: bytes, painter: painter, sketched: $1) },
                                       deliver: rendered)
            let inlineQueue = DispatchQueue(label: "vtourist.inline")
            return PictureClient(
                want: { worker.want($0) },
                taken: { worker.taken($0) },
                encodeInline: { request in
                    inlineQueue.async { encoded(request.key, inline(request, bytes: bytes)) }
                })
        }
    }

    /// Paints each picture when it is asked for, on the caller's thread: tests, with no threads.
    public static func immediate(painter: PicturePainter) -> PicturePipeline {
        PicturePipeline { bytes, _, rendered, encoded in
            PictureClient(
                want: { keys in
                    for key in keys {
                        if let picture = render(key, bytes: bytes, painter: painter, sketched: { rendered(key, $0) }) {
                            rendered(key, picture)
                        }
                    }
                },
                taken: { _ in },
                encodeInline: { request in encoded(request.key, inline(request, bytes: bytes)) })
        }
    }

    /// A photo's image (the key's: thumbnail or large) painted for its box; nil when the photo has
    /// no such image (any more). A picture that takes long to paint goes to `sketched` as a sketch first.
    private static func render(_ key: PictureKey, bytes: PictureBytes, painter: PicturePainter,
                               sketched: (Picture) -> Void) -> Picture? {
        let data: Data?
        do { data = try bytes.read(key.photoID, key.image) } catch {
            return .failed("cannot read the stored image")
        }
        guard let data else { return nil }
        if let sketch = painter.sketch(data, key) { sketched(sketch) }
        return painter.paint(data, key)
    }

    private static func inline(_ request: InlineRequest, bytes: PictureBytes) -> InlinePicture? {
        guard let data = try? bytes.read(request.photoID, request.image) else { return nil }
        return PicturePainter.inline(data, request)
    }
}
