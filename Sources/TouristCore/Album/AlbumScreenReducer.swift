import AlbumMachine
import Model
import Terminal

/// The album screen: moving the selection, opening a photo, marking and deleting photos, New
/// Collection, Add more, retry, and back to the map.
struct AlbumScreenReducer: Sendable {
    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        if state.album?.confirming != nil { return confirm(key, &state) }
        guard let command = AlbumKeys.table.command(for: key) else { return [] }
        return run(command, &state)
    }

    /// A double click is two clicks on the same photo within this many seconds.
    static let doubleClick = 0.4

    /// Mouse on the album: a click selects a photo, a second click on it soon after opens it; the
    /// wheel scrolls the grid a row (the selection stays on screen); a click on a key hint in the
    /// header does what the key does. Anything else is ignored.
    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState) -> [AppEffect] {
        guard var album = state.album, album.confirming == nil else { return [] }
        let main = state.layout.main
        let grid = AlbumGrid(area: main)
        let (header, body) = main.splitTop(AlbumGrid.top)
        switch mouse.kind {
        case .wheelUp, .wheelDown:
            guard main.contains(x: mouse.x, y: mouse.y) else { return [] }
            let rows = (album.photos.count + grid.columns - 1) / grid.columns
            album.topRow = max(0, min(album.topRow + (mouse.kind == .wheelDown ? 1 : -1), rows - grid.visibleRows))
            // The selection follows into the rows shown, in its column.
            let row = album.selected / grid.columns
            let shownRow = min(max(row, album.topRow), album.topRow + grid.visibleRows - 1)
            album.selected = min(max(0, album.photos.count - 1), shownRow * grid.columns + album.selected % grid.columns)
            state.screen = .album(album)
            return []
        case .click, .release:
            if mouse.y == header.y + 2,
               let hit = AlbumView.hints(for: album.snapshot, in: header, unicode: state.capabilities.unicode)
                   .first(where: { $0.columns.contains(mouse.x) }) {
                return run(hit.hint.command, &state)
            }
            guard let index = grid.indices(topRow: album.topRow, count: album.photos.count).first(where: { i in
                grid.cell(i, topRow: album.topRow, in: body)?.contains(x: mouse.x, y: mouse.y) == true
            }) else { return [] }
            let again = album.lastClick.map { $0.index == index && time - $0.time <= Self.doubleClick } ?? false
            album.selected = index
            album.lastClick = again ? nil : AlbumClick(index: index, time: time)
            state.screen = .album(album)
            return again ? run(.open, &state) : []
        case .press, .drag:
            return []
        }
    }

    /// A key while the album asks before New Collection or deleting the marked photos (the
    /// confirm-delete setting): yes does it, no keeps everything; other keys do nothing.
    func confirm(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        guard var album = state.album, let question = album.confirming,
              let answer = ConfirmKeys.table.command(for: key) else { return [] }
        album.confirming = nil
        var effects: [AppEffect] = []
        if answer == .delete {
            switch question {
            case let .deleteMarked(ids): effects = deleteMarked(ids, &album, &state)
            case .newCollection: effects = [.album(album.pinID, .newCollection)]
            case let .setFilter(filter, _):
                return FilterReducer.apply(filter, to: album, &state)
            case .leave:
                state.go(to: .leaveAlbum(album))
                return []
            }
        }
        album.keepSelectionVisible(AlbumGrid(area: state.layout.main))
        state.screen = .album(album)
        return effects
    }

    private func deleteMarked(_ ids: [PhotoRecord.ID], _ album: inout AlbumScreen, _ state: inout AppState) -> [AppEffect] {
        let doomed = album.photos.filter { ids.contains($0.id) }
        return AlbumScreenReducer.delete(doomed, from: &album, &state)
    }

    /// Deletes photos: off the grid at once, said deleted by title (or count) once the store has
    /// deleted them (`photosDeleted`); a failure reloads the album as stored.
    static func delete(_ photos: [PhotoRecord], from album: inout AlbumScreen, _ state: inout AppState) -> [AppEffect] {
        let ack = Acknowledgment.photosDeleted(photos.map(\.displayTitle))
        let ids = photos.map(\.id)
        state.message = StatusMessage(ack.onItsWay)
        album.remove(Set(ids))
        album.pendingDeletions.append(PendingPhotoDeletion(ids: ids, ack: ack))
        return [.album(album.pinID, .deletePhotos(ids))]
    }

    /// What a key or a click on its hint does.
    func run(_ command: AlbumCommand, _ state: inout AppState) -> [AppEffect] {
        guard var album = state.album else { return [] }
        let grid = AlbumGrid(area: state.layout.main)
        let last = max(0, album.photos.count - 1)
        var effects: [AppEffect] = []
        switch command {
        case .back:
            guard album.marked.isEmpty else {
                album.confirming = .leave(marks: album.marked.count)
                state.screen = .album(album)
                return []
            }
            state.go(to: .leaveAlbum(album))
            return []
        case .move(-1, 0): album.selected = max(0, album.selected - 1)
        case .move(1, 0): album.selected = min(last, album.selected + 1)
        case .move(0, -1): if album.selected >= grid.columns { album.selected -= grid.columns }
        case .move(0, 1): album.selected = min(last, album.selected + grid.columns)
        case .move: break
        case let .page(direction):
            // A screen of rows: the grid scrolls by as much, the selection keeps its place on screen.
            let rows = (album.photos.count + grid.columns - 1) / grid.columns
            let row = min(max(0, album.selected / grid.columns + grid.visibleRows * direction), max(0, rows - 1))
            album.topRow = max(0, album.topRow + grid.visibleRows * direction)
            album.selected = min(last, row * grid.columns + album.selected % grid.columns)
        case .first: album.selected = 0
        case .last: album.selected = last
        case .open:
            state.go(to: .photo(of: album))
            return []
        case .toggleMark:
            if let photo = album.selectedPhoto {
                if album.marked.contains(photo.id) { album.marked.remove(photo.id) } else { album.marked.insert(photo.id) }
                album.selected = min(last, album.selected + 1)
            }
        case .deletePhoto:
            guard let photo = album.selectedPhoto else {
                state.message = StatusMessage("No photo to delete.")
                break
            }
            // One photo goes at once, never asked: the message line says which.
            effects = AlbumScreenReducer.delete([photo], from: &album, &state)
        case .deleteMarked:
            guard !album.marked.isEmpty else {
                let mark = AlbumKeys.table.keyName(for: .toggleMark, unicode: state.capabilities.unicode)
                state.message = StatusMessage("Mark photos with \(mark) first.")
                break
            }
            let ids = album.photos.map(\.id).filter(album.marked.contains)
            if state.settings.confirmDelete {
                album.confirming = .deleteMarked(ids)
            } else {
                effects = deleteMarked(ids, &album, &state)
            }
        // The album machine decides whether New Collection and retry can run now; its refusal comes
        // back as a notice for the message line. Asked first only when it would run.
        case .newCollection:
            if state.settings.confirmDelete, album.snapshot?.isNewCollectionEnabled == true, !album.photos.isEmpty {
                album.confirming = .newCollection(album.photos.count)
            } else {
                effects = [.album(album.pinID, .newCollection)]
            }
        case .editFilter:
            guard let snapshot = album.snapshot, snapshot.filterRefusal == nil else {
                state.message = StatusMessage(album.snapshot?.filterRefusal ?? "The album is still loading.")
                break
            }
            state.editFilter(album)
            return []
        case .clearFilter:
            guard let snapshot = album.snapshot, !snapshot.filter.isEmpty else {
                state.message = StatusMessage("No filter to clear.")
                break
            }
            if let refusal = snapshot.filterRefusal {
                state.message = StatusMessage(refusal)
            } else if state.settings.confirmDelete, !album.photos.isEmpty {
                album.confirming = .setFilter(.none, photos: album.photos.count)
            } else {
                return FilterReducer.apply(.none, to: album, &state)
            }
        case .addMore:
            effects = [.album(album.pinID, .addMore)]
        case .saveAlbum:
            // The saver reads the album from the store and says where it went, or why not.
            state.message = StatusMessage("Saving the album\u{2026}")
            effects = [.saveAlbum(album.pinID)]
        case .retry:
            effects = [.album(album.pinID, .retry(photo: album.retryTarget))]
        case .help:
            state.overlay = .help
        }
        album.keepSelectionVisible(grid)
        state.screen = .album(album)
        return effects
    }

    /// A fresh snapshot of the open album from the store and the album machine.
    func loaded(_ snapshot: AlbumSnapshot, _ state: inout AppState) {
        let grid = AlbumGrid(area: state.layout.main)
        state.updateAlbum { album in
            guard album.pinID == snapshot.pinID else { return }
            album.apply(snapshot)
            album.keepSelectionVisible(grid)
        }
    }

    /// After a resize: the selection stays on screen, scrolled from where the user left the grid.
    func keepSelectionVisible(_ state: inout AppState) {
        let grid = AlbumGrid(area: state.layout.main)
        state.updateAlbum { album in
            let chosen = album.topRowBeforeResize ?? album.topRow
            album.topRowBeforeResize = chosen
            album.topRow = chosen
            album.keepSelectionVisible(grid)
        }
    }
}

extension AlbumScreen {
    /// What `r` retries besides a failed search: the selected photo when its download failed, else
    /// (nil) every failed photo. The header's hint says which.
    var retryTarget: PhotoRecord.ID? {
        selectedPhoto.flatMap { $0.state.isFailed ? $0.id : nil }
    }

    /// Scrolls the grid so the selected photo is on screen, and no further than the last row of
    /// photos at the bottom (a deletion or a taller screen never leaves empty rows below).
    mutating func keepSelectionVisible(_ grid: AlbumGrid) {
        let row = selected / grid.columns
        var top = topRow
        if row < top { top = row }
        if row >= top + grid.visibleRows { top = row - grid.visibleRows + 1 }
        let rows = (photos.count + grid.columns - 1) / grid.columns
        topRow = max(0, min(top, rows - grid.visibleRows))
    }
}
