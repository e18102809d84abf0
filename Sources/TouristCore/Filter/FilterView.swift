import Model
import Terminal

/// The filter editor: the album drawn as it is, and over it a panel with the four fields (the focused
/// one highlighted, the one typed into with a cursor), what the focused field takes or why the last
/// save was refused, what the album's source does with the filter, and the keys.
enum FilterView {
    static let labelWidth = 8
    static let panelWidth = 72

    static func render(_ screen: FilterFeature, state: AppState, context: RenderContext, into buffer: inout CellBuffer) {
        let theme = context.theme, layout = context.layout
        AlbumView.render(screen.album, state: state, pictures: context.pictures, theme: theme, layout: layout, into: &buffer)
        let unicode = state.capabilities.unicode
        let editor = screen.editor
        let width = min(panelWidth, layout.main.width - 2)
        let notes = notes(screen, state: state).flatMap { $0.wrapped(to: max(1, Panel.inner(Rect(x: 0, y: 0, width: width, height: 3)).width)) }
        let rows = FilterEditor.Row.allCases.count
        // Under the album's header where it fits; the message line below it stays visible.
        let room = layout.main.height - 1
        let height = min(room, 2 + rows + 1 + 1 + notes.count + 1 + 1)
        let frame = Panel.place(width: width, height: height, in: layout.main, top: max(0, min(AlbumGrid.top, room - height)))
        buffer.render(Panel(title: "Filter", theme: theme), in: frame)
        let area = Panel.inner(frame)
        var y = area.y
        for row in FilterEditor.Row.allCases where y < area.bottom {
            let focused = row == editor.focused
            let style = focused ? theme.selection : theme.dialog
            let line = Rect(x: area.x, y: y, width: area.width, height: 1)
            if focused { buffer.clear(line, style: style) }
            buffer.put(fitting: label(row), x: line.x, y: y, style: focused ? style : theme.dim, width: labelWidth)
            let value = Rect(x: line.x + labelWidth, y: y, width: max(0, line.width - labelWidth), height: 1)
            if focused, let field = editor.editing {
                buffer.render(TextFieldView(field: field, style: style), in: value)
            } else {
                buffer.put(fitting: editor.value(row), x: value.x, y: y, style: style, width: value.width)
            }
            y += 1
        }
        y += 1
        if y < area.bottom {
            if let problem = editor.problem {
                buffer.put(fitting: problem.description, x: area.x, y: y, style: theme.error, width: area.width)
            } else {
                buffer.put(fitting: about(editor.focused), x: area.x, y: y, style: theme.dim, width: area.width)
            }
            y += 1
        }
        for note in notes where y < area.bottom - 1 {
            buffer.put(fitting: note, x: area.x, y: y, style: theme.dim, width: area.width)
            y += 1
        }
        let keys = editor.editing == nil
            ? FilterKeys.table.hints(unicode: unicode).map { "\($0.key) \($0.label)" }.joined(separator: "  ")
            : "\(FilterKeys.editing.keyName(for: .done, unicode: unicode)) keeps the text, "
                + "\(FilterKeys.editing.keyName(for: .cancel, unicode: unicode)) gives it up"
        buffer.put(fitting: keys, x: area.x, y: area.bottom - 1, style: theme.dialogTitle, width: area.width)
        if let filter = editor.confirming {
            buffer.render(AlbumView.dialog(.setFilter(filter, photos: screen.album.photos.count), theme: theme,
                                           unicode: unicode), in: layout.main)
        }
    }

    static func label(_ row: FilterEditor.Row) -> String {
        switch row {
        case .text: " text"
        case .tags: " tags"
        case .taken: " taken"
        case .sort: " sort"
        }
    }

    /// What the focused field takes.
    static func about(_ row: FilterEditor.Row) -> String {
        switch row {
        case .text: "Free words, at most \(AlbumFilter.maxTextLength) characters."
        case .tags: "Tags the photos must all have, separated by commas (at most \(AlbumFilter.maxTags))."
        case .taken: "When taken: FROM..TO, each YYYY, YYYY-MM or YYYY-MM-DD; either open."
        case .sort: "\(AlbumSort.interesting), \(AlbumSort.recent) (newest taken first) or \(AlbumSort.relevant) (needs text)."
        }
    }

    /// What the album's source does with the filter as typed so far (`filterNotes`).
    static func notes(_ screen: FilterFeature, state: AppState) -> [String] {
        let source = screen.album.snapshot?.source.flatMap(PhotoSourceChoice.init(rawValue:)) ?? state.settings.effectiveSource
        return source.filterNotes(screen.editor.sketch)
    }
}
