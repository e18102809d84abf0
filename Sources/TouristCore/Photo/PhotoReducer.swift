import AlbumMachine
import Terminal

/// The photo screen: the previous and next photo, zooming and panning, the slideshow, deleting it,
/// opening its page, saving its image, and back to the album.
struct PhotoReducer: Sendable {
    /// Any key pauses a slideshow playing, then does what it does (space only pauses).
    func key(_ key: Key, time: Double, _ state: inout AppState) -> [AppEffect] {
        guard let screen = state.photo else { return [] }
        let command = PhotoKeys.table(for: screen).command(for: key)
        if screen.slideshow != nil {
            pause(&state)
            if command == .slideshow { return [] }
        }
        guard let command else { return [] }
        return run(command, time: time, &state)
    }

    /// Mouse on the photo screen: the wheel over the picture zooms in (up) or out (down) at the
    /// pointer, a click on a key hint does what the key does; anything else is ignored.
    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState) -> [AppEffect] {
        guard let screen = state.photo else { return [] }
        let layout = state.layout
        switch mouse.kind {
        case .wheelUp, .wheelDown:
            guard PhotoView.pictureArea(layout).contains(x: mouse.x, y: mouse.y) else { return [] }
            if screen.slideshow != nil { pause(&state) }
            zoom(by: mouse.kind == .wheelUp ? 1 : -1, at: (mouse.x, mouse.y), &state)
            return []
        case .click, .release:
            guard mouse.y == layout.status.y,
                  let hit = KeyHints.placed(PhotoKeys.table(for: screen).hints(unicode: state.capabilities.unicode),
                                            in: layout.status)
                .first(where: { $0.columns.contains(mouse.x) }) else { return [] }
            if screen.slideshow != nil { pause(&state) }
            return run(hit.hint.command, time: time, &state)
        case .press, .drag:
            return []
        }
    }

    /// What a key or a click on its hint does.
    func run(_ command: PhotoCommand, time: Double, _ state: inout AppState) -> [AppEffect] {
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
        case .zoomIn, .zoomOut:
            zoom(by: command == .zoomIn ? 1 : -1, at: nil, &state)
            return []
        case .fit:
            screen.zoom = .fit
        case let .pan(dx, dy):
            guard let view = zoomView(screen, state.layout) else { return [] }
            screen.zoom = view.panned(screen.zoom, dx: dx, dy: dy)
        case .slideshow:
            guard index < screen.album.photos.count - 1 else {
                state.message = StatusMessage("Last photo: nothing to play.")
                return []
            }
            screen.slideshow = Slideshow(since: time)
            state.message = StatusMessage("Slideshow: a photo every \(state.settings.slideshowSeconds) s; any key pauses it.")
        case .retry:
            // The album machine decides whether there is anything to retry, as for `r` in the album.
            return [.album(screen.album.pinID, .retry(photo: photo.id))]
        case .delete:
            // One photo goes at once, never asked, as in the album: the message line says which.
            var album = screen.album
            let effects = AlbumScreenReducer.delete([photo], from: &album, &state)
            back(album, &state)
            return effects
        case .openPage:
            guard let page = photo.pageURL, PhotoReducer.isWebPage(page) else {
                state.message = StatusMessage("This photo has no web page.")
                return []
            }
            return [.openPage(page)]
        case .save:
            guard photo.state == .stored || screen.largeSize(photo.id) != nil else {
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

    /// The slideshow's interval has passed (the loop's clock): the next photo, and at the last one
    /// the slideshow stops and says so. Nothing unless it plays.
    func slideshowStep(time: Double, _ state: inout AppState) {
        guard var screen = state.photo, screen.slideshow != nil else { return }
        // Wherever the photo went, a slideshow that cannot step stops (never due again and again).
        guard let index = screen.index, index < screen.album.photos.count - 1 else {
            screen.slideshow = nil
            state.screen = .photo(screen)
            if screen.index != nil { state.message = StatusMessage("Last photo: the slideshow stopped.") }
            return
        }
        screen.show(index + 1)
        if index + 1 == screen.album.photos.count - 1 {
            screen.slideshow = nil
            state.message = StatusMessage("Last photo: the slideshow stopped.")
        } else {
            screen.slideshow = Slideshow(since: time)
        }
        state.screen = .photo(screen)
    }

    private func pause(_ state: inout AppState) {
        guard var screen = state.photo, screen.slideshow != nil else { return }
        screen.slideshow = nil
        state.screen = .photo(screen)
        state.message = StatusMessage("Slideshow paused.")
    }

    /// The photo's zoom geometry in the view, when its size is known.
    func zoomView(_ screen: PhotoScreen, _ layout: ScreenLayout) -> ZoomView? {
        guard let size = screen.imageSize else { return nil }
        return ZoomView(imageWidth: size.width, imageHeight: size.height, box: PhotoView.pictureSize(layout))
    }

    /// One zoom step in (+1) or out (−1), at the middle of the view or at a cell of it (the wheel).
    private func zoom(by step: Int, at cell: (x: Int, y: Int)?, _ state: inout AppState) {
        guard var screen = state.photo, let photo = screen.photo else { return }
        guard photo.state == .stored || screen.largeSize(photo.id) != nil else {
            if step > 0 { state.message = StatusMessage("The photo is not stored yet.") }
            return
        }
        guard let view = zoomView(screen, state.layout) else {
            if step > 0 { state.message = StatusMessage("This photo cannot be zoomed: its size is not known.") }
            return
        }
        let current = view.clamped(screen.zoom)
        let level = current.level + step
        guard level <= view.maxLevel else {
            state.message = StatusMessage(view.maxLevel == 0 ? "The photo is shown as sharp as it is."
                                          : "Zoomed in all the way: one image pixel a screen pixel.")
            return
        }
        guard level >= 0 else { return }
        var offset = (x: 0.0, y: 0.0)
        if let cell {
            // The pointer's distance from the view's middle, in screen pixels.
            let area = PhotoView.pictureArea(state.layout)
            let pixels = PhotoZoom.cellPixels
            offset = ((Double(cell.x - area.x) + 0.5 - Double(area.width) / 2) * Double(pixels.width),
                      (Double(cell.y - area.y) + 0.5 - Double(area.height) / 2) * Double(pixels.height))
        }
        screen.zoom = view.zoomed(current, to: level, keeping: offset)
        state.screen = .photo(screen)
    }

    /// After a resize: the zoom stays within what the new box allows.
    func resized(_ state: inout AppState) {
        guard var screen = state.photo, let view = zoomView(screen, state.layout) else { return }
        screen.zoom = view.clamped(screen.zoom)
        state.screen = .photo(screen)
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
        zoom = .fit
        forgetLargeOutsideWindow()
    }
}
