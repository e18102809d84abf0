import AlbumMachine
import Foundation
import Model
import Terminal

/// The photo screen: the title and where the photo is in its album, the picture as large as the
/// screen allows, the details under it (author, date, licence, page, source and stored size),
/// the message line and the keys.
enum PhotoView {
    /// Rows of details under the picture.
    static let detailRows = 5

    /// Where the picture goes: every row the title, the details and the message line leave, less
    /// a column either side.
    static func pictureArea(_ layout: ScreenLayout) -> Rect {
        let main = layout.main
        let height = max(0, main.height - 1 - detailRows - 1)
        return Rect(x: main.x + 1, y: main.y + 1, width: max(0, main.width - 2), height: height)
    }

    /// The picture's box in cells: what it is rendered for.
    static func pictureSize(_ layout: ScreenLayout) -> PictureSize {
        let area = pictureArea(layout)
        return PictureSize(columns: area.width, rows: area.height)
    }

    /// The pictures the view draws for a photo of its album (`pictureKeys`: the large image's, the
    /// thumbnail's), of the photo shown the part zoomed in on (`PhotoZoom.crop`), the same part of
    /// either image. Zoomed in, the large image is sharper whenever it has more pixels.
    static func shownKeys(_ screen: PhotoScreen, index: Int, size: PictureSize) -> [PictureKey] {
        var keys = pictureKeys(screen, index: index, size: size)
        guard index == screen.index else { return keys }
        let crop = screen.crop(box: size)
        guard !crop.isWhole else { return keys }
        let photo = screen.album.photos[index]
        if !keys.contains(where: { $0.image == .large }), let large = screen.largeSize(photo.id),
           large.width > (photo.width ?? 0) {
            keys.insert(PictureKey(photoID: photo.id, size: size, image: .large), at: 0)
        }
        return keys.map { key in
            var key = key
            key.crop = crop
            return key
        }
    }

    /// How many times larger than fitted the photo is shown (`2×`), nil when fitted.
    static func zoomText(_ screen: PhotoScreen, layout: ScreenLayout, unicode: Bool) -> String? {
        guard screen.zoom.isZoomed, let size = screen.imageSize,
              let view = ZoomView(imageWidth: size.width, imageHeight: size.height, box: pictureSize(layout)) else { return nil }
        let zoom = view.clamped(screen.zoom)
        guard zoom.isZoomed else { return nil }
        return ZoomView.factorText(view.factor(zoom.level), unicode: unicode)
    }

    static func render(_ screen: PhotoScreen, state: AppState, pictures: PictureShelf, theme: Theme,
                       layout: ScreenLayout, into buffer: inout CellBuffer) {
        buffer.clear(layout.main, style: theme.dialog)
        buffer.clear(layout.status, style: theme.dialog)
        let picture = pictureArea(layout)
        if let photo = screen.photo, let index = screen.index {
            let unicode = state.capabilities.unicode
            var marks: [String] = []
            if let zoom = zoomText(screen, layout: layout, unicode: unicode) { marks.append(zoom) }
            if screen.slideshow != nil { marks.append(unicode ? "\u{25B6} slideshow" : "> slideshow") }
            buffer.render(PhotoTitle(photo: photo, index: index, count: screen.album.photos.count, marks: marks,
                                     theme: theme),
                          in: layout.main.row(0))
            let keys = shownKeys(screen, index: index, size: pictureSize(layout))
            // Until the part zoomed in on is rendered, the picture drawn before it stays.
            let rendered = shownPicture(keys, pictures) ?? pictures.standIn(for: photo.id, size: pictureSize(layout))
            buffer.render(PhotoPicture(photo: photo, picture: rendered, theme: theme), in: picture)
            let details = Rect(x: layout.main.x, y: picture.bottom, width: layout.main.width, height: detailRows)
            buffer.render(PhotoDetails(photo: photo, theme: theme, largeNote: largeNote(screen.large[photo.id])), in: details)
        }
        buffer.render(KeyHints(hints: PhotoKeys.table(for: screen).hints(unicode: state.capabilities.unicode), theme: theme),
                      in: layout.status)
        if let message = state.message {
            buffer.render(MessageLine(message: message, theme: theme), in: layout.message)
        }
    }
}

/// The photo's title, and which of the album's photos it is (`3 of 21`) at the right, after what
/// the view is doing (`2×`, the slideshow playing).
struct PhotoTitle: Widget {
    var photo: PhotoRecord
    var index: Int
    var count: Int
    var marks: [String] = []
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        let position = (marks + ["\(index + 1) of \(count)"]).joined(separator: "  ")
        let title = photo.displayTitle
        let room = max(1, area.width - position.displayWidth - 4)
        let used = buffer.put(fitting: " " + title, x: area.x, y: area.y, style: theme.dialogTitle, width: min(area.width, 1 + room))
        if area.width - position.displayWidth - 1 > used + 1 {
            buffer.put(position, x: area.right - position.displayWidth - 1, y: area.y, style: theme.dim)
        }
    }
}

/// The photo as large as its area allows; until it is rendered, or where it cannot be, a framed
/// box that says why.
struct PhotoPicture: Widget {
    var photo: PhotoRecord
    var picture: Picture?
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        // A large picture may come before the thumbnail (its download failed).
        if case let .cells(cells) = picture {
            buffer.draw(cells, x: area.x, y: area.y)
            return
        }
        guard area.width >= 2, area.height >= 2 else { return }
        buffer.drawFrame(area, style: theme.dim)
        let text: String
        var isError = photo.state.isFailed
        switch (photo.state, picture) {
        case let (.stored, .failed(reason)):
            text = "cannot show the picture: " + reason
            isError = true
        case (.stored, _): text = "\u{2026}"
        case (.pending, _): text = "downloading\u{2026}"
        case (.failed, _):
            text = "no picture: the download failed \u{2014} \(PhotoKeys.table.keyName(for: .retry)) retries"
        }
        buffer.putCentered(text, y: area.y + (area.height - 1) / 2, x: area.x + 1,
                           width: area.width - 2, style: isError ? theme.error : theme.dim)
    }
}

/// The photo's details, one a row: author, date taken, licence, its page and where it came from.
struct PhotoDetails: Widget {
    var photo: PhotoRecord
    var theme: Theme
    /// What became of the large image, when anything did (`PhotoView.largeNote`).
    var largeNote: String? = nil

    static let labelWidth = 10

    var rows: [(label: String, value: String)] {
        let source = PhotoSourceChoice(rawValue: photo.source)?.displayName ?? photo.source
        return [
            ("Author", photo.author ?? "unknown"),
            ("Taken", photo.dateTaken ?? "unknown"),
            ("Licence", photo.license ?? "not given"),
            ("Page", photo.pageURL ?? "none"),
            ("Source", source + " \u{00B7} " + PhotoDetails.storedText(photo) + (largeNote.map { " \u{00B7} " + $0 } ?? "")),
        ]
    }

    func render(area: Rect, into buffer: inout CellBuffer) {
        // A value keeps one blank column at the right edge.
        let room = max(0, area.width - 1 - PhotoDetails.labelWidth - 1)
        for (i, row) in rows.enumerated() where i < area.height {
            let y = area.y + i
            buffer.put(fitting: " " + row.label, x: area.x, y: y, style: theme.dim, width: min(area.width, 1 + PhotoDetails.labelWidth))
            buffer.put(fitting: row.value, x: area.x + 1 + PhotoDetails.labelWidth, y: y, style: theme.dialog, width: room)
        }
    }

    /// What the store holds of the image: its size, or why there is none.
    static func storedText(_ photo: PhotoRecord) -> String {
        switch photo.state {
        case .stored: return sizeText(photo.byteCount) + " stored"
        case .pending: return "downloading"
        case .failed: return "download failed: " + (photo.error ?? "unknown reason")
        }
    }

    static func sizeText(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / (1024 * 1024))
    }
}
