import AlbumMachine
import Terminal

/// The photo screen: the previous and next photo, deleting it, opening its page, saving its
/// image, and back to the album.
struct PhotoReducer: Sendable {
    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        guard let command = PhotoKeys.table.command(for: key) else { return [] }
        return run(command, &state)
    }

    /// Mouse on the photo screen: the wheel steps to the previous (up) or next (down) photo, a click
    /// on a key hint does what the key does; anything else is ignored.
    func mouse(_ mouse: MouseEvent, _ state: inout AppState) -> [AppEffect] {
        let layout = state.layout
        switch mouse.kind {
        case .wheelUp, .wheelDown:
            guard layout.main.contains(x: mouse.x, y: mouse.y) else { return [] }
            return run(mouse.kind == .wheelUp ? .previous : .next, &state)
        case .click, .release:
            guard mouse.y == layout.status.y, let hit = KeyHints.placed(PhotoKeys.table.hints(unicode: state.capabilities.unicode),
                                                                      in: layout.status)
                .first(where: { $0.columns.contains(mouse.x) }) else { return [] }
            return run(hit.hint.command, &state)
        case .press, .drag:
            return []
        }
    }

    /// What a key or a click on its hint does.
    func run(_ command: PhotoCommand, _ state: inout AppState) -> [AppEffect] {
        guard var screen = state.photo else { return [] }
        guard let index = screen.index, let photo = screen.photo else {
            // The photo is gone (deleted elsewhere): any key goes back to the album.
            back(screen.album, &state)
            return []
        }
        switch command {
        case .previous:
            guard index > 0 else {
                state.message = StatusMessage("First photo.")
                return []
            }
            screen.show(index - 1)
        case .next:
            guard index < screen.album.photos.count - 1 else {
                state.message = StatusMessage("Last photo.")
                return []
            }
            screen.show(index + 1)
        case .first:
            screen.show(0)
        case .last:
            screen.show(screen.album.photos.count - 1)
        case .retry:
            // The album machine decides whether there is anything to retry, as for `r` in the album.
            return [.album(screen.album.pinID, .retry(photo: photo.id))]
        case .delete:
            // One photo goes at once, never asked, as in the album: the message line says which.
            var album = screen.album
            album.remove([photo.id])
            back(album, &state)
            state.message = StatusMessage(AlbumScreenReducer.deleted([photo]))
            return [.album(album.pinID, .deletePhotos([photo.id]))]
        case .openPage:
            guard let page = photo.pageURL, PhotoReducer.isWebPage(page) else {
                state.message = StatusMessage("This photo has no web page.")
                return []
            }
            return [.openPage(page)]
        case .save:
            guard photo.state == .stored else {
                state.message = StatusMessage("The photo is not stored yet.")
                return []
            }
            return [.savePhoto(photo.id, title: photo.title ?? "")]
        case .back:
            back(screen.album, &state)
            return []
        case .help:
            state.overlay = .help
            return []
        }
        state.screen = .photo(screen)
        return []
    }

    /// After a reload of the album underneath: a photo deleted elsewhere leaves the screen.
    func loaded(_ state: inout AppState) {
        guard let screen = state.photo, screen.index == nil else { return }
        back(screen.album, &state)
        state.message = StatusMessage("That photo was deleted elsewhere.", kind: .error)
    }

    private func back(_ album: AlbumScreen, _ state: inout AppState) {
        state.go(to: .backToAlbum(album))
    }

    /// Only web pages are handed to the browser.
    static func isWebPage(_ text: String) -> Bool {
        let lower = text.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && !lower.contains(where: \.isWhitespace)
    }
}

extension PhotoScreen {
    /// Shows the album's photo at `index`, and selects it in the album.
    mutating func show(_ index: Int) {
        album.selected = index
        photoID = album.photos[index].id
        forgetLargeOutsideWindow()
    }
}
