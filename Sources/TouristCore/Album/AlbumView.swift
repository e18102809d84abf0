import AlbumMachine
import Foundation
import Terminal

/// The album screen: header with place, coordinates, source, progress and
/// keys; a grid of one cell per photo (placeholders fill in as downloads
/// finish); `No Images`; a failed search with its reason.
enum AlbumView {
    static func render(_ album: AlbumScreen, state: AppState, theme: Theme, layout: ScreenLayout,
                       into buffer: inout CellBuffer) {
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
                                 storeProblem: album.storeProblem, scroll: scroll, theme: theme,
                                 unicode: state.capabilities.unicode)
        buffer.render(header, in: headerArea)
        if let snapshot = album.snapshot {
            let cells = AlbumGridWidget(snapshot: snapshot, selected: album.selected, marked: album.marked,
                                        topRow: album.topRow, grid: grid, theme: theme)
            buffer.render(cells, in: body)
        }
        if let message = state.message {
            buffer.render(MessageLine(message: message, theme: theme), in: layout.message)
        }
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
    var theme: Theme
    var unicode: Bool

    func render(area: Rect, into buffer: inout CellBuffer) {
        let w = area.width, x0 = area.x
        let title = area.row(0), progress = area.row(1), keys = area.row(2)
        let name = pin?.name ?? "Pin \(pinID)"
        let coordinate = pin?.coordinate.formatted() ?? ""
        let source = snapshot?.source.flatMap(PhotoSourceChoice.init(rawValue:)).map { " \u{00B7} \($0.displayName)" } ?? ""
        buffer.put(" " + name.truncated(to: max(1, w / 2)), x: x0, y: title.y, style: theme.dialogTitle, maxWidth: w)
        buffer.put("  \(coordinate)\(source)", x: x0 + min(w, name.displayWidth + 1), y: title.y, style: theme.dim,
                   maxWidth: w)

        // Cells the progress row's text takes, so the scroll position goes only where it fits after it.
        var progressUsed = 0
        if let storeProblem {
            progressUsed = buffer.put(" Not saved \u{2014} \(storeProblem)", x: x0, y: progress.y, style: theme.error, maxWidth: w)
        } else if let snap = snapshot {
            let p = snap.progress
            let y = progress.y
            switch snap.status {
            case .downloading where snap.isSearchPending && p.total == 0:
                progressUsed = buffer.put(" Searching for photos\u{2026}", x: x0, y: y, style: theme.dialog, maxWidth: w)
            case .downloading:
                let used = buffer.put(" Downloading \(p.stored)/\(p.total) ", x: x0, y: y, style: theme.dialog, maxWidth: w)
                let barWidth = max(4, min(40, w - used - 2))
                let filled = p.total == 0 ? 0 : barWidth * p.stored / p.total
                for i in 0..<barWidth where x0 + used + i < area.right {
                    buffer[x0 + used + i, y] = Cell(i < filled ? "\u{2588}" : "\u{2591}", style: i < filled ? theme.dialogTitle : theme.dim)
                }
                progressUsed = used + barWidth
            case .ready:
                let failed = snap.photos.count { $0.state.isFailed }
                let text = " \(p.total) photo\(p.total == 1 ? "" : "s")" + (failed > 0 ? ", \(failed) failed (r retries)" : "")
                progressUsed = buffer.put(text, x: x0, y: y, style: theme.dialog, maxWidth: w)
            case .empty:
                progressUsed = buffer.put(" No Images", x: x0, y: y, style: theme.dialog, maxWidth: w)
            case let .failed(reason):
                progressUsed = buffer.put(" The search failed: \(reason) \u{2014} r retries", x: x0, y: y, style: theme.error, maxWidth: w)
            }
        } else {
            progressUsed = buffer.put(" Loading\u{2026}", x: x0, y: progress.y, style: theme.dim, maxWidth: w)
        }
        var x = x0 + 1
        let enabled = snapshot?.isNewCollectionEnabled ?? false
        for hint in AlbumKeys.table.hints(unicode: unicode).fitting(width: area.right - x) {
            let on = hint.command != .newCollection || enabled
            x += buffer.put(hint.key, x: x, y: keys.y, style: on ? theme.dialogTitle : theme.dim, maxWidth: area.right - x)
            x += buffer.put(" \(hint.label)  ", x: x, y: keys.y, style: on ? theme.dialog : theme.dim, maxWidth: area.right - x)
        }
        if let scroll, area.right - scroll.displayWidth - 1 > x0 + progressUsed + 1 {
            buffer.put(scroll, x: area.right - scroll.displayWidth - 1, y: progress.y, style: theme.dim)
        }
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
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        if snapshot.photos.isEmpty {
            let text: String
            switch snapshot.status {
            case .empty: text = "No Images"
            case .failed: text = "No photos: the search failed. Press r to retry."
            default: text = "Searching for photos\u{2026}"
            }
            buffer.putCentered(text, y: area.y + max(0, area.height / 2 - 1), x: area.x, width: area.width,
                               style: theme.dialogTitle)
            return
        }
        for (i, photo) in snapshot.photos.enumerated() {
            let row = i / grid.columns - topRow
            guard row >= 0, row < grid.visibleRows else { continue }
            let col = i % grid.columns
            let cell = Rect(x: area.x + 1 + col * (AlbumGrid.cellWidth + AlbumGrid.gap),
                            y: area.y + row * (AlbumGrid.cellHeight + AlbumGrid.gap),
                            width: AlbumGrid.cellWidth, height: AlbumGrid.cellHeight)
            buffer.render(PhotoCell(photo: photo, selected: i == selected, marked: marked.contains(photo.id),
                                    theme: theme), in: cell)
        }
    }
}

/// One photo: a stand-in picture (a colour block with its title) once
/// stored, a placeholder while pending, an error cell when it failed.
struct PhotoCell: Widget {
    var photo: PhotoRecord
    var selected: Bool
    var marked: Bool
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        let x = area.x, y = area.y, w = area.width, h = area.height
        let frame = selected ? theme.highlight : theme.dim
        let inner: Style
        let lines: [String]
        switch photo.state {
        case .pending:
            inner = theme.dim
            lines = ["\u{00B7} \u{00B7} \u{00B7}", "downloading"]
        case .stored:
            inner = Style(fg: .rgb(255, 255, 255), bg: PhotoCell.standInColor(photo.id), attributes: [])
            lines = []
        case .failed:
            inner = theme.error
            lines = ["\u{2717} failed", (photo.error ?? "").truncated(to: w - 4)]
        }
        buffer.clear(area.inset(dx: 1, dy: 1), style: inner)
        buffer.drawFrame(area, style: frame)
        if marked { buffer.put("\u{2714}", x: x + 1, y: y + 1, style: theme.highlight) }
        for (i, line) in lines.enumerated() {
            buffer.putCentered(line, y: y + 2 + i, x: x + 1, width: w - 2, style: inner)
        }
        let title = (photo.title?.isEmpty == false ? photo.title ?? "" : "(untitled)").truncated(to: w - 4)
        buffer.put(title, x: x + 2, y: y + h - 2, style: photo.state == .stored ? inner : theme.dialog, maxWidth: w - 4)
    }

    /// A steady colour per photo for the stand-in picture.
    static func standInColor(_ id: Int64) -> Color {
        let palette: [(UInt8, UInt8, UInt8)] = [(95, 135, 175), (135, 95, 135), (95, 135, 95), (175, 135, 95),
                                                (95, 95, 135), (135, 135, 95), (95, 135, 135), (175, 95, 95)]
        let c = palette[Int(UInt64(bitPattern: id) % UInt64(palette.count))]
        return .rgb(c.0, c.1, c.2)
    }
}
