import Store
import Locking
import Model
import Terminal
import TouristCore

/// What store work and the album service tell the UI loop.
enum RuntimeMessage: Sendable {
    /// An action for the reducer. `readBeforeWrite` is the count of writes issued when the
    /// data was read; the action is dropped if a write was issued since (it could undo it on screen).
    case action(AppAction, readBeforeWrite: Int = .max)
    /// The album service changed a pin's album.
    case albumChanged(Pin.ID)
    /// The open album's snapshot load finished (loaded or failed).
    case albumLoadFinished
    /// A map view write finished (saved or failed).
    case mapViewSaved
    /// A check for other processes' writes finished.
    case pollFinished(PollOutcome)
    /// A photo's picture is rendered for a box of cells.
    case pictureRendered(PictureKey, Picture)
    /// The photo screen's photo, encoded for the terminal's inline image protocol.
    case inlineReady(InlinePicture)
    /// No browser took a page: its address goes to the clipboard and the message line.
    case pageNotOpened(url: String, reason: String)
}

enum PollOutcome: Sendable {
    case unchanged
    case changed(version: Int, pins: [Pin], settings: Settings, readBeforeWrite: Int)
    case failed(StoreError)
}

/// The one channel from other threads back to the UI loop: messages are taken
/// in the order they were posted, and each post wakes the loop.
final class Mailbox: Sendable {
    private let messages = Locked<[RuntimeMessage]>([])
    private let wakeUp: @Sendable () -> Void

    init(wakeUp: @escaping @Sendable () -> Void) {
        self.wakeUp = wakeUp
    }

    func post(_ message: RuntimeMessage) {
        messages.withLock { $0.append(message) }
        wakeUp()
    }

    func post(_ action: AppAction) {
        post(.action(action))
    }

    /// Everything posted since the last call, oldest first.
    func drain() -> [RuntimeMessage] {
        messages.withLock { messages in
            let out = messages
            messages.removeAll()
            return out
        }
    }
}
