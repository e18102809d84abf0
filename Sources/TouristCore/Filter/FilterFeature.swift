import Model
import Terminal

/// The filter editor as a feature: a panel over the album it edits, which stays underneath (its
/// reloads and store problems reach it, as under the photo view). Shown as a plugged screen.
struct FilterFeature: ScreenFeature, TakesPaste, ShowsAlbum {
    /// The album underneath, as it was when `f` was pressed and as reloads change it.
    var album: AlbumScreen
    var editor: FilterEditor

    /// The editor over this album's filter as stored.
    init(album: AlbumScreen) {
        self.album = album
        editor = FilterEditor(album.snapshot?.filter ?? .none)
    }

    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { FilterKeys.table.helpRows(unicode: unicode) }

    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        FilterReducer().key(key, self, &state, today: context.today)
    }

    func paste(_ text: String, _ state: inout AppState, _ context: ReduceContext) {
        FilterReducer().paste(text, self, &state)
    }

    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer) {
        FilterView.render(self, state: state, context: context, into: &buffer)
    }

    func openAlbum(_ state: AppState) -> AlbumScreen? { album }

    func updateAlbum(_ state: inout AppState, _ change: (inout AlbumScreen) -> Void) {
        var next = self
        change(&next.album)
        state.screen = .plugged(PluggedScreen(next))
    }

    /// The album's own screen for the same pin: a message about the album stays when the editor opens.
    func isSameScreen(_ screen: Screen, as other: Screen) -> Bool {
        guard case let .plugged(plugged) = screen, let editor = plugged.feature as? FilterFeature else { return false }
        if let album = other.album { return album.pinID == editor.album.pinID }
        if case let .plugged(otherPlugged) = other, let otherEditor = otherPlugged.feature as? FilterFeature {
            return otherEditor.album.pinID == editor.album.pinID
        }
        return false
    }
}

extension AppState {
    /// `f` on the album: the filter editor over it.
    mutating func editFilter(_ album: AlbumScreen) {
        go(to: .plugged(PluggedScreen(FilterFeature(album: album))))
    }
}
