import AlbumMachine
import Foundation
import Model
import Terminal

/// The album screen: header with place, coordinates, source, progress and
/// keys; a grid of one cell per photo (placeholders fill in as downloads
/// finish); `No Images`; a failed search with its reason.
enum AlbumView {
    static func render(_ album: AlbumScreen, state: AppState, pictures: PictureShelf, theme: Theme,
                       layout: ScreenLayout, into buffer: inout CellBuffer) {
        buffer.clear(layout.main, style: theme.dialog)
        // The album has no status line: its row is part of the page.
        buffer.clear(layout.status, style: theme.dialog)
        let (headerArea, body) = layout.main.splitTop(AlbumGrid.top)
        let grid = AlbumGrid(area: layout.main)
        var scroll: String?
        if let photos = album.snapshot?.photos, !photos.isEmpty {
            let rows = (photos.count + grid.columns - 1) / grid.columns
            if rows > grid.visibleRows {
                scroll = "rows \(album.topRow + 1)-\(min(rows, album.topRow + grid.visibleRows)) of \(rows)"
            }
        }
        let header = AlbumHeader(pin: state.pin(album.pinID), pinID: album.pinID, snapshot: album.snapshot,
                                 storeProblem: album.storeProblem, scroll: scroll, marked: album.marked.count,
                                 retryTarget: album.retryTarget, wait: state.shownWaitLine, theme: theme,
                                 unicode: state.capabilities.unicode)
        buffer.render(header, in: headerArea)
        if let snapshot = album.snapshot {
            let cells = AlbumGridWidget(snapshot: snapshot, selected: album.selected, marked: album.marked,
                                        topRow: album.topRow, grid: grid, pictures: pictures,
                                        frame: state.animationFrame, theme: theme)
            buffer.render(cells, in: body)
        }
        if let message = state.message {
            buffer.render(MessageLine(message: message, theme: theme), in: layout.message)
        }
        if let question = album.confirming {
            buffer.render(AlbumView.dialog(question, theme: theme, unicode: state.capabilities.unicode), in: layout.main)
        }
    }

    static func dialog(_ question: AlbumConfirmation, theme: Theme, unicode: Bool) -> ConfirmDialog {
        switch question {
        case let .newCollection(count):
            return ConfirmDialog(title: "New Collection", question: "Replace the \(count) photo\(count == 1 ? "" : "s") of this album?",
                                 detail: "A different page of results is fetched instead.", yes: "Replace",
                                 theme: theme, unicode: unicode)
        case let .deleteMarked(ids):
            return ConfirmDialog(title: "Delete photos", question: "Delete the \(ids.count) marked photo\(ids.count == 1 ? "" : "s")?",
                                 detail: "They are removed from the album and the database.", yes: "Delete",
                                 theme: theme, unicode: unicode)
        case let .setFilter(filter, count):
            return ConfirmDialog(title: filter.isEmpty ? "Clear the filter" : "Filter",
                                 question: "Replace the \(count) photo\(count == 1 ? "" : "s") with a new collection?",
                                 detail: filter.isEmpty ? "Without the filter." : "For \u{201C}\(filter.summary)\u{201D}.",
                                 yes: "Replace", theme: theme, unicode: unicode)
        case let .leave(marks):
            return ConfirmDialog(title: "Leave the album", question: "Drop the \(marks) mark\(marks == 1 ? "" : "s")?",
                                 detail: "The photos stay; only the marks go.", yes: "Leave",
                                 theme: theme, unicode: unicode)
        }
    }
}

extension AlbumView {
    /// The header's key hints and the columns each takes, on the header's third row (`area` is the
    /// header's area): what is drawn and what a click does.
    /// An album without photos (`No Images`, a failed search) has no delete, mark or save hints.
    static func hints(for snapshot: AlbumSnapshot?, in area: Rect, unicode: Bool) -> [(hint: Hint<AlbumCommand>, columns: Range<Int>)] {
        let photoCommands: [AlbumCommand] = [.deletePhoto, .toggleMark, .deleteMarked, .saveAlbum]
        let hasPhotos = snapshot.map { !$0.photos.isEmpty } ?? false
        return AlbumKeys.table.hints(unicode: unicode).filter { hasPhotos || !photoCommands.contains($0.command) }
            .fitting(width: area.right - area.x - 1).placed(from: area.x + 1)
    }
}

/// The album's first rows: the place and where it is, the download's
/// progress or the album's state, and the keys (New Collection dimmed while refused).
struct AlbumHeader: Widget {
    var pin: Pin?
    var pinID: Pin.ID
    var snapshot: AlbumSnapshot?
    /// A store failure, shown in place of the progress: what is on screen may not be saved.
    var storeProblem: String?
    /// Which grid rows are shown, when they do not all fit.
    var scroll: String?
    /// How many photos are marked.
    var marked: Int = 0
    /// The photo `r` retries, nil for every failed one (`AlbumScreen.retryTarget`).
    var retryTarget: PhotoRecord.ID?
    /// What the album waits for (`AppState.shownWaitLine`), shown in place of the progress bar.
    var wait: String? = nil
    var theme: Theme
    var unicode: Bool

    func render(area: Rect, into buffer: inout CellBuffer) {
        let w = area.width, x0 = area.x
        let title = area.row(0), progress = area.row(1), keys = area.row(2)
        let name = pin?.displayName ?? "Pin \(pinID)"
        let coordinate = pin?.coordinate.formatted() ?? ""
        let source = snapshot?.source.flatMap(PhotoSourceChoice.init(rawValue:)).map { " \u{00B7} \($0.displayName)" } ?? ""
        let filter = snapshot.map { $0.filter.isEmpty ? "" : " \u{00B7} \($0.filter.summary)" } ?? ""
        // The name takes at most half the row; where it and what follows it are cut, they end in `…`.
        let nameUsed = buffer.put(fitting: " " + name, x: x0, y: title.y, style: theme.dialogTitle, width: min(w, 1 + w / 2))
        let placeUsed = buffer.put(fitting: "  \(coordinate)\(source)", x: x0 + nameUsed, y: title.y, style: theme.dim,
                                   width: w - nameUsed)
        // The filter stands out: it is why the album shows these photos and not others.
        buffer.put(fitting: filter, x: x0 + nameUsed + placeUsed, y: title.y, style: theme.highlight,
                   width: w - nameUsed - placeUsed)

        // Cells the progress row's text takes, so the scroll position goes only where it fits after it.
        var progressUsed = 0
        if let storeProblem {
            progressUsed = buffer.put(fitting: " Not saved \u{2014} \(storeProblem)", x: x0, y: progress.y, style: theme.error,
                                      width: w)
        } else if let snap = snapshot {
            let p = snap.progress
            let y = progress.y
            switch snap.status {
            case .downloading where wait != nil:
                // The count stays in view, short, so that the reason has the room.
                let count = p.total == 0 ? "" : "\(p.stored)/\(p.total) \u{00B7} "
                progressUsed = buffer.put(fitting: " \(count)\(wait ?? "")", x: x0, y: y, style: theme.dialogTitle, width: w)
            case .downloading where snap.isSearchPending && p.total == 0:
                progressUsed = buffer.put(fitting: " Searching for photos\u{2026}", x: x0, y: y, style: theme.dialog, width: w)
            case .downloading:
                let used = buffer.put(fitting: " Downloading \(p.stored)/\(p.total) ", x: x0, y: y, style: theme.dialog, width: w)
                let barWidth = max(4, min(40, w - used - 2))
                let filled = p.total == 0 ? 0 : barWidth * p.stored / p.total
                for i in 0..<barWidth where x0 + used + i < area.right {
                    buffer[x0 + used + i, y] = Cell(i < filled ? "\u{2588}" : "\u{2591}", style: i < filled ? theme.dialogTitle : theme.dim)
                }
                progressUsed = used + barWidth
            case .ready:
                let failed = snap.photos.count { $0.state.isFailed }
                let text = " \(p.total) photo\(p.total == 1 ? "" : "s")" + (failed > 0 ? ", \(failed) failed \u{00B7} \(retryHint(failed))" : "")
                progressUsed = buffer.put(fitting: text, x: x0, y: y, style: theme.dialog, width: w)
            case .empty:
                progressUsed = buffer.put(fitting: " No Images", x: x0, y: y, style: theme.dialog, width: w)
            case let .failed(reason):
                progressUsed = buffer.put(fitting: " The search failed: \(reason) \u{2014} \(key(.retry)) retries", x: x0, y: y,
                                          style: theme.error, width: w)
            }
            if marked > 0 {
                let text = "  \(marked) marked \u{00B7} \(key(.deleteMarked)) deletes \(marked == 1 ? "it" : "them")"
                progressUsed += buffer.put(fitting: text, x: x0 + progressUsed, y: y, style: theme.highlight, width: w - progressUsed)
            }
        } else {
            progressUsed = buffer.put(fitting: " Loading\u{2026}", x: x0, y: progress.y, style: theme.dim, width: w)
        }
        let enabled = snapshot?.isNewCollectionEnabled ?? false
        var x = x0 + 1
        for (hint, columns) in AlbumView.hints(for: snapshot, in: area, unicode: unicode) {
            let on = ![.newCollection, .editFilter].contains(hint.command) || enabled
            x = columns.lowerBound
            x += buffer.put(fitting: hint.key, x: x, y: keys.y, style: on ? theme.dialogTitle : theme.dim, width: area.right - x)
            x += buffer.put(fitting: " \(hint.label)", x: x, y: keys.y, style: on ? theme.dialog : theme.dim, width: area.right - x)
            // The gap after a hint is blank, not text: clipped, never marked as cut.
            x += buffer.put("  ", x: x, y: keys.y, style: on ? theme.dialog : theme.dim, maxWidth: area.right - x)
        }
        if let scroll, area.right - scroll.displayWidth - 1 > x0 + progressUsed + 1 {
            buffer.put(scroll, x: area.right - scroll.displayWidth - 1, y: progress.y, style: theme.dim)
        }
    }
}

extension AlbumHeader {
    /// A key's name as the album's key table has it.
    func key(_ command: AlbumCommand) -> String {
        AlbumKeys.table.keyName(for: command, unicode: unicode)
    }

    /// What `r` retries: the selected failed photo, or every failed one.
    func retryHint(_ failed: Int) -> String {
        retryTarget != nil ? "\(key(.retry)) retries this photo" : "\(key(.retry)) retries \(failed) failed"
    }
}

/// The photos: one framed cell each, scrolled to `topRow`; a line of text in
/// their place when there are none.
struct AlbumGridWidget: Widget {
    var snapshot: AlbumSnapshot
    var selected: Int
    var marked: Set<PhotoRecord.ID>
    var topRow: Int
    var grid: AlbumGrid
    var pictures: PictureShelf
    /// The placeholders' animation step.
    var frame: Int
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        if snapshot.photos.isEmpty {
            let text: String
            switch snapshot.status {
            case .empty where !snapshot.filter.isEmpty:
                text = "\(snapshot.filter.noMatchMessage) \u{00B7} \(AlbumKeys.table.keyName(for: .clearFilter)) clears the filter"
            case .empty: text = "No Images"
            case .failed: text = "No photos: the search failed. Press \(AlbumKeys.table.keyName(for: .retry)) to retry."
            default: text = "Searching for photos\u{2026}"
            }
            buffer.putCentered(text, y: area.y + max(0, area.height / 2 - 1), x: area.x, width: area.width,
                               style: theme.dialogTitle)
            return
        }
        let size = grid.pictureSize
        for i in grid.indices(topRow: topRow, count: snapshot.photos.count) {
            guard let cell = grid.cell(i, topRow: topRow, in: area) else { continue }
            let photo = snapshot.photos[i]
            buffer.render(PhotoCell(photo: photo, picture: pictures[PictureKey(photoID: photo.id, size: size)],
                                    selected: i == selected, marked: marked.contains(photo.id), frame: frame,
                                    theme: theme), in: cell)
        }
    }
}

/// One photo in a frame, its title under it: the picture once stored and rendered, a moving
/// placeholder while it downloads, what went wrong when it failed. The selection is the frame
/// and the title in the highlight colour, a mark a tick on the picture's corner and before the
/// title, so both show whatever the picture's colours.
struct PhotoCell: Widget {
    var photo: PhotoRecord
    /// The rendered picture, when there is one yet.
    var picture: Picture?
    var selected: Bool
    var marked: Bool
    var frame: Int
    var theme: Theme

    static let spinner: [Unicode.Scalar] = ["\u{280B}", "\u{2819}", "\u{2839}", "\u{2838}", "\u{283C}",
                                            "\u{2834}", "\u{2826}", "\u{2827}", "\u{2807}", "\u{280F}"]

    func render(area: Rect, into buffer: inout CellBuffer) {
        let x = area.x, y = area.y, w = area.width, h = area.height
        let inside = Rect(x: x + 1, y: y + 1, width: max(0, w - 2), height: max(0, h - AlbumGrid.chrome))
        buffer.clear(area, style: theme.dialog)
        switch photo.state {
        case .pending:
            Shimmer(frame: frame, theme: theme).render(area: inside, into: &buffer)
            let spin = String(Character(PhotoCell.spinner[frame % PhotoCell.spinner.count]))
            buffer.putCentered(spin + " downloading", y: inside.y + inside.height / 2, x: inside.x,
                               width: inside.width, style: theme.dim)
        case .stored:
            switch picture {
            case let .cells(cells):
                buffer.draw(cells, x: inside.x, y: inside.y)
            case let .failed(reason):
                lines(["\u{2717} cannot show", reason], in: inside, style: theme.error, into: &buffer)
            case nil:
                buffer.putCentered("\u{2026}", y: inside.y + inside.height / 2, x: inside.x, width: inside.width,
                                   style: theme.dim)
            }
        case .failed:
            lines(["\u{2717} download failed", photo.error ?? "", "\(AlbumKeys.table.keyName(for: .retry)) retries"], in: inside, style: theme.error,
                  into: &buffer)
        }
        buffer.drawFrame(area, style: selected ? theme.highlight : theme.dim)
        if marked { buffer.put("\u{2714}", x: inside.x, y: inside.y, style: theme.highlight) }
        let name = photo.displayTitle
        let title = (marked ? "\u{2714} " : "") + name
        let titleStyle = selected ? theme.highlight : theme.dialog
        if selected { buffer.clear(Rect(x: x + 1, y: y + h - 2, width: max(0, w - 2), height: 1), style: titleStyle) }
        buffer.put(fitting: title, x: x + 2, y: y + h - 2, style: titleStyle, width: w - 4)
    }

    /// Centred lines of text over a cleared area (an error cell); long ones wrap at spaces.
    private func lines(_ lines: [String], in area: Rect, style: Style, into buffer: inout CellBuffer) {
        buffer.clear(area, style: style)
        let shown = lines.wrapped(to: max(1, area.width - 2), limit: area.height)
        let top = area.y + max(0, (area.height - shown.count) / 2)
        for (i, line) in shown.enumerated() {
            buffer.putCentered(line, y: top + i, x: area.x, width: area.width,
                               style: style)
        }
    }
}

/// A download placeholder: a soft band of light drifting across a dim panel, one step a frame.
struct Shimmer: Widget {
    var frame: Int
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        buffer.clear(area, style: theme.dim)
        guard case let .rgb(r, g, b) = theme.dim.bg else { return }
        // The band runs diagonally (two columns a row, as cells are twice as tall as wide).
        let span = area.width + 2 * area.height + 8
        let centre = (frame * 2) % span - 4
        for row in 0..<area.height {
            for col in 0..<area.width {
                let distance = abs(col + 2 * (area.height - 1 - row) - centre)
                guard distance < 4 else { continue }
                let lift = UInt8(6 * (4 - distance))
                let bg = Color.rgb(r &+ lift, g &+ lift, b &+ lift)
                buffer[area.x + col, area.y + row] = Cell(" ", style: Style(fg: theme.dim.fg, bg: bg))
            }
        }
    }
}
