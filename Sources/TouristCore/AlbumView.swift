import AlbumMachine
import Foundation
import Terminal

/// The album screen: header with place, coordinates, source and progress; a
/// grid of one cell per photo (placeholders fill in as downloads finish);
/// `No Images`; a failed search with its reason.
enum AlbumView {
    static func render(_ album: AlbumScreen, state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let w = state.width
        let u = state.capabilities.unicode
        buffer.clear(x: 0, y: 0, width: w, height: state.height, style: theme.dialog)
        let pin = state.pin(album.pinID)
        let name = pin?.name ?? "Pin \(album.pinID)"
        let coordinate = pin.map { String(format: "%.4f, %.4f", $0.coordinate.latitude, $0.coordinate.longitude) } ?? ""
        let source = album.snapshot?.source.map { " \u{00B7} \($0 == "commons" ? "Wikimedia Commons" : "Flickr")" } ?? ""
        buffer.put(" " + AppView.truncate(name, to: max(1, w / 2)), x: 0, y: 0, style: theme.dialogTitle)
        let rest = "  \(coordinate)\(source)"
        buffer.put(rest, x: min(w, name.unicodeScalars.count + 1), y: 0, style: theme.dim, maxWidth: w)

        // Progress or state.
        let row1 = 1
        if let snap = album.snapshot {
            let p = snap.progress
            switch snap.status {
            case .downloading where snap.isSearchPending && p.total == 0:
                buffer.put(" Searching for photos\u{2026}", x: 0, y: row1, style: theme.dialog)
            case .downloading:
                let label = " Downloading \(p.stored)/\(p.total) "
                let used = buffer.put(label, x: 0, y: row1, style: theme.dialog)
                let barWidth = max(4, min(40, w - used - 2))
                let filled = p.total == 0 ? 0 : barWidth * p.stored / p.total
                let full: Unicode.Scalar = u ? "\u{2588}" : "#", empty: Unicode.Scalar = u ? "\u{2591}" : "-"
                for i in 0..<barWidth {
                    buffer[used + i, row1] = Cell(i < filled ? full : empty, style: i < filled ? theme.dialogTitle : theme.dim)
                }
            case .ready:
                let failed = snap.photos.count { $0.state.isFailed }
                let text = " \(p.total) photo\(p.total == 1 ? "" : "s")" + (failed > 0 ? ", \(failed) failed (r retries)" : "")
                buffer.put(text, x: 0, y: row1, style: theme.dialog)
            case .empty:
                buffer.put(" No Images", x: 0, y: row1, style: theme.dialog)
            case let .failed(reason):
                buffer.put(" The search failed: \(reason) \u{2014} r retries", x: 0, y: row1, style: theme.error, maxWidth: w)
            }
        } else {
            buffer.put(" Loading\u{2026}", x: 0, y: row1, style: theme.dim)
        }
        // Keys, with New Collection dimmed while it is refused.
        var x = 1
        let enabled = album.snapshot?.isNewCollectionEnabled ?? false
        for (key, label, on) in [("n", "New Collection", enabled), ("a", "Add more", true), ("x", "delete", true),
                                 ("space", "mark", true), ("X", "delete marked", true), ("r", "retry", true),
                                 ("Esc", "map", true), ("?", "help", true)] {
            let style = on ? theme.dialogTitle : theme.dim
            x += buffer.put(key, x: x, y: 2, style: style)
            x += buffer.put(" \(label)  ", x: x, y: 2, style: on ? theme.dialog : theme.dim)
        }

        guard let snap = album.snapshot else { return }
        if snap.photos.isEmpty {
            let text: String
            switch snap.status {
            case .empty: text = "No Images"
            case .failed: text = "No photos: the search failed. Press r to retry."
            default: text = "Searching for photos\u{2026}"
            }
            buffer.putCentered(text, y: AlbumGrid.top + max(0, (state.height - AlbumGrid.top) / 2 - 1), style: theme.dialogTitle)
            return
        }
        let grid = AlbumGrid(width: w, height: state.height)
        for (i, photo) in snap.photos.enumerated() {
            let row = i / grid.columns - album.topRow
            guard row >= 0, row < grid.visibleRows else { continue }
            let col = i % grid.columns
            let cx = 1 + col * (AlbumGrid.cellWidth + AlbumGrid.gap)
            let cy = AlbumGrid.top + row * (AlbumGrid.cellHeight + AlbumGrid.gap)
            renderCell(photo, selected: i == album.selected, marked: album.marked.contains(photo.id),
                       x: cx, y: cy, unicode: u, theme: theme, into: &buffer)
        }
        let rows = (snap.photos.count + grid.columns - 1) / grid.columns
        if rows > grid.visibleRows {
            let text = "rows \(album.topRow + 1)-\(min(rows, album.topRow + grid.visibleRows)) of \(rows)"
            buffer.put(text, x: max(0, w - text.count - 1), y: 1, style: theme.dim)
        }
    }

    /// One photo: a stand-in picture (a colour block with its title) once
    /// stored, a placeholder while pending, an error cell when it failed.
    static func renderCell(_ photo: PhotoRecord, selected: Bool, marked: Bool, x: Int, y: Int, unicode: Bool,
                           theme: Theme, into buffer: inout CellBuffer) {
        let w = AlbumGrid.cellWidth, h = AlbumGrid.cellHeight
        let frame = selected ? theme.highlight : theme.dim
        var inner: Style
        var lines: [String]
        switch photo.state {
        case .pending:
            inner = theme.dim
            lines = [unicode ? "\u{00B7} \u{00B7} \u{00B7}" : ". . .", "downloading"]
        case .stored:
            inner = Style(fg: .rgb(255, 255, 255), bg: standInColor(photo.id), attributes: [])
            lines = []
        case .failed:
            inner = theme.error
            lines = ["\(unicode ? "\u{2717}" : "x") failed", AppView.truncate(photo.error ?? "", to: w - 4)]
        }
        buffer.clear(x: x + 1, y: y + 1, width: w - 2, height: h - 2, style: inner)
        buffer.drawFrame(x: x, y: y, width: w, height: h, style: frame, glyphs: .forTerminal(unicode: unicode))
        if marked { buffer.put(unicode ? "\u{2714}" : "*", x: x + 1, y: y + 1, style: theme.highlight) }
        for (i, line) in lines.enumerated() {
            buffer.putCentered(line, y: y + 2 + i, x: x + 1, width: w - 2, style: inner)
        }
        let title = AppView.truncate(photo.title?.isEmpty == false ? photo.title ?? "" : "(untitled)", to: w - 4)
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
