import Dispatch
import Foundation

/// Opens web pages for the runtime: the answer comes to the completion, never to the UI thread's
/// cost. Live: the blocking opener on a thread of its own, so a slow browser holds up neither the
/// screen nor the store.
public struct PageOpenerClient: Sendable {
    public var open: @Sendable (String, @escaping @Sendable (Result<Void, PageOpenFailure>) -> Void) -> Void

    public init(open: @escaping @Sendable (String, @escaping @Sendable (Result<Void, PageOpenFailure>) -> Void) -> Void) {
        self.open = open
    }

    /// A blocking opener run on a queue of its own.
    public static func onItsOwnThread(_ opener: @escaping @Sendable (String) -> Result<Void, PageOpenFailure>) -> PageOpenerClient {
        let queue = DispatchQueue(label: "vtourist.opener")
        return PageOpenerClient { url, done in queue.async { done(opener(url)) } }
    }

    /// `xdg-open`, else `open` (`PageOpener.live`).
    public static var live: PageOpenerClient { onItsOwnThread(PageOpener.live) }

    /// An opener's answer given at once, on the caller's thread: tests.
    public static func immediate(_ opener: @escaping @Sendable (String) -> Result<Void, PageOpenFailure>) -> PageOpenerClient {
        PageOpenerClient { url, done in done(opener(url)) }
    }
}

/// Saves a photo's image as a file: what the message line then says, or why it could not.
public struct PhotoSaver: Sendable {
    public var save: @Sendable (_ bytes: Data, _ title: String) throws -> String

    public init(save: @escaping @Sendable (_ bytes: Data, _ title: String) throws -> String) {
        self.save = save
    }

    /// Into `<pictures>/vtourist/`, named after the title (`PhotoFile.save`).
    public static func folder(_ pictures: URL) -> PhotoSaver {
        PhotoSaver { bytes, title in try PhotoFile.save(bytes, title: title, pictures: pictures).message }
    }
}
