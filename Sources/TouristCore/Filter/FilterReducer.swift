import AlbumMachine
import Model
import Terminal

/// The filter editor over an album: move between the fields, type into one, cycle the sort, save
/// (checked, asked first as New Collection is, then sent to the album) or leave.
struct FilterReducer: Sendable {
    func key(_ key: Key, _ screen: FilterFeature, _ state: inout AppState, today: CalendarDay) -> [AppEffect] {
        var screen = screen
        if let filter = screen.editor.confirming { return confirm(key, filter, &screen, &state) }
        if let field = screen.editor.editing {
            edit(key, field, &screen, &state)
            return []
        }
        guard let command = FilterKeys.table.command(for: key) else { return [] }
        switch command {
        case let .move(step):
            let rows = FilterEditor.Row.allCases
            screen.editor.focused = rows[max(0, min(rows.count - 1, screen.editor.focused.rawValue + step))]
        case .edit:
            if screen.editor.focused == .sort {
                screen.editor.sort = screen.editor.sort.next
                screen.editor.problem = nil
            } else {
                screen.editor.editing = TextField(screen.editor.value(screen.editor.focused),
                                                  maxLength: FilterEditor.maxFieldLength)
            }
        case .cycleSort:
            screen.editor.sort = screen.editor.sort.next
            screen.editor.problem = nil
        case .save:
            return save(&screen, &state, today: today)
        case .leave:
            state.go(to: .backToAlbum(screen.album))
            return []
        case .help:
            state.overlay = .help
        }
        state.screen = .plugged(PluggedScreen(screen))
        return []
    }

    /// Pasted text: one edit at the cursor of the field being typed into; nothing otherwise.
    func paste(_ text: String, _ screen: FilterFeature, _ state: inout AppState) {
        guard var field = screen.editor.editing, screen.editor.confirming == nil else { return }
        var screen = screen
        if field.insert(text) == .cut { state.message = StatusMessage(field.cutMessage, kind: .error) }
        screen.editor.editing = field
        state.screen = .plugged(PluggedScreen(screen))
    }

    /// A key while a field is typed: Enter keeps the text, Esc gives it up, the rest edits.
    private func edit(_ key: Key, _ field: TextField, _ screen: inout FilterFeature, _ state: inout AppState) {
        var field = field
        switch FilterKeys.editing.command(for: key) {
        case .done:
            // A changed field may answer the last refusal: its line goes until the next save.
            if field.text != screen.editor.value(screen.editor.focused) { screen.editor.problem = nil }
            screen.editor.set(screen.editor.focused, field.text)
            screen.editor.editing = nil
        case .cancel:
            screen.editor.editing = nil
        case let .edit(edit):
            _ = field.apply(edit)
            screen.editor.editing = field
        case nil:
            guard case .char = key else { return }
            if field.handle(key) == .cut { state.message = StatusMessage(field.cutMessage, kind: .error) }
            screen.editor.editing = field
        }
        state.screen = .plugged(PluggedScreen(screen))
    }

    /// `s`: the filter checked; a refusal stays in the editor naming the field; the same filter as
    /// stored closes it; another one replaces the photos, asked first when there are photos to lose.
    private func save(_ screen: inout FilterFeature, _ state: inout AppState, today: CalendarDay) -> [AppEffect] {
        screen.editor.problem = nil
        switch screen.editor.filter(today: today) {
        case let .failure(problem):
            // The focus goes to the field refused, ready for Enter.
            screen.editor.problem = problem
            screen.editor.focused = FilterEditor.Row(problem.field)
            state.screen = .plugged(PluggedScreen(screen))
            return []
        case let .success(filter):
            let album = screen.album
            guard let snapshot = album.snapshot else { return [] }  // never: `f` waits for the album
            guard filter != snapshot.filter else {
                state.go(to: .backToAlbum(album))
                state.message = StatusMessage(filter.isEmpty ? "No filter: the album is unchanged."
                                              : "The album already shows \u{201C}\(filter.summary)\u{201D}.")
                return []
            }
            if let refusal = snapshot.filterRefusal {
                state.message = StatusMessage(refusal)
                state.screen = .plugged(PluggedScreen(screen))
                return []
            }
            if state.settings.confirmDelete, !album.photos.isEmpty {
                screen.editor.confirming = filter
                state.screen = .plugged(PluggedScreen(screen))
                return []
            }
            return FilterReducer.apply(filter, to: album, &state)
        }
    }

    /// The question before the photos are replaced: yes sends the filter, no goes back to the fields.
    private func confirm(_ key: Key, _ filter: AlbumFilter, _ screen: inout FilterFeature, _ state: inout AppState) -> [AppEffect] {
        guard let answer = ConfirmKeys.table.command(for: key) else { return [] }
        screen.editor.confirming = nil
        if answer == .delete { return FilterReducer.apply(filter, to: screen.album, &state) }
        state.screen = .plugged(PluggedScreen(screen))
        return []
    }

    /// Back to the album, which fetches a new collection with `filter` (the album machine decides).
    /// Said saved once the store has started the new collection with it (`filterSaved`).
    static func apply(_ filter: AlbumFilter, to album: AlbumScreen, _ state: inout AppState) -> [AppEffect] {
        var album = album
        album.pendingFilter = filter
        state.go(to: .backToAlbum(album))
        state.message = StatusMessage(Acknowledgment.filterSaved(filter).onItsWay)
        return [.album(album.pinID, .setFilter(filter))]
    }
}
