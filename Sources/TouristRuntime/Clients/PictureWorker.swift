import Dispatch
import Locking
import TouristCore

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
    private let render: @Sendable (PictureKey, _ sketched: (Picture) -> Void) -> Picture?
    private let deliver: @Sendable (PictureKey, Picture) -> Void

    /// `render` gives nil when the photo has no stored image (any more); `deliver` is called on the
    /// worker's thread.
    init(threads: Int, render: @escaping @Sendable (PictureKey, _ sketched: (Picture) -> Void) -> Picture?,
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
            // A sketch is delivered as it is made, and not counted as delivered: the picture follows it.
            let picture = render(key) { sketch in deliver(key, sketch) }
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
