import AlbumExport
import Dispatch
import Foundation
import Model
import Store
import TouristCore

/// Saves a whole album (`W`) as files: the answer, for the message line, comes to the completion.
/// Live: on a queue of its own, so a big album holds up neither the screen nor the store's writes.
public struct AlbumSaver: Sendable {
    public var save: @Sendable (_ pin: Pin.ID, _ done: @escaping @Sendable (StatusMessage) -> Void) -> Void
    /// Returns once every save asked for is written (at quit: no album is left half written).
    public var finish: @Sendable () -> Void

    public init(save: @escaping @Sendable (_ pin: Pin.ID, _ done: @escaping @Sendable (StatusMessage) -> Void) -> Void,
                finish: @escaping @Sendable () -> Void = {}) {
        self.save = save
        self.finish = finish
    }

    /// Into `<pictures>/vtourist/<pin name>/` (`AlbumSaving.picturesFolder`), on a queue of its own.
    public static func live(store: AppDatabase, pictures: URL) -> AlbumSaver {
        let queue = DispatchQueue(label: "vtourist.album-saver")
        return AlbumSaver(save: { pin, done in queue.async { done(saving(pin, store: store, pictures: pictures)) } },
                          finish: { queue.sync {} })
    }

    /// The same work done when asked, on the caller's thread: tests.
    public static func immediate(store: AppDatabase, pictures: URL) -> AlbumSaver {
        AlbumSaver { pin, done in done(saving(pin, store: store, pictures: pictures)) }
    }

    /// Saves nothing and says so (programs that never show an album).
    public static let none = AlbumSaver { _, done in
        done(StatusMessage("Albums cannot be saved here.", kind: .error))
    }

    /// Saves the pin's album into a new folder of the pictures folder: what the message line says.
    static func saving(_ pinID: Pin.ID, store: AppDatabase, pictures: URL) -> StatusMessage {
        let pin: Pin
        do {
            guard let found = try store.pin(id: pinID) else { return StatusMessage("The pin is gone.", kind: .error) }
            pin = found
        } catch {
            return StatusMessage("Could not read the album: \(error)", kind: .error)
        }
        let (folder, taken) = AlbumSaving.picturesFolder(pictures, pin: pin)
        do {
            let saved = try AlbumSaving.save(store, pinID: pinID, into: folder, force: false)
            let photos = saved.photos == 1 ? "1 photo" : "\(saved.photos) photos"
            let why = taken.map { " (\(($0 as NSString).lastPathComponent) holds files already)" } ?? ""
            return StatusMessage("Saved \(photos) to \(folder)\(why)")
        } catch .nothingStored {
            return StatusMessage("No stored photos to save yet.")
        } catch {
            return StatusMessage("Could not save the album: \(error)", kind: .error)
        }
    }
}
