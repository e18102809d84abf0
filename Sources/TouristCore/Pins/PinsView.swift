import Foundation
import Geo
import Model
import Terminal

/// The pins list: a title with the count and the order, the filter field, the column headings, one row a
/// pin (the selected one highlighted), the message line and the keys. Columns drop out as the width
/// shrinks (the filter first, then when dropped, the coordinates, the album's state); the name and the
/// photos always stay.
enum PinsView {
    /// Rows above the pins: the title, the filter, the headings.
    static let top = 3
    /// Rows the wheel scrolls.
    static let wheelRows = 3
    /// `g` never shows the map wider than this zoom: a pin alone in its country still shows the country.
    static let showZoomFloor = 4
    /// The name column is never narrower than this while another column could go.
    static let minimumNameWidth = 24
    static let gap = 2

    /// A column of the list; `name` takes what the others leave.
    enum Column: CaseIterable {
        case name, coordinates, state, photos, dropped, filter

        var heading: String {
            switch self {
            case .name: "NAME"
            case .coordinates: "LAT, LON"
            case .state: "ALBUM"
            case .photos: "PHOTOS"
            case .dropped: "DROPPED"
            case .filter: "FILTER"
            }
        }

        /// The width of a fixed column.
        var width: Int {
            switch self {
            case .name: 0
            case .coordinates: 19
            case .state: 11
            case .photos: 9
            case .dropped: 10
            case .filter: 18
            }
        }

        /// Which goes first when the width shrinks (lowest first); nil for those that always stay.
        var dropOrder: Int? {
            switch self {
            case .filter: 0
            case .dropped: 1
            case .coordinates: 2
            case .state: 3
            case .name, .photos: nil
            }
        }
    }

    /// The columns shown in `width` cells, each with its x and width (from 1: a margin on the left).
    static func columns(width: Int) -> [(column: Column, x: Int, width: Int)] {
        var shown = Column.allCases
        func nameWidth(_ columns: [Column]) -> Int {
            width - 2 - columns.filter { $0 != .name }.reduce(0) { $0 + $1.width + gap }
        }
        let droppable = Column.allCases.filter { $0.dropOrder != nil }.sorted { ($0.dropOrder ?? 0) < ($1.dropOrder ?? 0) }
        for column in droppable where nameWidth(shown) < minimumNameWidth {
            shown.removeAll { $0 == column }
        }
        var x = 1
        return shown.map { column in
            let w = column == .name ? max(1, nameWidth(shown)) : column.width
            defer { x += w + gap }
            return (column, x, w)
        }
    }

    /// The rows the pins are drawn in (under the headings, above the message line).
    static func body(_ layout: ScreenLayout) -> Rect {
        let main = layout.main
        return Rect(x: main.x, y: main.y + top, width: main.width, height: max(0, main.height - top - 1))
    }

    static func visibleRows(_ layout: ScreenLayout) -> Int { max(1, body(layout).height) }

    static func render(_ list: PinsList, state: AppState, theme: Theme, layout: ScreenLayout, into buffer: inout CellBuffer) {
        let main = layout.main
        let unicode = state.capabilities.unicode
        buffer.clear(main, style: theme.dialog)
        buffer.clear(layout.status, style: theme.dialog)
        // Title: how many, and the order.
        let total = state.pins.count
        let count = list.filter.isEmpty ? "\(total) pin\(total == 1 ? "" : "s")" : "\(list.count) of \(total)"
        let used = buffer.put(fitting: " Pins", x: main.x, y: main.y, style: theme.dialogTitle, width: main.width)
        let dot = unicode ? " \u{00B7} " : " - "
        buffer.put(fitting: "  \(count)\(dot)\(list.sort.label)", x: main.x + used, y: main.y, style: theme.dim,
                   width: main.width - used)
        // The filter field.
        let filterRow = main.y + 1
        let label = " \(PinsKeys.table.keyName(for: .focusFilter, unicode: unicode)) filter: "
        let labelWidth = buffer.put(fitting: label, x: main.x, y: filterRow, style: list.typing ? theme.dialogTitle : theme.dim,
                                    width: main.width)
        let field = Rect(x: main.x + labelWidth, y: filterRow, width: max(0, main.width - labelWidth - 1), height: 1)
        if list.typing {
            buffer.render(TextFieldView(field: list.filter, style: theme.selection), in: field)
        } else {
            buffer.put(fitting: list.filter.text, x: field.x, y: filterRow, style: theme.dialog, width: field.width)
        }
        // Headings and rows.
        let columns = columns(width: main.width)
        for (column, x, width) in columns {
            // Counts stand right-aligned, their heading too.
            let pad = column == .photos ? max(0, width - column.heading.displayWidth) : 0
            buffer.put(fitting: column.heading, x: main.x + x + pad, y: main.y + 2, style: theme.dim, width: width - pad)
        }
        let body = body(layout)
        if list.count == 0 {
            buffer.put(fitting: " " + emptyMessage(list, state: state), x: body.x, y: body.y, style: theme.dim, width: body.width)
        }
        let selected = list.selected
        let calendar = Calendar(identifier: .gregorian)
        for i in 0..<body.height {
            let row = list.topRow + i
            guard let pin = list.pin(atRow: row) else { break }
            let y = body.y + i
            let isSelected = row == selected
            let style = isSelected ? theme.selection : theme.dialog
            if isSelected { buffer.clear(Rect(x: body.x, y: y, width: body.width, height: 1), style: style) }
            for (column, x, width) in columns {
                let text = cell(column, pin, calendar: calendar, unicode: unicode)
                let pad = column == .photos ? max(0, width - text.displayWidth) : 0
                buffer.put(fitting: text, x: body.x + x + pad, y: y, style: column == .state && pin.albumState == .failed && !isSelected
                           ? theme.error : style, width: width - pad)
            }
        }
        if let message = state.message {
            buffer.render(MessageLine(message: message, theme: theme), in: layout.message)
        }
        if list.typing {
            let keys = "\(PinsKeys.filtering.keyName(for: .open, unicode: unicode)) opens the selected pin, "
                + "\(PinsKeys.filtering.keyName(for: .clear, unicode: unicode)) clears the filter"
            buffer.put(fitting: " " + keys, x: layout.status.x, y: layout.status.y, style: theme.dialogTitle,
                       width: layout.status.width)
        } else {
            buffer.render(KeyHints(hints: PinsKeys.table.hints(unicode: unicode), theme: theme), in: layout.status)
        }
        switch list.mode {
        case let .confirmDelete(id):
            if let pin = state.pin(id) { buffer.render(ConfirmDialog(pin: pin, theme: theme, unicode: unicode), in: main) }
        case let .rename(prompt):
            buffer.render(RenamePanel(prompt: prompt, theme: theme, unicode: unicode), in: main)
        case .browsing:
            break
        }
    }

    /// A pin's text in a column.
    static func cell(_ column: Column, _ pin: Pin, calendar: Calendar, unicode: Bool) -> String {
        switch column {
        case .name:
            // A name of its own says where the pin is too.
            guard pin.ownName != nil, let place = pin.name, place != pin.displayName else { return pin.displayName }
            return "\(pin.displayName) (\(place))"
        case .coordinates: return pin.coordinate.formatted()
        case .state: return pin.albumState.rawValue
        case .photos: return "\(pin.downloadedCount)/\(pin.photoCount)"
        case .dropped:
            let day = calendar.dateComponents(in: .current, from: pin.createdAt)
            return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
        case .filter: return pin.filter.summary
        }
    }

    /// What the list says when it shows no row.
    static func emptyMessage(_ list: PinsList, state: AppState) -> String {
        if state.pins.isEmpty {
            return "No pins yet: on the map, \(MapKeys.browsing.keyName(for: .dropPin)) drops one at the cursor."
        }
        return "No pin matches \u{201C}\(list.filter.text)\u{201D}."
    }
}
