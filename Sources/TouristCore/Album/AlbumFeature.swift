import Terminal

/// The album screen as a feature.
struct AlbumFeature: ScreenFeature, TakesMouse, ShowsPictures, Animates, ShowsAlbum {
    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { AlbumKeys.table.helpRows(unicode: unicode) }

    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        AlbumScreenReducer().key(key, &state)
    }

    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        AlbumScreenReducer().mouse(mouse, time: time, &state)
    }

    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer) {
        guard let album = state.album else { return }
        AlbumView.render(album, state: state, pictures: context.pictures, theme: context.theme, layout: context.layout,
                         into: &buffer)
    }

    /// The cells on screen, then a row of cells either side (ready before the grid scrolls).
    func wantedPictures(_ state: AppState) -> [PictureKey] {
        guard let album = state.album else { return [] }
        let grid = AlbumGrid(area: state.layout.main)
        let onScreen = grid.indices(topRow: album.topRow, count: album.photos.count)
        let margin = grid.indices(topRow: album.topRow, count: album.photos.count, margin: 1).filter { !onScreen.contains($0) }
        return album.storedPictures(Array(onScreen) + margin, size: grid.pictureSize)
    }

    /// A download placeholder in the cells on screen shimmers.
    func isAnimating(_ state: AppState) -> Bool {
        guard let album = state.album else { return false }
        let grid = AlbumGrid(area: state.layout.main)
        let photos = album.photos
        return grid.indices(topRow: album.topRow, count: photos.count).contains { photos[$0].state == .pending }
    }

    func openAlbum(_ state: AppState) -> AlbumScreen? { state.album }

    func updateAlbum(_ state: inout AppState, _ change: (inout AlbumScreen) -> Void) {
        guard var album = state.album else { return }
        change(&album)
        state.screen = .album(album)
    }

    /// The album of one pin.
    func isSameScreen(_ screen: Screen, as other: Screen) -> Bool {
        guard let album = screen.album, let otherAlbum = other.album else { return false }
        return album.pinID == otherAlbum.pinID
    }
}

extension AppState {
    /// Out of the album (to the map, or the pins list it was opened from) when its pin was deleted
    /// elsewhere (another process, a failed write).
    mutating func leaveAlbumIfPinDeleted() {
        guard let album = openAlbum, pin(album.pinID) == nil else { return }
        go(to: .leaveAlbum(album))
        message = StatusMessage("That pin was deleted elsewhere.", kind: .error)
    }
}
