import Foundation
import Terminal
import WorldMap

/// Draws the whole screen from the state: a pure function into a cell buffer.
public enum AppView {
    /// `raster` is the map for `state.viewport` (the runtime caches it while
    /// the view does not change).
    public static func render(_ state: AppState, raster: MapRaster?) -> CellBuffer {
        var buffer = CellBuffer(width: state.width, height: state.height)
        let theme = Theme.forDepth(state.capabilities.colors)
        if state.isTooSmall {
            renderTooSmall(state, theme: theme, into: &buffer)
            return buffer
        }
        if let album = state.album {
            AlbumView.render(album, state: state, theme: theme, into: &buffer)
        } else if let raster, raster.width == state.width, raster.height == state.mapHeight {
            MapWidget.render(raster, theme: theme, capabilities: state.capabilities, into: &buffer)
        } else {
            buffer.fill(x: 0, y: 0, width: state.width, height: state.mapHeight, with: Cell(" ", style: theme.sea))
        }
        if state.album == nil {
            renderPins(state, theme: theme, into: &buffer)
            renderStatus(state, theme: theme, into: &buffer)
        }
        if let message = state.message {
            let style = message.kind == .error ? theme.error : theme.info
            let row = state.mapHeight - 1
            buffer.fill(x: 0, y: row, width: state.width, height: 1, with: Cell(" ", style: style))
            buffer.put(" " + message.text, x: 0, y: row, style: style, maxWidth: state.width)
        }
        switch state.mode {
        case let .confirmDelete(id):
            if let pin = state.pin(id) { renderConfirm(pin, state: state, theme: theme, into: &buffer) }
        case let .goTo(prompt):
            renderGoTo(prompt, state: state, theme: theme, into: &buffer)
        case .browsing, .dragging:
            break
        }
        if state.screen == .help {
            renderHelp(state, theme: theme, into: &buffer)
        }
        if !state.capabilities.unicode { buffer.makeASCII() }
        return buffer
    }

    // MARK: - Pins and cursor

    static func renderPins(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let u = state.capabilities.unicode
        var dragged: Pin.ID?
        if case let .dragging(id, _) = state.mode { dragged = id }
        let layout = PinLayout(pins: state.pins, viewport: state.viewport, excluding: dragged)
        let cursor = state.cursorCell
        var cursorOnMarker = false
        for marker in layout.markers {
            let underCursor = dragged == nil && marker.covers(col: cursor.col, row: cursor.row)
            cursorOnMarker = cursorOnMarker || underCursor
            if marker.isCluster {
                let style = underCursor ? theme.highlight : theme.cluster
                buffer.put(PinLayout.countLabel(marker.pins.count), x: marker.col, y: marker.row, style: style)
            } else {
                var style = buffer[marker.col, marker.row].style
                let pinStyle = underCursor ? theme.highlight : theme.pin
                style.fg = pinStyle.fg
                style.attributes = pinStyle.attributes
                if underCursor || state.capabilities.colors == .none { style.bg = pinStyle.bg }
                buffer[marker.col, marker.row] = Cell(u ? "\u{25CF}" : "o", style: style)
            }
        }
        guard cursor.col >= 0, cursor.row >= 0, cursor.col < state.width, cursor.row < state.mapHeight else { return }
        if dragged != nil {
            buffer[cursor.col, cursor.row] = Cell(u ? "\u{25CF}" : "O", style: theme.highlight)
        } else if !cursorOnMarker {
            var style = buffer[cursor.col, cursor.row].style
            style.fg = theme.cursor.fg
            style.attributes = theme.cursor.attributes
            buffer[cursor.col, cursor.row] = Cell(u ? "\u{253C}" : "+", style: style)
        }
    }

    // MARK: - Status line

    static func renderStatus(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let row = state.height - 1
        buffer.fill(x: 0, y: row, width: state.width, height: 1, with: Cell(" ", style: theme.status))
        let u = state.capabilities.unicode
        let c = state.camera.cursor
        let deg = u ? "\u{00B0}" : ""
        let lat = String(format: "%.4f%@%@", abs(c.latitude), deg, c.latitude >= 0 ? "N" : "S")
        let lon = String(format: "%.4f%@%@", abs(c.longitude), deg, c.longitude >= 0 ? "E" : "W")
        let sep = u ? " \u{2502} " : " | "
        var left = " \(lat) \(lon)\(sep)z\(state.camera.zoom)"
        if case .dragging = state.mode { left += "\(sep)MOVING PIN" }
        var place = ""
        if let near = state.cursorPlace {
            place = near.distanceKm < 1 ? near.name : "\(near.name) (\(formatDistance(near.distanceKm)))"
        }
        let right = "\(state.pins.count) pin\(state.pins.count == 1 ? "" : "s")\(sep)? help "
        let used = buffer.put(left, x: 0, y: row, style: theme.status)
        let rightWidth = right.unicodeScalars.count
        let rightX = state.width - rightWidth
        if rightX > used + 1 { buffer.put(right, x: rightX, y: row, style: theme.statusDim) }
        if !place.isEmpty {
            let room = max(0, (rightX > used + 1 ? rightX : state.width) - used - sep.count - 1)
            buffer.put(sep + truncate(place, to: room), x: used, y: row, style: theme.status, maxWidth: room + sep.count)
        }
    }

    static func formatDistance(_ km: Double) -> String {
        km < 10 ? String(format: "%.1f km", km) : "\(Int(km.rounded())) km"
    }

    /// Shortens text to a number of cells, marking the cut.
    static func truncate(_ text: String, to width: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > width else { return text }
        guard width > 1 else { return "" }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars.prefix(width - 1))
        view.append("\u{2026}")
        return String(view)
    }

    // MARK: - Dialogs

    /// A framed panel centred on the screen; returns its inner origin.
    static func panel(width w: Int, height h: Int, title: String, state: AppState, theme: Theme,
                      top: Int? = nil, into buffer: inout CellBuffer) -> (x: Int, y: Int, width: Int) {
        let width = min(w, state.width - 2)
        let height = min(h, state.mapHeight)
        let x = (state.width - width) / 2
        let y = top ?? max(0, (state.mapHeight - height) / 2)
        buffer.clear(x: x, y: y, width: width, height: height, style: theme.dialog)
        buffer.drawFrame(x: x, y: y, width: width, height: height, title: title, style: theme.dialog,
                         titleStyle: theme.dialogTitle, glyphs: .forTerminal(unicode: state.capabilities.unicode))
        return (x + 2, y + 1, width - 4)
    }

    static func renderConfirm(_ pin: Pin, state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let name = pin.name ?? String(format: "%.4f, %.4f", pin.coordinate.latitude, pin.coordinate.longitude)
        let p = panel(width: 56, height: 6, title: "Delete pin", state: state, theme: theme, into: &buffer)
        buffer.put(truncate("Delete \u{201C}\(name)\u{201D}?", to: p.width), x: p.x, y: p.y, style: theme.dialog)
        buffer.put(truncate("Its album and photos go with it.", to: p.width), x: p.x, y: p.y + 1, style: theme.dim)
        buffer.put("[y] Delete   [n] Keep", x: p.x, y: p.y + 3, style: theme.dialogTitle, maxWidth: p.width)
    }

    static func renderGoTo(_ prompt: GoToPrompt, state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let p = panel(width: 64, height: 4 + prompt.suggestions.count, title: "Go to", state: state, theme: theme, top: 1, into: &buffer)
        let cursorGlyph = state.capabilities.unicode ? "\u{2581}" : "_"
        let shown = truncate(prompt.text, to: max(1, p.width - 2))
        buffer.put("> " + shown + cursorGlyph, x: p.x, y: p.y, style: theme.dialogTitle, maxWidth: p.width)
        var y = p.y + 1
        if let error = prompt.error {
            buffer.put(truncate(error, to: p.width), x: p.x, y: y, style: theme.error)
        } else {
            buffer.put(truncate("Place or LAT, LON. \u{2191}\u{2193} pick, Tab completes, Esc cancels", to: p.width)
                .asciiIfNeeded(state.capabilities.unicode), x: p.x, y: y, style: theme.dim)
        }
        y += 1
        for (i, s) in prompt.suggestions.enumerated() {
            let style = prompt.selected == i ? theme.selection : theme.dialog
            buffer.fill(x: p.x, y: y, width: p.width, height: 1, with: Cell(" ", style: style))
            buffer.put(truncate(s.displayName, to: p.width), x: p.x, y: y, style: style)
            y += 1
        }
    }

    static let albumHelpLines: [(String, String)] = [
        ("arrows  h j k l", "move the selection"),
        ("x  Delete", "delete the selected photo"),
        ("space", "mark / unmark the photo"),
        ("X", "delete the marked photos"),
        ("n", "New Collection (once every photo is in)"),
        ("a", "add more photos"),
        ("r", "retry what failed"),
        ("Esc  Backspace  q", "back to the map"),
        ("?", "this help"),
    ]

    static let helpLines: [(String, String)] = [
        ("arrows  h j k l", "move the cursor"),
        ("H J K L  shift+arrows", "pan half a screen"),
        ("+ =  /  -", "zoom in / out"),
        ("p  space", "drop a pin at the cursor"),
        ("Enter", "open the pin's album"),
        ("m", "pick up a pin; Enter or m drops, Esc puts back"),
        ("x  Delete", "delete the pin under the cursor"),
        ("Tab  shift+Tab", "next / previous pin"),
        ("g  /", "go to a place or LAT, LON"),
        ("s", "settings"),
        ("?", "this help"),
        ("q", "quit"),
        ("mouse", "click moves, hold drops a pin, wheel zooms"),
    ]

    static func renderHelp(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let lines = state.album == nil ? helpLines : albumHelpLines
        let p = panel(width: 66, height: lines.count + 4, title: "Keys", state: state, theme: theme, into: &buffer)
        let keyWidth = min(22, p.width / 2)
        for (i, line) in lines.enumerated() {
            buffer.put(line.0, x: p.x, y: p.y + i, style: theme.dialogTitle, maxWidth: keyWidth)
            buffer.put(line.1, x: p.x + keyWidth + 1, y: p.y + i, style: theme.dialog, maxWidth: p.width - keyWidth - 1)
        }
        buffer.put("Any key closes this help.", x: p.x, y: p.y + lines.count + 1, style: theme.dim, maxWidth: p.width)
    }

    static func renderTooSmall(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let lines = [
            "Terminal too small",
            "\(state.width)x\(state.height); need \(AppState.minimumWidth)x\(AppState.minimumHeight)",
            "Enlarge it, or press q to quit.",
        ]
        let top = max(0, (state.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let x = max(0, (state.width - line.count) / 2)
            buffer.put(line, x: x, y: top + i, style: i == 0 ? theme.error : .plain)
        }
    }
}

extension String {
    /// Arrows become words when the terminal cannot show Unicode.
    func asciiIfNeeded(_ unicode: Bool) -> String {
        unicode ? self : replacingOccurrences(of: "\u{2191}\u{2193}", with: "Up/Down")
    }
}

extension CellBuffer {
    /// Replaces every non-ASCII symbol with its closest ASCII look-alike
    /// (accents dropped, quotes straightened), or `?`.
    mutating func makeASCII() {
        for y in 0..<height {
            for x in 0..<width where !self[x, y].symbol.isASCII {
                self[x, y].symbol = CellBuffer.asciiLookalike(self[x, y].symbol)
            }
        }
    }

    static func asciiLookalike(_ s: Unicode.Scalar) -> Unicode.Scalar {
        switch s {
        case "\u{201C}", "\u{201D}", "\u{201E}": return "\""
        case "\u{2018}", "\u{2019}": return "'"
        case "\u{2026}": return "~"
        case "\u{2502}", "\u{2503}": return "|"
        case "\u{2500}", "\u{2501}", "\u{2013}", "\u{2014}": return "-"
        case "\u{00B0}": return "o"
        default:
            let folded = String(s).folding(options: .diacriticInsensitive, locale: nil).unicodeScalars
            if folded.count == 1, let f = folded.first, f.isASCII, f.value >= 0x20 { return f }
            return "?"
        }
    }
}
