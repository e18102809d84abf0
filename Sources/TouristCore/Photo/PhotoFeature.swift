import Model
import Terminal

/// The photo screen as a feature: one photo, its album kept underneath.
struct PhotoFeature: ScreenFeature, TakesMouse, ShowsPictures, ShowsInlinePicture, ShowsAlbum, PlaysSlideshow, ShowsLargeImages {
    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] {
        guard let screen = state.photo else { return PhotoKeys.table.helpRows(unicode: unicode) }
        return PhotoKeys.table(for: screen).helpRows(unicode: unicode)
    }

    func key(_ key: Key, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        PhotoReducer().key(key, time: context.time, &state)
    }

    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState, _ context: ReduceContext) -> [AppEffect] {
        PhotoReducer().mouse(mouse, time: time, &state)
    }

    func render(_ state: AppState, _ context: RenderContext, into buffer: inout CellBuffer) {
        guard let photo = state.photo else { return }
        PhotoView.render(photo, state: state, pictures: context.pictures, theme: context.theme, layout: context.layout,
                         into: &buffer)
    }

    /// The photo shown, then the one after and the one before: each its large picture once ready,
    /// then its thumbnail's (shown until the large one is rendered); of the photo shown, the part
    /// zoomed in on; the others whole (the slideshow's next photo is ready when it is due).
    func wantedPictures(_ state: AppState) -> [PictureKey] {
        guard let photo = state.photo else { return [] }
        let size = PhotoView.pictureSize(state.layout)
        var keys = photo.largeWindow.flatMap { PhotoView.shownKeys(photo, index: $0, size: size) }
        // Zoomed in, the whole picture stays wanted last: `0` and zooming out draw it at once.
        if let index = photo.index, photo.zoom.isZoomed { keys += PhotoView.pictureKeys(photo, index: index, size: size) }
        return keys
    }

    /// The photo shown, when its image or its large image is there.
    func inlinePicture(_ state: AppState) -> (photoID: PhotoRecord.ID, area: Rect)? {
        guard let screen = state.photo, let photo = screen.photo,
              photo.state == .stored || screen.largeSize(photo.id) != nil else { return nil }
        let area = PhotoView.pictureArea(state.layout)
        guard area.width > 0, area.height > 0 else { return nil }
        return (photo.id, area)
    }

    /// The album underneath reloads; a photo deleted elsewhere leaves the screen.
    func albumLoaded(_ snapshot: AlbumSnapshot, _ state: inout AppState) {
        AlbumScreenReducer().loaded(snapshot, &state)
        PhotoReducer().loaded(&state)
    }

    /// The album underneath keeps its selection in view, for going back to it; the zoom stays
    /// within what the new box allows.
    func resized(_ state: inout AppState) {
        AlbumScreenReducer().keepSelectionVisible(&state)
        PhotoReducer().resized(&state)
    }

    func slideshowStep(time: Double, _ state: inout AppState) { PhotoReducer().slideshowStep(time: time, &state) }

    func largeImage(_ id: PhotoRecord.ID, _ status: LargeImageStatus, _ state: inout AppState) {
        PhotoReducer().largeImage(id, status, &state)
    }

    func openAlbum(_ state: AppState) -> AlbumScreen? { state.photo?.album }

    func updateAlbum(_ state: inout AppState, _ change: (inout AlbumScreen) -> Void) {
        guard var photo = state.photo else { return }
        change(&photo.album)
        // The album's selection follows the photo shown, wherever a reload put it.
        if let index = photo.index { photo.album.selected = index }
        state.screen = .photo(photo)
    }

    /// A photo of one pin's album.
    func isSameScreen(_ screen: Screen, as other: Screen) -> Bool {
        guard let photo = screen.photo, let otherPhoto = other.photo else { return false }
        return photo.album.pinID == otherPhoto.album.pinID
    }
}
