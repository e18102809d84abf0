import Foundation
import Terminal
import Geo
import Model
import WorldMap

/// The map screen: the map, its pins and cursor, the status line, the
/// message line, and the dialog of the moment.
enum MapView {
    static func render(_ screen: MapScreen, state: AppState, raster: MapRaster?, labels: LabelCandidates?,
                       theme: Theme, layout: ScreenLayout, into buffer: inout CellBuffer) {
        let area = layout.main
        if let raster, raster.width == area.width, raster.height == area.height {
            buffer.render(MapWidget(raster: raster, theme: theme, capabilities: state.capabilities), in: area)
        } else {
            buffer.clear(area, style: theme.sea)
        }
        var dragged: Pin.ID?
        if case let .dragging(id, _) = screen.mode { dragged = id }
        if case let .confirmMove(id, _, _) = screen.mode { dragged = id }  // shown where it was dropped while asked
        let viewport = state.camera.viewport(width: area.width, height: area.height)
        let pinLayout = PinLayout(pins: state.pins, viewport: viewport, excluding: dragged)
        if let labels, labels.viewport == viewport {
            let placed = MapLabels.place(labels.items, viewport: viewport, pins: state.pins, excluding: dragged,
                                         markers: pinLayout.markers, cursor: state.camera.cursorCell(width: area.width, height: area.height),
                                         unicode: state.capabilities.unicode)
            buffer.render(LabelsWidget(labels: placed, theme: theme), in: area)
        }
        buffer.render(PinsWidget(pins: state.pins, camera: state.camera, dragged: dragged,
                                 capabilities: state.capabilities, theme: theme, layout: pinLayout), in: area)
        let status = StatusLine(cursor: state.camera.cursor, zoom: state.camera.zoom, place: state.cursorPlace,
                                pinCount: state.pins.count, moving: dragged != nil, offline: state.network.isOffline,
                                unicode: state.capabilities.unicode, theme: theme)
        buffer.render(status, in: layout.status)
        if let message = state.message {
            buffer.render(MessageLine(message: message, theme: theme), in: layout.message)
        }
        switch screen.mode {
        case let .confirmDelete(id):
            if let pin = state.pin(id) {
                buffer.render(ConfirmDialog(pin: pin, theme: theme, unicode: state.capabilities.unicode), in: area)
            }
        case let .confirmMove(id, _, _):
            if let pin = state.pin(id) {
                buffer.render(ConfirmDialog(moving: pin, theme: theme, unicode: state.capabilities.unicode), in: area)
            }
        case let .goTo(prompt):
            buffer.render(GoToPanel(prompt: prompt, theme: theme, unicode: state.capabilities.unicode), in: area)
        case let .rename(prompt):
            buffer.render(RenamePanel(prompt: prompt, theme: theme, unicode: state.capabilities.unicode), in: area)
        case .browsing, .dragging:
            break
        }
    }
}

/// Pins, clusters and the cursor over the map, seen through the camera.
struct PinsWidget: Widget {
    static let pinSymbol: Unicode.Scalar = "\u{25CF}"
    static let cursorSymbol: Unicode.Scalar = "\u{253C}"

    var pins: [Pin]
    var camera: MapCamera
    /// The pin being moved: drawn at the cursor, not where it was.
    var dragged: Pin.ID?
    var capabilities: TerminalCapabilities
    var theme: Theme
    /// The pins' layout when already made for this area (the labels keep clear of it).
    var layout: PinLayout? = nil

    func render(area: Rect, into buffer: inout CellBuffer) {
        let layout = self.layout ?? PinLayout(pins: pins, viewport: camera.viewport(width: area.width, height: area.height),
                                              excluding: dragged)
        let cursor = camera.cursorCell(width: area.width, height: area.height)
        var cursorOnMarker = false
        for marker in layout.markers {
            let underCursor = dragged == nil && marker.covers(col: cursor.col, row: cursor.row)
            cursorOnMarker = cursorOnMarker || underCursor
            let x = area.x + marker.col, y = area.y + marker.row
            if marker.isCluster {
                let style = underCursor ? theme.highlight : theme.cluster
                // A count of at most three cells, not words: clipped at the map's edge with its marker.
                buffer.put(PinLayout.countLabel(marker.pins.count), x: x, y: y, style: style, maxWidth: area.right - x)
            } else {
                var style = buffer[x, y].style
                let pinStyle = underCursor ? theme.highlight : theme.pin
                style.fg = pinStyle.fg
                style.attributes = pinStyle.attributes
                if underCursor || capabilities.colors == .none { style.bg = pinStyle.bg }
                buffer[x, y] = Cell(PinsWidget.pinSymbol, style: style)
            }
        }
        let x = area.x + cursor.col, y = area.y + cursor.row
        guard area.contains(x: x, y: y) else { return }
        if dragged != nil {
            buffer[x, y] = Cell(PinsWidget.pinSymbol, style: theme.highlight)
        } else if !cursorOnMarker {
            var style = buffer[x, y].style
            style.fg = theme.cursor.fg
            style.attributes = theme.cursor.attributes
            buffer[x, y] = Cell(PinsWidget.cursorSymbol, style: style)
        }
    }
}

/// The map's status line: where the cursor is, the zoom, the nearest place,
/// the number of pins and the map's hint keys.
struct StatusLine: Widget {
    var cursor: GeoPoint
    var zoom: Int
    var place: NearPlace?
    var pinCount: Int
    var moving: Bool
    /// The album service finds the network down: said right after where the cursor is.
    var offline = false
    var unicode: Bool
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        let row = area.y
        buffer.clear(area, style: theme.status)
        let sep = " \u{2502} "
        // Without UTF-8 the degree sign is left out, not replaced: the table's `o` would read as a letter.
        var left = " \(cursor.formatted(.hemispheres(degreeSign: unicode)))\(sep)z\(zoom)"
        if let scale = MapScale(zoom: zoom, latitude: cursor.latitude) { left += sep + scale.bar }
        if moving { left += "\(sep)MOVING PIN" }
        var placeText = ""
        if let near = place {
            placeText = near.distanceKm < 1 ? near.name : "\(near.name) (\(StatusLine.formatDistance(near.distanceKm)))"
        }
        let hints = MapKeys.browsing.hints(unicode: unicode).map { "\($0.key) \($0.label)" }.joined(separator: sep)
        let right = "\(pinCount) pin\(pinCount == 1 ? "" : "s")\(sep)\(hints) "
        // `offline` keeps its room on a narrow line: the scale gives way to it.
        let offlineWidth = offline ? sep.displayWidth + NetworkStatus.offlineWord.displayWidth : 0
        var used = buffer.put(fitting: left, x: area.x, y: row, style: theme.status, width: area.width - offlineWidth)
        if offline {
            used += buffer.put(fitting: sep, x: area.x + used, y: row, style: theme.status, width: area.width - used)
            used += buffer.put(fitting: NetworkStatus.offlineWord, x: area.x + used, y: row, style: theme.offline,
                               width: area.width - used)
        }
        let rightX = area.right - right.displayWidth
        if rightX > area.x + used + 1 { buffer.put(right, x: rightX, y: row, style: theme.statusDim) }
        if !placeText.isEmpty {
            let room = max(0, (rightX > area.x + used + 1 ? rightX : area.right) - area.x - used - sep.displayWidth - 1)
            buffer.put(sep + placeText.truncated(to: room), x: area.x + used, y: row, style: theme.status,
                       maxWidth: room + sep.displayWidth)
        }
    }

    static func formatDistance(_ km: Double) -> String {
        km < 10 ? String(format: "%.1f km", km) : "\(Int(km.rounded())) km"
    }
}
